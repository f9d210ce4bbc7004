# The run report: every study's claims ledger and figures, paper next to ours.
# `snakemake --report report.html` builds the HTML report from the report() flags
# that the study rules put on their figures.


rule report:
    input:
        claims=expand("{out}/{study}/claims.csv", out=OUT, study=STUDIES),
        figures=lambda w: report_figures(),
        summaries=lambda w: DATA_SUMMARIES,
        # every output of each study's target rule (tables, bench too), so `all` builds them
        # and the report shows them
        outputs=lambda w: [f for s in STUDIES for f in getattr(rules, s).input],
    output:
        report(
            f"{OUT}/REPORT.md",
            caption="../report/report.rst",
            category="Report",
        ),
    log:
        f"{LOGS}/report.log",
    benchmark:
        f"{BENCH}/report.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        run=RUN,
    shell:
        "python -m latentlab claims report --run {params.run} --out {output} "
        "--claims {input.claims} --figures {input.figures} "
        "--summaries {input.summaries} > {log} 2>&1"
