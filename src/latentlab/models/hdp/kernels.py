"""Numba kernels for truncated HDP-LDA (Sato, Kurihara & Nakagawa, KDD 2012; seed 001).

Every kernel works on flat arrays. Layout chosen for the inner loop (ours, not the paper's):

* training tokens are a stream ``words[i]`` grouped by document through ``doc_ptr``
  (one entry per token; repeated words are *not* grouped, as in Algorithm 1);
* ``q`` is tokens x T (float64 or float32);
* ``ndk`` is N x T, ``nkv`` is **V x T (word-major)**, ``nk`` is T — the inner loop runs
  over k for one fixed word, so the row ``nkv[w]`` is contiguous;
* variance counts ``vdk``, ``vkv``, ``vk`` (second-order methods only) have the same shapes.

The token updates are sequential (Gauss–Seidel): the token's own contribution is removed
from the counts ("−d,i" of Eq 18), the new q is computed and added back at once.

The plain-numpy versions in :mod:`latentlab.models.hdp.reference` define what these must
compute; the tests compare the two.
"""

from __future__ import annotations

import numpy as np
from numba import njit, vectorize

from latentlab.kernels.sampling import sample_cumulative

QCLIP = 1.0 - 1e-15  # q is clipped below 1 before log1p(-q) (a numerical guard of ours)
TINY = 1e-300
PROD_MIN = 1e-250  # sweep_second: below this sum of products, recompute in log space
LOG1M_SERIES = 1e-4  # below this, log(1 − x) by its series (see log1m)


@njit(cache=True)
def log1m(x):
    """log(1 − x) for 0 ≤ x < 1, as ``np.log1p(-x)`` to within one unit in the last place.

    After a few sweeps almost every q_ik is tiny (97 % below 1e-4 on KOS at T = 300), and
    log1p costs ~13 ns a call: below ``LOG1M_SERIES`` the series −x(1 + x/2 + x²/3 + x³/4)
    is used instead (truncation error x⁴/5 ≤ 2e-17 relative, ~2 ns).
    """
    if x < LOG1M_SERIES:
        return -x * (1.0 + x * (0.5 + x * (1.0 / 3.0 + x * 0.25)))
    return np.log1p(-x)


@njit(cache=True)
def sweep_zero(
    doc_ptr, words, q, ndk, nkv, nk, alpha_pi, beta_v, beta0, doc_order, update_global, with_entropy
):
    """One zero-order sweep: PCVB0 (Eq 35) and CVB0 (Eq 19).

    q(z=k) ∝ (E[n_kw^-] + beta_v[w]) / (E[n_k^-] + beta0) · (E[n_dk^-] + alpha_pi[k]).
    PCVB0 passes alpha_pi = α0·E[π], beta_v = β0·τ, beta0 = β0; CVB0 passes the geometric
    expectations G[α0π_k], G[β0τ_v], G[β0] (the (n_d + G[α0]) factor is constant in k).
    ``update_global=False`` freezes nkv/nk (fold-in of held-out documents).
    Returns the summed entropy of the new q when ``with_entropy`` (claim C10), else 0.
    """
    T = q.shape[1]
    p = np.empty(T)
    ent = 0.0
    for dd in range(doc_order.shape[0]):
        d = doc_order[dd]
        for i in range(doc_ptr[d], doc_ptr[d + 1]):
            w = words[i]
            bw = beta_v[w]
            s = 0.0
            for k in range(T):
                qk = q[i, k]
                a = ndk[d, k] - qk
                if a < 0.0:
                    a = 0.0
                ndk[d, k] = a
                b = nkv[w, k]
                c = nk[k]
                if update_global:
                    b -= qk
                    if b < 0.0:
                        b = 0.0
                    c -= qk
                    if c < 0.0:
                        c = 0.0
                    nkv[w, k] = b
                    nk[k] = c
                v = (b + bw) / (c + beta0) * (a + alpha_pi[k])
                p[k] = v
                s += v
            inv = 1.0 / s
            for k in range(T):
                qk = p[k] * inv
                q[i, k] = qk
                ndk[d, k] += qk
                if update_global:
                    nkv[w, k] += qk
                    nk[k] += qk
                if with_entropy and qk > 0.0:
                    ent -= qk * np.log(qk)
    return ent


@njit(cache=True)
def sweep_second(
    doc_ptr,
    words,
    q,
    ndk,
    nkv,
    nk,
    vdk,
    vkv,
    vk,
    alpha_pi,
    beta_v,
    beta0,
    doc_order,
    update_global,
    with_entropy,
):
    """One second-order sweep: PCVB (Eq 34) and CVB (Eq 18).

    q(z=k) ∝ x1·x2/x3 · exp(c_k),  x1 = E[n_dk^-]+a_k, x2 = E[n_kw^-]+b_w, x3 = E[n_k^-]+b0,
             c_k = V[n_k^-]/(2x3²) − V[n_dk^-]/(2x1²) − V[n_kw^-]/(2x2²).
    The "−d,i" counts subtract q from E[·] and q(1−q) from V[·]; tiny negative values
    from floating-point error are clipped to 0 (Sec. 4, the text under Eq 18; the clipping
    is ours), the x's below at TINY.

    The log-space form log q = log(x1·x2/x3) + c_k + const, the max subtracted before exp, is
    our guard against overflow and division by zero. The same q is formed here as
    x1·x2/x3 · exp(c_k − max c): one exp per topic and no log (the log was a fifth of the
    sweep on KOS at T = 300). The exp is at most 1 and the factors are those the log-space
    form takes the log of; when their sum is not a normal positive number (> PROD_MIN:
    products underflowed or overflowed) the token is recomputed in log space. The two forms
    agree to rounding (tests: against the numpy reference, and the subnormal case).
    """
    T = q.shape[1]
    cc = np.empty(T)  # c_k
    rr = np.empty(T)  # x1·x2/x3
    lp = np.empty(T)  # unnormalised q
    ent = 0.0
    for dd in range(doc_order.shape[0]):
        d = doc_order[dd]
        for i in range(doc_ptr[d], doc_ptr[d + 1]):
            w = words[i]
            bw = beta_v[w]
            cmax = -np.inf
            for k in range(T):
                qk = q[i, k]
                vq = qk * (1.0 - qk)
                a = ndk[d, k] - qk
                if a < 0.0:
                    a = 0.0
                va = vdk[d, k] - vq
                if va < 0.0:
                    va = 0.0
                ndk[d, k] = a
                vdk[d, k] = va
                b = nkv[w, k]
                vb = vkv[w, k]
                c = nk[k]
                vc = vk[k]
                if update_global:
                    b -= qk
                    if b < 0.0:
                        b = 0.0
                    vb -= vq
                    if vb < 0.0:
                        vb = 0.0
                    c -= qk
                    if c < 0.0:
                        c = 0.0
                    vc -= vq
                    if vc < 0.0:
                        vc = 0.0
                    nkv[w, k] = b
                    vkv[w, k] = vb
                    nk[k] = c
                    vk[k] = vc
                x1 = a + alpha_pi[k]
                x2 = b + bw
                x3 = c + beta0
                if x1 < TINY:
                    x1 = TINY
                if x2 < TINY:
                    x2 = TINY
                if x3 < TINY:
                    x3 = TINY
                c = vc / (2.0 * x3 * x3) - va / (2.0 * x1 * x1) - vb / (2.0 * x2 * x2)
                cc[k] = c
                rr[k] = x1 * x2 / x3
                if c > cmax:
                    cmax = c
            s = 0.0
            for k in range(T):
                e = rr[k] * np.exp(cc[k] - cmax)
                lp[k] = e
                s += e
            if not (PROD_MIN < s < np.inf):  # the log-space form for this token
                mx = -np.inf
                for k in range(T):
                    v = np.log(rr[k]) + cc[k]
                    lp[k] = v
                    if v > mx:
                        mx = v
                s = 0.0
                for k in range(T):
                    e = np.exp(lp[k] - mx)
                    lp[k] = e
                    s += e
            inv = 1.0 / s
            for k in range(T):
                qk = lp[k] * inv
                vq = qk * (1.0 - qk)
                q[i, k] = qk
                ndk[d, k] += qk
                vdk[d, k] += vq
                if update_global:
                    nkv[w, k] += qk
                    nk[k] += qk
                    vkv[w, k] += vq
                    vk[k] += vq
                if with_entropy and qk > 0.0:
                    ent -= qk * np.log(qk)
    return ent


@njit(cache=True)
def counts_from_q(doc_ptr, words, q, ndk, nkv, nk, vdk, vkv, vk, with_var):
    """Recompute expected counts (and variance counts) from q (Sec. 4); removes the drift of
    incremental updates (ours)."""
    N = doc_ptr.shape[0] - 1
    T = q.shape[1]
    ndk[:, :] = 0.0
    nkv[:, :] = 0.0
    nk[:] = 0.0
    if with_var:
        vdk[:, :] = 0.0
        vkv[:, :] = 0.0
        vk[:] = 0.0
    for d in range(N):
        for i in range(doc_ptr[d], doc_ptr[d + 1]):
            w = words[i]
            for k in range(T):
                qk = q[i, k]
                ndk[d, k] += qk
                nkv[w, k] += qk
                nk[k] += qk
                if with_var:
                    vq = qk * (1.0 - qk)
                    vdk[d, k] += vq
                    vkv[w, k] += vq
                    vk[k] += vq


@njit(cache=True)
def log_zero_stats(doc_ptr, words, q, Ldk, Lkv, Lk):
    """Log-zero statistics (Eqs 26, 32; the log1p form is ours), accumulated in float64.

    L[d,k] = Σ_{i in d} log1p(−min(q_ik, 1−1e−15)) = log q(n_dk = 0), likewise L[v,k]
    (word-major) and L[k] over all tokens. E[I(n ≥ 1)] = −expm1(L) is formed by the caller.
    """
    N = doc_ptr.shape[0] - 1
    T = q.shape[1]
    Ldk[:, :] = 0.0
    Lkv[:, :] = 0.0
    Lk[:] = 0.0
    for d in range(N):
        for i in range(doc_ptr[d], doc_ptr[d + 1]):
            w = words[i]
            for k in range(T):
                qk = np.float64(q[i, k])
                if qk > QCLIP:
                    qk = QCLIP
                lz = log1m(qk)
                Ldk[d, k] += lz
                Lkv[w, k] += lz
                Lk[k] += lz


# (2k+1)·B_2k, k = 1..10: ψ''(y) = −[1/y² + 1/y³ + Σ_k (2k+1)B_2k / y^(2k+2)] (asymptotic;
# DLMF 5.15.8 differentiated twice); the first omitted term is below 2e-17 relative at y ≥ 10.
_P1, _P2, _P3, _P4, _P5 = 1.0 / 2.0, -1.0 / 6.0, 1.0 / 6.0, -3.0 / 10.0, 5.0 / 6.0
_P6, _P7, _P8, _P9, _P10 = (
    -691.0 / 210.0,
    35.0 / 2.0,
    -3617.0 / 30.0,
    43867.0 / 42.0,
    -1222277.0 / 110.0,
)


def _psi2(x):
    """ψ''(x) (the trigamma's derivative) for x ≥ 0, elementwise, as scipy's
    ``polygamma(2, x)`` = −2ζ(3, x) to ~1e-15 relative at 1/15 of its cost: the recurrence
    ψ''(x) = ψ''(x+1) − 2/x³ up to x ≥ 10, then the asymptotic series. ψ''(0) = −inf."""
    if x < 0.0:
        return np.nan
    s = 0.0
    while x < 10.0:
        s += 2.0 / (x * x * x)
        x += 1.0
    t = 1.0 / (x * x)
    tail = _P8 + t * (_P9 + t * _P10)
    tail = _P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * (_P5 + t * (_P6 + t * (_P7 + t * tail))))))
    return -(t * (1.0 + 1.0 / x + t * tail)) - s


psi2 = vectorize(["float64(float64)"], cache=True)(_psi2)  # a ufunc: arrays of any shape


@njit(cache=True)
def entry_probs(ent_doc, ent_word, theta, phi):
    """p(w = v | d) = Σ_k θ[d,k] φ[v,k] for each (doc, word) entry (Eq 37; φ word-major)."""
    n = ent_doc.shape[0]
    T = theta.shape[1]
    out = np.empty(n)
    for j in range(n):
        d = ent_doc[j]
        v = ent_word[j]
        s = 0.0
        for k in range(T):
            s += theta[d, k] * phi[v, k]
        out[j] = s
    return out


@njit(cache=True)
def gibbs_sweep(doc_ptr, words, z, ndk, nkv, nk, alpha_pi, beta_v, beta0, u):
    """One collapsed Gibbs sweep for truncated HDP-LDA (Eq 13) with integer counts.

    p(z=k | ·) ∝ (n_kw^- + β_w)/(n_k^- + β0) · (n_dk^- + α0π_k); ``u`` holds one uniform
    per token (drawn by the caller from the seeded generator, so runs are reproducible).
    """
    N = doc_ptr.shape[0] - 1
    T = ndk.shape[1]
    cum = np.empty(T)
    for d in range(N):
        for i in range(doc_ptr[d], doc_ptr[d + 1]):
            w = words[i]
            k0 = z[i]
            ndk[d, k0] -= 1
            nkv[w, k0] -= 1
            nk[k0] -= 1
            s = 0.0
            bw = beta_v[w]
            for k in range(T):
                s += (nkv[w, k] + bw) / (nk[k] + beta0) * (ndk[d, k] + alpha_pi[k])
                cum[k] = s
            k1 = sample_cumulative(cum, T, u[i])
            z[i] = k1
            ndk[d, k1] += 1
            nkv[w, k1] += 1
            nk[k1] += 1


@njit(cache=True)
def gibbs_tables(ndk, alpha_pi, u_flat):
    """Table counts m_dk (Eq 14) as Σ_{j=1..n_dk} Bernoulli(α0π_k/(α0π_k + j − 1)).

    ``u_flat`` holds ≥ Σ n_dk uniforms. Returns m (N x T, int64).
    """
    N, T = ndk.shape
    m = np.zeros((N, T), dtype=np.int64)
    pos = 0
    for d in range(N):
        for k in range(T):
            n = ndk[d, k]
            a = alpha_pi[k]
            c = 0
            for j in range(n):
                if u_flat[pos] < a / (a + j):
                    c += 1
                pos += 1
            m[d, k] = c
    return m
