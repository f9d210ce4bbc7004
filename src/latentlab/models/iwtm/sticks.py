"""Stick-breaking expectations with simulated reordering (Waters 2014, Sec. 5.4.5,
Eqs 5.18-5.27).

Atoms are never moved in memory: each gets its rank r(n, j) = #{i: n_i > n_j} +
#{i: n_i = n_j, i > j}... as in the footnote, here ties are broken by index (lower index
first). b~ sums the counts of atoms sorted after k (smaller); E log pi sums E log(1 - v)
over atoms sorted before k (larger). The last-ranked stick is truncated (v = 1).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import digamma, gammaln


def ranks(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rank of each atom, order = atoms by rank): decreasing counts, ties by index."""
    counts = np.asarray(counts, dtype=np.float64)
    order = np.lexsort((np.arange(len(counts)), -counts))
    r = np.empty(len(counts), dtype=np.int64)
    r[order] = np.arange(len(counts))
    return r, order


def stick_params(counts: np.ndarray, conc: float, order: np.ndarray | None = None):
    """Beta parameters (a~, b~) of every stick in original index space (5.23-5.24,
    5.26-5.27): a~ = 1 + n_k, b~ = conc + sum of counts ranked after k. ``order`` fixes
    the stick order (no reordering); by default the counts' decreasing order."""
    counts = np.asarray(counts, dtype=np.float64)
    if order is None:
        r, order = ranks(counts)
    else:
        r = np.empty(len(counts), dtype=np.int64)
        r[order] = np.arange(len(counts))
    sc = counts[order]
    tail_after = np.append(np.cumsum(sc[::-1])[::-1][1:], 0.0)
    return 1.0 + counts, conc + tail_after[r], r, order


def elog_sticks(a: np.ndarray, b: np.ndarray, order: np.ndarray) -> np.ndarray:
    """E log pi_k = E log v_k + sum_{j ranked before k} E log(1 - v_j); the last-ranked
    stick has v = 1 (E log v = 0)."""
    ab = digamma(a + b)
    elv = (digamma(a) - ab)[order]
    el1 = (digamma(b) - ab)[order]
    elv[-1] = 0.0
    out = np.empty(len(a))
    out[order] = elv + np.concatenate([[0.0], np.cumsum(el1[:-1])])
    return out


def topic_sticks(zeta: np.ndarray, alpha0: float, orders: np.ndarray | None = None):
    """Per-topic (a~, b~, E log pi, order) for a T x K pseudo-count matrix zeta
    (``orders`` fixes the order of each topic's sticks)."""
    T, K = zeta.shape
    a = np.empty((T, K))
    b = np.empty((T, K))
    el = np.empty((T, K))
    fixed = orders
    orders = np.empty((T, K), dtype=np.int64)
    for t in range(T):
        a[t], b[t], _, o = stick_params(zeta[t], alpha0, None if fixed is None else fixed[t])
        orders[t] = o
        el[t] = elog_sticks(a[t], b[t], orders[t])
    return a, b, el, orders


def stick_elbo_terms(a, b, order, conc) -> float:
    """sum over rows of E log p(v | conc) - E log q(v | a~, b~) for stick matrices a, b
    (rows x K) with Beta(1, conc) priors; each row's last-ranked stick is truncated (v = 1,
    no term)."""
    ab = digamma(a + b)
    elv, el1 = digamma(a) - ab, digamma(b) - ab
    term = math.log(conc) + (conc - 1) * el1
    term -= gammaln(a + b) - gammaln(a) - gammaln(b) + (a - 1) * elv + (b - 1) * el1
    last = order[:, -1]
    term[np.arange(len(last)), last] = 0.0
    return float(term.sum())
