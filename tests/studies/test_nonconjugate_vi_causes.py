"""Every miss of the published nonconjugate_vi ledger has a declared cause (issue 24), and
the files its evidence names exist."""

from miss_causes import evidence_problems, unexplained

from latentlab.studies.nonconjugate_vi.causes import CAUSES
from latentlab.studies.nonconjugate_vi.claims import STUDY


def test_every_published_miss_has_a_declared_cause():
    assert STUDY.cause_specs == CAUSES
    assert unexplained("nonconjugate_vi", CAUSES) == []


def test_evidence_names_existing_files():
    assert evidence_problems(CAUSES) == []
