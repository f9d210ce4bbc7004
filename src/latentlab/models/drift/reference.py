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


# ------------------------------------------------------- LFRM_LDA / BMF_LDA (App. A)
def lda_link_loglik(y, eta, link, sd):
    """Same convention as ``lfrm_lda_kernels.link_loglik`` (0 logistic, 1 Poisson, 2 Gauss)."""
    if link == 0:
        return -np.logaddexp(0, -eta) if y > 0.5 else -np.logaddexp(0, eta)
    if link == 1:
        return y * eta - np.exp(eta)
    return -0.5 * (y - eta) ** 2 / sd**2


def lda_network_loglik(Y, O, Z, W, eps, link, sd):
    E = (Z.astype(float) @ W @ Z.T.astype(float)) + eps
    return sum(
        lda_link_loglik(Y[i, j], E[i, j], link, sd)
        for i in range(Y.shape[0])
        for j in range(Y.shape[0])
        if O[i, j]
    )


def lda_alphas(Z, snd, rcv, lam, gamma, alpha_plus):
    """α^(d) by the formula of Eqs. 2.30 / 2.31, one document at a time."""
    K = Z.shape[1]
    A = np.zeros((len(snd), K))
    for d in range(len(snd)):
        for e, share in ((snd[d], gamma * lam[d]), (rcv[d], gamma * (1 - lam[d]))):
            if e < 0:
                continue
            s = Z[e].sum()
            A[d] += share * (Z[e] / s if s else np.full(K, 1.0 / K))
        A[d] += (1 - gamma) / K
    return alpha_plus * A


def lda_polya_free(ndk, A):
    from scipy.special import gammaln

    return float(np.sum(np.where(ndk > 0, gammaln(ndk + A) - gammaln(A), 0.0)))


def lda_token_sweep(ptr, w, t, ndk, nwk, nk, A, beta, u):
    """Oracle of ``token_sweep`` (Eq. A.9), same uniforms; modifies its arguments."""
    V, K = nwk.shape
    for d in range(len(ptr) - 1):
        for i in range(ptr[d], ptr[d + 1]):
            k = t[i]
            ndk[d, k] -= 1
            nwk[w[i], k] -= 1
            nk[k] -= 1
            p = (ndk[d] + A[d]) * (nwk[w[i]] + beta) / (nk + V * beta)
            c = np.cumsum(p)
            k = min(int(np.searchsorted(c, u[i] * c[-1], side="right")), K - 1)
            t[i] = k
            ndk[d, k] += 1
            nwk[w[i], k] += 1
            nk[k] += 1


def lda_z_sweep(Y, O, Z, W, eps, allowed, ndk, snd, rcv, lam, gamma, alpha_plus, logit_pi,
                link, sd, u):  # fmt: skip
    """Oracle of ``z_sweep``: the log-odds of Eq. A.10 from the full joint, recomputed."""
    Z = Z.copy()
    E, K = Z.shape
    for e in range(E):
        for k in range(K):
            if not allowed[e, k]:
                continue
            lj = []
            for z in (0, 1):
                Z[e, k] = z
                A = lda_alphas(Z, snd, rcv, lam, gamma, alpha_plus)
                lj.append(
                    lda_network_loglik(Y, O, Z, W, eps, link, sd)
                    + z * logit_pi[k]
                    + lda_polya_free(ndk, A)
                )
            x = lj[1] - lj[0]
            Z[e, k] = int(u[e, k] < 1.0 / (1.0 + np.exp(-x)))
    return Z


def lda_mh_w(Y, O, Z, W, eps, free, prior, sigma_w, sigma_prop, link, sd, normals, uniforms):
    W = W.copy()
    K = W.shape[0]
    for k in range(K):
        for kk in range(K):
            if not free[k, kk]:
                continue
            wn = W[k, kk] + sigma_prop * normals[k, kk]
            if prior == 1 and wn <= 0:
                continue
            Wn = W.copy()
            Wn[k, kk] = wn
            if prior == 1:
                lp = -(wn - W[k, kk]) / sigma_w
            else:
                lp = -0.5 * (wn**2 - W[k, kk] ** 2) / sigma_w**2
            logr = lp + lda_network_loglik(Y, O, Z, Wn, eps, link, sd)
            logr -= lda_network_loglik(Y, O, Z, W, eps, link, sd)
            if np.log(uniforms[k, kk]) < logr:
                W = Wn
    return W
