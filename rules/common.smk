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


def study_params(study, **extra):
    """JSON string of a study step's parameters: its config section, run, seeds, threads."""
    p = {
        "run": RUN,
        "base_seed": config["base_seed"],
        "threads": THREADS,
        **config.get(study, {}),
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
