"""Bayesian and hierarchical logistic regression (Wang & Blei 2013 Sec. 4.2, Appendix C)."""

import numpy as np
import pytest
from scipy.optimize import approx_fprime, minimize

from latentlab.errors import ConfigError, DataError
from latentlab.models.logreg import vi as B
from latentlab.models.logreg.hierarchical import fit_hierarchical, niw_map
from latentlab.models.logreg.synthetic import synthetic_multilabel, synthetic_school


def _task(n=80, d=5, seed=0):
    rng = np.random.default_rng(seed)
    X = np.hstack([rng.standard_normal((n, d - 1)), np.ones((n, 1))])
    th = rng.standard_normal(d)
    y = (rng.random(n) < 1 / (1 + np.exp(-X @ th))).astype(float)
    A = rng.standard_normal((d, d)) * 0.3
    return X, y, rng.normal(size=d) * 0.2, A @ A.T + np.eye(d)


def _fd(fun, x, h=1e-6):
    return np.array([(fun(x + h * e) - fun(x - h * e)) / (2 * h) for e in np.eye(len(x))])


def test_gradient_hessian_third_derivative_fd():
    """C5: grad f, H and the delta (third-derivative) gradient against finite differences."""
    X, y, mu0, S0 = _task()
    P = np.linalg.inv(S0)
    th = np.random.default_rng(1).normal(size=5)
    assert np.allclose(
        B.blr_grad(th, X, y, mu0, P),
        _fd(lambda t: B.blr_f(t, X, y, mu0, P), th),
        rtol=1e-5,
        atol=1e-6,
    )
    H = B.blr_hess(th, X, mu0, P)
    Hfd = np.stack(
        [approx_fprime(th, lambda t, i=i: B.blr_grad(t, X, y, mu0, P)[i], 1e-7) for i in range(5)]
    )
    assert np.allclose(H, Hfd, rtol=1e-4, atol=1e-4)
    V = np.linalg.inv(-H)
    q = np.einsum("ij,jk,ik->i", X, V, X)
    g = B.delta_grad(th, X, y, mu0, P, q)
    gfd = _fd(lambda t: B.delta_g(t, X, y, mu0, P, V), th)
    assert np.allclose(g, gfd, rtol=1e-5, atol=1e-6)


def test_laplace_vi_equals_classical_laplace():
    """C1: Laplace VI for BLR = MAP (independent scipy optimiser) + inverse negative Hessian."""
    X, y, mu0, S0 = _task(seed=2)
    P = np.linalg.inv(S0)
    q = B.laplace(X, y, mu0, S0)
    res = minimize(
        lambda t: -B.blr_f(t, X, y, mu0, P),
        np.zeros(5),
        jac=lambda t: -B.blr_grad(t, X, y, mu0, P),
        method="BFGS",
        options={"gtol": 1e-11},
    )
    assert np.allclose(q.m, res.x, atol=1e-6)
    assert np.allclose(q.V, np.linalg.inv(-B.blr_hess(res.x, X, mu0, P)), atol=1e-6)


def test_delta_stationary_and_close_to_laplace():
    X, y, mu0, S0 = _task(n=300, seed=3)
    P = np.linalg.inv(S0)
    qd = B.delta(X, y, mu0, S0, tol=1e-10)
    qv = np.einsum("ij,jk,ik->i", X, qd.V, X)
    assert np.linalg.norm(B.delta_grad(qd.m, X, y, mu0, P, qv)) < 1e-5
    assert np.allclose(qd.V, np.linalg.inv(-B.blr_hess(qd.m, X, mu0, P)))
    ql = B.laplace(X, y, mu0, S0)
    assert np.linalg.norm(qd.m - ql.m) < 0.2 * np.linalg.norm(ql.m)


def test_jj_bound_below_log_marginal():
    """The JJ objective is a lower bound on log p(y) (checked by quadrature-free IS, d small)."""
    X, y, mu0, S0 = _task(n=30, d=2, seed=4)
    q, bound = B.jj(X, y, mu0, S0)
    ql = B.laplace(X, y, mu0, S0)
    rng = np.random.default_rng(0)
    L = np.linalg.cholesky(2 * ql.V)
    z = rng.standard_normal((200_000, 2))
    th = ql.m + z @ L.T
    from scipy.stats import multivariate_normal as mvn

    lw = (
        mvn(mu0, S0).logpdf(th)
        - mvn(ql.m, 2 * ql.V).logpdf(th)
        + (y * (th @ X.T) - np.logaddexp(0, th @ X.T)).sum(1)
    )
    est = np.log(np.mean(np.exp(lw - lw.max()))) + lw.max()
    assert bound <= est + 1e-3
    assert bound > est - 5.0


def test_jj_sequential_runs_and_is_gaussian():
    X, y, mu0, S0 = _task(n=60, seed=5)
    q = B.jj_sequential(X, y, mu0, S0)
    assert np.isfinite(q.m).all() and np.all(np.linalg.eigvalsh(q.V) > 0)


def test_single_class_task_is_well_posed():
    """Rule: a task with a single class is fit (the prior keeps the posterior proper)."""
    X, _, mu0, S0 = _task(seed=6)
    y = np.ones(len(X))
    for meth in ("laplace", "delta", "jj"):
        q = B.fit(meth, X, y, mu0, S0)
        assert np.isfinite(q.m).all() and np.isfinite(q.V).all()


def test_constant_column_dropped_and_nonfinite_rejected():
    X, y, _, _ = _task(seed=7)
    X = X.copy()
    X[:, 1] = 3.0
    Xtr, Xte, info = B.standardize(X[:50], X[50:])
    assert info["dropped_constant_columns"] == [1, 4]  # col 4 was the bias column of _task
    assert np.isfinite(Xtr).all() and np.isfinite(Xte).all()
    X[3, 2] = np.nan
    with pytest.raises(DataError, match="non-finite"):
        B.check_task(X, y, "toy")
    with pytest.raises(DataError, match="0/1"):
        B.check_task(X[:, :1], y * 2, "toy")


def test_scores_and_predictive():
    X, y, mu0, S0 = _task(seed=8)
    q = B.laplace(X, y, mu0, S0)
    acc, ll = B.scores(B.predict_proba(q, X), y)
    assert 0.5 < acc <= 1 and ll < 0
    pm = B.predict_proba(q, X, predictive="mc", n_mc=500)
    assert np.all((pm > 0) & (pm < 1))


def test_bad_method_and_predictive_are_config_errors_naming_the_parameter():
    X, y, mu0, S0 = _task(seed=8)
    with pytest.raises(ConfigError) as e:
        B.fit("newton", X, y, mu0, S0)
    assert e.value.key == "method"
    q = B.laplace(X, y, mu0, S0)
    with pytest.raises(ConfigError) as e:
        B.predict_proba(q, X, predictive="exact")
    assert e.value.key == "predictive"


def test_niw_map_formula():
    ms = [np.array([1.0, 0.0]), np.array([0.0, 1.0])]
    Vs = [np.eye(2), np.eye(2)]
    mu, S = niw_map(ms, Vs, mu_h=np.zeros(2), kappa_h=1.0, nu_h=4.0, Psi_h=np.eye(2))
    assert np.allclose(mu, [1 / 3, 1 / 3])
    R = np.stack(ms) - mu
    ref = (np.eye(2) + np.outer(mu, mu) + R.T @ R + 2 * np.eye(2)) / (4 + 2 + 2 + 2)
    assert np.allclose(S, ref)


@pytest.mark.parametrize("method", ["laplace", "delta", "jj"])
def test_hierarchical_em_runs(method):
    X, score, school = synthetic_school(6, 6, seed=1, mean_students=40)
    y = (score > np.median(score)).astype(float)
    tasks = [(X[school == j], y[school == j]) for j in range(6)]
    qs, mu, Sigma, hist = fit_hierarchical(tasks, method, max_iter=5)
    assert len(qs) == 6 and np.all(np.linalg.eigvalsh(Sigma) > 0) and np.isfinite(mu).all()


def test_synthetic_multilabel_shapes():
    d = synthetic_multilabel(50, 30, 7, 3, seed=0)
    assert d["Xtr"].shape == (50, 7) and d["Yte"].shape == (30, 3)
