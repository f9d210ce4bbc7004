"""Numba kernel of the Laplace-VI per-document loop for the CTM (same maths as
:func:`latentlab.models.ctm.vi.laplace_doc`; agreement is tested).

Sec. 3.1 / Appendix B of Wang & Blei (2013): alternate the Newton maximisation of
f(theta) = theta^T nbar - N lse(theta) - 1/2 (theta-mu0)^T P (theta-mu0) + const and the exact
phi update (Eq. 18); record the Eq. 21 objective after each iteration. For Laplace,
1/2 tr(H V) = -K/2 exactly (V = -H^-1 and H does not depend on phi in the CTM).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from latentlab.kernels.special import logsumexp

LOG2PI = float(np.log(2.0 * np.pi))


@njit(cache=True)
def _phi(m, lbw, log_phi):
    U, K = lbw.shape
    row = np.empty(K)
    for u in range(U):
        for k in range(K):
            row[k] = lbw[u, k] + m[k]
        z = logsumexp(row, K)
        for k in range(K):
            log_phi[u, k] = row[k] - z


@njit(cache=True)
def _f(t, nbar, N, mu, P):
    r = t - mu
    return t @ nbar - N * logsumexp(t, t.shape[0]) - 0.5 * r @ (P @ r)


@njit(cache=True)
def _chol_solve(L, b):
    """Solve (L L^T) x = b with the lower Cholesky factor L (forward + back substitution)."""
    n = b.shape[0]
    y = np.empty(n)
    for i in range(n):
        s = b[i]
        for j in range(i):
            s -= L[i, j] * y[j]
        y[i] = s / L[i, i]
    x = np.empty(n)
    for i in range(n - 1, -1, -1):
        s = y[i]
        for j in range(i + 1, n):
            s -= L[j, i] * x[j]
        x[i] = s / L[i, i]
    return x


@njit(cache=True)
def _neg_hess(x, N, P):
    """-H = N (diag pi - pi pi^T) + P (Appendix B)."""
    K = x.shape[0]
    mx = x.max()
    p = np.exp(x - mx)
    p /= p.sum()
    negH = np.empty((K, K))
    for i in range(K):
        for j in range(K):
            negH[i, j] = P[i, j] - N * p[i] * p[j]
        negH[i, i] += N * p[i]
    return negH, p


@njit(cache=True)
def laplace_doc_nb(counts, lbw, mu, P, logdetS, m0, tol, max_iter, newton_tol, max_newton):
    """Returns (m, V, log_phi, trace[:n_iter], n_iter).

    Newton steps solve with the Cholesky factor of -H (also giving log|V| = -log|-H| for the
    Eq. 21 trace); V = (-H)^-1 is formed once, after the last iteration.
    """
    U, K = lbw.shape
    N = counts.sum()
    m = m0.copy()
    log_phi = np.empty((U, K))
    _phi(m, lbw, log_phi)
    trace = np.empty(max_iter)
    L = np.eye(K)
    it = 0
    for it in range(1, max_iter + 1):
        nbar = counts @ np.exp(log_phi)
        x = m.copy()
        negH, p = _neg_hess(x, N, P)
        L = np.linalg.cholesky(negH)
        for _ in range(max_newton):
            g = nbar - N * p - P @ (x - mu)
            step = _chol_solve(L, g)
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
            negH, p = _neg_hess(x, N, P)
            L = np.linalg.cholesky(negH)
        logdet_negH = 2.0 * np.log(np.diag(L)).sum()
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
    Linv = np.linalg.inv(L)
    V = Linv.T @ Linv
    return m, V, log_phi, trace[:it], it


@njit(cache=True)
def _delta_g_and_grad(m, v, nbar, N, mu, P, Pd):
    """Eq. 17 (diagonal V, m-dependent part, no constants) and its gradient (third derivatives
    of f, derived here)."""
    mx = m.max()
    p = np.exp(m - mx)
    p /= p.sum()
    r = m - mu
    Pr = P @ r
    lse = logsumexp(m, m.shape[0])
    Hd = -N * p * (1 - p) - Pd
    val = m @ nbar - N * lse - 0.5 * r @ Pr + 0.5 * (v @ Hd)
    a = v * p * (1 - 2 * p)
    grad = nbar - N * p - Pr - 0.5 * N * (a - p * a.sum())
    return val, grad


@njit(cache=True)
def _lbfgs_max(m0, v, nbar, N, mu, P, Pd, gtol, max_iter, hist):
    """Maximise the delta objective in m (v fixed) by L-BFGS with Armijo backtracking;
    stops when max |grad| < gtol (scipy L-BFGS-B's projected-gradient rule)."""
    K = m0.shape[0]
    S = np.zeros((hist, K))
    Y = np.zeros((hist, K))
    rho = np.zeros(hist)
    alpha = np.zeros(hist)
    x = m0.copy()
    f, g = _delta_g_and_grad(x, v, nbar, N, mu, P, Pd)
    n_stored = 0
    head = 0
    for _ in range(max_iter):
        if np.abs(g).max() < gtol:
            break
        # two-loop recursion on -f (ascent direction d = H g)
        q = g.copy()
        for j in range(n_stored):
            i = (head - 1 - j) % hist
            alpha[i] = rho[i] * (S[i] @ q)
            q -= alpha[i] * Y[i]
        if n_stored > 0:
            i = (head - 1) % hist
            gamma = (S[i] @ Y[i]) / (Y[i] @ Y[i])
        else:
            gamma = 1.0 / max(np.sqrt((g**2).sum()), 1.0)
        d = gamma * q
        for j in range(n_stored - 1, -1, -1):
            i = (head - 1 - j) % hist
            b = rho[i] * (Y[i] @ d)
            d += S[i] * (alpha[i] - b)
        slope = g @ d
        if slope <= 0:
            d = g.copy()
            slope = g @ g
            n_stored = 0
        t = 1.0
        ok = False
        while t > 1e-14:
            xn = x + t * d
            fn, gn = _delta_g_and_grad(xn, v, nbar, N, mu, P, Pd)
            if np.isfinite(fn) and fn >= f + 1e-4 * t * slope:
                ok = True
                break
            t *= 0.5
        if not ok:
            break
        s = xn - x
        yv = g - gn  # gradient of -f changes by -(gn - g)
        sy = s @ yv
        if sy > 1e-12:
            S[head] = s
            Y[head] = yv
            rho[head] = 1.0 / sy
            head = (head + 1) % hist
            n_stored = min(n_stored + 1, hist)
        x = xn
        f = fn
        g = gn
    return x


@njit(cache=True)
def delta_doc_nb(counts, lbw, mu, P, logdetS, m0, tol, max_iter, inner, gtol, max_lbfgs):
    """Delta-method VI for one CTM document (diagonal V), same loop as vi.delta_doc.

    The L-BFGS stops when max |grad| < gtol * max(N, 1) (the gradient scales with the document
    length N) or after ``max_lbfgs`` iterations.

    Returns (m, v, log_phi, trace[:n_iter], n_iter)."""
    U, K = lbw.shape
    N = counts.sum()
    Pd = np.diag(P).copy()
    m = m0.copy()
    mx = m.max()
    p = np.exp(m - mx)
    p /= p.sum()
    v = 1.0 / (N * p * (1 - p) + Pd)
    log_phi = np.empty((U, K))
    _phi(m, lbw, log_phi)
    trace = np.empty(max_iter)
    it = 0
    for it in range(1, max_iter + 1):
        nbar = counts @ np.exp(log_phi)
        m_old = m.copy()
        for _ in range(inner):
            m = _lbfgs_max(m, v, nbar, N, mu, P, Pd, gtol * max(N, 1.0), max_lbfgs, 10)
            mx = m.max()
            p = np.exp(m - mx)
            p /= p.sum()
            v = 1.0 / (N * p * (1 - p) + Pd)
        dm = np.sqrt(((m - m_old) ** 2).sum())
        nm = max(np.sqrt((m_old**2).sum()), 1.0)
        _phi(m, lbw, log_phi)
        nbar = counts @ np.exp(log_phi)
        ent = 0.0
        for u in range(U):
            s = 0.0
            for k in range(K):
                s += np.exp(log_phi[u, k]) * (lbw[u, k] - log_phi[u, k])
            ent += counts[u] * s
        Hd = -N * p * (1 - p) - Pd
        fm = _f(m, nbar, N, mu, P) - 0.5 * (K * LOG2PI + logdetS)
        trace[it - 1] = fm + 0.5 * (Hd @ v) + 0.5 * np.log(v).sum() + 0.5 * K * (1.0 + LOG2PI) + ent
        if dm / nm < tol:
            break
    return m, v, log_phi, trace[:it], it


@njit(cache=True)
def bl_doc_nb(counts, lbw, mu, P, logdetS, lam0, tol, max_iter, gtol, nu_init):
    """Blei & Lafferty (2007) per-document inference (ctm-c ``var_inference`` order),
    K-1 free dimensions. The lambda step maximises the same strictly concave function as ctm-c's
    Fletcher-Reeves CG, here by damped Newton to max |grad| < gtol (same maximiser; the reference
    implementation uses scipy CG). nu^2: Newton in log space per coordinate (restart doubles the
    start value on NaN). Returns (lambda, nu2, log_phi, zeta, trace[:n_iter], n_iter)."""
    U, K = lbw.shape
    Km = K - 1
    N = counts.sum()
    Pd = np.diag(P).copy()
    lam = lam0.copy()
    nu2 = np.full(Km, 10.0)
    log_phi = np.full((U, K), -np.log(K))
    trace = np.empty(max_iter)
    zeta = 10.0
    old = 0.0
    it = 0
    full = np.zeros(K)
    for it in range(1, max_iter + 1):
        zeta = np.exp(lam + 0.5 * nu2).sum() + 1.0
        nbar = counts @ np.exp(log_phi)
        nb = nbar[:Km]
        # lambda: Newton on the concave objective (zeta, nu2 fixed)
        for _ in range(100):
            e = np.exp(lam + 0.5 * nu2)
            r = lam - mu
            Pr = P @ r
            g = -Pr + nb - (N / zeta) * e
            if np.abs(g).max() < gtol:
                break
            negH = P.copy()
            for i in range(Km):
                negH[i, i] += (N / zeta) * e[i]
            step = np.linalg.solve(negH, g)
            f0 = -0.5 * r @ Pr - (N / zeta) * e.sum() + nb @ lam
            dec = g @ step
            t = 1.0
            while t > 1e-12:
                ln = lam + t * step
                rn = ln - mu
                fn = -0.5 * rn @ (P @ rn) - (N / zeta) * np.exp(ln + 0.5 * nu2).sum() + nb @ ln
                if np.isfinite(fn) and fn >= f0 + 1e-4 * t * dec:
                    break
                t *= 0.5
            lam = lam + t * step
        zeta = np.exp(lam + 0.5 * nu2).sum() + 1.0
        # nu^2: Newton in log space (ctm-c opt_nu_i), vectorised over coordinates
        init = nu_init
        for _r in range(20):
            lnu = np.full(Km, np.log(init))
            ok = True
            for _ in range(100):
                nu = np.exp(lnu)
                e = np.exp(lam + 0.5 * nu)
                df = -0.5 * Pd - 0.5 * (N / zeta) * e + 0.5 / nu
                d2f = -0.25 * (N / zeta) * e - 0.5 / nu**2
                lnu = lnu - (df * nu) / (d2f * nu * nu + df * nu)
                if not np.isfinite(lnu).all():
                    ok = False
                    break
                if np.abs(df).max() < 1e-10:
                    break
            if ok:
                nu2 = np.exp(lnu)
                break
            init *= 2.0
        zeta = np.exp(lam + 0.5 * nu2).sum() + 1.0
        full[:Km] = lam
        full[Km] = 0.0
        _phi(full, lbw, log_phi)
        nbar = counts @ np.exp(log_phi)
        ent = 0.0
        for u in range(U):
            s = 0.0
            for k in range(K):
                s += np.exp(log_phi[u, k]) * (lbw[u, k] - log_phi[u, k])
            ent += counts[u] * s
        r = lam - mu
        ssum = np.exp(lam + 0.5 * nu2).sum() + 1.0
        b = (
            -0.5 * logdetS
            + 0.5 * Km
            + (-0.5 * nu2 * Pd + 0.5 * np.log(nu2)).sum()
            - 0.5 * r @ (P @ r)
            - N * (ssum / zeta - 1.0 + np.log(zeta))
            + nbar @ full
            + ent
        )
        trace[it - 1] = b
        if it > 1 and abs((b - old) / old) < tol:
            break
        old = b
    return lam, nu2, log_phi, zeta, trace[:it], it
