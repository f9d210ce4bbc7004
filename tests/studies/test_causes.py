"""Every miss of a study's published ledger has a declared cause (issue 24), and the files
its evidence names exist: one test per study that declares causes (``<study>/causes.py``)."""

import importlib
from pathlib import Path

import pytest
from miss_causes import evidence_problems, first_cause, misses, unexplained

STUDIES = sorted(
    p.parent.name
    for p in (Path(__file__).resolve().parents[2] / "src/latentlab/studies").glob("*/causes.py")
)


def _causes(study):
    causes = importlib.import_module(f"latentlab.studies.{study}.causes").CAUSES
    spec = importlib.import_module(f"latentlab.studies.{study}.claims").STUDY.cause_specs
    return causes, spec


@pytest.mark.parametrize("study", STUDIES)
def test_every_published_miss_has_a_declared_cause(study):
    causes, spec = _causes(study)
    assert spec == causes  # wired into the study (STUDY.causes)
    assert unexplained(study, causes) == []


@pytest.mark.parametrize("study", STUDIES)
def test_every_declared_cause_explains_a_published_miss(study):
    causes = _causes(study)[0]
    used = {id(first_cause(causes, *m)) for m in misses(study)}
    assert [c for c in causes if id(c) not in used] == []


@pytest.mark.parametrize("study", STUDIES)
def test_evidence_names_existing_files(study):
    assert evidence_problems(_causes(study)[0]) == []


def test_studies_with_causes():
    assert {"iwtm", "nonconjugate_vi", "scvb0", "tir"} <= set(STUDIES)
