"""Every miss of a study's published ledger has a declared cause (issue 24), the files its
evidence names exist, every ``open`` cause carries the plan that would settle it, and the
published ledger shows what ``causes.py`` declares: one test per study that declares causes
(``<study>/causes.py``)."""

import importlib
from pathlib import Path

import pytest
from miss_causes import ROOT, evidence_problems, first_cause, misses, unexplained

from latentlab.claims.ledger import cause_of, read_claims
from latentlab.claims.spec import Cause

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


@pytest.mark.parametrize("study", STUDIES)
def test_the_published_ledger_shows_the_declared_causes(study):
    """Its cause and evidence columns are what ``causes.py`` gives each row (refill them with
    ``scripts/reapply_causes.py <study>`` after editing the causes)."""
    causes = _causes(study)[0]
    df = read_claims(ROOT / "published" / "real" / study / "claims.csv")
    stale = [
        (r.claim_id, r.dataset)
        for r in df.itertuples()
        if (r.cause, r.evidence) != cause_of(causes, r.verdict, r.claim_id, r.dataset)
    ]
    assert stale == []


def test_an_open_cause_needs_a_settle_clause():
    """An open cause's evidence names the run or check that would settle it (``settle: ...``);
    explained causes need none."""
    seen = "published/real/REVERSALS.md: the gap"
    bare = [
        Cause("X1", "open", ""),
        Cause("X2", "open", seen),
        Cause("X3", "open", f"{seen}; settle:"),
        Cause("X4", "open", f"{seen}; resettle: y"),
    ]
    problems = evidence_problems(bare)
    assert len(problems) == 4 and all("settle" in p for p in problems)
    planned = [
        Cause("X5", "open", "settle: the rung d200 (config/ladder.yaml; ~8 CPU-h)"),
        Cause("X6", "open", f"{seen}; settle: the same fit at sigma_W = 2 (~15 CPU-min)"),
        Cause("X7", "genuine", seen),
    ]
    assert evidence_problems(planned) == []


def test_studies_with_causes():
    assert {"iwtm", "nonconjugate_vi", "scvb0", "tir"} <= set(STUDIES)
