# Study tir: topical influence regression (Foulds 2014, ch. 3; Secs 3.3-3.5).
# Thin rules: every step is `python -m latentlab tir <step>` (src/latentlab/studies/tir/).

TIR = config["tir"]
TIR_OUT = f"{OUT}/tir"
TIR_LOG = f"{LOGS}/tir"
TIR_BENCH = f"{BENCH}/tir"
TIR_C = TIR["corpora"]
# the registry's parsed settings (latentlab.studies.tir.study): no default repeated here
TIR_SYNTH = _study_shape("tir").settings("synth", TIR).synthetic
TIR_MODELS = ["lda", "tir", "tire", "dmr"]
TIR_TABLES = ["table3_1", "table3_2", "table3_4", "fig3_3_signtest"]
TIR_FIGS = ["fig3_4", "fig_l_recovery"]
# evidence the causes and REVERSALS.md cite (issue 37): results/{run}/tir/evidence/<name>.csv
TIR_EVIDENCE = ["recovery_by_citers"]
STUDY_FIGURES["tir"] = [f"{TIR_OUT}/{f}.png" for f in TIR_FIGS]


def tir_corpus(name):
    """Synthetic corpora are built here; real ones by rules/data.smk."""
    if name in TIR_SYNTH:
        return f"{TIR_OUT}/data/{name}.npz"
    return data_path(name)


def tir_io(w, input, output):
    return io_args(input, output, w)


rule tir:
    input:
        [f"{TIR_OUT}/{t}.{x}" for t in TIR_TABLES for x in ("csv", "md")],
        [f"{TIR_OUT}/{f}.{x}" for f in TIR_FIGS for x in ("png", "csv")],
        f"{TIR_OUT}/bench.csv",
        f"{TIR_OUT}/claims.csv",
        [f"{TIR_OUT}/evidence/{e}.{x}" for e in TIR_EVIDENCE for x in ("csv", "md")],


rule tir_synth:
    output:
        corpus=f"{TIR_OUT}/data/{{corpus}}.npz",
        truth=f"{TIR_OUT}/data/{{corpus}}_truth.npz",
    log:
        f"{TIR_LOG}/synth_{{corpus}}.log",
    benchmark:
        f"{TIR_BENCH}/synth_{{corpus}}.tsv"
    wildcard_constraints:
        corpus="synth_[a-z0-9_]+",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=step_params("tir", "synth"),
        io=tir_io,
    shell:
        "python -m latentlab tir synth --params {params.json:q} {params.io} > {log} 2>&1"


rule tir_prepare:
    input:
        corpus=lambda w: tir_corpus(w.corpus),
    output:
        full=f"{TIR_OUT}/prep/{{corpus}}/full.npz",
        train=f"{TIR_OUT}/prep/{{corpus}}/train.npz",
        split=f"{TIR_OUT}/prep/{{corpus}}/split.npz",
        summary=f"{TIR_OUT}/prep/{{corpus}}/summary.json",
    log:
        f"{TIR_LOG}/prepare_{{corpus}}.log",
    benchmark:
        f"{TIR_BENCH}/prepare_{{corpus}}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=step_params("tir", "prepare"),
        io=tir_io,
    shell:
        "python -m latentlab tir prepare --params {params.json:q} {params.io} > {log} 2>&1"


rule tir_fit:
    input:
        train=f"{TIR_OUT}/prep/{{corpus}}/train.npz",
        split=f"{TIR_OUT}/prep/{{corpus}}/split.npz",
    output:
        scores=f"{TIR_OUT}/fit/{{corpus}}/{{model}}.csv",
        info=f"{TIR_OUT}/fit/{{corpus}}/{{model}}.json",
    log:
        f"{TIR_LOG}/fit_{{corpus}}_{{model}}.log",
    benchmark:
        f"{TIR_BENCH}/fit_{{corpus}}_{{model}}.tsv"
    wildcard_constraints:
        model="lda|tir|tire|dmr",
    threads: 1
    resources:
        mem_mb=3000,
        runtime=60,
    params:
        json=step_params("tir", "fit"),
        io=tir_io,
    shell:
        "python -m latentlab tir fit --params {params.json:q} {params.io} > {log} 2>&1"


rule tir_explore:
    input:
        full=f"{TIR_OUT}/prep/{{corpus}}/full.npz",
    output:
        docs=f"{TIR_OUT}/explore/{{corpus}}/{{model}}_docs.csv",
        edges=f"{TIR_OUT}/explore/{{corpus}}/{{model}}_edges.csv",
    log:
        f"{TIR_LOG}/explore_{{corpus}}_{{model}}.log",
    benchmark:
        f"{TIR_BENCH}/explore_{{corpus}}_{{model}}.tsv"
    wildcard_constraints:
        model="tir|tire",
    threads: 1
    resources:
        mem_mb=3000,
        runtime=30,
    params:
        json=step_params("tir", "explore"),
        io=tir_io,
    shell:
        "python -m latentlab tir explore --params {params.json:q} {params.io} > {log} 2>&1"


rule tir_recovery:
    input:
        full=f"{TIR_OUT}/prep/{{corpus}}/full.npz",
        truth=f"{TIR_OUT}/data/{{corpus}}_truth.npz",
    output:
        csv=f"{TIR_OUT}/recovery/{{corpus}}.csv",
        docs=f"{TIR_OUT}/recovery/{{corpus}}_docs.csv",
    log:
        f"{TIR_LOG}/recovery_{{corpus}}.log",
    benchmark:
        f"{TIR_BENCH}/recovery_{{corpus}}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=60,
    params:
        json=step_params("tir", "recovery"),
        io=tir_io,
    shell:
        "python -m latentlab tir recovery --params {params.json:q} {params.io} > {log} 2>&1"


rule tir_evidence_recovery_by_citers:
    input:
        docs=f"{TIR_OUT}/recovery/{TIR_C['recovery']}_docs.csv",
        full=f"{TIR_OUT}/prep/{TIR_C['recovery']}/full.npz",
        truth=f"{TIR_OUT}/data/{TIR_C['recovery']}_truth.npz",
    output:
        csv=f"{TIR_OUT}/evidence/recovery_by_citers.csv",
        md=f"{TIR_OUT}/evidence/recovery_by_citers.md",
    log:
        f"{TIR_LOG}/evidence_recovery_by_citers.log",
    benchmark:
        f"{TIR_BENCH}/evidence_recovery_by_citers.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=step_params("tir", "evidence_recovery_by_citers"),
        io=tir_io,
    shell:
        "python -m latentlab tir evidence_recovery_by_citers --params {params.json:q} "
        "{params.io} > {log} 2>&1"


rule tir_table3_1:
    input:
        scores=expand(
            f"{TIR_OUT}/fit/{TIR_C['predict']}/{{model}}.csv", model=TIR_MODELS
        ),
    output:
        csv=f"{TIR_OUT}/table3_1.csv",
        md=f"{TIR_OUT}/table3_1.md",
    log:
        f"{TIR_LOG}/table3_1.log",
    benchmark:
        f"{TIR_BENCH}/table3_1.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=step_params("tir", "table3_1"),
        io=tir_io,
    shell:
        "python -m latentlab tir table3_1 --params {params.json:q} {params.io} > {log} 2>&1"


rule tir_table_explore:
    input:
        docs=lambda w: f"{TIR_OUT}/explore/{TIR_C['explore']}/"
        + ("tir" if w.table == "table3_2" else "tire")
        + "_docs.csv",
        edges=lambda w: f"{TIR_OUT}/explore/{TIR_C['explore']}/"
        + ("tir" if w.table == "table3_2" else "tire")
        + "_edges.csv",
    output:
        csv=f"{TIR_OUT}/{{table}}.csv",
        md=f"{TIR_OUT}/{{table}}.md",
    log:
        f"{TIR_LOG}/{{table}}.log",
    benchmark:
        f"{TIR_BENCH}/{{table}}.tsv"
    wildcard_constraints:
        table="table3_2|table3_4",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: step_params("tir", w.table),
        io=tir_io,
    shell:
        "python -m latentlab tir {wildcards.table} --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule tir_signtest:
    output:
        csv=f"{TIR_OUT}/fig3_3_signtest.csv",
        md=f"{TIR_OUT}/fig3_3_signtest.md",
    log:
        f"{TIR_LOG}/fig3_3_signtest.log",
    benchmark:
        f"{TIR_BENCH}/fig3_3_signtest.tsv"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    params:
        json=step_params("tir", "fig3_3_signtest"),
        io=tir_io,
    shell:
        "python -m latentlab tir fig3_3_signtest --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule tir_fig3_4:
    input:
        edges=f"{TIR_OUT}/explore/{TIR_C['selfcite']}/tire_edges.csv",
        truth=f"{TIR_OUT}/data/{TIR_C['selfcite']}_truth.npz",
    output:
        png=report(
            f"{TIR_OUT}/fig3_4.png", caption="../report/tir/fig3_4.rst", category="tir"
        ),
        csv=f"{TIR_OUT}/fig3_4.csv",
    log:
        f"{TIR_LOG}/fig3_4.log",
    benchmark:
        f"{TIR_BENCH}/fig3_4.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=step_params("tir", "fig3_4"),
        io=tir_io,
    shell:
        "python -m latentlab tir fig3_4 --params {params.json:q} {params.io} > {log} 2>&1"


rule tir_fig_l_recovery:
    input:
        recovery=f"{TIR_OUT}/recovery/{TIR_C['recovery']}.csv",
    output:
        png=report(
            f"{TIR_OUT}/fig_l_recovery.png",
            caption="../report/tir/fig_l_recovery.rst",
            category="tir",
        ),
        csv=f"{TIR_OUT}/fig_l_recovery.csv",
    log:
        f"{TIR_LOG}/fig_l_recovery.log",
    benchmark:
        f"{TIR_BENCH}/fig_l_recovery.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=step_params("tir", "fig_l_recovery"),
        io=tir_io,
    shell:
        "python -m latentlab tir fig_l_recovery --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule tir_bench:
    input:
        train=f"{TIR_OUT}/prep/{TIR_C['predict']}/train.npz",
    output:
        csv=f"{TIR_OUT}/bench.csv",
    log:
        f"{TIR_LOG}/bench.log",
    benchmark:
        f"{TIR_BENCH}/bench.tsv"
    threads: 1
    resources:
        mem_mb=3000,
        runtime=30,
    params:
        json=step_params("tir", "bench"),
        io=tir_io,
    shell:
        "python -m latentlab tir bench --params {params.json:q} {params.io} > {log} 2>&1"


rule tir_claims:
    input:
        readings=readings_inputs("tir"),
        ladder=ladder_inputs("tir"),
        table3_1=f"{TIR_OUT}/table3_1.csv",
        recovery=f"{TIR_OUT}/recovery/{TIR_C['recovery']}.csv",
        self_edges=f"{TIR_OUT}/explore/{TIR_C['selfcite']}/tire_edges.csv",
        self_truth=f"{TIR_OUT}/data/{TIR_C['selfcite']}_truth.npz",
        signtest=f"{TIR_OUT}/fig3_3_signtest.csv",
        docs=f"{TIR_OUT}/explore/{TIR_C['explore']}/tir_docs.csv",
        tire_docs=f"{TIR_OUT}/explore/{TIR_C['explore']}/tire_docs.csv",
        tire_edges=f"{TIR_OUT}/explore/{TIR_C['explore']}/tire_edges.csv",
        full=f"{TIR_OUT}/prep/{TIR_C['explore']}/full.npz",
        bench=f"{TIR_OUT}/bench.csv",
        prep_summary=f"{TIR_OUT}/prep/{TIR_C['predict']}/summary.json",
    output:
        csv=f"{TIR_OUT}/claims.csv",
    log:
        f"{TIR_LOG}/claims.log",
    benchmark:
        f"{TIR_BENCH}/claims.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=step_params("tir", "claims"),
        io=tir_io,
    shell:
        "python -m latentlab tir claims --params {params.json:q} {params.io} > {log} 2>&1"
