"""A tiny counter-based generator (splitmix64) shared by the numba kernels and the numpy
references, so that both consume the *same* uniform stream and can be compared draw for
draw (CONTRIBUTING: numba vs numpy agreement).

The state is a ``uint64[1]`` array in numba and a one-element Python list in the
reference. Per-document seeds are derived from ``(seed, document index)`` with
:func:`doc_seeds`, so results do not depend on thread count or document order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_G = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0
_MASK = (1 << 64) - 1


@njit(cache=True)
def uniform(st):
    """Next uniform in [0, 1) from the splitmix64 state ``st`` (uint64[1]); advances it."""
    s = st[0] + _G
    st[0] = s
    z = (s ^ (s >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    z = z ^ (z >> _S31)
    return np.float64(z >> _S11) * _INV53


class PyRng:
    """Pure-Python splitmix64 giving exactly the stream of :func:`uniform`."""

    def __init__(self, seed: int):
        self.s = int(seed) & _MASK

    def __call__(self) -> float:
        self.s = (self.s + 0x9E3779B97F4A7C15) & _MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z = z ^ (z >> 31)
        return (z >> 11) * _INV53


def doc_seeds(seed: int, n: int, stream: int = 0) -> np.ndarray:
    """``n`` independent uint64 seeds for documents 0..n-1 of one estimator run.

    ``stream`` separates runs that share a base seed (run 1 vs run 2, forward vs reverse).
    """
    ss = np.random.SeedSequence([int(seed) & _MASK, int(stream)])
    return ss.generate_state(max(n, 1), dtype=np.uint64)[:n].copy()
