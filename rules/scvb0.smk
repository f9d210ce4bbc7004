# Study scvb0: Foulds (2014) chapter 4, SCVB0 vs SVB (Secs 4.2-4.6).
# One rule per kind of step; every step is `python -m latentlab scvb0 <step>` with only the
# config keys it reads (step_params) and every path named here (io_args).

S0 = config["scvb0"]
S0_OUT = f"{OUT}/scvb0"
S0_LOG = f"{LOGS}/scvb0"
S0_BENCH = f"{BENCH}/scvb0"
S0_DEMOS = ["fig4_1", "fig4_2", "fig4_8", "fig4_9", "fig4_10"]
S0_CURVE_FIGS = ["fig4_3", "fig4_4", "fig4_5", "fig4_6"]
# Fig 4.3 (held-out LL vs time) repeated on further corpora: fig4_3_<dataset>
S0_SHAPE = _study_shape("scvb0")
S0_EXTRA = [
    f"fig4_3_{d}" for d in S0_SHAPE.settings("curves", S0).curves.extra_datasets
]
S0_FIG_IDS = S0_DEMOS + S0_CURVE_FIGS + ["fig4_7"] + S0_EXTRA
S0_TABLES = ["table4_4", "table4_5"]
STUDY_FIGURES["scvb0"] = [f"{S0_OUT}/{f}.png" for f in S0_FIG_IDS]


def s0_corpus(name):
    """Corpus file of a dataset of scvb0.datasets (synthetic: built by scvb0_corpus)."""
    spec = S0["datasets"][name]
    if spec["kind"] == "real":
        return data_path(spec["name"])
    return f"{S0_OUT}/data/{name}.npz"


def s0_curves_dataset(fig):
    return fig[len("fig4_3_") :] if fig.startswith("fig4_3_") else S0["curves"][fig]


def s0_curves_priority(wildcards):
    """Build and fit the largest corpora first (a synthetic corpus's documents, in thousands;
    Snakemake does not pass a priority on to a job's inputs): the synth_200k curves are the
    run's critical path, and the timed steps that reserve every core wait for them
    (published/real/run_times.tsv, scvb0 at d8f6c0d)."""
    spec = S0["datasets"][wildcards.dataset]
    return spec["D"] // 1000 if spec["kind"] == "synthetic" else 1


def s0_io(wildcards, input, output):
    return io_args(input, output, wildcards)


rule scvb0:
    input:
        [f"{S0_OUT}/{f}.{x}" for f in S0_FIG_IDS for x in ("png", "csv")],
        [f"{S0_OUT}/{t}.{x}" for t in S0_TABLES for x in ("csv", "md")],
        f"{S0_OUT}/bench.csv",
        f"{S0_OUT}/claims.csv",


rule scvb0_corpus:
    output:
        corpus=f"{S0_OUT}/data/{{dataset}}.npz",
    log:
        f"{S0_LOG}/corpus_{{dataset}}.log",
    benchmark:
        f"{S0_BENCH}/corpus_{{dataset}}.tsv"
    priority: s0_curves_priority
    threads: 1
    resources:
        mem_mb=8000,
        runtime=30,
    params:
        json=step_params("scvb0", "corpus"),
        io=s0_io,
    shell:
        "python -m latentlab scvb0 corpus --params {params.json:q} {params.io} > {log} 2>&1"


rule scvb0_demo:
    output:
        png=report(
            f"{S0_OUT}/{{fig}}.png",
            caption="../report/scvb0/demo.rst",
            category="scvb0",
        ),
        csv=f"{S0_OUT}/{{fig}}.csv",
    log:
        f"{S0_LOG}/{{fig}}.log",
    benchmark:
        f"{S0_BENCH}/{{fig}}.tsv"
    wildcard_constraints:
        fig="|".join(S0_DEMOS),
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    params:
        json=lambda w: step_params("scvb0", w.fig),
        io=s0_io,
    shell:
        "python -m latentlab scvb0 {wildcards.fig} --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule scvb0_curves:
    input:
        corpus=lambda w: s0_corpus(w.dataset),
    output:
        csv=f"{S0_OUT}/curves/{{dataset}}.csv",
        info=f"{S0_OUT}/curves/{{dataset}}.meta.json",
    log:
        f"{S0_LOG}/curves_{{dataset}}.log",
    benchmark:
        f"{S0_BENCH}/curves_{{dataset}}.tsv"
    priority: s0_curves_priority
    threads: 1
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        json=step_params("scvb0", "curves"),
        io=s0_io,
    shell:
        "python -m latentlab scvb0 curves --params {params.json:q} {params.io} > {log} 2>&1"


rule scvb0_curve_figure:
    input:
        curves=lambda w: f"{S0_OUT}/curves/{s0_curves_dataset(w.fig)}.csv",
        info=lambda w: f"{S0_OUT}/curves/{s0_curves_dataset(w.fig)}.meta.json",
    output:
        png=report(
            f"{S0_OUT}/{{fig}}.png",
            caption="../report/scvb0/curves.rst",
            category="scvb0",
        ),
        csv=f"{S0_OUT}/{{fig}}.csv",
    log:
        f"{S0_LOG}/{{fig}}.log",
    benchmark:
        f"{S0_BENCH}/{{fig}}.tsv"
    wildcard_constraints:
        fig="fig4_3|fig4_4|fig4_5|fig4_6|fig4_3_[A-Za-z0-9_]+",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        # fig4_3_<dataset> is Fig 4.3 drawn on another corpus
        step=lambda w: w.fig if w.fig in S0_CURVE_FIGS else "fig4_3",
        json=lambda w: step_params("scvb0", "fig4_3"),
        io=s0_io,
    shell:
        "python -m latentlab scvb0 {params.step} --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule scvb0_fig4_7_run:
    input:
        corpus=s0_corpus(S0["fig4_7"]["dataset"]),
    output:
        csv=f"{S0_OUT}/raw/fig4_7.csv",
        info=f"{S0_OUT}/raw/fig4_7.meta.json",
    log:
        f"{S0_LOG}/fig4_7_run.log",
    benchmark:
        f"{S0_BENCH}/fig4_7_run.tsv"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        json=step_params("scvb0", "fig4_7_run"),
        io=s0_io,
    shell:
        "python -m latentlab scvb0 fig4_7_run --params {params.json:q} {params.io} > {log} 2>&1"


rule scvb0_fig4_7:
    input:
        curves=f"{S0_OUT}/raw/fig4_7.csv",
        info=f"{S0_OUT}/raw/fig4_7.meta.json",
    output:
        png=report(
            f"{S0_OUT}/fig4_7.png",
            caption="../report/scvb0/curves.rst",
            category="scvb0",
        ),
        csv=f"{S0_OUT}/fig4_7.csv",
    log:
        f"{S0_LOG}/fig4_7.log",
    benchmark:
        f"{S0_BENCH}/fig4_7.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=step_params("scvb0", "fig4_7"),
        io=s0_io,
    shell:
        "python -m latentlab scvb0 fig4_7 --params {params.json:q} {params.io} > {log} 2>&1"


rule scvb0_topics:
    input:
        corpus=lambda w: s0_corpus(S0[w.table]["dataset"]),
    output:
        topics=f"{S0_OUT}/raw/topics_{{table}}.csv",
        runs=f"{S0_OUT}/{{table}}_runs.csv",
    log:
        f"{S0_LOG}/topics_{{table}}.log",
    benchmark:
        f"{S0_BENCH}/topics_{{table}}.tsv"
    wildcard_constraints:
        table="|".join(S0_TABLES),
    # timed (fixed training-time budget): reserve the cores so our own jobs do not compete
    threads: THREADS
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        json=step_params("scvb0", "topics"),
        io=s0_io,
    shell:
        "python -m latentlab scvb0 topics --params {params.json:q} {params.io} > {log} 2>&1"


rule scvb0_table:
    input:
        topics=f"{S0_OUT}/raw/topics_{{table}}.csv",
        runs=f"{S0_OUT}/{{table}}_runs.csv",
    output:
        csv=f"{S0_OUT}/{{table}}.csv",
        md=f"{S0_OUT}/{{table}}.md",
    log:
        f"{S0_LOG}/{{table}}.log",
    benchmark:
        f"{S0_BENCH}/{{table}}.tsv"
    wildcard_constraints:
        table="|".join(S0_TABLES),
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: step_params("scvb0", w.table),
        io=s0_io,
    shell:
        "python -m latentlab scvb0 {wildcards.table} --params {params.json:q} {params.io} "
        "> {log} 2>&1"


S0_COMPARE = S0_SHAPE.settings("bench", S0).bench.compare


rule scvb0_bench:
    input:
        corpora=[s0_corpus(d) for d in S0["bench"]["datasets"]],
        compare=[s0_corpus(S0_COMPARE.dataset)] if S0_COMPARE else [],
    output:
        csv=f"{S0_OUT}/bench.csv",
        md=f"{S0_OUT}/bench.md",
    log:
        f"{S0_LOG}/bench.log",
    benchmark:
        f"{S0_BENCH}/bench.tsv"
    # timed: reserve the cores so our own jobs do not compete (kernels are single-threaded)
    threads: THREADS
    resources:
        mem_mb=8000,
        runtime=120,
    params:
        json=step_params("scvb0", "bench"),
        io=s0_io,
    shell:
        "python -m latentlab scvb0 bench --params {params.json:q} {params.io} > {log} 2>&1"


rule scvb0_claims:
    input:
        readings=readings_inputs("scvb0"),
        ladder=ladder_inputs("scvb0"),
        **{f: f"{S0_OUT}/{f}.csv" for f in S0_DEMOS + ["fig4_7"]},
        **{f"curves_{f}": f"{S0_OUT}/{f}.csv" for f in S0_CURVE_FIGS},
        **{f"curves_extra_{f[len('fig4_3_'):]}": f"{S0_OUT}/{f}.csv" for f in S0_EXTRA},
        **{f"{t}_runs": f"{S0_OUT}/{t}_runs.csv" for t in S0_TABLES},
    output:
        csv=f"{S0_OUT}/claims.csv",
    log:
        f"{S0_LOG}/claims.log",
    benchmark:
        f"{S0_BENCH}/claims.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=step_params("scvb0", "claims"),
        io=s0_io,
    shell:
        "python -m latentlab scvb0 claims --params {params.json:q} {params.io} > {log} 2>&1"
