"""Numba kernels of the chapter-5 estimators (Foulds 2014, ch. 5); plain-numpy twins in
:mod:`latentlab.evaluation.ais.reference` consume the same uniform stream. Standard AIS
(the exact Polya draw, the tempered path and its batch) is in :mod:`latentlab.kernels.ais`,
the draw in :func:`latentlab.kernels.sampling.categorical_blocked`, log Polya in
:func:`latentlab.kernels.special.log_polya` (TIR uses them too).

Conventions shared by every kernel
----------------------------------
* A document is given by its *document-local* topic rows: ``phi_d[i, k] = Phi[w_i, k]``
  (N x K, C order) and, where logs are needed, ``lphi_d = log(phi_d)``. Gathering rows once
  per document keeps the inner loop on contiguous memory.
* ``z`` (int64[N]) holds the assignments, ``nk`` (float64[K]) the document's topic counts.
* Every Gibbs conditional excludes the current token's own count, n_k^{-i} (Eq. 1.17;
  Algorithm 8 as printed omits the exclusion).
* Temperatures: beta_j = 1 - j/n, j = 0..n; beta_0 = 1 is the target (model 1 / posterior),
  beta_n = 0 the start. The loop runs j = n-1 .. 0: transition at level j+1, then add
  log f_j(z) - log f_{j+1}(z) (Neal 2001; Eq. 5.19).
* Polya(z | alpha) is the probability of the ordered sequence, no multinomial coefficient
  (f_n of Eq. 5.22 is a distribution over sequences).
* Kernels return the number of token-level Gibbs updates they performed, so budgets can
  be compared honestly (Sec. 5.3 matches LR's particles to AIS's temperatures by
  Gibbs updates).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from latentlab.kernels.ais import anneal_tempered, loglik_z, polya_draw
from latentlab.kernels.rng import uniform
from latentlab.kernels.sampling import categorical_blocked
from latentlab.kernels.special import log_polya

# ----------------------------------------------------------------------------- sweeps


@njit(cache=True)
def sweep_fixed(z, nk, phi_d, alpha, st, p):
    """One Gibbs sweep with the topics fixed: P(z_i = k) ∝ (n_k^{-i} + alpha_k) Phi_{w_i k}
    (Eq. 1.17 with Phi known)."""
    K = alpha.shape[0]
    for i in range(z.shape[0]):
        nk[z[i]] -= 1.0
        for k in range(K):
            p[k] = (nk[k] + alpha[k]) * phi_d[i, k]
        k = categorical_blocked(p, K, uniform(st))
        z[i] = k
        nk[k] += 1.0


@njit(cache=True)
def sweep_convex(z, nk, phi1_d, phi2_d, a_b, b, st, p):
    """Convex-path transition (Eq. 5.32): Gibbs for the topic model with
    Phi_b = b Phi1 + (1-b) Phi2 and alpha_b (precomputed)."""
    K = a_b.shape[0]
    c = 1.0 - b
    for i in range(z.shape[0]):
        nk[z[i]] -= 1.0
        for k in range(K):
            p[k] = (nk[k] + a_b[k]) * (b * phi1_d[i, k] + c * phi2_d[i, k])
        k = categorical_blocked(p, K, uniform(st))
        z[i] = k
        nk[k] += 1.0


@njit(cache=True)
def sweep_geometric(z, nk, lphi1_d, lphi2_d, a1, a2, b, st, p):
    """Geometric-path transition (Eq. 5.30), on the log scale then normalised:
    P(z_i = k) ∝ [(n_k^{-i}+a1_k) Phi1]^b [(n_k^{-i}+a2_k) Phi2]^(1-b).
    log(n_k + a_k) is kept per topic and refreshed only for the two topics that change."""
    K = a1.shape[0]
    c = 1.0 - b
    la = np.empty(K)
    for k in range(K):
        la[k] = b * math.log(nk[k] + a1[k]) + c * math.log(nk[k] + a2[k])
    for i in range(z.shape[0]):
        ko = z[i]
        nk[ko] -= 1.0
        la[ko] = b * math.log(nk[ko] + a1[ko]) + c * math.log(nk[ko] + a2[ko])
        m = -np.inf
        for k in range(K):
            v = la[k] + b * lphi1_d[i, k] + c * lphi2_d[i, k]
            p[k] = v
            if v > m:
                m = v
        for k in range(K):
            p[k] = math.exp(p[k] - m)
        k = categorical_blocked(p, K, uniform(st))
        z[i] = k
        nk[k] += 1.0
        la[k] = b * math.log(nk[k] + a1[k]) + c * math.log(nk[k] + a2[k])


# ----------------------------------------------------------------------------- annealing links


@njit(cache=True)
def anneal_convex(z, nk, phi1_d, phi2_d, a1, a2, n, first_sweeps, st, p, ab):
    """Convex path from model 2 (beta = 0) to model 1 (beta = 1), Algorithm 8 / Eq. 5.33.

    ``first_sweeps`` = r_{n-1}: sweeps at model 2 before the first weight (burn-in for
    ratio-AIS, Sec. 5.2.1; 1 for a warm-started iteration-AIS link). Returns (log w, updates);
    log w estimates log P(w|1) - log P(w|2) (Eq. 5.28).
    """
    N = z.shape[0]
    K = a1.shape[0]
    same_alpha = True
    for k in range(K):
        if a1[k] != a2[k]:
            same_alpha = False
    logw = 0.0
    upd = 0
    inv = 1.0 / n
    for j in range(n - 1, -1, -1):
        bc = 1.0 - (j + 1) * inv  # beta_{j+1}
        bn = 1.0 - j * inv  # beta_j
        if j == n - 1:
            bc = 0.0
            for k in range(K):
                ab[k] = a2[k]
            for _ in range(first_sweeps):
                sweep_convex(z, nk, phi1_d, phi2_d, ab, 0.0, st, p)
                upd += N
        else:
            for k in range(K):
                ab[k] = bc * a1[k] + (1.0 - bc) * a2[k]
            sweep_convex(z, nk, phi1_d, phi2_d, ab, bc, st, p)
            upd += N
        if j == 0:
            bn = 1.0
        # log f_j(z) - log f_{j+1}(z): Polya part over non-empty topics, then tokens
        asc = 0.0
        asn = 0.0
        ntot = 0.0
        d = 0.0
        for k in range(K if not same_alpha else 0):
            ac = bc * a1[k] + (1.0 - bc) * a2[k]
            an = bn * a1[k] + (1.0 - bn) * a2[k]
            asc += ac
            asn += an
            if nk[k] > 0:
                ntot += nk[k]
                d += (math.lgamma(nk[k] + an) - math.lgamma(an)) - (
                    math.lgamma(nk[k] + ac) - math.lgamma(ac)
                )
        if not same_alpha:  # the Polya factors cancel exactly when a1 == a2
            d += (math.lgamma(asn) - math.lgamma(ntot + asn)) - (
                math.lgamma(asc) - math.lgamma(ntot + asc)
            )
        for i in range(N):
            k = z[i]
            x1 = phi1_d[i, k]
            x2 = phi2_d[i, k]
            d += math.log((bn * x1 + (1.0 - bn) * x2) / (bc * x1 + (1.0 - bc) * x2))
        logw += d
    return logw, upd


@njit(cache=True)
def anneal_geometric(z, nk, lphi1_d, lphi2_d, a1, a2, n, first_sweeps, st, p):
    """Geometric path from model 2 to model 1 (Eqs. 5.29-5.31; 5.31 is garbled in our
    copy and rebuilt here):
    log w = (1/n) sum_j [log P(w, z_j | 1) - log P(w, z_j | 2)]. Returns (log w, updates)."""
    N = z.shape[0]
    logw = 0.0
    upd = 0
    inv = 1.0 / n
    for j in range(n - 1, -1, -1):
        if j == n - 1:
            for _ in range(first_sweeps):
                sweep_geometric(z, nk, lphi1_d, lphi2_d, a1, a2, 0.0, st, p)
                upd += N
        else:
            sweep_geometric(z, nk, lphi1_d, lphi2_d, a1, a2, 1.0 - (j + 1) * inv, st, p)
            upd += N
        l1 = log_polya(nk, a1) + loglik_z(z, lphi1_d)
        l2 = log_polya(nk, a2) + loglik_z(z, lphi2_d)
        logw += inv * (l1 - l2)
    return logw, upd


# ------------------------------------------------------------------ per-document estimators


@njit(cache=True)
def ratio_doc(phi1_d, phi2_d, a1, a2, n, burn, S, geometric, st, out):
    """Ratio-AIS on one document (Eq. 5.27), model 2 -> model 1; log-weights into out."""
    N, K = phi1_d.shape
    z = np.zeros(N, np.int64)
    nk = np.zeros(K)
    p = np.empty(K)
    ab = np.empty(K)
    upd = 0
    if geometric:
        l1 = np.log(phi1_d)
        l2 = np.log(phi2_d)
    for s in range(S):
        polya_draw(z, nk, a2, st, p)
        if geometric:
            lw, u = anneal_geometric(z, nk, l1, l2, a1, a2, n, burn, st, p)
        else:
            lw, u = anneal_convex(z, nk, phi1_d, phi2_d, a1, a2, n, burn, st, p, ab)
        out[s] = lw
        upd += u
    return upd


@njit(cache=True)
def lr_doc(phi_d, alpha, R, st):
    """Left-to-right estimate of log P(w | Phi, alpha) with R particles (Sec. 5.1.1,
    Wallach et al. 2009b). Returns (estimate, updates = R N (N+1)/2)."""
    N, K = phi_d.shape
    asum = 0.0
    for k in range(K):
        asum += alpha[k]
    z = np.zeros((R, N), np.int64)
    nk = np.zeros((R, K))
    p = np.empty(K)
    logp = 0.0
    upd = 0
    for n in range(N):
        pn = 0.0
        for r in range(R):
            zr = z[r]
            nr = nk[r]
            for m in range(n):  # resample the prefix, counts of z_<n excluding token m
                nr[zr[m]] -= 1.0
                for k in range(K):
                    p[k] = (nr[k] + alpha[k]) * phi_d[m, k]
                k = categorical_blocked(p, K, uniform(st))
                zr[m] = k
                nr[k] += 1.0
            s = 0.0
            for k in range(K):
                p[k] = (nr[k] + alpha[k]) * phi_d[n, k]
                s += p[k]
            pn += s / (n + asum)  # z_n summed out with prior weights (footnote 3/4)
            k = categorical_blocked(p, K, uniform(st))
            zr[n] = k
            nr[k] += 1.0
            upd += n + 1
        logp += math.log(pn / R)
    return logp, upd


@njit(cache=True)
def hm_doc(phi_d, alpha, burn, S, st, out):
    """Harmonic-mean ingredients (Eq. 5.6): log P(w | z_s, Phi) for S posterior sweeps
    after ``burn`` sweeps of the fixed-topic Gibbs sampler, into out."""
    N, K = phi_d.shape
    lphi = np.log(phi_d)
    z = np.zeros(N, np.int64)
    nk = np.zeros(K)
    p = np.empty(K)
    polya_draw(z, nk, alpha, st, p)
    upd = 0
    for _ in range(burn):
        sweep_fixed(z, nk, phi_d, alpha, st, p)
        upd += N
    for s in range(S):
        sweep_fixed(z, nk, phi_d, alpha, st, p)
        upd += N
        out[s] = loglik_z(z, lphi)
    return upd


@njit(cache=True)
def iter_ais_doc(phis_d, alphas, n, extra, S, st, out):
    """Iteration-AIS on one document (Eqs. 5.34-5.36): prior -> snapshot 0 on the Wallach
    path with n + extra temperatures, then snapshot k-1 -> k on the convex path with n
    temperatures (one sweep at the start model), reusing state and weights. out[s, k] is
    the accumulated log-weight at snapshot k (estimates log P(w | Phi^k, alpha^k))."""
    I, N, K = phis_d.shape
    z = np.zeros(N, np.int64)
    nk = np.zeros(K)
    p = np.empty(K)
    ab = np.empty(K)
    upd = 0
    l0 = np.log(phis_d[0])
    for s in range(S):
        polya_draw(z, nk, alphas[0], st, p)
        lw, u = anneal_tempered(z, nk, l0, alphas[0], n + extra, st, p)
        upd += u
        out[s, 0] = lw
        for k in range(1, I):
            d, u = anneal_convex(
                z, nk, phis_d[k], phis_d[k - 1], alphas[k], alphas[k - 1], n, 1, st, p, ab
            )
            lw += d
            upd += u
            out[s, k] = lw
    return upd


# ------------------------------------------------------------------ batches over documents
# Each document has its own seed, so results do not depend on thread count or order.


@njit(cache=True, parallel=True)
def batch_ratio(ptr, words, phi1, phi2, a1, a2, n, burn, S, geometric, seeds, out, upd):
    for d in prange(ptr.shape[0] - 1):
        st = np.empty(1, np.uint64)
        st[0] = seeds[d]
        w = words[ptr[d] : ptr[d + 1]]
        upd[d] = ratio_doc(phi1[w], phi2[w], a1, a2, n, burn, S, geometric, st, out[d])


@njit(cache=True, parallel=True)
def batch_lr(ptr, words, phi, alpha, R, seeds, out, upd):
    for d in prange(ptr.shape[0] - 1):
        st = np.empty(1, np.uint64)
        st[0] = seeds[d]
        out[d], upd[d] = lr_doc(phi[words[ptr[d] : ptr[d + 1]]], alpha, R[d], st)


@njit(cache=True, parallel=True)
def batch_hm(ptr, words, phi, alpha, burn, S, seeds, out, upd):
    for d in prange(ptr.shape[0] - 1):
        st = np.empty(1, np.uint64)
        st[0] = seeds[d]
        upd[d] = hm_doc(phi[words[ptr[d] : ptr[d + 1]]], alpha, burn, S, st, out[d])


@njit(cache=True, parallel=True)
def batch_iter_ais(ptr, words, phis, alphas, n, extra, S, seeds, out, upd):
    for d in prange(ptr.shape[0] - 1):
        st = np.empty(1, np.uint64)
        st[0] = seeds[d]
        w = words[ptr[d] : ptr[d + 1]]
        I = phis.shape[0]
        K = phis.shape[2]
        pd = np.empty((I, w.shape[0], K))
        for k in range(I):
            pd[k] = phis[k][w]
        upd[d] = iter_ais_doc(pd, alphas, n, extra, S, st, out[d])
