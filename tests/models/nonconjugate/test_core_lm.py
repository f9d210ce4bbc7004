"""Generic core (Laplace/delta updates, Eq. 14, 16, 17) and the Sec. 1.3 language model."""

import numpy as np
import pytest
from scipy.optimize import approx_fprime, minimize

from latentlab.models.nonconjugate import core, lm


def _fd_grad(fun, x, h=1e-6):
    return np.array([(fun(x + h * e) - fun(x - h * e)) / (2 * h) for e in np.eye(len(x))])


def _quartic_problem(d=4, seed=0):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((d, d))
    P = A @ A.T + d * np.eye(d)
    b = rng.standard_normal(d)

    def f(x):
        return float(b @ x - 0.5 * x @ P @ x - 0.1 * np.sum(x**4))

    def fgh(x):
        return f(x), b - P @ x - 0.4 * x**3, -P - np.diag(1.2 * x**2)

    return f, fgh


def test_newton_finds_maximum():
    f, fgh = _quartic_problem()
    x, fx, H, _ = core.newton_maximize(fgh, np.zeros(4))
    assert np.linalg.norm(fgh(x)[1]) < 1e-8
    ref = minimize(lambda z: -f(z), np.zeros(4), method="BFGS", options={"gtol": 1e-10}).x
    assert np.allclose(x, ref, atol=1e-6)


def test_delta_objective_eq16_optimum_is_laplace():
    """C2: with theta_hat = argmax f, Eq. 16 is maximised at (theta_hat, -H^-1)."""
    _, fgh = _quartic_problem(3, 1)
    q, fhat, H = core.laplace_update(fgh, np.zeros(3))
    g = fgh(q.m)[1]
    d = 3
    best = core.taylor_objective(q.m, fhat, g, H, q.m, q.V)
    rng = np.random.default_rng(0)
    L0 = np.linalg.cholesky(q.V)
    for _ in range(50):
        dm = 0.1 * rng.standard_normal(d)
        dL = np.tril(0.05 * rng.standard_normal((d, d)))
        L = L0 + dL
        val = core.taylor_objective(q.m, fhat, g, H, q.m + dm, L @ L.T)
        assert val <= best + 1e-10
    # and a numerical maximisation of Eq. 16 over (m, chol V) lands on (theta_hat, -H^-1)
    iu = np.tril_indices(d)

    def neg(p):
        m = p[:d]
        L = np.zeros((d, d))
        L[iu] = p[d:]
        return -core.taylor_objective(q.m, fhat, g, H, m, L @ L.T + 1e-12 * np.eye(d))

    p0 = np.concatenate([np.zeros(d), np.eye(d)[iu]])
    res = minimize(neg, p0, method="BFGS", options={"gtol": 1e-9})
    L = np.zeros((d, d))
    L[iu] = res.x[d:]
    assert np.allclose(res.x[:d], q.m, atol=1e-4)
    assert np.allclose(L @ L.T, q.V, atol=1e-4)


def test_ahmed_xing_is_one_newton_step():
    """C3: theta_hat = previous m gives m_new = m - H^-1 g and V = -H^-1."""
    _, fgh = _quartic_problem(4, 2)
    m = np.full(4, 0.3)
    _, g, H = fgh(m)
    q = core.ahmed_xing_step(g, H, m)
    assert np.allclose(q.m, m - np.linalg.solve(H, g))
    assert np.allclose(q.V, -np.linalg.inv(H))
    # it also maximises Eq. 16 at that theta_hat
    base = core.taylor_objective(m, fgh(m)[0], g, H, q.m, q.V)
    assert base >= core.taylor_objective(m, fgh(m)[0], g, H, q.m + 0.01, q.V)


def test_entropy_constant():
    V = np.diag([0.5, 2.0])
    ld = float(np.log(np.linalg.det(V)))
    from scipy.stats import multivariate_normal

    assert np.isclose(core.gaussian_entropy(ld, 2), multivariate_normal(np.zeros(2), V).entropy())


def _lm_setup(V=5, D=6, seed=0):
    rng = np.random.default_rng(seed)
    theta = rng.normal(0.0, 0.5, V)
    gamma = rng.gamma(2.0, 1.0, (D, V)) + 0.5
    S = lm.expected_log_z(gamma).sum(0)
    mu0 = np.zeros(V)
    P = np.eye(V) * 0.7
    return theta, S, D, mu0, P


def test_lm_gradient_and_hessian_fd():
    theta, S, D, mu0, P = _lm_setup()
    g = lm.lm_grad(theta, S, D, mu0, P)
    assert np.allclose(g, _fd_grad(lambda t: lm.lm_f(t, S, D, mu0, P), theta), rtol=1e-5, atol=1e-6)
    H = lm.lm_hess(theta, S, D, mu0, P)
    Hfd = np.stack(
        [
            approx_fprime(theta, lambda t, i=i: lm.lm_grad(t, S, D, mu0, P)[i], 1e-7)
            for i in range(len(theta))
        ]
    )
    assert np.allclose(H, Hfd, rtol=1e-4, atol=1e-4)


def test_lm_lognormal_mean_mc():
    """C6: E_q[exp theta] = exp(m + diag(V)/2), so gamma_d = that + x_d."""
    rng = np.random.default_rng(0)
    m = np.array([0.2, -0.5, 1.0])
    A = rng.standard_normal((3, 3)) * 0.3
    V = A @ A.T + 0.1 * np.eye(3)
    q = core.GaussianQ(m, V, 0.0)
    X = np.array([[1.0, 0.0, 2.0]])
    g = lm.gamma_update(q, X)
    samp = np.exp(rng.multivariate_normal(m, V, size=100_000)).mean(0)
    assert np.allclose(g[0] - X[0], samp, rtol=1e-2)


def test_lm_fit_recovers_direction():
    V = 6
    truth, _, X = lm.sample_lm(400, V, 200, np.full(V, 1.0), 0.3 * np.eye(V), seed=1)
    q, gamma, trace = lm.fit_lm(X, np.zeros(V), 4.0 * np.eye(V), n_iter=60)
    assert np.isfinite(q.m).all() and np.all(np.linalg.eigvalsh(q.V) > 0)
    assert np.corrcoef(q.m, truth)[0, 1] > 0.9
    assert trace[-1] < trace[0]


@pytest.mark.parametrize("seed", [0, 1])
def test_lm_deterministic(seed):
    _, _, X = lm.sample_lm(50, 4, 50, np.zeros(4), np.eye(4), seed=seed)
    a = lm.fit_lm(X, np.zeros(4), np.eye(4), n_iter=5)[0]
    b = lm.fit_lm(X, np.zeros(4), np.eye(4), n_iter=5)[0]
    assert np.array_equal(a.m, b.m) and np.array_equal(a.V, b.V)
