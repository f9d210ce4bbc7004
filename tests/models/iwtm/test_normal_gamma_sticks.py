"""Exact checks of the Normal-Gamma algebra (C1-C3) and simulated reordering (C7, C9)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.special import betaln, digamma

from latentlab.errors import ConfigError
from latentlab.models.iwtm import reference as ref
from latentlab.models.iwtm.normal_gamma import (
    NGPrior,
    cluster_posterior,
    expected_loglik,
    log_marginal,
    log_predictive,
)
from latentlab.models.iwtm.sticks import elog_sticks, stick_params


@pytest.fixture
def prior():
    return NGPrior(np.array([0.3, -0.2]), beta0=0.7, a=2.5, b=0.8)


def test_c1_marginal_vs_quadrature_and_mc(prior):
    X = np.array([[0.1, 0.4], [-0.5, 0.2], [0.9, -0.3]])
    closed = log_marginal(X, prior)
    assert closed == pytest.approx(ref.log_marginal_quadrature(X, prior), abs=1e-6)
    assert closed == pytest.approx(ref.log_marginal_mc(X, prior, 400_000, seed=1), abs=2e-2)
    # n = 0: the empty set has probability 1
    assert log_marginal(np.zeros((0, 2)), prior) == pytest.approx(0.0, abs=1e-12)


def test_c2_student_t_is_ratio_of_marginals(prior):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 2))
    x = rng.normal(size=2)
    for n in range(6):
        want = log_marginal(np.vstack([X[:n], x]), prior) - log_marginal(X[:n], prior)
        assert log_predictive(x, X[:n], prior) == pytest.approx(want, abs=1e-10)


def test_c3_cavi_cluster_update_is_conjugate_posterior(prior):
    """Eqs 5.13-5.16 (+1/chi2) with hard responsibilities = the exact NG posterior: its
    predictive equals the Student-t of the collapsed sampler."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(7, 2))
    q = cluster_posterior(np.array([7.0]), X.sum(0)[None], np.array([(X * X).sum()]), prior)
    nu, mt, a, scale = q.nu[0], q.mt[0], q.chi1[0], q.chi2[0]
    assert nu == pytest.approx(prior.beta0 + 7)
    assert mt == pytest.approx((prior.beta0 * prior.m + X.sum(0)) / nu)
    # NG posterior rate = 1/b + (sum||x - xbar||^2 + beta0 n/(beta0+n)||xbar - m||^2)/2
    xb = X.mean(0)
    rate = 1 / prior.b + 0.5 * (
        ((X - xb) ** 2).sum() + prior.beta0 * 7 / (prior.beta0 + 7) * ((xb - prior.m) ** 2).sum()
    )
    assert 1 / scale == pytest.approx(rate, rel=1e-12)
    assert a == pytest.approx(prior.a + 7)


def test_expected_loglik_gemm_matches_direct(prior):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(6, 2))
    q = cluster_posterior(np.array([2.0, 3.0, 0.0]), rng.normal(size=(3, 2)),
                          np.array([5.0, 8.0, 0.0]), prior)  # fmt: skip
    G = expected_loglik(X, q)
    for i in range(6):
        for c in range(3):
            d2 = ((X[i] - q.mt[c]) ** 2).sum()
            want = 0.5 * 2 * (q.e_loglam[c] - math.log(2 * math.pi) - 1 / q.nu[c])
            want -= 0.5 * q.e_lam[c] * d2
            assert G[i, c] == pytest.approx(want, abs=1e-10)


def test_prior_rejects_bad_values():
    with pytest.raises(ConfigError, match="beta0"):
        NGPrior(np.zeros(2), beta0=0.0, a=1.0, b=1.0)


def test_c7_simulated_reordering_equals_sorting():
    rng = np.random.default_rng(3)
    for _ in range(50):
        counts = rng.integers(0, 4, size=9).astype(float)  # many ties
        a, b, r, order = stick_params(counts, 1.7)
        e = elog_sticks(a, b, order)
        a2, b2, e2 = ref.sorted_sticks(counts, 1.7)
        np.testing.assert_allclose(a, a2)
        np.testing.assert_allclose(b, b2)
        np.testing.assert_allclose(e, e2, atol=1e-12)


def _stick_elbo(counts, conc, order):
    """E_q[log p(z | pi) + log p(v)] - E_q[log q(v)] for data counts under a stick order,
    at the optimal q(v) of that order (truncated last stick)."""
    sc = np.asarray(counts, float)[list(order)]
    total = 0.0
    for i in range(len(sc) - 1):
        a, b = 1 + sc[i], conc + sc[i + 1 :].sum()
        elv, el1 = digamma(a) - digamma(a + b), digamma(b) - digamma(a + b)
        total += sc[i] * elv + sc[i + 1 :].sum() * el1
        total += math.log(conc) + (conc - 1) * el1  # prior Beta(1, conc)
        total -= -betaln(a, b) + (a - 1) * elv + (b - 1) * el1  # entropy term
    return total


def test_c9_sorted_order_is_optimal_with_empty_last_slot():
    rng = np.random.default_rng(4)
    for _ in range(20):
        counts = np.append(rng.integers(0, 20, size=4).astype(float), 0.0)
        # every order that keeps the empty cluster in the truncated last slot
        best = max(_stick_elbo(counts, 2.0, (*p, 4)) for p in itertools.permutations(range(4)))
        _, _, _, order = stick_params(counts, 2.0)
        assert _stick_elbo(counts, 2.0, order) == pytest.approx(best, abs=1e-9)


def test_c5_c6_dp_facts():
    """E[K(N)] of the CRP (2.15) by simulation, and sum_k p(z1 = z2 = k) = 1/(1+gamma)."""
    rng = np.random.default_rng(5)
    g, N, R = 3.0, 200, 4000
    ks = []
    for _ in range(R):
        u = rng.random(N)
        ks.append(int((u < g / (g + np.arange(N))).sum()))
    want = g * (digamma(g + N) - digamma(g))
    assert np.mean(ks) == pytest.approx(want, abs=4 * np.std(ks) / math.sqrt(R))
    k = np.arange(1, 4000)
    p = 2 / ((1 + g) * g) * np.exp(k * (math.log(g) - math.log(2 + g)))
    assert p.sum() == pytest.approx(1 / (1 + g), abs=1e-12)
