# Shared set-up: config validation, run paths, helpers for the study rules.
import json
import os
import shlex

from snakemake.utils import min_version

from latentlab import runconfig
from latentlab.provenance import COMMIT_ENV, CONFIG_ENV, config_sha256, source_commit

min_version("9.0")

# A --configfile needs only what it changes (docs/config.md "Config files"): its `base:` run under
# it, or the schema's defaults; `run` defaults to the file's name (latentlab.runconfig).
_CONFIGFILES = list(workflow.config_settings.configfiles or [])
_completed = runconfig.complete(config, _CONFIGFILES, workflow.basedir)
config.clear()
config.update(_completed)

# The data mirror: the environment variable LATENTLAB_MIRROR (a form that cannot swallow a
# target named after it, unlike --config), or data.mirror in a config file. `--config
# mirror=DIR` still works when a target is separated from it by `--`.
if os.environ.get("LATENTLAB_MIRROR"):
    config.setdefault("data", {})["mirror"] = os.environ["LATENTLAB_MIRROR"]
if config.get("mirror") is not None:
    config.setdefault("data", {})["mirror"] = str(config.pop("mirror"))
config.pop("mirror", None)

# a bad value, a missing or unknown key: a few lines naming it, never the schema
runconfig.validate(config, workflow.basedir, _CONFIGFILES)

# Provenance in every output's .meta.json (latentlab.provenance): the source commit and
# the config's hash, computed once here and passed to the jobs (also on cluster nodes).
os.environ.setdefault(COMMIT_ENV, source_commit(workflow.basedir))
os.environ[CONFIG_ENV] = config_sha256(config)

RUN = config["run"]
OUT = f"results/{RUN}"
# Prepared datasets live under results/{data.run}/data/ when data.run names another run (a
# ladder's rungs read the real run's: one prepare job per dataset, not per rung), else here.
DATA_OUT = f"results/{config['data'].get('run') or RUN}/data"
LOGS = f"logs/{RUN}"
BENCH = f"benchmarks/{RUN}"
STUDIES = list(config["studies"])
THREADS = int(config["threads"])
COSTS = config.get("costs")


def cost_resources(study, key, fallback):
    """(mem_mb, runtime minutes) of a heavy job: the run's cost table (config `costs`,
    latentlab.costs, docs/cluster.md) when it has a row for (study, key), else
    ``fallback`` (an object with mem_mb and runtime: the study's resources settings)."""
    if COSTS:
        from latentlab.costs import declared

        got = declared(os.path.join(workflow.basedir, COSTS), study, key)
        if got is not None:
            return got
    return fallback.mem_mb, fallback.runtime


def _study_shape(study):
    """The study's registry of steps and their settings (latentlab.studies.shape.Study,
    without the steps' code: settings_registry reads it from source, so this process
    imports no numba, matplotlib or model code), for studies in the one shape; None for a
    study not yet moved to it."""
    from importlib.util import find_spec

    if find_spec(f"latentlab.studies.{study}.study") is None:
        return None
    from latentlab.studies.shape import settings_registry

    return settings_registry(study)


def step_params(study, step, **extra):
    """JSON of what one step reads: run, base_seed, threads and the keys of the study's
    config section that the step's settings dataclass declares (its fields). A change to
    any other key leaves the step's job alone. A claims step also gets the option of each
    of the study's readings that the run's settings implement (latentlab.readings)."""
    section = config[study]
    keys = _study_shape(study).config_keys(step)
    p = {
        "run": RUN,
        "base_seed": config["base_seed"],
        "threads": THREADS,
        **{k: section[k] for k in keys if k in section},
        **extra,
    }
    if step == "claims":
        from latentlab.readings import labels

        used = labels(study, section)
        if used:
            p["readings"] = used
    return json.dumps(p, sort_keys=True)


def ladder_inputs(study):
    """The published ladder of the study whose verdicts its claims step shows beside its own
    (config ladder_source: a folder holding <study>/ladder.csv, or none)."""
    src = config.get("ladder_source", "none")
    path = f"{src}/{study}/ladder.csv"
    return [path] if src != "none" and os.path.isfile(path) else []


def readings_inputs(study):
    """The readings sweeps the study's claims step reads (config readings.source: this
    run's, a folder's committed ones, or none; latentlab.readings.sweep_inputs)."""
    from latentlab.readings import sweep_inputs

    return sweep_inputs(config, study, OUT)


def io_args(input, output, wildcards=None):
    """Command-line paths of a shape step: --input NAME=PATH ... --output NAME=PATH ...
    from the rule's named inputs and outputs (and --wildcard NAME=VALUE)."""

    def pairs(flag, named):
        items = [
            f"{k}={v}"
            for k, vs in named.items()
            for v in ([vs] if isinstance(vs, str) else vs)
        ]
        return f"{flag} " + " ".join(shlex.quote(i) for i in items) if items else ""

    parts = [pairs("--input", input), pairs("--output", output)]
    if wildcards:
        parts.append(pairs("--wildcard", dict(wildcards.items())))
    return " ".join(p for p in parts if p)


for _s in STUDIES:
    _shape = _study_shape(_s)
    if _shape is not None:
        # a misspelt or mistyped key stops the run here, naming it
        with runconfig.documented(_s):
            _shape.check_config(config[_s])
# the section of a study this run leaves out is checked too: the keys it gives and their
# values (it may leave keys out)
for _s in runconfig.STUDIES:
    if _s not in STUDIES and config.get(_s):
        with runconfig.documented(_s):
            _study_shape(_s).check_config(config[_s], partial=True)


def failed_job_logs(snakemake_log):
    """The log files of this run's failed jobs: those of the scheduler's failed jobs and
    those Snakemake's own log reports ("log: PATH (check log file(s) ...)"), once each.
    """
    from latentlab.cliutil import logs_of_failed_jobs

    logs = []
    for job in getattr(getattr(workflow, "scheduler", None), "failed", None) or ():
        logs += [str(f) for f in (getattr(job, "log", None) or ())]
    try:
        with open(snakemake_log, encoding="utf-8", errors="replace") as f:
            logs += logs_of_failed_jobs(f.read())
    except (OSError, TypeError):
        pass
    return list(dict.fromkeys(logs))


def data_path(name, file="dataset.npz"):
    """Canonical form of a prepared dataset (built by rules/data.smk)."""
    return f"{DATA_OUT}/{name}/{file}"


# Each study's .smk registers what the report gathers:
#   STUDY_FIGURES[study] = [png paths]; its claims are f"{OUT}/{study}/claims.csv".
STUDY_FIGURES = {}


def report_figures():
    return [f for s in STUDIES for f in STUDY_FIGURES[s]]
