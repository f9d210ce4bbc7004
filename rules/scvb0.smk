# Study scvb0: Foulds (2014) chapter 4, SCVB0 vs SVB (digest 004 Sec. 4, 6.3, 8).
# Thin rules: all logic is in src/latentlab/studies/scvb0/ (python -m latentlab scvb0 ...).

S0 = config["scvb0"]
S0_OUT = f"{OUT}/scvb0"
S0_LOG = f"{LOGS}/scvb0"
S0_BENCH = f"{BENCH}/scvb0"
S0_CURVE_FIGS = {"fig4_3": "time", "fig4_4": "time", "fig4_5": "time", "fig4_6": "docs"}
S0_DEMOS = ["fig4_1", "fig4_2", "fig4_8", "fig4_9", "fig4_10"]


def s0_corpus(name):
    """Corpus file of a dataset named in scvb0.datasets (synthetic: built here)."""
    spec = S0["datasets"][name]
    if spec["kind"] == "real":
        return data_path(spec["name"])
    return f"{S0_OUT}/data/{name}.npz"


S0_COMPARE = S0["bench"].get("compare") or {}
S0_BENCH_DATASETS = sorted(
    set(S0["bench"]["datasets"]) | ({S0_COMPARE["dataset"]} if S0_COMPARE else set())
)
# Fig 4.3 (held-out LL vs time) repeated on further corpora: fig4_3_<dataset>
S0_EXTRA = [f"fig4_3_{d}" for d in S0["curves"].get("extra_datasets", [])]
S0_FIGS = [
    f"{S0_OUT}/{f}.png" for f in S0_DEMOS + list(S0_CURVE_FIGS) + ["fig4_7"] + S0_EXTRA
]
STUDY_FIGURES["scvb0"] = S0_FIGS


rule scvb0:
    input:
        S0_FIGS,
        [
            f"{S0_OUT}/{f}.csv"
            for f in S0_DEMOS + list(S0_CURVE_FIGS) + ["fig4_7"] + S0_EXTRA
        ],
        f"{S0_OUT}/table4_4.csv",
        f"{S0_OUT}/table4_4.md",
        f"{S0_OUT}/table4_5.csv",
        f"{S0_OUT}/table4_5.md",
        f"{S0_OUT}/bench.csv",
        f"{S0_OUT}/claims.csv",


rule scvb0_demo:
    output:
        png=report(
            f"{S0_OUT}/{{fig}}.png",
            caption="../report/scvb0/demo.rst",
            category="scvb0",
        ),
        csv=f"{S0_OUT}/{{fig}}.csv",
    log:
        f"{S0_LOG}/demo_{{fig}}.log",
    benchmark:
        f"{S0_BENCH}/demo_{{fig}}.tsv"
    wildcard_constraints:
        fig="fig4_1|fig4_2|fig4_8|fig4_9|fig4_10",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    params:
        json=lambda w: study_params("scvb0"),
    shell:
        "python -m latentlab scvb0 demo --fig {wildcards.fig} --params {params.json:q} "
        "--out {output.png} > {log} 2>&1"


rule scvb0_corpus:
    output:
        f"{S0_OUT}/data/{{dataset}}.npz",
    log:
        f"{S0_LOG}/corpus_{{dataset}}.log",
    benchmark:
        f"{S0_BENCH}/corpus_{{dataset}}.tsv"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=30,
    params:
        json=lambda w: study_params("scvb0"),
    shell:
        "python -m latentlab scvb0 corpus --dataset {wildcards.dataset} "
        "--params {params.json:q} --out {output} > {log} 2>&1"


rule scvb0_curves:
    input:
        lambda w: s0_corpus(w.dataset),
    output:
        f"{S0_OUT}/curves/{{dataset}}.csv",
    log:
        f"{S0_LOG}/curves_{{dataset}}.log",
    benchmark:
        f"{S0_BENCH}/curves_{{dataset}}.tsv"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        json=lambda w: study_params("scvb0"),
    shell:
        "python -m latentlab scvb0 curves --dataset {wildcards.dataset} --corpus {input} "
        "--params {params.json:q} --out {output} > {log} 2>&1"


def s0_curves_of(fig):
    if fig.startswith("fig4_3_"):
        return f"{S0_OUT}/curves/{fig[len('fig4_3_'):]}.csv"
    return f"{S0_OUT}/curves/{S0['curves'][fig]}.csv"


rule scvb0_curve_figure:
    input:
        lambda w: s0_curves_of(w.fig),
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
        json=lambda w: study_params("scvb0"),
        xaxis=lambda w: S0_CURVE_FIGS.get(w.fig, "time"),
    shell:
        "python -m latentlab scvb0 plot-curves --curves {input} --xaxis {params.xaxis} "
        "--params {params.json:q} --out {output.png} > {log} 2>&1"


rule scvb0_fig4_7:
    input:
        s0_corpus(S0["fig4_7"]["dataset"]),
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
        mem_mb=8000,
        runtime=240,
    params:
        json=lambda w: study_params("scvb0"),
    shell:
        "python -m latentlab scvb0 fig4_7 --corpus {input} --params {params.json:q} "
        "--out {output.png} > {log} 2>&1"


rule scvb0_table:
    input:
        lambda w: s0_corpus(S0[w.table]["dataset"]),
    output:
        csv=f"{S0_OUT}/{{table}}.csv",
        md=f"{S0_OUT}/{{table}}.md",
        runs=f"{S0_OUT}/{{table}}_runs.csv",
    log:
        f"{S0_LOG}/{{table}}.log",
    benchmark:
        f"{S0_BENCH}/{{table}}.tsv"
    wildcard_constraints:
        table="table4_4|table4_5",
    # timed (fixed training-time budget): reserve the cores so our own jobs do not compete
    threads: THREADS
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        json=lambda w: study_params("scvb0"),
    shell:
        "python -m latentlab scvb0 table --table {wildcards.table} --corpus {input} "
        "--params {params.json:q} --out {output.csv} > {log} 2>&1"


rule scvb0_bench:
    input:
        [s0_corpus(d) for d in S0_BENCH_DATASETS],
    output:
        f"{S0_OUT}/bench.csv",
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
        json=lambda w: study_params("scvb0"),
        corpora=" ".join(f"{d}={s0_corpus(d)}" for d in S0_BENCH_DATASETS),
    shell:
        "python -m latentlab scvb0 bench --corpus {params.corpora} --params {params.json:q} "
        "--out {output} > {log} 2>&1"


S0_CLAIM_INPUTS = {
    **{f: f"{S0_OUT}/{f}.csv" for f in S0_DEMOS + ["fig4_7"]},
    **{f"curves_{f}": f"{S0_OUT}/{f}.csv" for f in S0_CURVE_FIGS},
    **{f"curves_extra_{f[len('fig4_3_'):]}": f"{S0_OUT}/{f}.csv" for f in S0_EXTRA},
    "table4_4_runs": f"{S0_OUT}/table4_4_runs.csv",
    "table4_5_runs": f"{S0_OUT}/table4_5_runs.csv",
}


rule scvb0_claims:
    input:
        list(S0_CLAIM_INPUTS.values()),
    output:
        f"{S0_OUT}/claims.csv",
    log:
        f"{S0_LOG}/claims.log",
    benchmark:
        f"{S0_BENCH}/claims.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=lambda w: study_params("scvb0"),
        inputs=" ".join(f"{k}={v}" for k, v in S0_CLAIM_INPUTS.items()),
    shell:
        "python -m latentlab scvb0 claims --inputs {params.inputs} --params {params.json:q} "
        "--out {output} > {log} 2>&1"
