# latentlab: every table and figure of the four documents as a rebuildable target.
# `snakemake` builds the default "smoke" run (config/config.yaml): synthetic and
# bundled data, no network. See docs/runs.md for the real and paper runs.


# config/config.yaml is the default run. A run given with --configfile=FILE is not merged
# over it (smoke settings would leak in): FILE names its base run (`base: smoke|real|paper`)
# or is completed by the schema's defaults (rules/common.smk, latentlab.runconfig).
if not workflow.config_settings.configfiles:

    configfile: "config/config.yaml"


report: "report/workflow.rst"


include: "rules/common.smk"
include: "rules/data.smk"
include: "rules/local.smk"
include: "rules/compare.smk"


for _study in STUDIES:

    include: f"rules/{_study}.smk"


include: "rules/report.smk"
# a study's rules rerun under another config: a ladder's rungs and the readings' options
include: "rules/sweep.smk"


# config/ladder.yaml (docs/runs.md "Ladders"): a ladder run builds its ladders, not a report
LADDER_TARGETS = []
if "ladder" in config and config["ladder"].get("studies"):

    include: "rules/ladder.smk"


# readings sweeps (docs/runs.md "Readings"): each option of a document's open choice
if (config.get("readings") or {}).get("studies"):

    include: "rules/readings.smk"


rule all:
    default_target: True
    input:
        LADDER_TARGETS or [DATA_SUMMARIES, f"{OUT}/REPORT.md"],


rule datasets:
    input:
        DATA_SUMMARIES,


# A failed job's own message on the console, not only in its log file: Snakemake names the
# log ("check log file(s) for error details"); this prints the log's last words (the file
# or key and the problem: latentlab.cliutil.why_it_failed).
onerror:
    import sys
    from latentlab.cliutil import failed_jobs_message

    print(failed_jobs_message(failed_job_logs(log)), file=sys.stderr)
