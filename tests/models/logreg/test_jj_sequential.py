"""Sequential Jaakkola-Jordan: the numba kernel against its numpy twin and exact cases."""

import numpy as np
import pytest

from latentlab.errors import ConfigError
from latentlab.models.logreg import vi as B
from latentlab.models.logreg.jj_kernels import jj_lambda_scalar


def _task(n, d=5, seed=0):
    rng = np.random.default_rng(seed)
    X = np.hstack([rng.standard_normal((n, d - 1)), np.ones((n, 1))])
    y = (rng.random(n) < 1 / (1 + np.exp(-X @ rng.standard_normal(d)))).astype(float)
    A = rng.standard_normal((d, d)) * 0.3
    return X, y, rng.normal(size=d) * 0.2, A @ A.T + np.eye(d)


@pytest.mark.parametrize("inner", [1, 3, 10])
def test_kernel_matches_numpy_reference(inner):
    X, y, mu0, S0 = _task(n=300, seed=1)
    q = B.jj_sequential(X, y, mu0, S0, inner=inner)
    r = B.jj_sequential_reference(X, y, mu0, S0, inner=inner)
    np.testing.assert_allclose(q.m, r.m, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(q.V, r.V, rtol=1e-9, atol=1e-12)
    assert q.logdetV == pytest.approx(r.logdetV, rel=1e-10)


def test_one_observation_equals_batch_jj():
    """With a single observation the sequential xi fixed point is batch JJ's optimum."""
    X, y, mu0, S0 = _task(n=1, seed=2)
    q = B.jj_sequential(X, y, mu0, S0, inner=200)
    b, _ = B.jj(X, y, mu0, S0, tol=1e-15, max_iter=2000)
    np.testing.assert_allclose(q.m, b.m, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(q.V, b.V, rtol=1e-10, atol=1e-12)


def test_every_observation_shrinks_the_covariance():
    """Invariant: V' = V - k Vx Vx^T with k > 0, so Sigma0 - V is positive semi-definite and
    V stays positive definite however many rows are absorbed."""
    X, y, mu0, S0 = _task(n=2000, seed=3)
    V_prev = S0
    for n in (10, 100, 2000):
        V = B.jj_sequential(X[:n], y[:n], mu0, S0).V
        assert np.linalg.eigvalsh(V).min() > 0
        assert np.linalg.eigvalsh(V_prev - V).min() > -1e-10
        V_prev = V


def test_lambda_scalar_matches_vector_form_and_limit():
    xs = np.array([0.0, 1e-8, 1e-6, 2e-6, 0.3, 5.0, -2.0])
    np.testing.assert_allclose([jj_lambda_scalar(x) for x in xs], B.jj_lambda(xs), rtol=1e-12)
    assert jj_lambda_scalar(0.0) == 0.125


def test_zero_inner_steps_is_a_config_error():
    X, y, mu0, S0 = _task(n=5)
    with pytest.raises(ConfigError, match="inner"):
        B.jj_sequential(X, y, mu0, S0, inner=0)
