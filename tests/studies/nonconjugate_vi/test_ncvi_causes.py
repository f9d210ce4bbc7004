"""nonconjugate_vi's causes that quote a published readings sweep (issue 37): the numbers in
the evidence are the sweep's own, and the cause follows the verdicts the sweep gives."""

from __future__ import annotations

from pathlib import Path

from latentlab.claims.readings import read_sweep
from latentlab.studies.nonconjugate_vi.causes import CAUSES

ROOT = Path(__file__).resolve().parents[3]
READINGS = ROOT / "published" / "real" / "nonconjugate_vi" / "readings"


def test_c3_conv_is_an_ambiguity_of_the_fig2_setting_sweep():
    """Not reproduced at the published Fig 2 model, inconclusive at config/paper.yaml's: an
    ambiguity, not a reading (no option reproduces it) and not genuine (one option leaves it
    open)."""
    t = read_sweep(READINGS / "fig2_setting.csv").set_index(["option", "claim_id"])
    assert t.loc[("k20_em3", "C3-conv"), "verdict"] == "not_reproduced"
    assert t.loc[("k50_em20", "C3-conv"), "verdict"] == "inconclusive"
    assert "converged 1 vs" in t.loc[("k20_em3", "C3-conv"), "our_value"]
    assert "converged 0.99 vs" in t.loc[("k50_em20", "C3-conv"), "our_value"]
    assert {t.loc[(o, c), "verdict"] for o in ("k20_em3", "k50_em20")
            for c in ("C7-laplace", "C7-delta")} == {"reproduced"}  # fmt: skip
    c = next(c for c in CAUSES if c.claim == "C3-conv")
    assert c.cause == "ambiguity" and "readings/fig2_setting.csv" in c.evidence
    assert "100 of 100" in c.evidence and "198 of 200" in c.evidence
