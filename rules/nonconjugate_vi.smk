# Study nonconjugate_vi: Wang & Blei (JMLR 2013), Laplace and delta-method variational
# inference (seed 002; digest 002 §4, §6). Thin rules: the logic is in
# src/latentlab/studies/nonconjugate_vi/ (python -m latentlab nonconjugate_vi ...).

NCV = config["nonconjugate_vi"]
NCV_OUT = f"{OUT}/nonconjugate_vi"
NCV_LOG = f"{LOGS}/nonconjugate_vi"
NCV_BENCH = f"{BENCH}/nonconjugate_vi"
NCV_CORPORA = [c["name"] for c in NCV["ctm"]["corpora"]]
NCV_RES = NCV.get("resources", {})
NCV_FIGS = [f"{NCV_OUT}/{f}.png" for f in ("fig2", "fig5a", "fig5b", "fig6a", "fig6b")]
STUDY_FIGURES["nonconjugate_vi"] = NCV_FIGS


def ncv_real_inputs(*specs):
    """Canonical real datasets (rules/data.smk) the given specs read; none for synthetic."""
    return [data_path(s["dataset"]) for s in specs if s.get("kind") == "real"]


def ncv_corpus(name):
    return next(c for c in NCV["ctm"]["corpora"] if c["name"] == name)


def ncv_runtime(key, default):
    return int(NCV_RES.get(key, default))


rule nonconjugate_vi:
    input:
        NCV_FIGS,
        [f"{NCV_OUT}/{f}.csv" for f in ("fig2", "fig5a", "fig5b", "fig6a", "fig6b")],
        f"{NCV_OUT}/table1.csv",
        f"{NCV_OUT}/table1.md",
        f"{NCV_OUT}/table2.csv",
        f"{NCV_OUT}/table2.md",
        f"{NCV_OUT}/bench.csv",
        f"{NCV_OUT}/claims.csv",


rule nonconjugate_vi_sweep:
    input:
        lambda w: ncv_real_inputs(ncv_corpus(w.corpus)),
    output:
        f"{NCV_OUT}/ctm_sweep_{{corpus}}.csv",
    log:
        f"{NCV_LOG}/sweep_{{corpus}}.log",
    benchmark:
        f"{NCV_BENCH}/sweep_{{corpus}}.tsv"
    threads: THREADS
    resources:
        mem_mb=3000,
        runtime=ncv_runtime("sweep", 30),
    params:
        json=lambda w: study_params("nonconjugate_vi"),
    shell:
        "python -m latentlab nonconjugate_vi sweep --params {params.json:q} "
        "--corpus {wildcards.corpus} --out {output} > {log} 2>&1"


rule nonconjugate_vi_fig5:
    input:
        expand(f"{NCV_OUT}/ctm_sweep_{{c}}.csv", c=NCV_CORPORA),
    output:
        png_a=report(
            f"{NCV_OUT}/fig5a.png",
            caption="../report/nonconjugate_vi/fig.rst",
            category="nonconjugate_vi",
        ),
        csv_a=f"{NCV_OUT}/fig5a.csv",
        png_b=report(
            f"{NCV_OUT}/fig5b.png",
            caption="../report/nonconjugate_vi/fig.rst",
            category="nonconjugate_vi",
        ),
        csv_b=f"{NCV_OUT}/fig5b.csv",
    log:
        f"{NCV_LOG}/fig5.log",
    benchmark:
        f"{NCV_BENCH}/fig5.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: study_params("nonconjugate_vi"),
    shell:
        "python -m latentlab nonconjugate_vi fig5 --params {params.json:q} "
        "--sweeps {input} --png-a {output.png_a} --csv-a {output.csv_a} "
        "--png-b {output.png_b} --csv-b {output.csv_b} > {log} 2>&1"


rule nonconjugate_vi_fig2:
    input:
        ncv_real_inputs(ncv_corpus(NCV["fig2"]["corpus"])),
    output:
        png=report(
            f"{NCV_OUT}/fig2.png",
            caption="../report/nonconjugate_vi/fig.rst",
            category="nonconjugate_vi",
        ),
        csv=f"{NCV_OUT}/fig2.csv",
        monotone=f"{NCV_OUT}/fig2_monotone.csv",
    log:
        f"{NCV_LOG}/fig2.log",
    benchmark:
        f"{NCV_BENCH}/fig2.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=ncv_runtime("fig2", 15),
    params:
        json=lambda w: study_params("nonconjugate_vi"),
    shell:
        "python -m latentlab nonconjugate_vi fig2 --params {params.json:q} "
        "--png {output.png} --csv {output.csv} --monotone {output.monotone} > {log} 2>&1"


rule nonconjugate_vi_fig6:
    input:
        ncv_real_inputs(ncv_corpus(NCV["fig6"]["corpus"])),
    output:
        png_a=report(
            f"{NCV_OUT}/fig6a.png",
            caption="../report/nonconjugate_vi/fig.rst",
            category="nonconjugate_vi",
        ),
        csv_a=f"{NCV_OUT}/fig6a.csv",
        png_b=report(
            f"{NCV_OUT}/fig6b.png",
            caption="../report/nonconjugate_vi/fig.rst",
            category="nonconjugate_vi",
        ),
        csv_b=f"{NCV_OUT}/fig6b.csv",
    log:
        f"{NCV_LOG}/fig6.log",
    benchmark:
        f"{NCV_BENCH}/fig6.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=ncv_runtime("fig6", 20),
    params:
        json=lambda w: study_params("nonconjugate_vi"),
    shell:
        "python -m latentlab nonconjugate_vi fig6 --params {params.json:q} "
        "--png-a {output.png_a} --csv-a {output.csv_a} --png-b {output.png_b} "
        "--csv-b {output.csv_b} > {log} 2>&1"


rule nonconjugate_vi_table1:
    input:
        ncv_real_inputs(*NCV["blr"]["table1"]),
    output:
        csv=f"{NCV_OUT}/table1.csv",
        md=f"{NCV_OUT}/table1.md",
        problems=f"{NCV_OUT}/table1_problems.csv",
    log:
        f"{NCV_LOG}/table1.log",
    benchmark:
        f"{NCV_BENCH}/table1.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=ncv_runtime("table1", 20),
    params:
        json=lambda w: study_params("nonconjugate_vi"),
    shell:
        "python -m latentlab nonconjugate_vi table1 --params {params.json:q} "
        "--csv {output.csv} --md {output.md} --problems {output.problems} > {log} 2>&1"


rule nonconjugate_vi_table2:
    input:
        ncv_real_inputs(NCV["school"]),
    output:
        csv=f"{NCV_OUT}/table2.csv",
        md=f"{NCV_OUT}/table2.md",
        splits=f"{NCV_OUT}/table2_splits.csv",
        tests=f"{NCV_OUT}/table2_tests.csv",
    log:
        f"{NCV_LOG}/table2.log",
    benchmark:
        f"{NCV_BENCH}/table2.tsv"
    threads: THREADS
    resources:
        mem_mb=3000,
        runtime=ncv_runtime("table2", 20),
    params:
        json=lambda w: study_params("nonconjugate_vi"),
    shell:
        "python -m latentlab nonconjugate_vi table2 --params {params.json:q} "
        "--csv {output.csv} --md {output.md} --splits {output.splits} "
        "--tests {output.tests} > {log} 2>&1"


rule nonconjugate_vi_bench:
    input:
        ncv_real_inputs(
            ncv_corpus(NCV["bench"]["corpus"]), *NCV["blr"]["table1"], NCV["school"]
        ),
    output:
        f"{NCV_OUT}/bench.csv",
    log:
        f"{NCV_LOG}/bench.log",
    benchmark:
        f"{NCV_BENCH}/bench.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=ncv_runtime("bench", 15),
    params:
        json=lambda w: study_params("nonconjugate_vi"),
    shell:
        "python -m latentlab nonconjugate_vi bench --params {params.json:q} "
        "--out {output} > {log} 2>&1"


rule nonconjugate_vi_claims:
    input:
        sweeps=expand(f"{NCV_OUT}/ctm_sweep_{{c}}.csv", c=NCV_CORPORA),
        fig2=f"{NCV_OUT}/fig2_monotone.csv",
        fig6a=f"{NCV_OUT}/fig6a.csv",
        fig6b=f"{NCV_OUT}/fig6b.csv",
        bench=f"{NCV_OUT}/bench.csv",
        table1=f"{NCV_OUT}/table1.csv",
        table2=f"{NCV_OUT}/table2.csv",
        tests=f"{NCV_OUT}/table2_tests.csv",
    output:
        f"{NCV_OUT}/claims.csv",
    log:
        f"{NCV_LOG}/claims.log",
    benchmark:
        f"{NCV_BENCH}/claims.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=lambda w: study_params("nonconjugate_vi"),
    shell:
        "python -m latentlab nonconjugate_vi claims --params {params.json:q} "
        "--sweeps {input.sweeps} --fig2-monotone {input.fig2} --fig6a {input.fig6a} "
        "--fig6b {input.fig6b} --bench {input.bench} --table1 {input.table1} "
        "--table2 {input.table2} --table2-tests {input.tests} --out {output} > {log} 2>&1"
