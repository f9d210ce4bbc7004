"""Plain-numpy oracles of the DRIFT kernels (tests only; slow, written from the equations).

Every function recomputes from scratch what the kernel keeps incrementally, and consumes
the same random numbers, so kernel and oracle agree up to rounding.
"""

from __future__ import annotations

import numpy as np


def eta(Z, W, eps):
    """η^(t) = Z^(t) W Z^(t)ᵀ + ε (Eq. 2.18)."""
    Zf = Z.astype(float)
    return np.einsum("tia,ab,tjb->tij", Zf, W, Zf) + eps


def loglik(C1, C0, E):
    """Σ_t Σ_{i<j} C1 log σ(η) + C0 log(1 − σ(η))."""
    iu = np.triu_indices(E.shape[1], 1)
    e = E[:, iu[0], iu[1]]
    return float(
        np.sum(
            -C1[:, iu[0], iu[1]] * np.logaddexp(0, -e) - C0[:, iu[0], iu[1]] * np.logaddexp(0, e)
        )
    )


def chain_loglik(C1, C0, Z, W, eps, i, k):
    """Per-time log-likelihood of the data with z_ik^(t) forced to 0 and to 1."""
    T = Z.shape[0]
    out = np.zeros((2, T))
    for s in (0, 1):
        Zs = Z.copy()
        Zs[:, i, k] = s
        E = eta(Zs, W, eps)
        for t in range(T):
            out[s, t] = loglik(C1[t : t + 1], C0[t : t + 1], E[t : t + 1])
    # only pairs touching i depend on z_ik; subtract the rest (it is the same for s = 0, 1)
    return out[0], out[1]


def ffbs3(ll0, ll1, a, b, w_never, w_on, u):
    """Same algorithm as :func:`kernels.ffbs3`, on explicit 3x3 matrices."""
    T = len(ll0)
    Q = np.array([[1 - a, 0, a], [0, 1 - a, a], [0, 1 - b, b]])
    alpha = np.zeros((T, 3))
    prev = np.array([1.0, 0.0, 0.0])
    for t in range(T):
        m = max(ll0[t], ll1[t])
        em = np.exp(np.array([ll0[t], ll0[t], ll1[t]]) - m)
        q = (prev @ Q) * em
        prev = q / q.sum()
        alpha[t] = prev
    z = np.zeros(T, dtype=np.int8)
    f = alpha[-1] * np.array([w_never, w_on, w_on])
    st = _pick(f, u[T - 1])
    z[T - 1] = st == 2
    for t in range(T - 2, -1, -1):
        st = _pick(alpha[t] * Q[:, st], u[t])
        z[t] = st == 2
    return z


def _pick(w, u):
    c = np.cumsum(w)
    r = u * c[-1]
    return 0 if r < c[0] else (1 if r < c[1] else 2)


def sweep_z(C1, C0, Z, W, eps, a, b, slice_factor, U):
    """Oracle of :func:`kernels.sweep_z` (returns the new Z)."""
    Z = Z.copy()
    T, N, K = Z.shape
    for k in range(K):
        for i in range(N):
            w_never = w_on = 1.0
            others = Z[:, :, k].sum() - Z[:, i, k].sum()
            if slice_factor and others == 0:
                act = [kk for kk in range(K) if kk != k and Z[:, :, kk].sum() > 0]
                astar0 = min([1.0] + [a[kk] for kk in act])
                w_never, w_on = 1.0 / astar0, 1.0 / min(astar0, a[k])
            ll0, ll1 = chain_loglik(C1, C0, Z, W, eps, i, k)
            Z[:, i, k] = ffbs3(ll0, ll1, a[k], b[k], w_never, w_on, U[k, i])
    return Z


def mh_w(C1, C0, Z, W, eps, sigma_prior, sigma_prop, normals, uniforms):
    """Oracle of :func:`kernels.mh_w` (full likelihood recomputed per proposal)."""
    W = W.copy()
    K = W.shape[0]
    for k in range(K):
        for kk in range(k, K):
            Wn = W.copy()
            Wn[k, kk] = Wn[kk, k] = W[k, kk] + sigma_prop * normals[k, kk]
            logr = loglik(C1, C0, eta(Z, Wn, eps)) - loglik(C1, C0, eta(Z, W, eps))
            logr -= (Wn[k, kk] ** 2 - W[k, kk] ** 2) / (2 * sigma_prior**2)
            if np.log(uniforms[k, kk]) < logr:
                W = Wn
    return W


def stick_logh(a, alpha, M):
    i = np.arange(1, M + 1)
    return alpha * np.sum((1 - a) ** i / i) + M * np.log1p(-a)


def transition_counts(Z):
    T, N, K = Z.shape
    prev = np.concatenate([np.zeros((1, N, K), dtype=Z.dtype), Z[:-1]])
    return np.stack(
        [((prev == r) & (Z == s)).sum(axis=(0, 1)) for r in (0, 1) for s in (0, 1)], axis=1
    )
