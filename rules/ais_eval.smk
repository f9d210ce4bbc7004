# Study ais_eval: Foulds (2014) chapter 5, likelihood estimators for topic models
# (Secs 5.1-5.3). One rule per kind of step; every step is
# `python -m latentlab ais_eval <step>` with only the config keys it reads (step_params)
# and every path named here (io_args). Corpora have roles: nips, acl (Sec. 5.3).
from latentlab.studies.ais_eval.study import (
    ENTROPY_ROLE,
    ITERATION_FIGS,
    NTEMPS_ROLE,
    SCATTER_ROLES,
)

AE = config["ais_eval"]
AE_OUT = f"{OUT}/ais_eval"
AE_LOG = f"{LOGS}/ais_eval"
AE_BENCH = f"{BENCH}/ais_eval"
AE_ROLES = sorted(AE["corpora"])
AE_FIG_IDS = ["fig5_6", *SCATTER_ROLES, *ITERATION_FIGS, "fig5_11"]
AE_TABLES = ["table5_1", "table5_2", "table5_3"]
AE_TABLE_RAW = {"table5_1": "perturbed", "table5_2": "perturbed", "table5_3": "symasym"}
# the evidence the causes and REVERSALS.md cite (studies/ais_eval/evidence.py), built on
# demand: snakemake ais_eval_evidence (not part of the study's target)
AE_EVIDENCE = ["doc_length", "iteration_jensen", "first_snapshot_synthetic"]
STUDY_FIGURES["ais_eval"] = [f"{AE_OUT}/{f}.png" for f in AE_FIG_IDS]


def ae_corpus(role):
    """Corpus of a role: synthetic ones are built here, real ones by rules/data.smk."""
    spec = AE["corpora"][role]
    if spec["kind"] == "synthetic":
        return f"{AE_OUT}/data/{role}.npz"
    return data_path(spec["dataset"])


def ae_raw(step, role):
    return f"{AE_OUT}/raw/{step}_{role}.csv"


def ae_io(wildcards, input, output):
    return io_args(input, output, wildcards)


rule ais_eval:
    input:
        [f"{AE_OUT}/{f}.{x}" for f in AE_FIG_IDS for x in ("png", "csv")],
        [f"{AE_OUT}/{t}.{x}" for t in AE_TABLES for x in ("csv", "md")],
        f"{AE_OUT}/bench.csv",
        f"{AE_OUT}/claims.csv",


rule ais_eval_synth:
    output:
        corpus=f"{AE_OUT}/data/{{role}}.npz",
    log:
        f"{AE_LOG}/synth_{{role}}.log",
    benchmark:
        f"{AE_BENCH}/synth_{{role}}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=step_params("ais_eval", "synth"),
        io=ae_io,
    shell:
        "python -m latentlab ais_eval synth --params {params.json:q} {params.io} > {log} 2>&1"


rule ais_eval_train:
    input:
        corpus=lambda w: ae_corpus(w.role),
    output:
        models=f"{AE_OUT}/models/{{role}}.npz",
    log:
        f"{AE_LOG}/train_{{role}}.log",
    benchmark:
        f"{AE_BENCH}/train_{{role}}.tsv"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        json=step_params("ais_eval", "train"),
        io=ae_io,
    shell:
        "python -m latentlab ais_eval train --params {params.json:q} {params.io} > {log} 2>&1"


rule ais_eval_raw:
    input:
        models=f"{AE_OUT}/models/{{role}}.npz",
    output:
        csv=f"{AE_OUT}/raw/{{step}}_{{role}}.csv",
    log:
        f"{AE_LOG}/{{step}}_{{role}}.log",
    benchmark:
        f"{AE_BENCH}/{{step}}_{{role}}.tsv"
    wildcard_constraints:
        step="perturbed|symasym|iteration|ntemps",
    threads: THREADS
    resources:
        mem_mb=4000,
        runtime=120,
    params:
        json=lambda w: step_params("ais_eval", w.step),
        io=lambda w, input, output: io_args(input, output, {"role": w.role}),
    shell:
        "python -m latentlab ais_eval {wildcards.step} --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule ais_eval_table:
    input:
        unpack(lambda w: {r: ae_raw(AE_TABLE_RAW[w.table], r) for r in AE_ROLES}),
    output:
        csv=report(
            f"{AE_OUT}/{{table}}.csv",
            caption="../report/ais_eval/tables.rst",
            category="ais_eval",
        ),
        md=f"{AE_OUT}/{{table}}.md",
    log:
        f"{AE_LOG}/{{table}}.log",
    benchmark:
        f"{AE_BENCH}/{{table}}.tsv"
    wildcard_constraints:
        table="|".join(AE_TABLES),
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: step_params("ais_eval", w.table),
        io=ae_io,
    shell:
        "python -m latentlab ais_eval {wildcards.table} --params {params.json:q} {params.io} "
        "> {log} 2>&1"


def ae_figure_input(w):
    if w.fig in SCATTER_ROLES:
        return {"raw": ae_raw("perturbed", SCATTER_ROLES[w.fig])}
    if w.fig in ITERATION_FIGS:
        return {"raw": ae_raw("iteration", ITERATION_FIGS[w.fig][0])}
    if w.fig == "fig5_6":
        return {"raw": ae_raw("ntemps", NTEMPS_ROLE)}
    return {"models": f"{AE_OUT}/models/{ENTROPY_ROLE}.npz"}


rule ais_eval_figure:
    input:
        unpack(ae_figure_input),
    output:
        png=report(
            f"{AE_OUT}/{{fig}}.png",
            caption="../report/ais_eval/figures.rst",
            category="ais_eval",
        ),
        csv=f"{AE_OUT}/{{fig}}.csv",
    log:
        f"{AE_LOG}/{{fig}}.log",
    benchmark:
        f"{AE_BENCH}/{{fig}}.tsv"
    wildcard_constraints:
        fig="|".join(AE_FIG_IDS),
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: step_params("ais_eval", w.fig),
        io=ae_io,
    shell:
        "python -m latentlab ais_eval {wildcards.fig} --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule ais_eval_bench:
    input:
        # the table/figure targets finish first, so their wall times are reported too
        [f"{AE_OUT}/{f}.csv" for f in AE_FIG_IDS + AE_TABLES],
    output:
        csv=f"{AE_OUT}/bench.csv",
    log:
        f"{AE_LOG}/bench.log",
    benchmark:
        f"{AE_BENCH}/bench.tsv"
    threads: 1
    resources:
        mem_mb=3000,
        runtime=10,
    params:
        json=step_params("ais_eval", "bench"),
        io=ae_io,
        tsv=AE_BENCH,
    shell:
        # the wall times come from Snakemake's benchmark files of the other rules
        "python -m latentlab ais_eval bench --params {params.json:q} {params.io} "
        "--input $(for f in {params.tsv}/*.tsv; do [ -e $f ] && echo tsv=$f; done) "
        "> {log} 2>&1"


rule ais_eval_claims:
    input:
        **{
            f"{s}_{r}": ae_raw(s, r)
            for s in ("perturbed", "symasym", "iteration")
            for r in AE_ROLES
        },
        **{f"models_{r}": f"{AE_OUT}/models/{r}.npz" for r in AE_ROLES},
        readings=readings_inputs("ais_eval"),
        ladder=ladder_inputs("ais_eval"),
        ntemps=ae_raw("ntemps", NTEMPS_ROLE),
    output:
        csv=f"{AE_OUT}/claims.csv",
    log:
        f"{AE_LOG}/claims.log",
    benchmark:
        f"{AE_BENCH}/claims.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        json=step_params("ais_eval", "claims"),
        io=ae_io,
    shell:
        "python -m latentlab ais_eval claims --params {params.json:q} {params.io} > {log} 2>&1"


def ae_evidence_input(w):
    if w.name == "doc_length":
        return {
            f"{s}_{r}": ae_raw(s, r) for s in ("perturbed", "symasym") for r in AE_ROLES
        }
    if w.name == "iteration_jensen":
        return {f"models_{r}": f"{AE_OUT}/models/{r}.npz" for r in AE_ROLES}
    return {}


rule ais_eval_evidence:
    input:
        [f"{AE_OUT}/evidence/{e}.csv" for e in AE_EVIDENCE],


rule ais_eval_evidence_step:
    input:
        unpack(ae_evidence_input),
    output:
        csv=f"{AE_OUT}/evidence/{{name}}.csv",
    log:
        f"{AE_LOG}/evidence_{{name}}.log",
    benchmark:
        f"{AE_BENCH}/evidence_{{name}}.tsv"
    wildcard_constraints:
        name="|".join(AE_EVIDENCE),
    threads: THREADS
    resources:
        mem_mb=4000,
        runtime=240,
    params:
        json=lambda w: step_params("ais_eval", f"evidence_{w.name}"),
        io=ae_io,
    shell:
        "python -m latentlab ais_eval evidence_{wildcards.name} --params {params.json:q} "
        "{params.io} > {log} 2>&1"
