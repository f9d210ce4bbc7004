# Study drift: DRIFT / LFRM on synthetic and Enron networks (Foulds 2014, ch. 2; seed 004,
# Secs 2.4-2.7). Thin rules: the logic is in src/latentlab/studies/drift/.

DR = config["drift"]
DR_OUT = f"{OUT}/drift"
DR_LOG = f"{LOGS}/drift"
DR_BENCH = f"{BENCH}/drift"
DR_SYNTH_FIGS = ["fig2_2", "fig2_3"]
DR_MONTHLY_FIGS = ["fig2_4", "fig2_5", "fig2_6", "fig2_7"]
DR_TEXT_FIGS = ["fig2_8"]
DR_FIGS = DR_SYNTH_FIGS + DR_MONTHLY_FIGS + DR_TEXT_FIGS
DR_TABLES = ["table2_1", "table2_2", "table2_3", "table2_4"]
DR_TEXT_KINDS = ["enron_text", "twitter_text", "bmf_text"]
DR_TEXT_OF = {
    "fig2_8": "enron_text",
    "table2_3": "enron_text",
    "table2_4": "twitter_text",
}
STUDY_FIGURES["drift"] = [f"{DR_OUT}/{f}.png" for f in DR_FIGS]
# the registry's parsed settings (latentlab.studies.drift.study): no default repeated here
DR_TEXT_SETTINGS = _study_shape("drift").settings("enron_text_fit", DR)
DR_SOURCE = DR_TEXT_SETTINGS.network.source
# LFRM_LDA on the Enron subject lines (Table 2.3's real substitute): needs the mirror
DR_ENRON_TEXT = DR_TEXT_SETTINGS.enron_text.enabled
DR_ENRON_TEXT_OUT = {
    "enron_topics": f"{DR_OUT}/enron_text_topics.csv",
    "enron_summary": f"{DR_OUT}/enron_text_summary.json",
}


def dr_text_inputs(name):
    k = DR_TEXT_OF[name]
    extra = DR_ENRON_TEXT_OUT if DR_ENRON_TEXT and name == "table2_3" else {}
    return {
        "data": f"{DR_OUT}/text_{k}_data.npz",
        "fit": f"{DR_OUT}/text_{k}_fit.npz",
        "recovery": f"{DR_OUT}/text_{k}_recovery.csv",
        **extra,
    }


def dr_figure_inputs(w):
    if w.fig in DR_TEXT_OF:
        return dr_text_inputs(w.fig)
    if w.fig in DR_SYNTH_FIGS:
        return {"matrices": f"{DR_OUT}/synth_matrices.npz"}
    return {
        "matrices": f"{DR_OUT}/monthly_matrices.npz",
        "forecast": f"{DR_OUT}/monthly_forecast.csv",
        "network_summary": f"{DR_OUT}/network_summary.json",
    }


def dr_table_inputs(w):
    if w.table in DR_TEXT_OF:
        return dr_text_inputs(w.table)
    if w.table == "table2_1":
        return {
            "synth_scores": f"{DR_OUT}/synth_scores.csv",
            "forecast": f"{DR_OUT}/monthly_forecast.csv",
            "missing": f"{DR_OUT}/monthly_missing.csv",
            "network_summary": f"{DR_OUT}/network_summary.json",
        }
    return {"matrices": f"{DR_OUT}/monthly_matrices.npz"}


rule drift:
    input:
        [f"{DR_OUT}/{f}.{e}" for f in DR_FIGS for e in ("png", "csv")],
        [f"{DR_OUT}/{t}.{e}" for t in DR_TABLES for e in ("csv", "md")],
        f"{DR_OUT}/claims.csv",
        f"{DR_OUT}/bench.csv",
        # the evidence the causes and REVERSALS.md case 2 cite (published with the run)
        f"{DR_OUT}/evidence/synthetic_signal.csv",
        f"{DR_OUT}/evidence/traces.csv",


rule drift_synth_data:
    output:
        networks=f"{DR_OUT}/synth_networks.npz",
    log:
        f"{DR_LOG}/synth_data.log",
    benchmark:
        f"{DR_BENCH}/synth_data.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=step_params("drift", "synth_data"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift synth_data --params {params.json:q} {params.io} > {log} 2>&1"


rule drift_synth_fit:
    input:
        networks=f"{DR_OUT}/synth_networks.npz",
    output:
        scores=f"{DR_OUT}/synth_scores.csv",
        recovery=f"{DR_OUT}/synth_recovery.csv",
        matrices=f"{DR_OUT}/synth_matrices.npz",
        trace=f"{DR_OUT}/synth_trace.csv",
        timing=f"{DR_OUT}/synth_timing.json",
    log:
        f"{DR_LOG}/synth_fit.log",
    benchmark:
        f"{DR_BENCH}/synth_fit.tsv"
    threads: THREADS
    resources:
        mem_mb=3000,
        runtime=120,
    params:
        json=step_params("drift", "synth_fit"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift synth_fit --params {params.json:q} {params.io} > {log} 2>&1"


rule drift_text_data:
    output:
        **{k: f"{DR_OUT}/text_{k}_data.npz" for k in DR_TEXT_KINDS},
    log:
        f"{DR_LOG}/text_data.log",
    benchmark:
        f"{DR_BENCH}/text_data.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        json=step_params("drift", "text_data"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift text_data --params {params.json:q} {params.io} > {log} 2>&1"


rule drift_text_fit:
    input:
        data=f"{DR_OUT}/text_{{tds}}_data.npz",
    output:
        fit=f"{DR_OUT}/text_{{tds}}_fit.npz",
        recovery=f"{DR_OUT}/text_{{tds}}_recovery.csv",
        trace=f"{DR_OUT}/text_{{tds}}_trace.csv",
        timing=f"{DR_OUT}/text_{{tds}}_timing.json",
    log:
        f"{DR_LOG}/text_fit_{{tds}}.log",
    benchmark:
        f"{DR_BENCH}/text_fit_{{tds}}.tsv"
    wildcard_constraints:
        tds="|".join(DR_TEXT_KINDS),
    threads: 1
    resources:
        mem_mb=2000,
        runtime=240,
    params:
        json=step_params("drift", "text_fit"),
        io=lambda w, input, output: io_args(input, output, w),
    shell:
        "python -m latentlab drift text_fit --params {params.json:q} {params.io} > {log} 2>&1"


rule drift_enron_text_fit:
    input:
        graph=data_path("enron_email"),
        messages=f"{RESOURCES}/enron-email/messages.tsv",
    output:
        fit=f"{DR_OUT}/enron_text_fit.npz",
        topics=DR_ENRON_TEXT_OUT["enron_topics"],
        summary=DR_ENRON_TEXT_OUT["enron_summary"],
        trace=f"{DR_OUT}/enron_text_trace.csv",
    log:
        f"{DR_LOG}/enron_text_fit.log",
    benchmark:
        f"{DR_BENCH}/enron_text_fit.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        json=step_params("drift", "enron_text_fit"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift enron_text_fit --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule drift_network:
    input:
        **({"graph": data_path("enron_email")} if DR_SOURCE == "enron_email" else {}),
    output:
        networks=f"{DR_OUT}/networks.npz",
        summary=f"{DR_OUT}/network_summary.json",
    log:
        f"{DR_LOG}/network.log",
    benchmark:
        f"{DR_BENCH}/network.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=5,
    params:
        json=step_params("drift", "network"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift network --params {params.json:q} {params.io} > {log} 2>&1"


rule drift_monthly_fit:
    input:
        networks=f"{DR_OUT}/networks.npz",
    output:
        forecast=f"{DR_OUT}/monthly_forecast.csv",
        missing=f"{DR_OUT}/monthly_missing.csv",
        matrices=f"{DR_OUT}/monthly_matrices.npz",
        trace=f"{DR_OUT}/monthly_trace.csv",
        timing=f"{DR_OUT}/monthly_timing.json",
    log:
        f"{DR_LOG}/monthly_fit.log",
    benchmark:
        f"{DR_BENCH}/monthly_fit.tsv"
    threads: THREADS
    resources:
        mem_mb=4000,
        runtime=240,
    params:
        json=step_params("drift", "monthly_fit"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift monthly_fit --params {params.json:q} {params.io} > {log} 2>&1"


rule drift_figure:
    input:
        unpack(dr_figure_inputs),
    output:
        png=report(
            f"{DR_OUT}/{{fig}}.png",
            caption="../report/drift/figure.rst",
            category="drift",
        ),
        csv=f"{DR_OUT}/{{fig}}.csv",
    log:
        f"{DR_LOG}/{{fig}}.log",
    benchmark:
        f"{DR_BENCH}/{{fig}}.tsv"
    wildcard_constraints:
        fig="fig2_[2-8]",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=5,
    params:
        json=lambda w: step_params("drift", w.fig),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift {wildcards.fig} --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule drift_table:
    input:
        unpack(dr_table_inputs),
    output:
        csv=f"{DR_OUT}/{{table}}.csv",
        md=f"{DR_OUT}/{{table}}.md",
    log:
        f"{DR_LOG}/{{table}}.log",
    benchmark:
        f"{DR_BENCH}/{{table}}.tsv"
    wildcard_constraints:
        table="table2_[1-4]",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=lambda w: step_params("drift", w.table),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift {wildcards.table} --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule drift_claims:
    input:
        **{f"recovery_{k}": f"{DR_OUT}/text_{k}_recovery.csv" for k in DR_TEXT_KINDS},
        **(DR_ENRON_TEXT_OUT if DR_ENRON_TEXT else {}),
        readings=readings_inputs("drift"),
        ladder=ladder_inputs("drift"),
        synth_scores=f"{DR_OUT}/synth_scores.csv",
        recovery=f"{DR_OUT}/synth_recovery.csv",
        synth_trace=f"{DR_OUT}/synth_trace.csv",
        forecast=f"{DR_OUT}/monthly_forecast.csv",
        missing=f"{DR_OUT}/monthly_missing.csv",
        monthly_trace=f"{DR_OUT}/monthly_trace.csv",
        monthly_matrices=f"{DR_OUT}/monthly_matrices.npz",
        network_summary=f"{DR_OUT}/network_summary.json",
        table2_2=f"{DR_OUT}/table2_2.csv",
    output:
        csv=f"{DR_OUT}/claims.csv",
    log:
        f"{DR_LOG}/claims.log",
    benchmark:
        f"{DR_BENCH}/claims.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=step_params("drift", "claims"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift claims --params {params.json:q} {params.io} > {log} 2>&1"


rule drift_bench:
    output:
        csv=f"{DR_OUT}/bench.csv",
    log:
        f"{DR_LOG}/bench.log",
    benchmark:
        f"{DR_BENCH}/bench.tsv"
    threads: THREADS
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        json=step_params("drift", "bench"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift bench --params {params.json:q} {params.io} > {log} 2>&1"


# Evidence the causes, readings and REVERSALS.md case 2 cite (issue 37; studies/drift/
# evidence.py): published under published/real/drift/evidence/ and rebuilt with
# `python -m latentlab rebuild published/real/drift/evidence/<name>.csv`
rule drift_evidence:
    input:
        f"{DR_OUT}/evidence/synthetic_signal.csv",
        f"{DR_OUT}/evidence/traces.csv",


# C2.13's settling run (evidence.py: longer burn-in, several chains), built on demand
# (~5,500 + 900 CPU-s on the real settings; not in the study's target): `snakemake
# drift_evidence_chains`; the Enron fit's part needs the data mirror (drift.enron_text)
DR_CHAIN_EVIDENCE = ["text_chains"] + (["enron_chains"] if DR_ENRON_TEXT else [])


rule drift_evidence_chains:
    input:
        [f"{DR_OUT}/evidence/{e}.csv" for e in DR_CHAIN_EVIDENCE],


rule drift_evidence_text_chains:
    input:
        **{k: f"{DR_OUT}/text_{k}_data.npz" for k in DR_TEXT_KINDS},
    output:
        csv=f"{DR_OUT}/evidence/text_chains.csv",
    log:
        f"{DR_LOG}/evidence_text_chains.log",
    benchmark:
        f"{DR_BENCH}/evidence_text_chains.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=600,
    params:
        json=step_params("drift", "evidence_text_chains"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift evidence_text_chains --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule drift_evidence_enron_chains:
    input:
        graph=data_path("enron_email"),
        messages=f"{RESOURCES}/enron-email/messages.tsv",
    output:
        csv=f"{DR_OUT}/evidence/enron_chains.csv",
    log:
        f"{DR_LOG}/evidence_enron_chains.log",
    benchmark:
        f"{DR_BENCH}/evidence_enron_chains.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=240,
    params:
        json=step_params("drift", "evidence_enron_chains"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift evidence_enron_chains --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule drift_evidence_synthetic_signal:
    input:
        networks=f"{DR_OUT}/synth_networks.npz",
    output:
        csv=f"{DR_OUT}/evidence/synthetic_signal.csv",
    log:
        f"{DR_LOG}/evidence_synthetic_signal.log",
    benchmark:
        f"{DR_BENCH}/evidence_synthetic_signal.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        json=step_params("drift", "evidence_synthetic_signal"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift evidence_synthetic_signal --params {params.json:q} "
        "{params.io} > {log} 2>&1"


rule drift_evidence_traces:
    input:
        synth_trace=f"{DR_OUT}/synth_trace.csv",
        monthly_trace=f"{DR_OUT}/monthly_trace.csv",
    output:
        csv=f"{DR_OUT}/evidence/traces.csv",
    log:
        f"{DR_LOG}/evidence_traces.log",
    benchmark:
        f"{DR_BENCH}/evidence_traces.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        json=step_params("drift", "evidence_traces"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab drift evidence_traces --params {params.json:q} {params.io} "
        "> {log} 2>&1"
