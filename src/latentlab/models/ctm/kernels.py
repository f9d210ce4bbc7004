"""Numba kernel of the Laplace-VI per-document loop for the CTM (same maths as
:func:`latentlab.models.ctm.reference.laplace_doc`; agreement is tested).

Sec. 3.1 / Appendix B of Wang & Blei (2013): alternate the Newton maximisation of
f(theta) = theta^T nbar - N lse(theta) - 1/2 (theta-mu0)^T P (theta-mu0) + const and the exact
phi update (Eq. 18); record the Eq. 21 objective after each iteration. For Laplace,
1/2 tr(H V) = -K/2 exactly (V = -H^-1 and H does not depend on phi in the CTM).
"""

from __future__ import annotations

import numpy as np
from numba import njit

LOG2PI = float(np.log(2.0 * np.pi))


@njit(cache=True)
def _lse(x):
    mx = x.max()
    return mx + np.log(np.exp(x - mx).sum())


@njit(cache=True)
def _phi(m, lbw, log_phi):
    U, K = lbw.shape
    row = np.empty(K)
    for u in range(U):
        for k in range(K):
            row[k] = lbw[u, k] + m[k]
        z = _lse(row)
        for k in range(K):
            log_phi[u, k] = row[k] - z


@njit(cache=True)
def _f(t, nbar, N, mu, P):
    r = t - mu
    return t @ nbar - N * _lse(t) - 0.5 * r @ (P @ r)


@njit(cache=True)
def laplace_doc_nb(counts, lbw, mu, P, logdetS, m0, tol, max_iter, newton_tol, max_newton):
    """Returns (m, V, log_phi, trace[:n_iter], n_iter)."""
    U, K = lbw.shape
    N = counts.sum()
    m = m0.copy()
    log_phi = np.empty((U, K))
    _phi(m, lbw, log_phi)
    trace = np.empty(max_iter)
    V = np.eye(K)
    negH = np.eye(K)
    it = 0
    for it in range(1, max_iter + 1):
        nbar = counts @ np.exp(log_phi)
        x = m.copy()
        for _ in range(max_newton):
            mx = x.max()
            p = np.exp(x - mx)
            p /= p.sum()
            r = x - mu
            g = nbar - N * p - P @ r
            negH = N * (np.diag(p) - np.outer(p, p)) + P
            step = np.linalg.solve(negH, g)
            dec = g @ step
            if dec / 2.0 < newton_tol:
                break
            f0 = _f(x, nbar, N, mu, P)
            t = 1.0
            moved = False
            while t > 1e-12:
                xn = x + t * step
                fn = _f(xn, nbar, N, mu, P)
                if np.isfinite(fn) and fn >= f0 + 1e-4 * t * dec:
                    moved = True
                    break
                t *= 0.5
            if not moved:
                break
            x = xn
        # negH at the final x
        mx = x.max()
        p = np.exp(x - mx)
        p /= p.sum()
        negH = N * (np.diag(p) - np.outer(p, p)) + P
        L = np.linalg.cholesky(negH)
        logdet_negH = 2.0 * np.log(np.diag(L)).sum()
        V = np.linalg.inv(negH)
        V = 0.5 * (V + V.T)
        dm = np.sqrt(((x - m) ** 2).sum())
        nm = max(np.sqrt((m**2).sum()), 1.0)
        m = x
        _phi(m, lbw, log_phi)
        nbar = counts @ np.exp(log_phi)
        ent = 0.0
        for u in range(U):
            s = 0.0
            for k in range(K):
                s += np.exp(log_phi[u, k]) * (lbw[u, k] - log_phi[u, k])
            ent += counts[u] * s
        fm = _f(m, nbar, N, mu, P) - 0.5 * (K * LOG2PI + logdetS)
        trace[it - 1] = fm - 0.5 * K - 0.5 * logdet_negH + 0.5 * K * (1.0 + LOG2PI) + ent
        if dm / nm < tol:
            break
    return m, V, log_phi, trace[:it], it
