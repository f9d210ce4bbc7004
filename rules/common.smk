# Shared set-up: config validation, run paths, helpers for the study rules.
import json

from snakemake.utils import min_version, validate

min_version("9.0")


# `--config mirror=DIR` is the command-line form of data.mirror: Snakemake's --config takes
# no dotted keys (`data.mirror=...` is refused), and `data={mirror: DIR}` also works.
if config.get("mirror") is not None:
    config.setdefault("data", {})["mirror"] = str(config.pop("mirror"))
config.pop("mirror", None)

validate(config, schema="../config/schema.yaml")

RUN = config["run"]
OUT = f"results/{RUN}"
LOGS = f"logs/{RUN}"
BENCH = f"benchmarks/{RUN}"
STUDIES = list(config.get("studies", []))
THREADS = int(config.get("threads", 2))


def study_params(study, *keys, **extra):
    """JSON string of a study step's parameters: run, seeds, threads and the study's config
    section, or only its ``keys`` when given. Snakemake reruns a job when its params change,
    so a step that names the keys it reads is not rerun when an unrelated setting changes.
    """
    section = config.get(study, {})
    if keys:
        missing = [k for k in keys if k not in section]
        if missing:
            raise ValueError(f"config {study}: no keys {missing}")
        section = {k: section[k] for k in keys}
    p = {
        "run": RUN,
        "base_seed": config["base_seed"],
        "threads": THREADS,
        **section,
        **extra,
    }
    return json.dumps(p, sort_keys=True)


def data_path(name, file="dataset.npz"):
    """Canonical form of a prepared dataset (built by rules/data.smk)."""
    return f"{OUT}/data/{name}/{file}"


# Each study's .smk registers what the report gathers:
#   STUDY_FIGURES[study] = [png paths]; its claims are f"{OUT}/{study}/claims.csv".
STUDY_FIGURES = {}


def report_figures():
    return [f for s in STUDIES for f in STUDY_FIGURES.get(s, [])]
