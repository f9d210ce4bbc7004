"""Plain-numpy oracles of the TIR kernels (tests only; Foulds 2014, Eqs 3.1-3.6)."""

from __future__ import annotations

import numpy as np
from scipy.special import digamma, gammaln


def doc_alphas(cptr, cidx, ew, ndk, alpha0):
    """alpha^(d) = sum_c ew zbar^(c) + alpha0 for every d (Eq 3.1 / 3.3)."""
    D, K = ndk.shape
    nd = ndk.sum(1)
    out = np.full((D, K), float(alpha0))
    for d in range(D):
        for e in range(cptr[d], cptr[d + 1]):
            c = cidx[e]
            if nd[c] > 0:
                out[d] += ew[e] * ndk[c] / nd[c]
    return out


def log_polya(nk, a):
    nk = np.asarray(nk, float)
    return gammaln(a.sum()) - gammaln(a.sum() + nk.sum()) + np.sum(gammaln(nk + a) - gammaln(a))


def counts(ptr, w, z, K, W):
    D = len(ptr) - 1
    ndk = np.zeros((D, K), np.int64)
    nwk = np.zeros((W, K), np.int64)
    for d in range(D):
        for i in range(ptr[d], ptr[d + 1]):
            ndk[d, z[i]] += 1
            nwk[w[i], z[i]] += 1
    return ndk, nwk


def log_joint(ptr, w, z, K, W, cptr, cidx, ew, alpha0, beta):
    """log P(w, z | l) of TIR with Theta and Phi collapsed: prod_d Polya(z^(d) |
    alpha^(d)(z of cited docs)) times the Dirichlet-multinomial of the words (Fig 3.2)."""
    ndk, nwk = counts(ptr, w, z, K, W)
    a = doc_alphas(cptr, cidx, ew, ndk, alpha0)
    lp = sum(log_polya(ndk[d], a[d]) for d in range(len(ndk)))
    nk = nwk.sum(0)
    lw = (
        K * (gammaln(W * beta) - W * gammaln(beta))
        + np.sum(gammaln(nwk + beta))
        - np.sum(gammaln(nk + W * beta))
    )
    return lp + lw


def joint_conditional(ptr, w, z, i, K, W, cptr, cidx, ew, alpha0, beta, drop_citers=False):
    """P(z_i = k | rest) as the normalised ratio of joints over k (the oracle of Eq 3.4).
    ``drop_citers`` leaves out the Polya factors of the documents citing i's document,
    the approximation the experiments use."""
    d = int(np.searchsorted(ptr, i, side="right") - 1)
    citers = {b for b in range(len(ptr) - 1) if d in set(cidx[cptr[b] : cptr[b + 1]])}
    lj = np.empty(K)
    for k in range(K):
        zz = z.copy()
        zz[i] = k
        if not drop_citers:
            lj[k] = log_joint(ptr, w, zz, K, W, cptr, cidx, ew, alpha0, beta)
            continue
        ndk, nwk = counts(ptr, w, zz, K, W)
        a = doc_alphas(cptr, cidx, ew, ndk, alpha0)
        keep = [b for b in range(len(ptr) - 1) if b not in citers]
        nk = nwk.sum(0)
        lj[k] = (
            sum(log_polya(ndk[b], a[b]) for b in keep)
            + np.sum(gammaln(nwk + beta))
            - np.sum(gammaln(nk + W * beta))
        )
    p = np.exp(lj - lj.max())
    return p / p.sum()


def tir_sweep(ptr, w, z, ndk, nwk, nk, alpha_dk, refresh, cptr, cidx, ew, alpha0, beta, u):
    """Draw-for-draw twin of kernels.tir_sweep (same uniforms, same inverse-CDF search)."""
    D = len(ptr) - 1
    K = len(nk)
    beta_sum = nwk.shape[0] * beta
    for d in range(D):
        if refresh:
            alpha_dk[d] = doc_alphas(cptr, cidx, ew, ndk, alpha0)[d]
        for i in range(ptr[d], ptr[d + 1]):
            k = z[i]
            ndk[d, k] -= 1
            nwk[w[i], k] -= 1
            nk[k] -= 1
            p = np.cumsum((ndk[d] + alpha_dk[d]) * (nwk[w[i]] + beta) / (nk + beta_sum))
            r = u[i] * p[-1]
            k = min(int(np.sum(p <= r)), K - 1)
            z[i] = k
            ndk[d, k] += 1
            nwk[w[i], k] += 1
            nk[k] += 1


def polya_objective(ndk, alpha_dk, docs):
    """sum_d log Polya(z^(d) | alpha^(d)) over ``docs`` (Eq 3.6) and d/d alpha^(d)."""
    g = np.zeros_like(alpha_dk)
    tot = 0.0
    for d in docs:
        a = alpha_dk[d]
        n = ndk[d]
        tot += log_polya(n, a)
        g[d] = (
            digamma(a.sum())
            - digamma(a.sum() + n.sum())
            + np.where(n > 0, digamma(a + n) - digamma(a), 0.0)
        )
    return tot, g


def tir_loglik_grad(l, cptr, cidx, ndk, alpha0):
    """log Pr(z | l) of TIR (Eq 3.6) and its gradient in l (the equation after 3.6;
    the printed dPr/dl is the derivative of log Pr: a typo in the thesis)."""
    D, K = ndk.shape
    nd = ndk.sum(1)
    zbar = ndk / np.maximum(nd, 1)[:, None]
    ew = l[cidx]
    a = doc_alphas(cptr, cidx, ew, ndk, alpha0)
    docs = [d for d in range(D) if cptr[d + 1] > cptr[d]]
    tot, g = polya_objective(ndk, a, docs)
    grad = np.zeros_like(l, dtype=float)
    for d in docs:
        for e in range(cptr[d], cptr[d + 1]):
            c = cidx[e]
            # psi(S + K alpha) - psi(S + K alpha + n) + sum_k zbar_k (psi(A+n_k) - psi(A))
            grad[c] += zbar[c] @ g[d]
    return tot, grad


def l_cond_logp(a, x, l, cptr, cidx, ndk, alpha0, rate):
    """log Pr(l^(a) = x | z, l^(-a), lambda) + const, from scratch (Eqs 3.5-3.6): the
    Polya factors of every citing document with l^(a) set to x, minus lambda x (the
    Exponential prior of Alg 4); -inf for x < 0."""
    if x < 0:
        return -np.inf
    ll = np.array(l, dtype=float)
    ll[a] = x
    alphas = doc_alphas(cptr, cidx, ll[cidx], ndk, alpha0)
    citers = [d for d in range(len(cptr) - 1) if a in set(cidx[cptr[d] : cptr[d + 1]])]
    return sum(log_polya(ndk[d], alphas[d]) for d in citers) - rate * x


def l_mh_scan(cited, l, cptr, cidx, ndk, alpha0, rate, step, eps, u):
    """Draw-for-draw twin of kernels.l_mh_scan (l updated in place; returns accepts)."""
    acc = 0
    for j, a in enumerate(cited):
        x = l[a]
        y = x + step * eps[j]
        if y < 0:
            continue
        f0 = l_cond_logp(a, x, l, cptr, cidx, ndk, alpha0, rate)
        f1 = l_cond_logp(a, y, l, cptr, cidx, ndk, alpha0, rate)
        if np.log(u[j]) < f1 - f0:
            l[a] = y
            acc += 1
    return acc


def l_slice_scan(cited, l, cptr, cidx, ndk, alpha0, rate, width, max_out, u):
    """Draw-for-draw twin of kernels.l_slice_scan (Neal 2003, Figs 3 and 5: stepping out,
    then shrinkage; the interval cut to x >= 0)."""
    n_stuck = 0
    for j, a in enumerate(cited):

        def f(x, a=a):
            return l_cond_logp(a, x, l, cptr, cidx, ndk, alpha0, rate)

        x0 = l[a]
        logy = f(x0) + np.log(u[j, 0])
        L = x0 - width * u[j, 1]
        R = L + width
        J = min(int(np.floor(max_out * u[j, 2])), max_out - 1)
        Kr = max_out - 1 - J
        while J > 0 and L > 0 and f(L) > logy:
            L -= width
            J -= 1
        while Kr > 0 and f(R) > logy:
            R += width
            Kr -= 1
        L = max(L, 0.0)
        for t in range(u.shape[1] - 3):
            x1 = L + u[j, 3 + t] * (R - L)
            if f(x1) > logy:
                l[a] = x1
                break
            if x1 < x0:
                L = x1
            else:
                R = x1
        else:
            n_stuck += 1
    return n_stuck
