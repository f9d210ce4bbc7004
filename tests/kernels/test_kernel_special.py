"""digamma, logsumexp and log Polya of latentlab.kernels.special against scipy, and bit for
bit against the inline copies they replaced (written out here as numba functions)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit
from scipy.special import digamma as sp_digamma
from scipy.special import gammaln
from scipy.special import logsumexp as sp_logsumexp

from latentlab.kernels.special import (
    digamma,
    log_polya,
    log_polya_n,
    log_polya_terms,
    logsumexp,
)


# ------------------------------------------------------------------ the replaced copies
@njit(cache=False)
def _digamma_tir(x):
    """models/tir/kernels.py's digamma before issue 25 (math.log, x / 132 last)."""
    r = 0.0
    while x < 6.0:
        r -= 1.0 / x
        x += 1.0
    f = 1.0 / (x * x)
    return (
        r
        + math.log(x)
        - 0.5 / x
        - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))))
    )


@njit(cache=False)
def _digamma_many(x, out, tir):
    for i in range(x.shape[0]):
        out[i] = _digamma_tir(x[i]) if tir else digamma(x[i])


@njit(cache=False)
def _lse_ctm(x):
    """models/ctm/kernels.py's _lse before issue 25 (array expressions)."""
    mx = x.max()
    return mx + np.log(np.exp(x - mx).sum())


@njit(cache=False)
def _log_pz_doc_iwtm(ndt_row, alpha_row):
    """models/iwtm/gibbs.py's _log_pz_doc before issue 25 (zero counts not skipped)."""
    A = 0.0
    N = 0.0
    out = 0.0
    for t in range(alpha_row.shape[0]):
        A += alpha_row[t]
        N += ndt_row[t]
        out += math.lgamma(alpha_row[t] + ndt_row[t]) - math.lgamma(alpha_row[t])
    return out + math.lgamma(A) - math.lgamma(A + N)


# ------------------------------------------------------------------ digamma
def test_digamma_matches_scipy():
    x = np.concatenate([np.geomspace(1e-4, 1e8, 2000), [0.5, 1.0, 5.999, 6.0, 6.001, 1e-300]])
    got = np.array([digamma(v) for v in x])
    np.testing.assert_allclose(got, sp_digamma(x), rtol=1e-11, atol=1e-10)


def test_digamma_equals_tirs_former_copy_bit_for_bit():
    """TIR's copy summed the series as -f (1/12 - ... - f/132), LDA's as
    f (-1/12 + ... + f (-1/132)); the kept (LDA's) form gives the same doubles."""
    rng = np.random.default_rng(0)
    x = np.concatenate(
        [np.exp(rng.uniform(-9.0, 16.0, 400_000)), rng.uniform(0.0, 50.0, 400_000) + 1e-9,
         np.arange(1, 20_001) * 0.01]
    )  # fmt: skip
    a = np.empty_like(x)
    b = np.empty_like(x)
    _digamma_many(x, a, False)
    _digamma_many(x, b, True)
    assert np.array_equal(a, b)


# ------------------------------------------------------------------ logsumexp
@pytest.mark.parametrize(
    "a",
    [
        [0.0],
        [1.0, 2.0, 3.0],
        [-1000.0, -1001.0, -999.5],
        [700.0, 710.0, -5.0],
        [-np.inf, 0.5, -np.inf, 2.0],
        [-np.inf, -3.0],
    ],
)
def test_logsumexp_matches_scipy(a):
    a = np.array(a)
    assert logsumexp(a, len(a)) == pytest.approx(sp_logsumexp(a), rel=1e-14, abs=1e-14)
    # only the first n entries count
    b = np.concatenate([a, [1e9]])
    assert logsumexp(b, len(a)) == logsumexp(a, len(a))


def test_logsumexp_all_minus_inf_is_minus_inf():
    a = np.full(3, -np.inf)
    assert logsumexp(a, 3) == -np.inf
    assert logsumexp(a, 0) == -np.inf


def test_logsumexp_equals_ctms_former_array_form_bit_for_bit():
    rng = np.random.default_rng(1)
    for _ in range(3000):
        x = rng.normal(0.0, 10.0 ** rng.uniform(-2, 3), int(rng.integers(1, 40)))
        assert logsumexp(x, len(x)) == _lse_ctm(x)


# ------------------------------------------------------------------ log Polya
def _scipy_log_polya(nk, a):
    nk = np.asarray(nk, float)
    return float(
        gammaln(a.sum()) - gammaln(nk.sum() + a.sum()) + np.sum(gammaln(nk + a) - gammaln(a))
    )


def _polya_cases():
    rng = np.random.default_rng(2)
    cases = [
        (np.array([0, 0, 0]), np.array([0.1, 0.2, 0.3])),
        (np.array([5, 0, 2]), np.array([0.1, 1.0, 10.0])),
        (np.array([1]), np.array([0.5])),
        (np.array([0, 40, 0, 0]), np.full(4, 1e-3)),
    ]
    for _ in range(40):
        K = int(rng.integers(1, 12))
        nk = rng.integers(0, 30, K) * (rng.random(K) < 0.7)
        cases.append((nk, rng.gamma(1.0, 1.0, K) + 1e-6))
    return cases


@pytest.mark.parametrize("nk, a", _polya_cases())
def test_log_polya_matches_scipys_gammaln_formula(nk, a):
    want = _scipy_log_polya(nk, a)
    n = int(nk.sum())
    for counts in (nk.astype(np.int64), nk.astype(np.float64)):
        assert log_polya(counts, a) == pytest.approx(want, rel=1e-12, abs=1e-9)
        assert log_polya_n(counts, n, a) == pytest.approx(want, rel=1e-12, abs=1e-9)
    terms = float(np.sum(gammaln(nk + a) - gammaln(a)))
    assert log_polya_terms(nk, a, 0.0) == pytest.approx(terms, rel=1e-12, abs=1e-9)
    assert log_polya_terms(nk, a, 2.5) == pytest.approx(terms + 2.5, rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("nk, a", _polya_cases())
def test_log_polya_equals_iwtms_former_copy_bit_for_bit(nk, a):
    """IWTM's Eq. 4.1 also added the zero-count terms, each exactly 0.0."""
    for counts in (nk.astype(np.int64), nk.astype(np.float64)):
        assert log_polya(counts, a) == _log_pz_doc_iwtm(counts, a)


def test_log_polya_is_a_probability_over_sequences():
    """sum over all K^N sequences of Polya(z | a) = 1 (no multinomial coefficient)."""
    import itertools

    a = np.array([0.3, 1.2, 0.7])
    N = 4
    tot = 0.0
    for z in itertools.product(range(3), repeat=N):
        tot += math.exp(log_polya(np.bincount(z, minlength=3), a))
    assert tot == pytest.approx(1.0, rel=1e-12)
