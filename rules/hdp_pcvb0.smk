# Study hdp_pcvb0: Sato, Kurihara & Nakagawa, "Practical collapsed variational Bayes inference
# for hierarchical Dirichlet process", KDD 2012 (seed 001). Steps: latentlab.studies.hdp_pcvb0
# (`python -m latentlab hdp_pcvb0 --help`); settings and their defaults: its study.py.

HDP_STUDY = _study_shape("hdp_pcvb0")
HDP_CFG = config["hdp_pcvb0"]
HDP_OUT = f"{OUT}/hdp_pcvb0"
HDP_LOGS = f"{LOGS}/hdp_pcvb0"
HDP_BENCH = f"{BENCH}/hdp_pcvb0"
HDP_DATASETS = HDP_STUDY.settings("prepare", HDP_CFG).datasets
HDP_CONFIGS = HDP_STUDY.settings("perplexity", HDP_CFG).configs
HDP_PPL = HDP_STUDY.settings("perplexity", HDP_CFG).perplexity.datasets
HDP_KNN = HDP_STUDY.settings("knn", HDP_CFG).knn.datasets
HDP_LINKS = HDP_STUDY.settings("links", HDP_CFG).links.datasets
HDP_INIT = HDP_STUDY.settings("init", HDP_CFG).init_sensitivity.dataset
HDP_GIBBS = HDP_STUDY.settings("gibbs", HDP_CFG).gibbs.dataset
HDP_BENCH_DS = HDP_STUDY.settings("bench", HDP_CFG).bench.dataset
HDP_RES = HDP_STUDY.settings("rules", HDP_CFG).resources
HDP_BATCH = HDP_STUDY.settings("rules", HDP_CFG).batch_configs
# the corpora Fig 3 draws (hdp_pcvb0.fig3.datasets; null: every perplexity corpus)
HDP_F3 = HDP_STUDY.settings("fig3", HDP_CFG).fig3.datasets
HDP_F3_PPL = HDP_PPL if HDP_F3 is None else list(HDP_F3)
if set(HDP_F3_PPL) - set(HDP_PPL):
    from latentlab.errors import ConfigError as _HdpConfigError

    raise _HdpConfigError(
        "hdp_pcvb0.fig3.datasets",
        f"{HDP_F3_PPL} names a corpus not in hdp_pcvb0.perplexity.datasets ({HDP_PPL})",
    )
HDP_FIGS = [f"{HDP_OUT}/fig{i}.png" for i in (1, 2, 3, 4, 5)]
STUDY_FIGURES["hdp_pcvb0"] = HDP_FIGS


def _hdp_res(step, key):
    return getattr(getattr(HDP_RES, step), key)


def _hdp_data(name):
    return f"{HDP_OUT}/data/{name}.npz"


def _hdp_source(wildcards):
    spec = HDP_DATASETS[wildcards.dataset]
    return {} if spec.source == "synthetic" else {"source": data_path(spec.source)}


def _hdp_runs(kind, datasets, configs=None):
    return expand(
        f"{HDP_OUT}/runs/{kind}/{{dataset}}/{{config}}.json",
        dataset=datasets,
        config=HDP_CONFIGS if configs is None else configs,
    )


def _hdp_io(w, input, output):
    return io_args(input, output, w)


# Which run results each figure draws (registry: latentlab.studies.hdp_pcvb0.figures).
HDP_FIG_INPUTS = {
    "fig1": {
        "runs": _hdp_runs("perplexity", HDP_PPL[:1]),
        "bench": f"{HDP_OUT}/bench.csv",
    },
    "fig2": {
        "runs": _hdp_runs(
            "perplexity",
            HDP_PPL,
            [c for c in ("cvb_AA", "pcvb0_AA") if c in HDP_CONFIGS],
        )
    },
    "fig3": {"runs": _hdp_runs("perplexity", HDP_F3_PPL)},
    "fig4": {"runs": _hdp_runs("knn", HDP_KNN)},
    "fig5": {"runs": _hdp_runs("links", HDP_LINKS)},
}


wildcard_constraints:
    dataset=r"[A-Za-z0-9]+(_[A-Za-z0-9]+)*",
    config="|".join(HDP_CONFIGS) if HDP_CONFIGS else "none",
    hdp_run="perplexity|knn|links",
    hdp_fig="fig[1-5]",


HDP_TARGETS = [
    *HDP_FIGS,
    *[f.replace(".png", ".csv") for f in HDP_FIGS],
    f"{HDP_OUT}/bench.csv",
    f"{HDP_OUT}/claims.csv",
]


rule hdp_pcvb0:
    input:
        HDP_TARGETS,
        f"{HDP_OUT}/bench_targets.csv",


# The time each target took (its benchmark file), once every other target is built.
rule hdp_pcvb0_bench_targets:
    input:
        HDP_TARGETS,
    output:
        csv=f"{HDP_OUT}/bench_targets.csv",
    log:
        f"{HDP_LOGS}/bench_targets.log",
    benchmark:
        f"{HDP_BENCH}/bench_targets.tsv"
    threads: 1
    resources:
        mem_mb=500,
        runtime=2,
    params:
        bench=HDP_BENCH,
    run:
        from latentlab.bench_targets import write

        write(params.bench, output.csv, study="hdp_pcvb0", run=RUN)


rule hdp_pcvb0_prepare:
    input:
        unpack(_hdp_source),
    output:
        data=f"{HDP_OUT}/data/{{dataset}}.npz",
    log:
        f"{HDP_LOGS}/prepare_{{dataset}}.log",
    benchmark:
        f"{HDP_BENCH}/prepare_{{dataset}}.tsv"
    threads: 1
    resources:
        mem_mb=_hdp_res("prepare", "mem_mb"),
        runtime=_hdp_res("prepare", "runtime"),
    params:
        json=step_params("hdp_pcvb0", "prepare"),
        io=_hdp_io,
    shell:
        "python -m latentlab hdp_pcvb0 prepare --params {params.json:q} {params.io} > {log} 2>&1"


# One rule for the three kinds of fit (perplexity, knn, links): one configuration, every T
# and run; with batch_configs (the smoke run), one job per dataset runs every configuration.
if HDP_BATCH:

    rule hdp_pcvb0_fit_batch:
        input:
            data=f"{HDP_OUT}/data/{{dataset}}.npz",
        output:
            **{
                c: f"{HDP_OUT}/runs/{{hdp_run}}/{{dataset}}/{c}.json"
                for c in HDP_CONFIGS
            },
        log:
            f"{HDP_LOGS}/{{hdp_run}}_{{dataset}}.log",
        benchmark:
            f"{HDP_BENCH}/{{hdp_run}}_{{dataset}}.tsv"
        threads: 1
        resources:
            mem_mb=lambda w: _hdp_res(w.hdp_run, "mem_mb"),
            runtime=lambda w: len(HDP_CONFIGS) * _hdp_res(w.hdp_run, "runtime"),
        params:
            json=lambda w: step_params("hdp_pcvb0", w.hdp_run),
            io=_hdp_io,
        shell:
            "python -m latentlab hdp_pcvb0 {wildcards.hdp_run} --params {params.json:q} "
            "{params.io} > {log} 2>&1"

else:

    rule hdp_pcvb0_fit:
        input:
            data=f"{HDP_OUT}/data/{{dataset}}.npz",
        output:
            json=f"{HDP_OUT}/runs/{{hdp_run}}/{{dataset}}/{{config}}.json",
        log:
            f"{HDP_LOGS}/{{hdp_run}}_{{dataset}}_{{config}}.log",
        benchmark:
            f"{HDP_BENCH}/{{hdp_run}}_{{dataset}}_{{config}}.tsv"
        threads: 1
        resources:
            mem_mb=lambda w: _hdp_res(w.hdp_run, "mem_mb"),
            runtime=lambda w: _hdp_res(w.hdp_run, "runtime"),
        params:
            json=lambda w: step_params("hdp_pcvb0", w.hdp_run),
            io=_hdp_io,
        shell:
            "python -m latentlab hdp_pcvb0 {wildcards.hdp_run} --params {params.json:q} "
            "{params.io} > {log} 2>&1"


rule hdp_pcvb0_init:
    input:
        data=_hdp_data(HDP_INIT),
    output:
        json=f"{HDP_OUT}/runs/init_sensitivity.json",
    log:
        f"{HDP_LOGS}/init_sensitivity.log",
    benchmark:
        f"{HDP_BENCH}/init_sensitivity.tsv"
    threads: 1
    resources:
        mem_mb=_hdp_res("perplexity", "mem_mb"),
        runtime=_hdp_res("perplexity", "runtime"),
    params:
        json=step_params("hdp_pcvb0", "init"),
        io=_hdp_io,
    shell:
        "python -m latentlab hdp_pcvb0 init --params {params.json:q} {params.io} > {log} 2>&1"


rule hdp_pcvb0_gibbs:
    input:
        data=_hdp_data(HDP_GIBBS),
    output:
        json=f"{HDP_OUT}/runs/gibbs.json",
    log:
        f"{HDP_LOGS}/gibbs.log",
    benchmark:
        f"{HDP_BENCH}/gibbs.tsv"
    threads: 1
    resources:
        mem_mb=_hdp_res("perplexity", "mem_mb"),
        runtime=_hdp_res("perplexity", "runtime"),
    params:
        json=step_params("hdp_pcvb0", "gibbs"),
        io=_hdp_io,
    shell:
        "python -m latentlab hdp_pcvb0 gibbs --params {params.json:q} {params.io} > {log} 2>&1"


rule hdp_pcvb0_bench:
    input:
        data=_hdp_data(HDP_BENCH_DS),
    output:
        csv=f"{HDP_OUT}/bench.csv",
    log:
        f"{HDP_LOGS}/bench.log",
    benchmark:
        f"{HDP_BENCH}/bench.tsv"
    threads: 1
    resources:
        mem_mb=_hdp_res("bench", "mem_mb"),
        runtime=_hdp_res("bench", "runtime"),
    params:
        json=step_params("hdp_pcvb0", "bench", threads=1),
        io=_hdp_io,
    shell:
        "python -m latentlab hdp_pcvb0 bench --params {params.json:q} {params.io} > {log} 2>&1"


# One rule for every figure: the figure id is the step (figures.py registry).
rule hdp_pcvb0_figure:
    input:
        unpack(lambda w: HDP_FIG_INPUTS[w.hdp_fig]),
    output:
        png=report(
            f"{HDP_OUT}/{{hdp_fig}}.png",
            caption="../report/hdp_pcvb0/figure.rst",
            category="hdp_pcvb0",
        ),
        csv=f"{HDP_OUT}/{{hdp_fig}}.csv",
    log:
        f"{HDP_LOGS}/{{hdp_fig}}.log",
    benchmark:
        f"{HDP_BENCH}/{{hdp_fig}}.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: step_params("hdp_pcvb0", w.hdp_fig),
        io=_hdp_io,
    shell:
        "python -m latentlab hdp_pcvb0 {wildcards.hdp_fig} --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule hdp_pcvb0_claims:
    input:
        readings=readings_inputs("hdp_pcvb0"),
        ladder=ladder_inputs("hdp_pcvb0"),
        perplexity=_hdp_runs("perplexity", HDP_PPL),
        knn=_hdp_runs("knn", HDP_KNN),
        links=_hdp_runs("links", HDP_LINKS),
        init=f"{HDP_OUT}/runs/init_sensitivity.json",
        gibbs=f"{HDP_OUT}/runs/gibbs.json",
        bench=f"{HDP_OUT}/bench.csv",
    output:
        csv=f"{HDP_OUT}/claims.csv",
    log:
        f"{HDP_LOGS}/claims.log",
    benchmark:
        f"{HDP_BENCH}/claims.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=step_params("hdp_pcvb0", "claims"),
        io=_hdp_io,
    shell:
        "python -m latentlab hdp_pcvb0 claims --params {params.json:q} {params.io} > {log} 2>&1"


# Evidence the causes and published/real/REVERSALS.md case 1 cite (studies/hdp_pcvb0/
# evidence.py; issue 37): results/{run}/hdp_pcvb0/evidence/<name>.csv + .meta.json, published
# under published/real/hdp_pcvb0/evidence/ (latentlab rebuild regenerates and compares them).
# Built on demand, not by the study's target:
#   snakemake --cores 2 --configfile=config/real.yaml hdp_pcvb0_evidence
HDP_EV = HDP_STUDY.settings("evidence_keff_ladder", HDP_CFG).evidence
HDP_EVIDENCE = [
    f"{HDP_OUT}/evidence/{e}.csv" for e in ("runs", "keff_ladder", "traces")
]


def _hdp_evidence_data(names, key):
    """The prepared corpora of the evidence fits (their names: hdp_pcvb0.datasets), checked
    when a job needs them (a config without these corpora still parses)."""
    bad = [n for n in names if n not in HDP_DATASETS]
    if bad:
        from latentlab.errors import ConfigError as _HdpConfigError

        raise _HdpConfigError(
            f"hdp_pcvb0.evidence.{key}", f"{bad[0]!r} is not in hdp_pcvb0.datasets"
        )
    return [_hdp_data(n) for n in names]


rule hdp_pcvb0_evidence:
    input:
        HDP_EVIDENCE,


# every perplexity fit of the run beside the unigram perplexity of its split (no fit)
rule hdp_pcvb0_evidence_runs:
    input:
        runs=_hdp_runs("perplexity", HDP_PPL),
        data=[_hdp_data(d) for d in HDP_PPL],
    output:
        csv=f"{HDP_OUT}/evidence/runs.csv",
    log:
        f"{HDP_LOGS}/evidence_runs.log",
    benchmark:
        f"{HDP_BENCH}/evidence_runs.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=step_params("hdp_pcvb0", "evidence_runs"),
        io=_hdp_io,
    shell:
        "python -m latentlab hdp_pcvb0 evidence_runs --params {params.json:q} {params.io} "
        "> {log} 2>&1"


# claim C13's causes: effective topics against T
rule hdp_pcvb0_evidence_keff_ladder:
    input:
        data=lambda w: _hdp_evidence_data(list(HDP_EV.keff_ladder.T), "keff_ladder.T"),
    output:
        csv=f"{HDP_OUT}/evidence/keff_ladder.csv",
    log:
        f"{HDP_LOGS}/evidence_keff_ladder.log",
    benchmark:
        f"{HDP_BENCH}/evidence_keff_ladder.tsv"
    threads: 1
    resources:
        mem_mb=_hdp_res("perplexity", "mem_mb"),
        runtime=_hdp_res("perplexity", "runtime"),
    params:
        json=step_params("hdp_pcvb0", "evidence_keff_ladder"),
        io=_hdp_io,
    shell:
        "python -m latentlab hdp_pcvb0 evidence_keff_ladder --params {params.json:q} "
        "{params.io} > {log} 2>&1"


# REVERSALS.md case 1: per-iteration traces at one T
rule hdp_pcvb0_evidence_traces:
    input:
        data=lambda w: _hdp_evidence_data([HDP_EV.traces.dataset], "traces.dataset"),
    output:
        csv=f"{HDP_OUT}/evidence/traces.csv",
    log:
        f"{HDP_LOGS}/evidence_traces.log",
    benchmark:
        f"{HDP_BENCH}/evidence_traces.tsv"
    threads: 1
    resources:
        mem_mb=_hdp_res("perplexity", "mem_mb"),
        runtime=_hdp_res("perplexity", "runtime"),
    params:
        json=step_params("hdp_pcvb0", "evidence_traces"),
        io=_hdp_io,
    shell:
        "python -m latentlab hdp_pcvb0 evidence_traces --params {params.json:q} {params.io} "
        "> {log} 2>&1"
