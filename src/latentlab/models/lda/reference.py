"""Plain-numpy reference implementations of the LDA updates (for tests and reading).

Each function mirrors one numba kernel in ``kernels.py`` operation for operation, so
that the two agree bit for bit given the same uniforms.
"""

from __future__ import annotations

import numpy as np


def cgs_conditional(d, wi, ndk, nwk, nk, alpha, beta, beta_sum):
    """Unnormalised P(z_i = k | rest), counts already excluding token i (Eq. 4.21)."""
    return (ndk[d] + alpha) * (nwk[wi] + beta) * (1.0 / (nk + beta_sum))


def cgs_sweep(ptr, w, z, ndk, nwk, nk, alpha, beta, beta_sum, u):
    """Reference for :func:`kernels.cgs_sweep` (in place)."""
    K = len(nk)
    for d in range(len(ptr) - 1):
        for i in range(ptr[d], ptr[d + 1]):
            wi, k = w[i], z[i]
            ndk[d, k] -= 1
            nwk[wi, k] -= 1
            nk[k] -= 1
            c = np.cumsum(cgs_conditional(d, wi, ndk, nwk, nk, alpha, beta, beta_sum))
            k = min(int(np.searchsorted(c, u[i] * c[-1], side="right")), K - 1)
            z[i] = k
            ndk[d, k] += 1
            nwk[wi, k] += 1
            nk[k] += 1


def fixed_phi_sweep(w, z, ndk, phi_wk, alpha, u):
    """Reference for :func:`kernels.fixed_phi_sweep` (in place)."""
    K = len(ndk)
    for i in range(len(w)):
        ndk[z[i]] -= 1
        c = np.cumsum((ndk + alpha) * phi_wk[w[i]])
        k = min(int(np.searchsorted(c, u[i] * c[-1], side="right")), K - 1)
        z[i] = k
        ndk[k] += 1
