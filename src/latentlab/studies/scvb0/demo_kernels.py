"""The numba kernel of Fig 4.10's demo (``demos.approximation_errors``), apart from
``demos.py`` so that the other figure steps do not import numba."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def poisson_binomial_pmf(g):
    """Exact pmf of n = sum of independent Bernoulli(g_j), by dynamic programming O(i^2)."""
    n = g.shape[0]
    p = np.zeros(n + 1)
    p[0] = 1.0
    for j in range(n):
        for m in range(j + 1, 0, -1):
            p[m] = p[m] * (1.0 - g[j]) + p[m - 1] * g[j]
        p[0] *= 1.0 - g[j]
    return p
