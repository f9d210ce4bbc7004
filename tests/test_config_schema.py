"""The config files validate against config/schema.yaml; bad keys and types are refused."""

import copy
from pathlib import Path

import pytest
import yaml
from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "config" / "schema.yaml")


def load(name):
    return yaml.safe_load((ROOT / "config" / name).read_text())


@pytest.mark.parametrize("name", ["config.yaml", "real.yaml", "paper.yaml"])
def test_shipped_configs_validate(name):
    cfg = load(name)
    validate(cfg, schema=SCHEMA)
    assert cfg["run"] == {"config.yaml": "smoke"}.get(name, name.removesuffix(".yaml"))


def test_smoke_config_needs_no_network_or_mirror():
    cfg = load("config.yaml")
    assert cfg["data"]["mirror"] is None
    assert all(d.startswith("synth") for d in cfg["data"]["datasets"])


@pytest.mark.parametrize(
    "mutate, needle",
    [
        (lambda c: c.update(unknown_key=1), "unknown_key"),
        (lambda c: c.update(base_seed="abc"), "base_seed"),
        (lambda c: c.update(run="bad name/"), "run"),
        (lambda c: c["data"].update(mirorr="x"), "mirorr"),
        (lambda c: c.update(studies=["no_such_study"]), "no_such_study"),
        (lambda c: c.pop("run"), "run"),
        (lambda c: c["data"]["local"].update(x={"format": "uci"}), "path"),
    ],
)
def test_schema_rejects_bad_config(mutate, needle):
    cfg = copy.deepcopy(load("config.yaml"))
    mutate(cfg)
    with pytest.raises(WorkflowError, match=needle):
        validate(cfg, schema=SCHEMA)
