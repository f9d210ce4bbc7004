"""Categorical draws of the numba kernels: an index k with probability w_k / sum_j w_j from
unnormalised weights and one uniform u in [0, 1) drawn by the caller (inverse-CDF sampling,
Devroye 1986, Sec. III.2.1).

Four forms, because the kernels that use them have always rounded differently (each keeps
its results bit for bit):

* :func:`sample_cumulative` / :func:`search_cumulative` — the Gibbs samplers (LDA, TIR,
  LFRM_LDA, HDP): the caller builds the cumulative sums c_k while computing the weights;
  the draw is the first k with c_k > u c_{n-1}, the last index if rounding leaves none.
* :func:`categorical` — weights summed, then the same search, the last index *with mass*
  if rounding leaves none (IWTM's table and dish draws).
* :func:`categorical_log` — log weights, normalised by their log-sum-exp (IWTM).
* :func:`categorical_blocked` — total in four interleaved lanes, scan by blocks of four
  (the AIS kernels; ``reference._draw`` in :mod:`latentlab.evaluation.ais` is its numpy twin).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .special import logsumexp


@njit(cache=True)
def search_cumulative(c, n, r):
    """The first k < n - 1 with c[k] > r, else n - 1: the draw for the target r = u * total
    from the cumulative weights c[0..n-1] (non-decreasing)."""
    k = 0
    while k < n - 1 and c[k] <= r:
        k += 1
    return k


@njit(cache=True)
def sample_cumulative(c, n, u):
    """Categorical draw for the uniform u from the cumulative weights c[0..n-1] (c[n-1] is
    the total): :func:`search_cumulative` with the target u * c[n-1]."""
    return search_cumulative(c, n, u * c[n - 1])


@njit(cache=True)
def categorical(w, n, u):
    """Index j with probability w_j / sum w (w >= 0, not all zero) for the uniform u; when
    rounding leaves u * sum w at or above every partial sum, the last j with w_j > 0."""
    tot = 0.0
    for j in range(n):
        tot += w[j]
    acc = 0.0
    target = u * tot
    for j in range(n):
        acc += w[j]
        if target < acc:
            return j
    for j in range(n - 1, -1, -1):  # rounding: last option with mass
        if w[j] > 0.0:
            return j
    return n - 1


@njit(cache=True)
def categorical_log(a, n, u):
    """Index j with probability exp(a_j - logsumexp(a)) for the uniform u (log weights,
    -inf allowed); when rounding leaves u above the summed probabilities, the last j with
    a_j > -inf."""
    m = logsumexp(a, n)
    acc = 0.0
    for j in range(n):
        acc += math.exp(a[j] - m)
        if u < acc:
            return j
    for j in range(n - 1, -1, -1):  # rounding: last option with mass
        if a[j] > -np.inf:
            return j
    return n - 1


@njit(cache=True, inline="always")
def categorical_blocked(p, K, u):
    """Index k with probability p[k] / sum(p) for the uniform u: the total is summed in 4
    interleaved lanes (independent adds, so the loop pipelines), then a cumulative scan by
    blocks of 4; the first k whose partial sum exceeds u * total, else K - 1."""
    t0 = 0.0
    t1 = 0.0
    t2 = 0.0
    t3 = 0.0
    k = 0
    while k + 3 < K:
        t0 += p[k]
        t1 += p[k + 1]
        t2 += p[k + 2]
        t3 += p[k + 3]
        k += 4
    while k < K:
        t0 += p[k]
        k += 1
    tot = (t0 + t1) + (t2 + t3)
    x = u * tot
    # scan blocks of 4 (short dependency chain), then within the block
    acc = 0.0
    k = 0
    while k + 3 < K:
        blk = (p[k] + p[k + 1]) + (p[k + 2] + p[k + 3])
        if x < acc + blk:
            break
        acc += blk
        k += 4
    while k < K - 1:
        acc += p[k]
        if x < acc:
            return k
        k += 1
    return K - 1
