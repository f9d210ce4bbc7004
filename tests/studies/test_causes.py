"""Every miss of a study's published ledger has a declared cause (issue 24), the files its
evidence names exist, every ``open`` cause carries the plan that would settle it, and the
published ledger shows what ``causes.py`` declares: one test per study that declares causes
(``<study>/causes.py``)."""

import importlib
from pathlib import Path

import pytest
from miss_causes import ROOT, evidence_problems, first_cause, misses, unexplained

from latentlab.claims.ledger import read_claims
from latentlab.claims.readings import refill
from latentlab.claims.spec import Cause
from latentlab.studies.shape import readings_of

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
    folder = ROOT / "published" / "real" / study
    df = read_claims(folder / "claims.csv")
    want = refill(df, causes, readings_of(study), folder / "readings", ROOT)
    stale = [
        (r.claim_id, r.dataset)
        for r, w in zip(df.itertuples(), want, strict=True)
        if (r.cause, r.evidence, r.reading) != w
    ]
    assert stale == []


def test_refill_gives_a_miss_another_reading_reproduces_the_cause_reading(tmp_path):
    """Issue 37: a published miss that another option of a published readings sweep
    reproduces gets the cause ``reading`` (the sweep as evidence); a miss no option
    reproduces keeps its declared cause."""
    import pandas as pd

    from latentlab.claims.readings import refill
    from latentlab.claims.spec import Reading

    rd = Reading(name="start", where="Alg 1", sentence="s", published="early",
                 options={"early": {}, "late": {}}, why="w", rows=("C5*",),
                 targets=("x",))  # fmt: skip
    sweep = pd.DataFrame({
        "reading": "start", "option": ["early", "late", "early", "late"],
        "claim_id": ["C5-T300", "C5-T300", "C5-T50", "C5-T50"], "dataset": "kos",
        "verdict": ["not_reproduced", "reproduced", "not_reproduced", "not_reproduced"],
        "our_value": ["0", "1", "0.5", "0.5"],
    })  # fmt: skip
    sweep.to_csv(tmp_path / "start.csv", index=False)
    df = pd.DataFrame({"claim_id": ["C5-T300", "C5-T50", "C7"], "dataset": "kos",
                       "verdict": "not_reproduced"})  # fmt: skip
    causes = [Cause("C5*", "genuine", "published/real/REVERSALS.md#case-1")]
    (c300, e300, r300), (c50, _, r50), (c7, _, r7) = refill(df, causes, [rd], tmp_path)
    assert c300 == "reading" and "reproduced under reading start=late: 1" in e300
    assert "under start=early in the same sweep: 0 (not_reproduced)" in e300
    assert (c50, r50) == ("genuine", "start=early") and r300 == "start=early"
    assert (c7, r7) == ("open", "")
    # a second reading that reproduces the row is found even when the declared cause already
    # says `reading` and the first reading does not reproduce it
    other = Reading(name="clock", where="Alg 1", sentence="s", published="a",
                    options={"a": {}, "b": {}}, why="w", rows=("C5*",), targets=("x",))  # fmt: skip
    pd.DataFrame({"reading": "start", "option": ["early", "late"], "claim_id": "C5-T50",
                  "dataset": "kos", "verdict": "not_reproduced", "our_value": "0"}).to_csv(
        tmp_path / "start.csv", index=False)  # fmt: skip
    pd.DataFrame({"reading": "clock", "option": ["a", "b"], "claim_id": "C5-T50",
                  "dataset": "kos", "verdict": ["not_reproduced", "reproduced"],
                  "our_value": ["0", "1"]}).to_csv(tmp_path / "clock.csv", index=False)  # fmt: skip
    declared = [Cause("C5*", "reading", "published/real/REVERSALS.md#case-1")]
    [(c, e, r)] = refill(df[df.claim_id == "C5-T50"], declared, [rd, other], tmp_path)
    assert c == "reading" and e.startswith("reproduced under reading clock=b: 1")
    assert r == "start=early; clock=a"


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
