"""Every miss of the published scvb0 ledger has a declared cause (issue 24), and the files its
evidence names exist."""

from miss_causes import evidence_problems, unexplained

from latentlab.studies.scvb0.causes import CAUSES
from latentlab.studies.scvb0.claims import STUDY


def test_every_published_miss_has_a_declared_cause():
    assert STUDY.cause_specs == CAUSES
    assert unexplained("scvb0", CAUSES) == []


def test_evidence_names_existing_files():
    assert evidence_problems(CAUSES) == []
