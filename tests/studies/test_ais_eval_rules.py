"""The ais_eval ledger rules of issue 21 can pass (on the document's own numbers) and can
fail (on ties, swapped sides, and the published ours that only had the ordering)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from latentlab.studies.ais_eval.claims import (
    PAPER,
    direction_gap_check,
    jump_ratio,
    strict_pct_ordering,
    variance_order_of_magnitude,
)
from latentlab.studies.ais_eval.runs import METHODS

SCENARIOS = [("nips", "cheap"), ("nips", "expensive"), ("acl", "cheap"), ("acl", "expensive")]


def _s(values):
    return pd.Series(values, index=METHODS, dtype=float)


@pytest.mark.parametrize("key", SCENARIOS)
def test_variance_rule_passes_on_the_documents_table_5_3(key):
    ok, gain = variance_order_of_magnitude(_s(PAPER["t53v"][key]))
    assert ok and gain >= 10


def test_variance_rule_needs_an_order_of_magnitude():
    # published KOS cheap (ours): the ordering holds but the gain is 1.4x, not 10x
    ours = _s([3.4e-4, 5.4e-3, 1.5e-4, 2.5e-4, 1.3e-4, 1.5e-4])
    ok, gain = variance_order_of_magnitude(ours)
    assert not ok and gain == pytest.approx(3.4e-4 / 2.5e-4)
    doc = PAPER["t53v"][("nips", "cheap")]
    swapped = _s([doc[2], doc[3], doc[0], doc[1], doc[0], doc[1]])  # baselines lowest
    assert not variance_order_of_magnitude(swapped)[0]


def test_strict_percentage_rule():
    for role in ("nips", "acl"):
        doc = _s(PAPER["t51"][(role, "expensive")])
        assert strict_pct_ordering(role, "expensive", doc, 5.0)[0]
    # published Cora expensive (ours): min ratio-AIS 62.5 ties Std AIS 62.5 -> fails
    tie = _s([66.9, 62.5, 62.5, 63.7, 63.1, 62.5])
    assert not strict_pct_ordering("acl", "expensive", tie, 5.0)[0]
    # NIPS: LR above every ratio-AIS path -> fails
    assert not strict_pct_ordering(
        "nips", "expensive", _s([68.8, 51.2, 63.7, 63.1, 63.7, 62.5]), 5
    )[0]


def _direction_frame(shift, noise=0.05, n_docs=40, N=100, seed=0):
    """Per-document log-ratios: forward = base, reverse = base + shift (reverse says model 1
    is better by ``shift`` nats more, so its corpus ratio is lower), two runs."""
    rng = np.random.default_rng(seed)
    base = rng.normal(0.5, 1.0, n_docs)
    rows = []
    for run in (0, 1):
        for m in ("geo", "geo_rev", "convex", "convex_rev"):
            lr = base + (shift if m.endswith("rev") else 0.0) + rng.normal(0, noise, n_docs)
            for d in range(n_docs):
                rows.append(dict(doc=d, N=N, run=run, method=m, logratio=lr[d]))
    return pd.DataFrame(rows)


def test_direction_rule_margin_and_noise():
    doc = PAPER["t53r"][("acl", "expensive")]  # gaps 0.002 (geo), 0.004 (convex)
    # a forward-reverse gap of 0.6 nats per 100-token doc: corpus ratios differ by ~0.006
    assert direction_gap_check(_direction_frame(0.6), doc)[0]
    assert not direction_gap_check(_direction_frame(-0.6), doc)[0]  # effect negated
    assert not direction_gap_check(_direction_frame(0.1), doc)[0]  # below half the gap
    assert not direction_gap_check(_direction_frame(0.6, noise=8.0), doc)[0]  # within noise


def test_jump_ratio_sees_a_move_after_the_optimisation_only():
    it = np.arange(1, 401)
    rng = np.random.default_rng(1)
    flat = 100 + np.cumsum(rng.normal(0, 0.05, it.size))
    jump = flat + np.where(it > 300, np.minimum(it - 300, 10) * 0.3, 0.0)
    st = pd.DataFrame({"iteration": it, "x": flat})
    assert jump_ratio(st, "x", 300)["ratio"] < 5
    st["x"] = jump
    assert jump_ratio(st, "x", 300)["ratio"] > 5
