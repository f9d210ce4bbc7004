"""Running example of Wang & Blei (2013), Secs. 2.2, 3.1, 3.3: hierarchical unigram language model.

Generative process (Sec. 2.2; written out here, our copy of the document lost its
equations): theta ~ N(mu0, Sigma0) (V-vector of log Dirichlet
parameters); z_d | theta ~ Dir(exp theta); x_d | z_d ~ Mult(N_d, z_d).

* Eq. 15: with alpha = exp(theta), alpha0 = sum(alpha), S_v = sum_d E_q[log z_dv],
  f(theta) = alpha^T S - D [sum_v lgamma(alpha_v) - lgamma(alpha0)]
             - 1/2 (theta-mu0)^T P (theta-mu0).
* Conjugate update (Sec. 3.3): E_q[exp theta_v] = exp(m_v + V_vv / 2) exactly (log-normal
  mean), so gamma_d = exp(m + diag(V)/2) + x_d (claim C6).

Not used by any experiment (the document does not run it); tested on synthetic data only.
exp(theta) is clipped at theta <= 30 (ours, against overflow); the Hessian is not negative
definite away from the optimum, so the maximisation uses scipy's trust-region Newton (trust-exact).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize
from scipy.special import digamma, gammaln, polygamma

from latentlab.models.nonconjugate.core import GaussianQ, psd_inverse

THETA_MAX = 30.0


def expected_log_z(gamma: np.ndarray) -> np.ndarray:
    """E_q[log z_dv] = psi(gamma_dv) - psi(sum_v gamma_dv) for q(z_d) = Dir(gamma_d)."""
    return digamma(gamma) - digamma(gamma.sum(axis=-1, keepdims=True))


def lm_f(theta, S, D, mu0, P):
    """f of Eq. 15 (without the constant of log p(theta))."""
    th = np.minimum(theta, THETA_MAX)
    a = np.exp(th)
    r = theta - mu0
    return float(a @ S - D * (gammaln(a).sum() - gammaln(a.sum())) - 0.5 * r @ P @ r)


def lm_grad(theta, S, D, mu0, P):
    """df/dtheta_v = alpha_v (S_v - D psi(alpha_v) + D psi(alpha0)) - [P (theta - mu0)]_v
    (derived here)."""
    a = np.exp(np.minimum(theta, THETA_MAX))
    return a * (S - D * digamma(a) + D * digamma(a.sum())) - P @ (theta - mu0)


def lm_hess(theta, S, D, mu0, P):
    """Hessian of Eq. 15 (derived here, not in the document):
    d_uv a_v (S_v - D psi(a_v) + D psi(a0)) - d_uv D a_v^2 psi'(a_v) + D a_u a_v psi'(a0) - P_uv.
    """
    a = np.exp(np.minimum(theta, THETA_MAX))
    a0 = a.sum()
    diag = a * (S - D * digamma(a) + D * digamma(a0)) - D * a**2 * polygamma(1, a)
    return np.diag(diag) + D * polygamma(1, a0) * np.outer(a, a) - P


def gamma_update(q: GaussianQ, X: np.ndarray) -> np.ndarray:
    """Eq. 18 for this model: gamma_d = E_q[exp theta] + x_d = exp(m + diag(V)/2) + x_d."""
    dv = q.V if q.diagonal else np.diag(q.V)
    return np.exp(np.minimum(q.m + 0.5 * dv, THETA_MAX))[None, :] + X


def fit_lm(
    X: np.ndarray,
    mu0: np.ndarray,
    Sigma0: np.ndarray,
    *,
    n_iter: int = 50,
    tol: float = 1e-6,
) -> tuple[GaussianQ, np.ndarray, list[float]]:
    """Laplace VI for the language model (Fig. 1 algorithm): alternate q(theta), q(z_d).

    X: D x V count matrix. Returns (q(theta), gamma, trace of ||m|| changes).
    """
    X = np.asarray(X, dtype=float)
    D, V = X.shape
    P, _ = psd_inverse(np.asarray(Sigma0, dtype=float))
    m = np.array(mu0, dtype=float, copy=True)
    q = GaussianQ(m, np.asarray(Sigma0, dtype=float).copy(), 0.0)
    gamma = gamma_update(q, X)
    trace = []
    for _ in range(n_iter):
        S = expected_log_z(gamma).sum(axis=0)
        res = minimize(
            lambda t, S=S: -lm_f(t, S, D, mu0, P),
            q.m,
            jac=lambda t, S=S: -lm_grad(t, S, D, mu0, P),
            hess=lambda t, S=S: -lm_hess(t, S, D, mu0, P),
            method="trust-exact",
            options={"gtol": 1e-9},
        )
        m_new = res.x
        Vq, logdet_negH = psd_inverse(-lm_hess(m_new, S, D, mu0, P))
        change = float(np.linalg.norm(m_new - q.m) / max(np.linalg.norm(q.m), 1.0))
        q = GaussianQ(m_new, Vq, -logdet_negH)
        gamma = gamma_update(q, X)
        trace.append(change)
        if change < tol:
            break
    return q, gamma, trace


def sample_lm(D: int, V: int, N: int, mu0, Sigma0, seed: int):
    """Synthetic data from the generative process (Sec. 2.2)."""
    rng = np.random.default_rng(seed)
    theta = rng.multivariate_normal(mu0, Sigma0)
    z = rng.dirichlet(np.exp(theta), size=D)
    X = np.stack([rng.multinomial(N, zd) for zd in z])
    return theta, z, X
