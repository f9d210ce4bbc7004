"""Bayesian logistic regression: Laplace VI, delta-method VI, Jaakkola-Jordan (batch, sequential).

Wang & Blei (2013) Sec. 4.2, Appendix C. Our copy of the document lost its displayed
equations; the formulas below are re-derived from its text (and, for Jaakkola-Jordan, from
Jaakkola & Jordan 2000, which the document cites but does not restate).

Model: theta ~ N(mu0, Sigma0); y_n | x_n ~ Bernoulli(sigma(theta^T x_n)), y in {0, 1}.

* f(theta) = sum_n [y_n s_n - log(1 + e^{s_n})] - 1/2 (theta - mu0)^T P (theta - mu0), s = X theta.
* grad f = X^T (y - sigma) - P (theta - mu0); H = -X^T diag(sigma (1 - sigma)) X - P.
* Laplace VI = the classical Laplace approximation (Bishop §4.4; claim C1): IRLS/Newton, then
  V = (X^T W X + P)^-1.
* Delta VI with full V (Eq. 17):
  grad_m = X^T [y - sigma - 1/2 sigma(1-sigma)(1-2 sigma) q] - P(m - mu0),
  q_n = x_n^T V x_n fixed during the m-optimisation (L-BFGS); then V = -H(m)^-1; alternate.
* Jaakkola-Jordan (1997/2000), batch (the standard form):
  V^-1 = P + 2 sum_n lambda(xi_n) x_n x_n^T, m = V (P mu0 + X^T (y - 1/2)),
  xi_n^2 = x_n^T (V + m m^T) x_n, lambda(xi) = tanh(xi/2) / (4 xi) (-> 1/8 at 0).
  Sequential: one observation at a time, each with its own xi (JJ 2000), a sensitivity variant:
  the document does not say which form it ran, and its JJ log-likelihoods in Table 1 (all near
  log 1/2) are hard to get from the batch form.

Predictive (Sec. 5.2, "where m is the mean of variational distribution"): plug-in mean,
p(y=1|x) = sigma(m^T x); an MC switch averages sigma(theta^T x) over q; and, for the
Jaakkola-Jordan rows, their own bound on the predictive (:func:`jj_bound_log_predictive`).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla
from scipy.optimize import minimize
from scipy.special import expit, log_expit

from latentlab.errors import ConfigError, DataError, DivergenceError
from latentlab.models.logreg.jj_kernels import jj_sequential_pass
from latentlab.models.nonconjugate.core import GaussianQ, newton_maximize, psd_inverse

METHODS = ("jj", "laplace", "delta")


def _quad(X: np.ndarray, A: np.ndarray) -> np.ndarray:
    """x_n^T A x_n for every row (BLAS, not einsum)."""
    return ((X @ A) * X).sum(axis=1)


def check_task(X: np.ndarray, y: np.ndarray, name: str = "task") -> None:
    """Reject non-finite features/labels and labels outside {0, 1} with a clear message."""
    X = np.asarray(X)
    y = np.asarray(y)
    if X.ndim != 2 or len(X) != len(y):
        raise DataError(None, f"{name}: X must be n x d and match y (got {X.shape}, {y.shape})")
    if not np.isfinite(X).all():
        bad = np.unique(np.nonzero(~np.isfinite(X))[1])
        raise DataError(None, f"{name}: non-finite feature values in columns {bad.tolist()[:10]}")
    if not np.isin(y, (0, 1)).all():
        raise DataError(None, f"{name}: labels must be 0/1")


def blr_f(theta, X, y, mu0, P) -> float:
    """f of Eq. 12 for BLR (log likelihood + log prior without its constant)."""
    s = X @ theta
    r = theta - mu0
    return float(y @ s - np.logaddexp(0.0, s).sum() - 0.5 * r @ P @ r)


def blr_grad(theta, X, y, mu0, P) -> np.ndarray:
    """grad f = X^T (y - sigma) - P (theta - mu0) (Appendix C)."""
    return X.T @ (y - expit(X @ theta)) - P @ (theta - mu0)


def blr_hess(theta, X, mu0, P) -> np.ndarray:
    """H = -X^T diag(sigma (1 - sigma)) X - P (Appendix C)."""
    s = expit(X @ theta)
    return -(X.T * (s * (1 - s))) @ X - P


def delta_g(m, X, y, mu0, P, V) -> float:
    """Eq. 17 for BLR: f(m) + 1/2 tr(H(m) V) + 1/2 log|V| (log|V| omitted: constant in m)."""
    s = expit(X @ m)
    q = _quad(X, V)
    return blr_f(m, X, y, mu0, P) - 0.5 * float((s * (1 - s)) @ q) - 0.5 * float(np.sum(P * V))


def delta_grad(m, X, y, mu0, P, q) -> np.ndarray:
    """grad_m of Eq. 17 (third derivatives, Appendix C; derived here) with q_n = x_n^T V x_n."""
    s = expit(X @ m)
    w = y - s - 0.5 * s * (1 - s) * (1 - 2 * s) * q
    return X.T @ w - P @ (m - mu0)


def _prior(mu0, Sigma0, d):
    mu0 = np.zeros(d) if mu0 is None else np.asarray(mu0, dtype=float)
    Sigma0 = np.eye(d) if Sigma0 is None else np.asarray(Sigma0, dtype=float)
    P, logdet = psd_inverse(Sigma0)
    return mu0, Sigma0, P, logdet


def laplace(X, y, mu0=None, Sigma0=None, *, m0=None, tol=1e-12, max_iter=100) -> GaussianQ:
    """Laplace VI for BLR (Eq. 14): Newton/IRLS with backtracking, V = (X^T W X + P)^-1."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    mu0, _, P, _ = _prior(mu0, Sigma0, X.shape[1])

    def fgh(t):
        s = X @ t
        sg = expit(s)
        r = t - mu0
        Pr = P @ r
        f = y @ s - np.logaddexp(0.0, s).sum() - 0.5 * r @ Pr
        return f, X.T @ (y - sg) - Pr, -(X.T * (sg * (1 - sg))) @ X - P

    x0 = mu0.copy() if m0 is None else np.asarray(m0, dtype=float)
    th, _, H, _ = newton_maximize(fgh, x0, tol=tol, max_iter=max_iter, what="BLR laplace f")
    V, logdet_negH = psd_inverse(-H)
    return GaussianQ(th, V, -logdet_negH)


def delta(X, y, mu0=None, Sigma0=None, *, m0=None, tol=1e-6, max_iter=100, gtol=1e-8) -> GaussianQ:
    """Delta-method VI for BLR with full V (Sec. 3.2, Eq. 17): alternate L-BFGS on m with V
    fixed (q_n precomputed) and V = -H(m)^-1; stop when ||dm|| / max(||m||, 1) < tol."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    mu0, Sigma0, P, _ = _prior(mu0, Sigma0, X.shape[1])
    m = mu0.copy() if m0 is None else np.asarray(m0, dtype=float).copy()
    V, logdet_negH = psd_inverse(-blr_hess(m, X, mu0, P))
    for _ in range(max_iter):
        q = _quad(X, V)

        def obj(t, q=q):
            s = X @ t
            sg = expit(s)
            r = t - mu0
            Pr = P @ r
            val = y @ s - np.logaddexp(0.0, s).sum() - 0.5 * r @ Pr - 0.5 * (sg * (1 - sg)) @ q
            w = y - sg - 0.5 * sg * (1 - sg) * (1 - 2 * sg) * q
            return -val, -(X.T @ w - Pr)

        m_new = minimize(obj, m, jac=True, method="L-BFGS-B", options={"gtol": gtol}).x
        V, logdet_negH = psd_inverse(-blr_hess(m_new, X, mu0, P))
        change = np.linalg.norm(m_new - m) / max(np.linalg.norm(m), 1.0)
        m = m_new
        if change < tol:
            break
    return GaussianQ(m, V, -logdet_negH)


def jj_lambda(xi: np.ndarray) -> np.ndarray:
    """lambda(xi) = tanh(xi/2) / (4 xi), with the limit 1/8 at xi -> 0."""
    xi = np.abs(xi)
    out = np.full_like(xi, 0.125, dtype=float)
    big = xi > 1e-6
    out[big] = np.tanh(xi[big] / 2) / (4 * xi[big])
    small = ~big
    out[small] = 0.125 - xi[small] ** 2 / 192.0
    return out


def jj_bound(m, V, logdetV, xi, mu0, P, logdet_Sigma0) -> float:
    """JJ lower bound on log p(y) (Jaakkola & Jordan 2000; not restated in the document)."""
    Vinv_m = sla.solve(V, m, assume_a="pos")
    lam = jj_lambda(xi)
    return float(
        0.5 * (logdetV - logdet_Sigma0)
        + 0.5 * m @ Vinv_m
        - 0.5 * mu0 @ P @ mu0
        + np.sum(log_expit(xi) - xi / 2 + lam * xi**2)
    )


def jj(X, y, mu0=None, Sigma0=None, *, tol=1e-8, max_iter=500) -> tuple[GaussianQ, float]:
    """Batch Jaakkola-Jordan (Bishop §10.6): returns (q, final bound)."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    mu0, _, P, logdetS = _prior(mu0, Sigma0, X.shape[1])
    xi = np.ones(len(y))
    b = P @ mu0 + X.T @ (y - 0.5)
    old = None
    for it in range(1, max_iter + 1):
        Vinv = P + 2 * (X.T * jj_lambda(xi)) @ X
        V, logdetVinv = psd_inverse(Vinv)
        m = V @ b
        xi = np.sqrt(np.maximum(_quad(X, V + np.outer(m, m)), 1e-16))
        bound = jj_bound(m, V, -logdetVinv, xi, mu0, P, logdetS)
        if not np.isfinite(bound):
            raise DivergenceError("JJ bound", it)
        if old is not None and abs(bound - old) <= tol * abs(old):
            break
        old = bound
    return GaussianQ(m, V, -logdetVinv), bound


def jj_sequential(X, y, mu0=None, Sigma0=None, *, inner=10) -> GaussianQ:
    """Sequential Jaakkola-Jordan (JJ 2000): absorb one observation at a time, optimising its
    own xi (``inner`` fixed-point steps) from the current Gaussian; rank-one (Sherman-Morrison)
    updates of V. Order: the given row order. Numba kernel
    (:func:`latentlab.models.logreg.jj_kernels.jj_sequential_pass`)."""
    if inner < 1:
        raise ConfigError(
            "inner", f"jj_seq needs at least one xi step per observation, got {inner}"
        )
    X = np.ascontiguousarray(X, dtype=float)
    y = np.ascontiguousarray(y, dtype=float)
    mu0, Sigma0, P, _ = _prior(mu0, Sigma0, X.shape[1])
    V = np.array(0.5 * (Sigma0 + Sigma0.T), dtype=float)
    h = P @ mu0
    m = np.array(mu0, dtype=float)
    jj_sequential_pass(X, y, V, h, m, int(inner))
    V = 0.5 * (V + V.T)
    _, logdetV = psd_inverse(np.linalg.inv(V))
    return GaussianQ(m, V, -logdetV)


def jj_sequential_reference(X, y, mu0=None, Sigma0=None, *, inner=10) -> GaussianQ:
    """Plain-numpy twin of :func:`jj_sequential` (the d x d update recomputed at every xi
    step, V symmetrised after every observation); for tests."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    mu0, Sigma0, P, _ = _prior(mu0, Sigma0, X.shape[1])
    V = Sigma0.copy()
    h = P @ mu0
    m = mu0.copy()
    for n in range(len(y)):
        x = X[n]
        Vx = V @ x
        xVx = float(x @ Vx)
        hn = h + (y[n] - 0.5) * x
        xi = np.sqrt(xVx + float(x @ m) ** 2)
        for _ in range(inner):
            c = 2.0 * jj_lambda(np.array([xi]))[0]
            Vn = V - (c / (1.0 + c * xVx)) * np.outer(Vx, Vx)
            mn = Vn @ hn
            xVnx = xVx - c * xVx**2 / (1.0 + c * xVx)
            xi = np.sqrt(max(xVnx + float(x @ mn) ** 2, 1e-16))
        V, m, h = 0.5 * (Vn + Vn.T), mn, hn
    _, logdetV = psd_inverse(np.linalg.inv(V))
    return GaussianQ(m, V, -logdetV)


def fit(method: str, X, y, mu0=None, Sigma0=None, **kw) -> GaussianQ:
    """Dispatch: 'laplace', 'delta', 'jj' (batch), 'jj_seq' (sequential)."""
    if method == "laplace":
        return laplace(X, y, mu0, Sigma0, **kw)
    if method == "delta":
        return delta(X, y, mu0, Sigma0, **kw)
    if method == "jj":
        return jj(X, y, mu0, Sigma0, **kw)[0]
    if method == "jj_seq":
        return jj_sequential(X, y, mu0, Sigma0, **kw)
    raise ConfigError("method", f"unknown BLR method {method!r}; use laplace, delta, jj or jj_seq")


def predict_proba(q: GaussianQ, X, *, predictive="plugin", n_mc=1000, seed=0) -> np.ndarray:
    """p(y = 1 | x): plug-in sigma(m^T x) (Sec. 5.2) or MC average over q."""
    X = np.asarray(X, dtype=float)
    if predictive == "plugin":
        return expit(X @ q.m)
    if predictive == "mc":
        rng = np.random.default_rng(seed)
        L = np.linalg.cholesky(q.V)
        th = q.m + rng.standard_normal((n_mc, len(q.m))) @ L.T
        return expit(X @ th.T).mean(axis=1)
    raise ConfigError("predictive", f"must be 'plugin' or 'mc', not {predictive!r}")


def jj_bound_log_predictive(q: GaussianQ, X, y, *, max_iter=200, tol=1e-12) -> np.ndarray:
    """Per case, Jaakkola & Jordan's (2000) lower bound on log p(y | x) under q = N(m, V):
    their bound log sigma(s) >= log sigma(xi) + (s - xi)/2 - lambda(xi)(s^2 - xi^2), with
    s = (2y - 1) theta^T x, integrated over q in closed form (s ~ N(mu, v), mu = (2y - 1)
    m^T x, v = x^T V x):

        log sigma(xi) - xi/2 + lambda xi^2 - 1/2 log(1 + 2 lambda v)
            + (mu + v/4 - 2 lambda mu^2) / (2 (1 + 2 lambda v)),

    its xi at the fixed point xi^2 = v' + mu'^2 of the posterior that absorbs the case
    (v' = v / (1 + 2 lambda v), mu' = (mu + v/2) / (1 + 2 lambda v)), each step of which
    raises the bound. Exact (log sigma(mu)) when v = 0."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    t = 2.0 * y - 1.0
    mu = t * (X @ q.m)
    v = np.maximum(_quad(X, q.V), 0.0)

    def bound(xi):
        lam = jj_lambda(xi)
        den = 1.0 + 2.0 * lam * v
        return (log_expit(xi) - xi / 2 + lam * xi**2 - 0.5 * np.log(den)
                + (mu + v / 4 - 2.0 * lam * mu**2) / (2.0 * den))  # fmt: skip

    xi = np.sqrt(v + mu**2)
    old = new = bound(xi)
    for _ in range(max_iter):
        lam = jj_lambda(xi)
        den = 1.0 + 2.0 * lam * v
        xi = np.sqrt(v / den + ((mu + v / 2) / den) ** 2)
        new = bound(xi)
        if np.max(np.abs(new - old)) <= tol:
            break
        old = new
    return new


def scores(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(accuracy with 1[p > 1/2], average log predictive likelihood) (Sec. 5.2)."""
    y = np.asarray(y, dtype=float)
    p = np.clip(p, 1e-300, 1 - 1e-16)
    acc = float(np.mean((p > 0.5) == (y > 0.5)))
    ll = float(np.mean(y * np.log(p) + (1 - y) * np.log1p(-p)))
    return acc, ll


def standardize(Xtr, Xte, *, bias=True):
    """Preprocessing rule (ours: Sec. 5.2 mentions no intercept or scaling): z-score with
    training statistics;
    columns constant on the training set are dropped (not divided by 0); a bias column is
    appended. Returns (Xtr, Xte, info) where info lists the dropped columns."""
    Xtr = np.asarray(Xtr, dtype=float)
    Xte = np.asarray(Xte, dtype=float)
    mu = Xtr.mean(axis=0)
    sd = Xtr.std(axis=0)
    keep = sd > 1e-12
    Xtr = (Xtr[:, keep] - mu[keep]) / sd[keep]
    Xte = (Xte[:, keep] - mu[keep]) / sd[keep]
    if bias:
        Xtr = np.hstack([Xtr, np.ones((len(Xtr), 1))])
        Xte = np.hstack([Xte, np.ones((len(Xte), 1))])
    return Xtr, Xte, {"dropped_constant_columns": np.nonzero(~keep)[0].tolist(), "bias": bias}
