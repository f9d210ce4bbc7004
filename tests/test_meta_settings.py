"""Every output's ``.meta.json`` names the settings that produced it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from latentlab.studies.shape import StepContext

ROOT = Path(__file__).resolve().parents[1]


def empty_settings(run_dir: Path) -> set[str]:
    """The ``.meta.json`` files under ``run_dir`` whose settings are missing or empty
    (study outputs: those that record a step)."""
    out = set()
    for p in sorted(run_dir.rglob("*.meta.json")):
        d = json.loads(p.read_text())
        if "step" in d and not d.get("settings"):
            out.add(str(p.relative_to(run_dir)))
    return out


def test_published_metas_name_their_settings():
    run = ROOT / "published" / "real"
    if not run.is_dir():
        pytest.skip("no published run")
    assert empty_settings(run) == set()


def test_smoke_metas_name_their_settings():
    run = ROOT / "results" / "smoke"
    if not run.is_dir():
        pytest.skip("no smoke run here (snakemake --cores 2 writes results/smoke)")
    assert empty_settings(run) == set()


def test_a_step_without_settings_names_its_inputs_settings(tmp_path):
    a = tmp_path / "sweep.csv"
    a.write_text("x\n1\n")
    (tmp_path / "sweep.meta.json").write_text(json.dumps({"step": "sweep",
                                                          "settings": {"K": [5, 10]}}))  # fmt: skip
    b = tmp_path / "raw.csv"
    b.write_text("x\n1\n")
    ctx = StepContext("s", "fig", None, "smoke", 1, 1, {"sweeps": [a], "raw": [b]}, {})
    s = ctx.meta()["settings"]
    assert s == {"from_inputs": {"sweeps": {"K": [5, 10]}, "raw": "raw.csv: no .meta.json"}}
    # a step with neither settings nor inputs records nothing: the walk above fails on it
    assert StepContext("s", "fig", None, "smoke", 1, 1, {}, {}).meta()["settings"] == {}
