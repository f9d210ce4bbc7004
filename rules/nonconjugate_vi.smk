# Study nonconjugate_vi: Wang & Blei (JMLR 2013), Laplace and delta-method variational
# inference (seed 002; Secs 4-5). Steps: latentlab.studies.nonconjugate_vi
# (`python -m latentlab nonconjugate_vi --help`); settings and their defaults: its study.py.

NCV_STUDY = _study_shape("nonconjugate_vi")
NCV_CFG = config["nonconjugate_vi"]
NCV_OUT = f"{OUT}/nonconjugate_vi"
NCV_RAW = f"{NCV_OUT}/raw"
NCV_LOG = f"{LOGS}/nonconjugate_vi"
NCV_BENCH = f"{BENCH}/nonconjugate_vi"
NCV_CTM = NCV_STUDY.settings("sweep", NCV_CFG).ctm
NCV_T2 = NCV_STUDY.settings("table2_splits", NCV_CFG)
NCV_F2 = NCV_STUDY.settings("fig2_traces", NCV_CFG).fig2
NCV_F6 = NCV_STUDY.settings("fig6_history", NCV_CFG).fig6
NCV_BENCH_S = NCV_STUDY.settings("bench", NCV_CFG).bench
NCV_F5C = NCV_STUDY.settings("evidence_fig5_converged", NCV_CFG)
NCV_RES = NCV_STUDY.settings("rules", NCV_CFG).resources
NCV_CORPORA = [c.name for c in NCV_CTM.corpora]
# the corpora Figs 5a/5b draw (nonconjugate_vi.fig5.corpora; null: every one)
NCV_F5 = NCV_STUDY.settings("fig5a", NCV_CFG).fig5.corpora
NCV_F5_CORPORA = NCV_CORPORA if NCV_F5 is None else list(NCV_F5)
if set(NCV_F5_CORPORA) - set(NCV_CORPORA):
    from latentlab.errors import ConfigError as _NcvConfigError

    raise _NcvConfigError(
        "nonconjugate_vi.fig5.corpora",
        f"{NCV_F5_CORPORA} names a corpus not in nonconjugate_vi.ctm.corpora ({NCV_CORPORA})",
    )
NCV_FIG_IDS = ["fig2", "fig5a", "fig5b", "fig6a", "fig6b"]
NCV_FIGS = [f"{NCV_OUT}/{f}.png" for f in NCV_FIG_IDS]
STUDY_FIGURES["nonconjugate_vi"] = NCV_FIGS


def ncv_real(*specs):
    """Named canonical inputs (rules/data.smk) of the real specs; none for synthetic."""
    return {s.name: data_path(s.dataset) for s in specs if s.kind == "real"}


def ncv_school():
    s = NCV_T2.school
    return {"school": data_path(s.dataset)} if s.kind == "real" else {}


def ncv_runtime(key):
    return getattr(NCV_RES, key)


def ncv_sweep_res():
    """(mem_mb, runtime) of a CTM sweep job: the run's cost table (config `costs`), else
    3000 MB and nonconjugate_vi.resources.sweep minutes."""
    from types import SimpleNamespace

    return cost_resources(
        "nonconjugate_vi",
        "sweep",
        SimpleNamespace(mem_mb=3000, runtime=ncv_runtime("sweep")),
    )


def ncv_io(w, input, output):
    return io_args(input, output, w)


# Which raw results each figure draws (registry: latentlab.studies.nonconjugate_vi.figures).
NCV_FIG_INPUTS = {
    "fig2": {"traces": f"{NCV_RAW}/fig2_traces.csv"},
    "fig5a": {"sweeps": expand(f"{NCV_OUT}/ctm_sweep_{{c}}.csv", c=NCV_F5_CORPORA)},
    "fig5b": {"sweeps": expand(f"{NCV_OUT}/ctm_sweep_{{c}}.csv", c=NCV_F5_CORPORA)},
    "fig6a": {"history": f"{NCV_RAW}/fig6_history.csv"},
    "fig6b": {"history": f"{NCV_RAW}/fig6_history.csv"},
}
NCV_TABLE_INPUTS = {
    "table1": {"problems": f"{NCV_OUT}/table1_problems.csv"},
    "table2": {"splits": f"{NCV_OUT}/table2_splits.csv"},
    "table2_tests": {"splits": f"{NCV_OUT}/table2_splits.csv"},
}


wildcard_constraints:
    ncv_fig="|".join(NCV_FIG_IDS),
    ncv_table="table1|table2|table2_tests",


NCV_TARGETS = [
    *NCV_FIGS,
    *[f"{NCV_OUT}/{f}.csv" for f in NCV_FIG_IDS],
    f"{NCV_OUT}/table1.csv",
    f"{NCV_OUT}/table1.md",
    f"{NCV_OUT}/table2.csv",
    f"{NCV_OUT}/table2.md",
    f"{NCV_OUT}/bench.csv",
    f"{NCV_OUT}/claims.csv",
]


# Evidence the causes and published/real/REVERSALS.md case 5 cite (studies/nonconjugate_vi/
# evidence.py): the EM iteration budget from the timed sweeps of the 40 s budget (published
# measurements, the input), and Fig 5 fits run to the EM tolerance.
NCV_TIMED = [
    f"published/real/causes/ncvi_timed_ctm_sweep_{c}.csv" for c in ("ap", "newsgroups")
]
NCV_EVIDENCE = [
    f"{NCV_OUT}/evidence/em_iter_budget.csv",
    f"{NCV_OUT}/evidence/fig5_converged.csv",
    f"{NCV_OUT}/evidence/fig5_converged_traces.csv",
]


rule nonconjugate_vi:
    input:
        NCV_TARGETS,
        NCV_EVIDENCE,
        f"{NCV_OUT}/bench_targets.csv",


rule nonconjugate_vi_evidence:
    input:
        NCV_EVIDENCE,


rule nonconjugate_vi_evidence_em_iter_budget:
    input:
        timed=NCV_TIMED,
    output:
        csv=f"{NCV_OUT}/evidence/em_iter_budget.csv",
    log:
        f"{NCV_LOG}/evidence_em_iter_budget.log",
    benchmark:
        f"{NCV_BENCH}/evidence_em_iter_budget.tsv"
    threads: 1
    resources:
        mem_mb=500,
        runtime=2,
    params:
        json=step_params("nonconjugate_vi", "evidence_em_iter_budget"),
        io=ncv_io,
    shell:
        "python -m latentlab nonconjugate_vi evidence_em_iter_budget --params {params.json:q} "
        "{params.io} > {log} 2>&1"


rule nonconjugate_vi_evidence_fig5_converged:
    input:
        unpack(lambda w: ncv_real(NCV_CTM.corpus(NCV_F5C.corpus))),
        sweep=f"{NCV_OUT}/ctm_sweep_{NCV_F5C.corpus}.csv",
    output:
        csv=f"{NCV_OUT}/evidence/fig5_converged.csv",
        traces=f"{NCV_OUT}/evidence/fig5_converged_traces.csv",
    log:
        f"{NCV_LOG}/evidence_fig5_converged.log",
    benchmark:
        f"{NCV_BENCH}/evidence_fig5_converged.tsv"
    threads: THREADS
    resources:
        mem_mb=2000,
        runtime=ncv_runtime("evidence"),
    params:
        json=step_params("nonconjugate_vi", "evidence_fig5_converged"),
        io=ncv_io,
    shell:
        "python -m latentlab nonconjugate_vi evidence_fig5_converged --params {params.json:q} "
        "{params.io} > {log} 2>&1"


# The time each target took (its benchmark file), once every other target is built.
rule nonconjugate_vi_bench_targets:
    input:
        NCV_TARGETS,
    output:
        csv=f"{NCV_OUT}/bench_targets.csv",
    log:
        f"{NCV_LOG}/bench_targets.log",
    benchmark:
        f"{NCV_BENCH}/bench_targets.tsv"
    threads: 1
    resources:
        mem_mb=500,
        runtime=2,
    params:
        bench=NCV_BENCH,
    run:
        from latentlab.bench_targets import write

        write(params.bench, output.csv, study="nonconjugate_vi", run=RUN)


rule nonconjugate_vi_sweep:
    input:
        unpack(lambda w: ncv_real(NCV_CTM.corpus(w.corpus))),
    output:
        csv=f"{NCV_OUT}/ctm_sweep_{{corpus}}.csv",
    log:
        f"{NCV_LOG}/sweep_{{corpus}}.log",
    benchmark:
        f"{NCV_BENCH}/sweep_{{corpus}}.tsv"
    threads: THREADS
    resources:
        mem_mb=ncv_sweep_res()[0],
        runtime=ncv_sweep_res()[1],
    params:
        json=step_params("nonconjugate_vi", "sweep"),
        io=ncv_io,
    shell:
        "python -m latentlab nonconjugate_vi sweep --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule nonconjugate_vi_fig2_traces:
    input:
        unpack(lambda w: ncv_real(NCV_CTM.corpus(NCV_F2.corpus))),
    output:
        traces=f"{NCV_RAW}/fig2_traces.csv",
        monotone=f"{NCV_OUT}/fig2_monotone.csv",
    log:
        f"{NCV_LOG}/fig2_traces.log",
    benchmark:
        f"{NCV_BENCH}/fig2_traces.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=ncv_runtime("fig2"),
    params:
        json=step_params("nonconjugate_vi", "fig2_traces"),
        io=ncv_io,
    shell:
        "python -m latentlab nonconjugate_vi fig2_traces --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule nonconjugate_vi_fig6_history:
    input:
        unpack(lambda w: ncv_real(NCV_CTM.corpus(NCV_F6.corpus))),
    output:
        history=f"{NCV_RAW}/fig6_history.csv",
    log:
        f"{NCV_LOG}/fig6_history.log",
    benchmark:
        f"{NCV_BENCH}/fig6_history.tsv"
    threads: THREADS
    resources:
        mem_mb=2000,
        runtime=ncv_runtime("fig6"),
    params:
        json=step_params("nonconjugate_vi", "fig6_history"),
        io=ncv_io,
    shell:
        "python -m latentlab nonconjugate_vi fig6_history --params {params.json:q} "
        "{params.io} > {log} 2>&1"


rule nonconjugate_vi_table1_problems:
    input:
        unpack(lambda w: ncv_real(*NCV_T2.blr.table1)),
    output:
        problems=f"{NCV_OUT}/table1_problems.csv",
    log:
        f"{NCV_LOG}/table1_problems.log",
    benchmark:
        f"{NCV_BENCH}/table1_problems.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=ncv_runtime("table1"),
    params:
        json=step_params("nonconjugate_vi", "table1_problems"),
        io=ncv_io,
    shell:
        "python -m latentlab nonconjugate_vi table1_problems --params {params.json:q} "
        "{params.io} > {log} 2>&1"


rule nonconjugate_vi_table2_splits:
    input:
        unpack(lambda w: ncv_school()),
    output:
        splits=f"{NCV_OUT}/table2_splits.csv",
    log:
        f"{NCV_LOG}/table2_splits.log",
    benchmark:
        f"{NCV_BENCH}/table2_splits.tsv"
    threads: THREADS
    resources:
        mem_mb=3000,
        runtime=ncv_runtime("table2"),
    params:
        json=step_params("nonconjugate_vi", "table2_splits"),
        io=ncv_io,
    shell:
        "python -m latentlab nonconjugate_vi table2_splits --params {params.json:q} "
        "{params.io} > {log} 2>&1"


rule nonconjugate_vi_bench:
    input:
        unpack(
            lambda w: {
                **ncv_real(NCV_CTM.corpus(NCV_BENCH_S.corpus), *NCV_T2.blr.table1),
                **ncv_school(),
            }
        ),
    output:
        csv=f"{NCV_OUT}/bench.csv",
    log:
        f"{NCV_LOG}/bench.log",
    benchmark:
        f"{NCV_BENCH}/bench.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=ncv_runtime("bench"),
    params:
        json=step_params("nonconjugate_vi", "bench", threads=1),
        io=ncv_io,
    shell:
        "python -m latentlab nonconjugate_vi bench --params {params.json:q} {params.io} "
        "> {log} 2>&1"


# One rule for every figure: the figure id is the step (figures.py registry).
rule nonconjugate_vi_figure:
    input:
        unpack(lambda w: NCV_FIG_INPUTS[w.ncv_fig]),
    output:
        png=report(
            f"{NCV_OUT}/{{ncv_fig}}.png",
            caption="../report/nonconjugate_vi/fig.rst",
            category="nonconjugate_vi",
        ),
        csv=f"{NCV_OUT}/{{ncv_fig}}.csv",
    log:
        f"{NCV_LOG}/{{ncv_fig}}.log",
    benchmark:
        f"{NCV_BENCH}/{{ncv_fig}}.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: step_params("nonconjugate_vi", w.ncv_fig),
        io=ncv_io,
    shell:
        "python -m latentlab nonconjugate_vi {wildcards.ncv_fig} --params {params.json:q} "
        "{params.io} > {log} 2>&1"


# One rule for every table (tables.py registry).
rule nonconjugate_vi_table:
    input:
        unpack(lambda w: NCV_TABLE_INPUTS[w.ncv_table]),
    output:
        csv=f"{NCV_OUT}/{{ncv_table}}.csv",
        md=f"{NCV_OUT}/{{ncv_table}}.md",
    log:
        f"{NCV_LOG}/{{ncv_table}}.log",
    benchmark:
        f"{NCV_BENCH}/{{ncv_table}}.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: step_params("nonconjugate_vi", w.ncv_table),
        io=ncv_io,
    shell:
        "python -m latentlab nonconjugate_vi {wildcards.ncv_table} --params {params.json:q} "
        "{params.io} > {log} 2>&1"


rule nonconjugate_vi_claims:
    input:
        readings=readings_inputs("nonconjugate_vi"),
        ladder=ladder_inputs("nonconjugate_vi"),
        sweeps=expand(f"{NCV_OUT}/ctm_sweep_{{c}}.csv", c=NCV_CORPORA),
        fig2_monotone=f"{NCV_OUT}/fig2_monotone.csv",
        fig6a=f"{NCV_OUT}/fig6a.csv",
        fig6b=f"{NCV_OUT}/fig6b.csv",
        bench=f"{NCV_OUT}/bench.csv",
        table1=f"{NCV_OUT}/table1.csv",
        table1_problems=f"{NCV_OUT}/table1_problems.csv",
        table2=f"{NCV_OUT}/table2.csv",
        table2_splits=f"{NCV_OUT}/table2_splits.csv",
        table2_tests=f"{NCV_OUT}/table2_tests.csv",
    output:
        csv=f"{NCV_OUT}/claims.csv",
    log:
        f"{NCV_LOG}/claims.log",
    benchmark:
        f"{NCV_BENCH}/claims.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=step_params("nonconjugate_vi", "claims"),
        io=ncv_io,
    shell:
        "python -m latentlab nonconjugate_vi claims --params {params.json:q} {params.io} "
        "> {log} 2>&1"
