"""Plain-numpy reference of the HDP-LDA token updates (seed 001, Eqs 18, 19, 34, 35, 26, 32).

Slow and obvious on purpose: one function per equation, used by the tests to check the
numba kernels of :mod:`latentlab.models.hdp.kernels` (same arguments, same results).
"""

from __future__ import annotations

import numpy as np

QCLIP = 1.0 - 1e-15


def token_update_zero(nkw_m, nk_m, ndk_m, alpha_pi, beta_w, beta0):
    """Eq 35 (PCVB0) / Eq 19 (CVB0) for one token, counts already "−d,i".

    q(z=k) ∝ (E[n_kw] + β0τ_w)/(E[n_k] + β0) · (E[n_dk] + α0E[π_k]).
    """
    p = (nkw_m + beta_w) / (nk_m + beta0) * (ndk_m + alpha_pi)
    return p / p.sum()


def token_update_second(nkw_m, nk_m, ndk_m, vkw_m, vk_m, vdk_m, alpha_pi, beta_w, beta0):
    """Eq 34 (PCVB) / Eq 18 (CVB) for one token, counts already "−d,i"."""
    x1 = ndk_m + alpha_pi
    x2 = nkw_m + beta_w
    x3 = nk_m + beta0
    p = x2 / x3 * x1 * np.exp(-vdk_m / (2 * x1**2) - vkw_m / (2 * x2**2) + vk_m / (2 * x3**2))
    return p / p.sum()


def sweep(
    doc_ptr,
    words,
    q,
    ndk,
    nkv,
    nk,
    alpha_pi,
    beta_v,
    beta0,
    vdk=None,
    vkv=None,
    vk=None,
    doc_order=None,
    update_global=True,
):
    """One sequential sweep over all tokens (Algorithm 1, lines 2–6), in place.

    Second-order (Eq 34/18) when variance counts are given, else zero-order (Eq 35/19).
    """
    second = vdk is not None
    N = len(doc_ptr) - 1
    order = np.arange(N) if doc_order is None else doc_order
    for d in order:
        for i in range(doc_ptr[d], doc_ptr[d + 1]):
            w = words[i]
            qi = q[i].astype(np.float64)
            vq = qi * (1 - qi)
            ndk[d] = np.maximum(ndk[d] - qi, 0)
            if update_global:
                nkv[w] = np.maximum(nkv[w] - qi, 0)
                nk[:] = np.maximum(nk - qi, 0)
            if second:
                vdk[d] = np.maximum(vdk[d] - vq, 0)
                if update_global:
                    vkv[w] = np.maximum(vkv[w] - vq, 0)
                    vk[:] = np.maximum(vk - vq, 0)
                new = token_update_second(
                    nkv[w], nk, ndk[d], vkv[w], vk, vdk[d], alpha_pi, beta_v[w], beta0
                )
            else:
                new = token_update_zero(nkv[w], nk, ndk[d], alpha_pi, beta_v[w], beta0)
            q[i] = new
            ndk[d] += new
            if update_global:
                nkv[w] += new
                nk[:] += new
            if second:
                vn = new * (1 - new)
                vdk[d] += vn
                if update_global:
                    vkv[w] += vn
                    vk[:] += vn


def expected_counts(doc_ptr, words, q, V):
    """E[n_dk], E[n_vk] (word-major), E[n_k] and the variance counts (Sec. 4)."""
    N = len(doc_ptr) - 1
    T = q.shape[1]
    d_of = np.repeat(np.arange(N), np.diff(doc_ptr))
    ndk = np.zeros((N, T))
    nkv = np.zeros((V, T))
    np.add.at(ndk, d_of, q)
    np.add.at(nkv, words, q)
    vq = q * (1 - q)
    vdk = np.zeros((N, T))
    vkv = np.zeros((V, T))
    np.add.at(vdk, d_of, vq)
    np.add.at(vkv, words, vq)
    return ndk, nkv, q.sum(0), vdk, vkv, vq.sum(0)


def prob_nonzero_direct(doc_ptr, words, q, V):
    """E[I(n ≥ 1)] = 1 − Π(1 − q) computed the naive way (Eqs 26, 32); test oracle only."""
    N = len(doc_ptr) - 1
    T = q.shape[1]
    Pdk = np.ones((N, T))
    Pkv = np.ones((V, T))
    for d in range(N):
        for i in range(doc_ptr[d], doc_ptr[d + 1]):
            Pdk[d] *= 1 - q[i]
            Pkv[words[i]] *= 1 - q[i]
    return 1 - Pdk, 1 - Pkv


def log_zero_stats(doc_ptr, words, q, V):
    """L = Σ log1p(−min(q, 1−1e−15)) per (d,k), (v,k), k (Eqs 26, 32 in log1p form)."""
    N = len(doc_ptr) - 1
    d_of = np.repeat(np.arange(N), np.diff(doc_ptr))
    lz = np.log1p(-np.minimum(q.astype(np.float64), QCLIP))
    Ldk = np.zeros((N, q.shape[1]))
    Lkv = np.zeros((V, q.shape[1]))
    np.add.at(Ldk, d_of, lz)
    np.add.at(Lkv, words, lz)
    return Ldk, Lkv, lz.sum(0)
