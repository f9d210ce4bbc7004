"""Hierarchical Bayesian logistic regression (Wang & Blei 2013 Sec. 4.2, Appendix C).

Model (the document's Eqs. 22-23 are lost in our copy of it; the Normal-inverse-Wishart
hyperprior is our reconstruction, consistent with Appendix C's MAP update "from their
approximate expected sufficient statistics" and its "d, the dimension of coefficients"):
mu | Sigma ~ N(mu_h, Sigma / kappa_h), Sigma ~ IW(nu_h, Psi_h);
theta_j ~ N(mu, Sigma) per problem (school) j; y_ij ~ Bernoulli(sigma(theta_j^T x_ij)).

Variational EM with a regularised (MAP) M-step:
* E-step: q(theta_j) = N(m_j, V_j) by Laplace VI, delta-method VI or Jaakkola-Jordan under the
  current Gaussian prior N(mu, Sigma);
* M-step (under that reconstruction): mu = (kappa_h mu_h + sum_j m_j) / (kappa_h + J),
  Sigma = [Psi_h + kappa_h (mu - mu_h)(mu - mu_h)^T + sum_j (V_j + (m_j - mu)(m_j - mu)^T)]
          / (nu_h + J + d + 2).
* Initialisation (the document's is lost in our copy; ours): q(theta_j) = N(0, I), then one
  M-step.
The hyperprior (mu_h, kappa_h, nu_h = d + nu_offset, Psi_h = psi_scale * I) is configuration.
"""

from __future__ import annotations

import logging

import numpy as np

from latentlab.models.logreg import vi as blr
from latentlab.models.nonconjugate.core import GaussianQ

log = logging.getLogger(__name__)


def niw_map(ms, Vs, *, mu_h, kappa_h, nu_h, Psi_h):
    """MAP M-step under the NIW hyperprior (our reconstruction of Eqs. 22-23)."""
    J = len(ms)
    d = len(mu_h)
    M = np.stack(ms)
    mu = (kappa_h * mu_h + M.sum(axis=0)) / (kappa_h + J)
    R = M - mu
    S = Psi_h + kappa_h * np.outer(mu - mu_h, mu - mu_h) + R.T @ R + np.sum(Vs, axis=0)
    Sigma = S / (nu_h + J + d + 2)
    return mu, 0.5 * (Sigma + Sigma.T)


def fit_hierarchical(
    tasks,
    method: str,
    *,
    kappa_h: float = 1.0,
    nu_offset: float = 2.0,
    psi_scale: float = 1.0,
    max_iter: int = 30,
    tol: float = 1e-4,
    method_opts=None,
):
    """Variational EM for hierarchical BLR. ``tasks`` = list of (X_j, y_j).

    Returns (list of q_j, mu, Sigma, history). Stops when the relative change of (mu, Sigma)
    falls below ``tol`` or after ``max_iter`` iterations.
    """
    method_opts = method_opts or {}
    d = tasks[0][0].shape[1]
    mu_h = np.zeros(d)
    Psi_h = psi_scale * np.eye(d)
    nu_h = d + nu_offset
    qs = [GaussianQ(np.zeros(d), np.eye(d), 0.0) for _ in tasks]
    mu, Sigma = niw_map(
        [q.m for q in qs], [q.V for q in qs], mu_h=mu_h, kappa_h=kappa_h, nu_h=nu_h, Psi_h=Psi_h
    )
    hist = []
    for it in range(1, max_iter + 1):
        new = []
        for (X, y), q in zip(tasks, qs, strict=True):
            kw = dict(method_opts)
            if method in ("laplace", "delta"):
                kw["m0"] = q.m
            new.append(blr.fit(method, X, y, mu, Sigma, **kw))
        qs = new
        mu_n, Sigma_n = niw_map(
            [q.m for q in qs], [q.V for q in qs], mu_h=mu_h, kappa_h=kappa_h, nu_h=nu_h, Psi_h=Psi_h
        )
        ch = (np.linalg.norm(mu_n - mu) + np.linalg.norm(Sigma_n - Sigma)) / max(
            np.linalg.norm(mu) + np.linalg.norm(Sigma), 1e-12
        )
        mu, Sigma = mu_n, Sigma_n
        hist.append({"iter": it, "change": float(ch)})
        if ch < tol:
            break
    log.info("hierarchical %s: %d EM iterations (last change %.2e)", method, it, ch)
    return qs, mu, Sigma, hist
