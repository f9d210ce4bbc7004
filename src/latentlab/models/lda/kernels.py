"""Numba kernels for LDA inference (hot loops only; the math is in ``reference.py``).

Layouts, chosen for the inner loop over topics:

* token streams are doc-major (tokens of document d are ``w[ptr[d]:ptr[d+1]]``);
* topic-word statistics are **word-major** ``(W, K)`` so that the row of the current
  word is contiguous; document statistics are ``(D, K)``.

Random numbers are drawn outside the kernels (``numpy.random.Generator``) and passed
in as uniforms, so a kernel and its numpy reference consume the same numbers and give
bit-identical results, and a run is determined by its seed.
"""

from __future__ import annotations

import numpy as np
from numba import njit


# --------------------------------------------------------------------- CGS (Eq. 4.21)
@njit(cache=True)
def cgs_sweep(ptr, w, z, ndk, nwk, nk, alpha, beta, beta_sum, u, p, inv):
    """One collapsed Gibbs sweep over all tokens, current token excluded (Eq. 4.21).

    P(z_i = k | rest) ∝ (n_dk^{-i} + alpha_k)(n_wk^{-i} + beta)/(n_k^{-i} + W beta).
    ``inv[k]`` must hold 1/(nk[k] + beta_sum) on entry; it is kept up to date.
    """
    D = ptr.shape[0] - 1
    K = nk.shape[0]
    for d in range(D):
        for i in range(ptr[d], ptr[d + 1]):
            wi = w[i]
            k = z[i]
            ndk[d, k] -= 1
            nwk[wi, k] -= 1
            nk[k] -= 1
            inv[k] = 1.0 / (nk[k] + beta_sum)
            tot = 0.0
            for j in range(K):
                tot += (ndk[d, j] + alpha[j]) * (nwk[wi, j] + beta) * inv[j]
                p[j] = tot
            r = u[i] * tot
            k = 0
            while k < K - 1 and p[k] <= r:
                k += 1
            z[i] = k
            ndk[d, k] += 1
            nwk[wi, k] += 1
            nk[k] += 1
            inv[k] = 1.0 / (nk[k] + beta_sum)


@njit(cache=True)
def count_assignments(ptr, w, z, K, W):
    """n_dk (D x K), n_wk (W x K), n_k (K) from a token stream and assignments."""
    D = ptr.shape[0] - 1
    ndk = np.zeros((D, K), dtype=np.int32)
    nwk = np.zeros((W, K), dtype=np.int32)
    nk = np.zeros(K, dtype=np.int64)
    for d in range(D):
        for i in range(ptr[d], ptr[d + 1]):
            ndk[d, z[i]] += 1
            nwk[w[i], z[i]] += 1
            nk[z[i]] += 1
    return ndk, nwk, nk


@njit(cache=True)
def fixed_phi_sweep(w, z, ndk, phi_wk, alpha, u, p):
    """One Gibbs sweep over one document with topics fixed (digest Sec. 1.3):
    P(z_i = k | rest) ∝ (n_k^{(d)-i} + alpha_k) Phi_{w_i k}. ``phi_wk`` is W x K."""
    K = ndk.shape[0]
    for i in range(w.shape[0]):
        wi = w[i]
        ndk[z[i]] -= 1
        tot = 0.0
        for j in range(K):
            tot += (ndk[j] + alpha[j]) * phi_wk[wi, j]
            p[j] = tot
        r = u[i] * tot
        k = 0
        while k < K - 1 and p[k] <= r:
            k += 1
        z[i] = k
        ndk[k] += 1
