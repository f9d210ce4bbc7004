# Study ais_eval: Foulds (2014) chapter 5, likelihood estimators for topic models
# (digest 004 Sec. 5, 6.4, 8 "Chapter 5"). Thin rules: all logic is in
# src/latentlab/studies/ais_eval/ (python -m latentlab ais_eval ...).

AE = config["ais_eval"]
AE_OUT = f"{OUT}/ais_eval"
AE_LOG = f"{LOGS}/ais_eval"
AE_BENCH = f"{BENCH}/ais_eval"
AE_ROLES = sorted(AE["corpora"])
# Figures named after the document's corpus they stand in for.
AE_SCATTER = {"fig5_4": "acl", "fig5_5": "nips"}
AE_ITERFIG = {
    "fig5_7": ("acl", "ll"),
    "fig5_8": ("nips", "ll"),
    "fig5_9": ("acl", "var"),
    "fig5_10": ("nips", "var"),
}
AE_FIGS = [
    f"{AE_OUT}/{f}"
    for f in ["fig5_6"] + list(AE_SCATTER) + list(AE_ITERFIG) + ["fig5_11"]
]
AE_TABLES = ["table5_1", "table5_2", "table5_3"]
STUDY_FIGURES["ais_eval"] = [f"{f}.png" for f in AE_FIGS]


def ae_corpus(role):
    """Corpus of a role: synthetic ones are built here, real ones by rules/data.smk."""
    spec = AE["corpora"][role]
    if spec["kind"] == "synthetic":
        return f"{AE_OUT}/data/{role}.npz"
    return data_path(spec["dataset"])


def ae_triple(role, path):
    return f"{role}:{AE['corpora'][role]['dataset']}:{path}"


def ae_triples(step, roles=None):
    return " ".join(
        ae_triple(r, f"{AE_OUT}/raw/{step}_{r}.csv") for r in (roles or AE_ROLES)
    )


rule ais_eval:
    input:
        [f"{f}.png" for f in AE_FIGS],
        [f"{f}.csv" for f in AE_FIGS],
        [f"{AE_OUT}/{t}.csv" for t in AE_TABLES],
        [f"{AE_OUT}/{t}.md" for t in AE_TABLES],
        f"{AE_OUT}/bench.csv",
        f"{AE_OUT}/claims.csv",


rule ais_eval_synth:
    output:
        f"{AE_OUT}/data/{{role}}.npz",
    log:
        f"{AE_LOG}/synth_{{role}}.log",
    benchmark:
        f"{AE_BENCH}/synth_{{role}}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=lambda w: study_params("ais_eval"),
    shell:
        "python -m latentlab ais_eval synth --role {wildcards.role} "
        "--params {params.json:q} --out {output} > {log} 2>&1"


rule ais_eval_train:
    input:
        lambda w: ae_corpus(w.role),
    output:
        f"{AE_OUT}/models/{{role}}.npz",
    log:
        f"{AE_LOG}/train_{{role}}.log",
    benchmark:
        f"{AE_BENCH}/train_{{role}}.tsv"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        json=lambda w: study_params("ais_eval"),
    shell:
        "python -m latentlab ais_eval train --role {wildcards.role} --corpus {input} "
        "--params {params.json:q} --out {output} > {log} 2>&1"


rule ais_eval_raw:
    input:
        f"{AE_OUT}/models/{{role}}.npz",
    output:
        f"{AE_OUT}/raw/{{step}}_{{role}}.csv",
    log:
        f"{AE_LOG}/{{step}}_{{role}}.log",
    benchmark:
        f"{AE_BENCH}/{{step}}_{{role}}.tsv"
    wildcard_constraints:
        step="perturbed|symasym|iteration",
    threads: THREADS
    resources:
        mem_mb=4000,
        runtime=120,
    params:
        json=lambda w: study_params("ais_eval"),
    shell:
        "python -m latentlab ais_eval {wildcards.step} --role {wildcards.role} "
        "--models {input} --params {params.json:q} --out {output} > {log} 2>&1"


rule ais_eval_table5_1:
    input:
        expand(f"{AE_OUT}/raw/perturbed_{{role}}.csv", role=AE_ROLES),
    output:
        csv=report(
            f"{AE_OUT}/table5_1.csv",
            caption="../report/ais_eval/tables.rst",
            category="ais_eval",
        ),
        md=f"{AE_OUT}/table5_1.md",
    log:
        f"{AE_LOG}/table5_1.log",
    benchmark:
        f"{AE_BENCH}/table5_1.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: study_params("ais_eval"),
        raw=ae_triples("perturbed"),
    shell:
        "python -m latentlab ais_eval table --table 5.1 --raw {params.raw} "
        "--params {params.json:q} --csv {output.csv} --md {output.md} > {log} 2>&1"


rule ais_eval_table5_2:
    input:
        expand(f"{AE_OUT}/raw/perturbed_{{role}}.csv", role=AE_ROLES),
    output:
        csv=report(
            f"{AE_OUT}/table5_2.csv",
            caption="../report/ais_eval/tables.rst",
            category="ais_eval",
        ),
        md=f"{AE_OUT}/table5_2.md",
    log:
        f"{AE_LOG}/table5_2.log",
    benchmark:
        f"{AE_BENCH}/table5_2.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: study_params("ais_eval"),
        raw=ae_triples("perturbed"),
    shell:
        "python -m latentlab ais_eval table --table 5.2 --raw {params.raw} "
        "--params {params.json:q} --csv {output.csv} --md {output.md} > {log} 2>&1"


rule ais_eval_table5_3:
    input:
        expand(f"{AE_OUT}/raw/symasym_{{role}}.csv", role=AE_ROLES),
    output:
        csv=report(
            f"{AE_OUT}/table5_3.csv",
            caption="../report/ais_eval/tables.rst",
            category="ais_eval",
        ),
        md=f"{AE_OUT}/table5_3.md",
    log:
        f"{AE_LOG}/table5_3.log",
    benchmark:
        f"{AE_BENCH}/table5_3.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: study_params("ais_eval"),
        raw=ae_triples("symasym"),
    shell:
        "python -m latentlab ais_eval table --table 5.3 --raw {params.raw} "
        "--params {params.json:q} --csv {output.csv} --md {output.md} > {log} 2>&1"


rule ais_eval_scatter:
    input:
        lambda w: f"{AE_OUT}/raw/perturbed_{AE_SCATTER[w.fig]}.csv",
    output:
        png=report(
            f"{AE_OUT}/{{fig}}.png",
            caption="../report/ais_eval/scatter.rst",
            category="ais_eval",
        ),
        csv=f"{AE_OUT}/{{fig}}.csv",
    log:
        f"{AE_LOG}/{{fig}}.log",
    benchmark:
        f"{AE_BENCH}/{{fig}}.tsv"
    wildcard_constraints:
        fig="fig5_4|fig5_5",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: study_params("ais_eval"),
        raw=lambda w: ae_triple(
            AE_SCATTER[w.fig], f"{AE_OUT}/raw/perturbed_{AE_SCATTER[w.fig]}.csv"
        ),
        num=lambda w: w.fig[3:].replace("_", "."),
    shell:
        "python -m latentlab ais_eval scatter --figure {params.num} --raw {params.raw} "
        "--params {params.json:q} --png {output.png} --csv {output.csv} > {log} 2>&1"


rule ais_eval_fig5_6:
    input:
        f"{AE_OUT}/models/nips.npz",
    output:
        png=report(
            f"{AE_OUT}/fig5_6.png",
            caption="../report/ais_eval/ntemps.rst",
            category="ais_eval",
        ),
        csv=f"{AE_OUT}/fig5_6.csv",
        raw=f"{AE_OUT}/raw/ntemps_nips.csv",
    log:
        f"{AE_LOG}/fig5_6.log",
    benchmark:
        f"{AE_BENCH}/fig5_6.tsv"
    threads: THREADS
    resources:
        mem_mb=2000,
        runtime=60,
    params:
        json=lambda w: study_params("ais_eval"),
    shell:
        "python -m latentlab ais_eval ntemps --role nips --models {input} "
        "--params {params.json:q} --raw {output.raw} --png {output.png} --csv {output.csv} "
        "> {log} 2>&1"


rule ais_eval_iterfig:
    input:
        lambda w: f"{AE_OUT}/raw/iteration_{AE_ITERFIG[w.fig][0]}.csv",
    output:
        png=report(
            f"{AE_OUT}/{{fig}}.png",
            caption="../report/ais_eval/iteration.rst",
            category="ais_eval",
        ),
        csv=f"{AE_OUT}/{{fig}}.csv",
    log:
        f"{AE_LOG}/{{fig}}.log",
    benchmark:
        f"{AE_BENCH}/{{fig}}.tsv"
    wildcard_constraints:
        fig="fig5_7|fig5_8|fig5_9|fig5_10",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: study_params("ais_eval"),
        raw=lambda w: ae_triple(
            AE_ITERFIG[w.fig][0], f"{AE_OUT}/raw/iteration_{AE_ITERFIG[w.fig][0]}.csv"
        ),
        kind=lambda w: AE_ITERFIG[w.fig][1],
        num=lambda w: w.fig[3:].replace("_", "."),
    shell:
        "python -m latentlab ais_eval iterfig --figure {params.num} --kind {params.kind} "
        "--raw {params.raw} --params {params.json:q} --png {output.png} --csv {output.csv} "
        "> {log} 2>&1"


rule ais_eval_fig5_11:
    input:
        f"{AE_OUT}/models/acl.npz",
    output:
        png=report(
            f"{AE_OUT}/fig5_11.png",
            caption="../report/ais_eval/entropy.rst",
            category="ais_eval",
        ),
        csv=f"{AE_OUT}/fig5_11.csv",
    log:
        f"{AE_LOG}/fig5_11.log",
    benchmark:
        f"{AE_BENCH}/fig5_11.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: study_params("ais_eval"),
        models=ae_triple("acl", f"{AE_OUT}/models/acl.npz"),
    shell:
        "python -m latentlab ais_eval fig5_11 --models {params.models} "
        "--params {params.json:q} --png {output.png} --csv {output.csv} > {log} 2>&1"


rule ais_eval_bench:
    input:
        # the table/figure targets finish first, so their wall times are reported too
        [f"{f}.csv" for f in AE_FIGS],
        [f"{AE_OUT}/{t}.csv" for t in AE_TABLES],
    output:
        f"{AE_OUT}/bench.csv",
    log:
        f"{AE_LOG}/bench.log",
    benchmark:
        f"{AE_BENCH}/bench.tsv"
    threads: 1
    resources:
        mem_mb=3000,
        runtime=10,
    params:
        json=lambda w: study_params("ais_eval"),
        tsv=AE_BENCH,
    shell:
        "python -m latentlab ais_eval bench --tsv $(ls {params.tsv}/*.tsv 2>/dev/null) "
        "--params {params.json:q} --out {output} > {log} 2>&1"


rule ais_eval_claims:
    input:
        expand(
            f"{AE_OUT}/raw/{{step}}_{{role}}.csv",
            step=["perturbed", "symasym", "iteration"],
            role=AE_ROLES,
        ),
        f"{AE_OUT}/raw/ntemps_nips.csv",
        expand(f"{AE_OUT}/models/{{role}}.npz", role=AE_ROLES),
    output:
        f"{AE_OUT}/claims.csv",
    log:
        f"{AE_LOG}/claims.log",
    benchmark:
        f"{AE_BENCH}/claims.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        json=lambda w: study_params("ais_eval"),
        perturbed=ae_triples("perturbed"),
        symasym=ae_triples("symasym"),
        iteration=ae_triples("iteration"),
        ntemps=ae_triple("nips", f"{AE_OUT}/raw/ntemps_nips.csv"),
        models=" ".join(ae_triple(r, f"{AE_OUT}/models/{r}.npz") for r in AE_ROLES),
    shell:
        "python -m latentlab ais_eval claims --perturbed {params.perturbed} "
        "--symasym {params.symasym} --iteration {params.iteration} --ntemps {params.ntemps} "
        "--models {params.models} --params {params.json:q} --out {output} > {log} 2>&1"
