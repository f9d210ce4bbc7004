"""The decision rule tied to noise (issue 38) on constructed data: a clear effect, a clear
reversal and a noise-level difference give reproduced, not_reproduced and inconclusive."""

import math

import numpy as np
import pytest

from latentlab.claims.ledger import Ledger, decide_order, decide_value, read_claims
from latentlab.claims.noise import MIN_REPS, Noise, Region, decide, replicates_needed


def _reps(mean, sd, n, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n)
    return mean + sd * (x - x.mean()) / x.std(ddof=1)  # exactly this mean and sd


@pytest.mark.parametrize(
    "diff_mean, verdict",
    [
        (5.0, "reproduced"),  # A beats B by 5 with sd 1 over 5 seeds
        (-5.0, "not_reproduced"),  # B beats A by as much: the reversal holds beyond noise
        (0.3, "inconclusive"),  # 0.3 against a band of 2 x 1 / sqrt(5) = 0.89
    ],
)
def test_order_effect_reversal_and_noise(diff_mean, verdict):
    b = np.full(5, 10.0)
    a = b + _reps(diff_mean, 1.0, 5)
    d = decide_order(a, b, ">", 0.0)
    assert d.verdict == verdict
    assert d.n == 5 and d.sd == pytest.approx(1.0)
    assert d.band == pytest.approx(2 / math.sqrt(5))


def test_a_margin_is_judged_beyond_the_noise():
    b = np.zeros(4)
    a = np.array([2.9, 3.1, 3.0, 3.0])  # d = 3 +- 0.08
    assert decide_order(a, b, ">", 2.0).verdict == "reproduced"
    assert decide_order(a, b, ">", 3.0).verdict == "inconclusive"  # the mean sits on it
    assert decide_order(a, b, ">", 4.0).verdict == "not_reproduced"
    assert decide_order(b, a, "<", 2.0).verdict == "reproduced"  # the direction flips sides


def test_every_replicate_decides_when_the_band_does_not():
    # a skewed effect: every seed positive, but one large one inflates the sd
    v = np.array([0.01, 0.02, 10.0])
    assert decide(v, Region(lo=0.0, lo_open=True)).verdict == "reproduced"
    assert decide(-v, Region(lo=0.0, lo_open=True)).verdict == "not_reproduced"


def test_fewer_than_three_replicates_need_a_spread_from_elsewhere():
    region = Region(lo=0.0, lo_open=True)
    one = decide([5.0], region)
    assert one.verdict == "inconclusive" and "no spread measured" in one.why
    assert math.isinf(one.needed)
    two = decide([5.0, 6.0], region)
    assert two.verdict == "inconclusive" and MIN_REPS == 3
    nz = Noise(sd=1.0, n=5, source="the ladder's 5 runs")
    assert decide([5.0], region, noise=nz).verdict == "reproduced"  # 5 > 2 x 1
    assert decide([1.5], region, noise=nz).verdict == "inconclusive"  # 1.5 < 2
    assert decide([-3.0], region, noise=nz).verdict == "not_reproduced"
    assert decide([5.0], region, deterministic=True).verdict == "reproduced"
    assert decide([0.0], region, deterministic=True).verdict == "not_reproduced"  # a tie
    with pytest.raises(ValueError, match="at least 3"):
        Noise(sd=1.0, n=2, source="x")
    with pytest.raises(ValueError, match="source"):
        Noise(sd=1.0, n=3, source="")


def test_inconclusive_says_how_many_replicates_would_decide():
    d = decide(_reps(0.5, 1.0, 4), Region(lo=0.0, lo_open=True))
    assert d.verdict == "inconclusive"
    assert d.needed == replicates_needed(0.5, 1.0, Region(lo=0.0, lo_open=True)) == 16
    assert "~16 replicates" in d.why
    # at 16 replicates with the same mean and spread, the band clears 0
    assert decide(_reps(0.5, 1.0, 17), Region(lo=0.0, lo_open=True)).verdict == "reproduced"


@pytest.mark.parametrize(
    "values, verdict",
    [
        ([0.98, 1.0, 1.02], "reproduced"),  # inside [0.9, 1.1] beyond noise
        ([1.3, 1.35, 1.4], "not_reproduced"),  # outside above
        ([0.7, 0.72, 0.68], "not_reproduced"),  # outside below
        ([0.95, 1.15, 1.25], "inconclusive"),  # the band straddles 1.1
    ],
)
def test_value_rows(values, verdict):
    assert decide_value(1.0, values, "abs", 0.1).verdict == verdict


def test_a_tolerance_narrower_than_the_spread_is_refused(tmp_path):
    v = [0.0, 0.01, -0.01, 0.005]  # sd 0.0088
    d = decide_value(0.0, v, "abs", 0.003)
    assert d.verdict == "inconclusive" and d.why.startswith("tolerance refused")
    led = Ledger("demo", "D")
    led.compare("V", where="", statement="", paper_value=0.0, our_value=v, how="abs",
                tolerance=0.003, dataset="d", data_kind="real", unit="splits")  # fmt: skip
    led.write(tmp_path / "demo" / "claims.csv")
    row = read_claims(tmp_path / "demo" / "claims.csv").iloc[0]
    assert row.verdict == "inconclusive" and "tolerance refused" in row.note
    assert row.n_rep == "4" and float(row.spread) == pytest.approx(np.std(v, ddof=1), rel=1e-5)


def test_booleans_per_replicate():
    assert decide_value("A > B", [True] * 3, "true").verdict == "reproduced"
    assert decide_value("A > B", [False] * 3, "true").verdict == "not_reproduced"
    assert decide_value("A > B", [True, False, True], "true").verdict == "inconclusive"
    assert decide_value("A > B", True, "true").verdict == "inconclusive"  # one run
    assert decide_value("A > B", True, "true", deterministic=True).verdict == "reproduced"
    assert decide_value("A > B", ["yes"] * 3, "true").verdict == "not_reproduced"


def test_non_finite_is_not_reproduced():
    assert decide_value(1.0, [1.0, np.nan, 1.0], "abs", 0.1).verdict == "not_reproduced"
    assert decide_order([1.0, 2.0, np.inf], [0, 0, 0], ">", 0.0).verdict == "not_reproduced"


def test_t_test_decides_both_ways():
    region = Region(lo=0.0, lo_open=True)
    v = _reps(0.6, 1.0, 30)  # t = 3.3 with 29 df
    assert decide(v, region, test="t0.05").verdict == "reproduced"
    assert decide(-v, region, test="t0.05").verdict == "not_reproduced"
    w = _reps(0.1, 1.0, 30)
    assert decide(w, region, test="t0.05").verdict == "inconclusive"
