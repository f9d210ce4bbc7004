"""docs/studies.md is generated from the study registry (``python -m latentlab docs
studies``): a step, a claim, a docstring's first sentence or a study's declared document
or data changed without regenerating the page fails here; and the data a study declares
must cover every data registry entry its config sections name."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from latentlab import runconfig, studies_reference
from latentlab.data import registry
from latentlab.studies.shape import load_study

ROOT = Path(__file__).resolve().parents[1]


def test_committed_studies_page_is_current():
    # in a fresh process, as the command runs: in this one, a test that re-imports a
    # study's study.py leaves a Study object whose already-imported step modules do not
    # register again, and the page would miss their steps
    code = "from latentlab import studies_reference as s; import sys; sys.stdout.write(s.render())"
    text = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    committed = (ROOT / studies_reference.OUT).read_text(encoding="utf-8")
    assert committed == text, (
        "docs/studies.md is stale: run `python -m latentlab docs studies` and commit it"
    )


def test_check_names_the_stale_file(tmp_path):
    """``--check`` exits 0 on the committed page and 1, naming the file, on a stale one."""
    cmd = [sys.executable, "-m", "latentlab", "docs", "studies", "--check"]
    r = subprocess.run([*cmd, "--root", str(ROOT)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "studies.md").write_text("# stale\n")
    r = subprocess.run([*cmd, "--root", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 1
    assert "docs/studies.md" in r.stdout and "python -m latentlab docs studies" in r.stdout


def test_every_study_target_is_on_the_page():
    text = (ROOT / studies_reference.OUT).read_text(encoding="utf-8")
    for name in [*runconfig.STUDIES, studies_reference.NON_STUDY]:
        study = load_study(name)
        for st in study.steps.values():
            if st.kind in ("figure", "table"):
                ext = "png" if st.kind == "figure" else "csv"
                assert f"| `{st.name}.{ext}` |" in text, (name, st.name)
            elif st.kind == "run" and st.name != "bench":
                assert f"| `{st.name}` |" in text, (name, st.name)


@pytest.mark.parametrize("name", runconfig.STUDIES)
def test_declared_data_cover_the_configs(name):
    """Every data registry entry a study's section of config.yaml, real.yaml or paper.yaml
    names is declared in ``Study(..., data=...)`` (so the page lists it), and every
    declared name is a registry entry."""
    study = load_study(name)
    names = set(registry.REGISTRY)
    assert set(study.data) <= names, sorted(set(study.data) - names)
    for base, path in runconfig.BASES.items():
        cfg = yaml.safe_load((ROOT / path).read_text(encoding="utf-8"))
        used = studies_reference.config_datasets(cfg.get(name) or {}, names)
        missing = sorted(used - set(study.data))
        assert not missing, f"{name}: {path} ({base}) reads {missing}, not in STUDY.data"


@pytest.mark.parametrize(
    "where, refs",
    [
        ("Fig. 4.3-4.5", {("fig", "4.3"), ("fig", "4.4"), ("fig", "4.5")}),
        ("Figs 5.4/5.5, Table 5.2 (top)", {("fig", "5.4"), ("fig", "5.5"), ("table", "5.2")}),
        ("Sec 5.1.4 and 5.2.1-5.2.2", {("sec", "5.1.4"), ("sec", "5.2.1"), ("sec", "5.2.2")}),
        ("Sec. 4.7 / Table 4.4", {("sec", "4.7"), ("table", "4.4")}),
        ("Fig 6.1a", {("fig", "6.1a")}),
        ("Eqs. 4.66-4.68", set()),
    ],
)
def test_claim_refs(where, refs):
    assert studies_reference.claim_refs(where) == refs


@pytest.mark.parametrize(
    "step, ref",
    [
        ("fig4_3", ("fig", "4.3")),
        ("fig5a", ("fig", "5a")),
        ("sec5_6_1", ("sec", "5.6.1")),
        ("fig3_3_signtest", ("fig", "3.3")),
        ("table2_tests", ("table", "2")),
        ("fig_l_recovery", None),
        ("heldout_time", None),
    ],
)
def test_document_ref(step, ref):
    assert studies_reference.document_ref(step) == ref
