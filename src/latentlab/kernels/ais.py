"""Standard AIS for one document (Wallach et al. 2009; Foulds 2014 Sec. 5.3, Eqs. 5.19,
5.21-5.23): an exact draw from the Polya prior, then the tempered path prior -> posterior.

Used by the chapter-5 estimators (:mod:`latentlab.evaluation.ais.kernels`, which holds the
other paths and estimators and the conventions they share) and by TIR's held-out scores
(Foulds 2014 Sec. 3.5.2). Uniforms come from the splitmix64 stream of :mod:`.rng`, one
state per document, so the numpy twins in :mod:`latentlab.evaluation.ais.reference` take
the same draws.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from .rng import uniform
from .sampling import categorical_blocked


@njit(cache=True)
def polya_draw(z, nk, alpha, st, p):
    """Exact draw of z from Polya(alpha) by sequential urn sampling (section 5.3 start)."""
    K = alpha.shape[0]
    for k in range(K):
        nk[k] = 0.0
    for i in range(z.shape[0]):
        for k in range(K):
            p[k] = nk[k] + alpha[k]
        k = categorical_blocked(p, K, uniform(st))
        z[i] = k
        nk[k] += 1.0


@njit(cache=True)
def sweep_tempered(z, nk, lphi_d, alpha, beta, st, p):
    """Wallach path transition T_j (Eqs. 5.21-5.23): P(z_i = k) ∝ (n_k^{-i} + alpha_k) Phi^beta."""
    K = alpha.shape[0]
    for i in range(z.shape[0]):
        nk[z[i]] -= 1.0
        for k in range(K):
            p[k] = (nk[k] + alpha[k]) * math.exp(beta * lphi_d[i, k])
        k = categorical_blocked(p, K, uniform(st))
        z[i] = k
        nk[k] += 1.0


@njit(cache=True)
def loglik_z(z, lphi_d):
    """sum_i log Phi_{w_i z_i}."""
    s = 0.0
    for i in range(z.shape[0]):
        s += lphi_d[i, z[i]]
    return s


@njit(cache=True)
def anneal_tempered(z, nk, lphi_d, alpha, n, st, p):
    """Wallach prior->posterior path from an exact prior draw already in (z, nk).

    Returns (log-weight, Gibbs updates). log w = sum_j (beta_j - beta_{j+1}) sum_i log Phi
    (Eqs. 5.19, 5.21-5.23). The transition at beta_n = 0 is skipped: z is an exact draw.
    """
    N = z.shape[0]
    logw = 0.0
    upd = 0
    inv = 1.0 / n
    for j in range(n - 1, -1, -1):
        if j < n - 1:
            sweep_tempered(z, nk, lphi_d, alpha, 1.0 - (j + 1) * inv, st, p)
            upd += N
        logw += inv * loglik_z(z, lphi_d)
    return logw, upd


@njit(cache=True)
def std_ais_doc(lphi_d, alpha, n, S, st, out):
    """Standard AIS (Wallach et al. 2009) on one document: S samples, log-weights into out."""
    N, K = lphi_d.shape
    z = np.zeros(N, np.int64)
    nk = np.zeros(K)
    p = np.empty(K)
    upd = 0
    for s in range(S):
        polya_draw(z, nk, alpha, st, p)
        lw, u = anneal_tempered(z, nk, lphi_d, alpha, n, st, p)
        out[s] = lw
        upd += u
    return upd


@njit(cache=True, parallel=True)
def batch_std_ais(ptr, words, phi, alphas, n, S, seeds, out, upd):
    """:func:`std_ais_doc` for every document d = 0..D-1 (tokens words[ptr[d]:ptr[d+1]])
    with its own prior ``alphas[d]`` (D x K) and its own seed, so results depend on neither
    the thread count nor the order. One prior for all: pass its D rows."""
    for d in prange(ptr.shape[0] - 1):
        st = np.empty(1, np.uint64)
        st[0] = seeds[d]
        ld = np.log(phi[words[ptr[d] : ptr[d + 1]]])
        upd[d] = std_ais_doc(ld, alphas[d], n, S, st, out[d])
