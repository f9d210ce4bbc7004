"""Jaakkola & Jordan's (2000) bound on the predictive of Bayesian logistic regression
(``vi.jj_bound_log_predictive``; the ``jj_bound`` option of nonconjugate_vi's reading
``blr_predictive``): exact at zero posterior variance, a lower bound on log E_q[sigma(s)]
otherwise, its closed form equal to the integral it stands for, and raised by its xi steps."""

import numpy as np
import pytest
from scipy.special import expit, log_expit

from latentlab.models.logreg import vi as B
from latentlab.models.nonconjugate.core import GaussianQ


def _q(d=4, scale=0.5, seed=0):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((d, d)) * scale
    return GaussianQ(rng.normal(size=d), A @ A.T + 0.01 * np.eye(d), 0.0), rng


def _exact_log_predictive(mu, v, n=200):
    """log E[sigma(s)], s ~ N(mu, v), by Gauss-Hermite quadrature (to 1e-10 here)."""
    x, w = np.polynomial.hermite_e.hermegauss(n)
    return np.log((w * expit(mu[:, None] + np.sqrt(v)[:, None] * x)).sum(1) / np.sqrt(2 * np.pi))


def test_exact_without_posterior_variance():
    q, rng = _q()
    X = rng.standard_normal((30, 4))
    y = (rng.random(30) < 0.5).astype(float)
    q0 = GaussianQ(q.m, np.zeros((4, 4)), 0.0)
    got = B.jj_bound_log_predictive(q0, X, y)
    assert np.allclose(got, log_expit((2 * y - 1) * (X @ q.m)), atol=1e-12)


def test_a_lower_bound_on_the_predictive_and_close_to_it():
    """Below the exact log predictive for every case, by at most v/8 (the bound's
    curvature -2 lambda(xi) >= -1/4 against log sigma's >= -1/4: an O(v) gap); the gap
    grows with the posterior's width."""
    means = []
    for scale in (0.1, 0.5, 1.5):
        q, rng = _q(scale=scale, seed=1)
        X = rng.standard_normal((50, 4))
        y = (rng.random(50) < 0.5).astype(float)
        got = B.jj_bound_log_predictive(q, X, y)
        mu = (2 * y - 1) * (X @ q.m)
        v = ((X @ q.V) * X).sum(1)
        gap = _exact_log_predictive(mu, v) - got
        assert (gap >= -1e-10).all()
        assert (gap <= v / 8).all()
        means.append(gap.mean())
    assert means[0] < 0.01 and means[0] < means[1] < means[2]


def test_closed_form_is_the_integral_of_the_bound():
    """At the xi it starts from (max_iter=0), the formula equals log E_q[exp(JJ bound)]
    by Monte Carlo over s ~ N(mu, v)."""
    q, rng = _q(seed=2)
    x = rng.standard_normal((1, 4))
    y = np.array([1.0])
    got = B.jj_bound_log_predictive(q, x, y, max_iter=0)[0]
    mu = float(x[0] @ q.m)
    v = float(x[0] @ q.V @ x[0])
    xi = np.sqrt(v + mu**2)
    lam = B.jj_lambda(np.array([xi]))[0]
    s = mu + np.sqrt(v) * rng.standard_normal(2_000_000)
    bound = log_expit(xi) + (s - xi) / 2 - lam * (s**2 - xi**2)
    mc = np.log(np.mean(np.exp(bound)))
    assert got == pytest.approx(mc, abs=2e-3)


def test_xi_steps_raise_the_bound():
    q, rng = _q(scale=1.0, seed=3)
    X = rng.standard_normal((40, 4))
    y = (rng.random(40) < 0.5).astype(float)
    start = B.jj_bound_log_predictive(q, X, y, max_iter=0)
    one = B.jj_bound_log_predictive(q, X, y, max_iter=1)
    done = B.jj_bound_log_predictive(q, X, y)
    assert (one >= start - 1e-12).all() and (done >= one - 1e-12).all()
    assert (done - start).max() > 1e-6  # the steps do move it
