# Study hdp_pcvb0: Sato, Kurihara & Nakagawa, "Practical collapsed variational Bayes inference
# for hierarchical Dirichlet process", KDD 2012 (seed 001). Logic: latentlab.studies.hdp_pcvb0
# (`python -m latentlab hdp_pcvb0 --help`). Config: the `hdp_pcvb0:` section.

HDP = config.get("hdp_pcvb0", {})
HDP_OUT = f"{OUT}/hdp_pcvb0"
HDP_LOGS = f"{LOGS}/hdp_pcvb0"
HDP_BENCH = f"{BENCH}/hdp_pcvb0"
HDP_CONFIGS = list(HDP.get("configs", []))
HDP_PPL = list(HDP.get("perplexity", {}).get("datasets", []))
HDP_KNN = list(HDP.get("knn", {}).get("datasets", []))
HDP_LINKS = list(HDP.get("links", {}).get("datasets", []))
HDP_RES = HDP.get("resources", {})
HDP_FIGS = [f"{HDP_OUT}/fig{i}.png" for i in (1, 2, 3, 4, 5)]
STUDY_FIGURES["hdp_pcvb0"] = HDP_FIGS


def _hdp_res(step, key, default):
    return int(HDP_RES.get(step, {}).get(key, default))


def _hdp_input(wildcards):
    spec = HDP["datasets"][wildcards.dataset]
    src = spec.get("source", "synthetic")
    return [] if src == "synthetic" else [data_path(src)]


def _hdp_params(**extra):
    return study_params("hdp_pcvb0", **extra)


wildcard_constraints:
    dataset=r"[A-Za-z0-9]+(_[A-Za-z0-9]+)*",
    config="|".join(HDP_CONFIGS) if HDP_CONFIGS else "none",


rule hdp_pcvb0:
    input:
        HDP_FIGS,
        [f.replace(".png", ".csv") for f in HDP_FIGS],
        f"{HDP_OUT}/bench.csv",
        f"{HDP_OUT}/claims.csv",


rule hdp_pcvb0_prepare:
    input:
        _hdp_input,
    output:
        f"{HDP_OUT}/data/{{dataset}}.npz",
    log:
        f"{HDP_LOGS}/prepare_{{dataset}}.log",
    benchmark:
        f"{HDP_BENCH}/prepare_{{dataset}}.tsv"
    threads: 1
    resources:
        mem_mb=_hdp_res("prepare", "mem_mb", 2000),
        runtime=_hdp_res("prepare", "runtime", 10),
    params:
        # only what prepare reads, so other settings do not invalidate the data
        json=study_params("hdp_pcvb0", "datasets"),
        inp=lambda w, input: f"--input {input[0]}" if len(input) else "",
    shell:
        "python -m latentlab hdp_pcvb0 prepare --params {params.json:q} "
        "--dataset {wildcards.dataset} {params.inp} --out {output} > {log} 2>&1"


rule hdp_pcvb0_perplexity:
    input:
        f"{HDP_OUT}/data/{{dataset}}.npz",
    output:
        f"{HDP_OUT}/runs/perplexity/{{dataset}}/{{config}}.json",
    log:
        f"{HDP_LOGS}/perplexity_{{dataset}}_{{config}}.log",
    benchmark:
        f"{HDP_BENCH}/perplexity_{{dataset}}_{{config}}.tsv"
    threads: 1
    resources:
        mem_mb=_hdp_res("perplexity", "mem_mb", 2000),
        runtime=_hdp_res("perplexity", "runtime", 30),
    params:
        json=_hdp_params(),
    shell:
        "python -m latentlab hdp_pcvb0 perplexity --params {params.json:q} "
        "--dataset {wildcards.dataset} --config {wildcards.config} --input {input} "
        "--out {output} > {log} 2>&1"


rule hdp_pcvb0_knn:
    input:
        f"{HDP_OUT}/data/{{dataset}}.npz",
    output:
        f"{HDP_OUT}/runs/knn/{{dataset}}/{{config}}.json",
    log:
        f"{HDP_LOGS}/knn_{{dataset}}_{{config}}.log",
    benchmark:
        f"{HDP_BENCH}/knn_{{dataset}}_{{config}}.tsv"
    threads: 1
    resources:
        mem_mb=_hdp_res("knn", "mem_mb", 2000),
        runtime=_hdp_res("knn", "runtime", 30),
    params:
        json=_hdp_params(),
    shell:
        "python -m latentlab hdp_pcvb0 knn --params {params.json:q} "
        "--dataset {wildcards.dataset} --config {wildcards.config} --input {input} "
        "--out {output} > {log} 2>&1"


rule hdp_pcvb0_links:
    input:
        f"{HDP_OUT}/data/{{dataset}}.npz",
    output:
        f"{HDP_OUT}/runs/links/{{dataset}}/{{config}}.json",
    log:
        f"{HDP_LOGS}/links_{{dataset}}_{{config}}.log",
    benchmark:
        f"{HDP_BENCH}/links_{{dataset}}_{{config}}.tsv"
    threads: 1
    resources:
        mem_mb=_hdp_res("links", "mem_mb", 2000),
        runtime=_hdp_res("links", "runtime", 30),
    params:
        json=_hdp_params(),
    shell:
        "python -m latentlab hdp_pcvb0 links --params {params.json:q} "
        "--dataset {wildcards.dataset} --config {wildcards.config} --input {input} "
        "--out {output} > {log} 2>&1"


rule hdp_pcvb0_init:
    input:
        f"{HDP_OUT}/data/{HDP.get('init_sensitivity', {}).get('dataset', 'none')}.npz",
    output:
        f"{HDP_OUT}/runs/init_sensitivity.json",
    log:
        f"{HDP_LOGS}/init_sensitivity.log",
    benchmark:
        f"{HDP_BENCH}/init_sensitivity.tsv"
    threads: 1
    resources:
        mem_mb=_hdp_res("perplexity", "mem_mb", 2000),
        runtime=_hdp_res("perplexity", "runtime", 30),
    params:
        json=_hdp_params(),
        dataset=HDP.get("init_sensitivity", {}).get("dataset", "none"),
    shell:
        "python -m latentlab hdp_pcvb0 init --params {params.json:q} "
        "--dataset {params.dataset} --input {input} --out {output} > {log} 2>&1"


rule hdp_pcvb0_gibbs:
    input:
        f"{HDP_OUT}/data/{HDP.get('gibbs', {}).get('dataset', 'none')}.npz",
    output:
        f"{HDP_OUT}/runs/gibbs.json",
    log:
        f"{HDP_LOGS}/gibbs.log",
    benchmark:
        f"{HDP_BENCH}/gibbs.tsv"
    threads: 1
    resources:
        mem_mb=_hdp_res("perplexity", "mem_mb", 2000),
        runtime=_hdp_res("perplexity", "runtime", 30),
    params:
        json=_hdp_params(),
        dataset=HDP.get("gibbs", {}).get("dataset", "none"),
    shell:
        "python -m latentlab hdp_pcvb0 gibbs --params {params.json:q} "
        "--dataset {params.dataset} --input {input} --out {output} > {log} 2>&1"


rule hdp_pcvb0_bench:
    input:
        f"{HDP_OUT}/data/{HDP.get('bench', {}).get('dataset', 'none')}.npz",
    output:
        f"{HDP_OUT}/bench.csv",
    log:
        f"{HDP_LOGS}/bench.log",
    benchmark:
        f"{HDP_BENCH}/bench.tsv"
    threads: 1
    resources:
        mem_mb=_hdp_res("bench", "mem_mb", 4000),
        runtime=_hdp_res("bench", "runtime", 30),
    params:
        json=_hdp_params(threads=1),
    shell:
        "python -m latentlab hdp_pcvb0 bench --params {params.json:q} --input {input} "
        "--out {output} > {log} 2>&1"


def _hdp_runs(kind, datasets):
    return expand(
        f"{HDP_OUT}/runs/{kind}/{{dataset}}/{{config}}.json",
        dataset=datasets,
        config=HDP_CONFIGS,
    )


rule hdp_pcvb0_fig1:
    input:
        runs=_hdp_runs("perplexity", HDP_PPL[:1]),
        bench=f"{HDP_OUT}/bench.csv",
    output:
        png=report(
            f"{HDP_OUT}/fig1.png",
            caption="../report/hdp_pcvb0/fig1.rst",
            category="hdp_pcvb0",
        ),
        csv=f"{HDP_OUT}/fig1.csv",
    log:
        f"{HDP_LOGS}/fig1.log",
    benchmark:
        f"{HDP_BENCH}/fig1.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=_hdp_params(),
    shell:
        "python -m latentlab hdp_pcvb0 figure --figure fig1 --params {params.json:q} "
        "--inputs {input.runs} --bench {input.bench} --png {output.png} --csv {output.csv} "
        "> {log} 2>&1"


rule hdp_pcvb0_fig2:
    input:
        expand(
            f"{HDP_OUT}/runs/perplexity/{{dataset}}/{{config}}.json",
            dataset=HDP_PPL,
            config=[c for c in ("cvb_AA", "pcvb0_AA") if c in HDP_CONFIGS],
        ),
    output:
        png=report(
            f"{HDP_OUT}/fig2.png",
            caption="../report/hdp_pcvb0/fig2.rst",
            category="hdp_pcvb0",
        ),
        csv=f"{HDP_OUT}/fig2.csv",
    log:
        f"{HDP_LOGS}/fig2.log",
    benchmark:
        f"{HDP_BENCH}/fig2.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=_hdp_params(),
    shell:
        "python -m latentlab hdp_pcvb0 figure --figure fig2 --params {params.json:q} "
        "--inputs {input} --png {output.png} --csv {output.csv} > {log} 2>&1"


rule hdp_pcvb0_fig3:
    input:
        _hdp_runs("perplexity", HDP_PPL),
    output:
        png=report(
            f"{HDP_OUT}/fig3.png",
            caption="../report/hdp_pcvb0/fig3.rst",
            category="hdp_pcvb0",
        ),
        csv=f"{HDP_OUT}/fig3.csv",
    log:
        f"{HDP_LOGS}/fig3.log",
    benchmark:
        f"{HDP_BENCH}/fig3.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=_hdp_params(),
    shell:
        "python -m latentlab hdp_pcvb0 figure --figure fig3 --params {params.json:q} "
        "--inputs {input} --png {output.png} --csv {output.csv} > {log} 2>&1"


rule hdp_pcvb0_fig4:
    input:
        _hdp_runs("knn", HDP_KNN),
    output:
        png=report(
            f"{HDP_OUT}/fig4.png",
            caption="../report/hdp_pcvb0/fig4.rst",
            category="hdp_pcvb0",
        ),
        csv=f"{HDP_OUT}/fig4.csv",
    log:
        f"{HDP_LOGS}/fig4.log",
    benchmark:
        f"{HDP_BENCH}/fig4.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=_hdp_params(),
    shell:
        "python -m latentlab hdp_pcvb0 figure --figure fig4 --params {params.json:q} "
        "--inputs {input} --png {output.png} --csv {output.csv} > {log} 2>&1"


rule hdp_pcvb0_fig5:
    input:
        _hdp_runs("links", HDP_LINKS),
    output:
        png=report(
            f"{HDP_OUT}/fig5.png",
            caption="../report/hdp_pcvb0/fig5.rst",
            category="hdp_pcvb0",
        ),
        csv=f"{HDP_OUT}/fig5.csv",
    log:
        f"{HDP_LOGS}/fig5.log",
    benchmark:
        f"{HDP_BENCH}/fig5.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=_hdp_params(),
    shell:
        "python -m latentlab hdp_pcvb0 figure --figure fig5 --params {params.json:q} "
        "--inputs {input} --png {output.png} --csv {output.csv} > {log} 2>&1"


rule hdp_pcvb0_claims:
    input:
        perplexity=_hdp_runs("perplexity", HDP_PPL),
        knn=_hdp_runs("knn", HDP_KNN),
        links=_hdp_runs("links", HDP_LINKS),
        init=f"{HDP_OUT}/runs/init_sensitivity.json",
        gibbs=f"{HDP_OUT}/runs/gibbs.json",
        bench=f"{HDP_OUT}/bench.csv",
    output:
        f"{HDP_OUT}/claims.csv",
    log:
        f"{HDP_LOGS}/claims.log",
    benchmark:
        f"{HDP_BENCH}/claims.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=_hdp_params(),
    shell:
        "python -m latentlab hdp_pcvb0 claims --params {params.json:q} "
        "--perplexity {input.perplexity} --knn {input.knn} --links {input.links} "
        "--init {input.init} --gibbs {input.gibbs} --bench {input.bench} --out {output} "
        "> {log} 2>&1"
