"""Special functions of the numba kernels: digamma, log-sum-exp and the Polya
(Dirichlet-multinomial) log-probability of an assignment sequence.

Polya(z | a) is the probability of the *ordered* sequence z with topic counts n_k
(n = sum n_k, A = sum a_k), no multinomial coefficient (Foulds 2014, Sec. 3.4 and Eq. 5.22;
Minka 2000):

    log Polya(z | a) = log G(A) - log G(A + n) + sum_{k: n_k > 0} [log G(n_k + a_k) - log G(a_k)].

Its three forms below differ only in the order of the sums, which each caller has always
used (their results are compared bit for bit): :func:`log_polya_terms` is the sum over
topics, :func:`log_polya` adds the normaliser after it, :func:`log_polya_n` before it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def digamma(x):
    """psi(x) for x > 0: the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 6, then the
    asymptotic series psi(x) ~ log x - 1/(2x) - sum_j B_2j / (2j x^2j) (Abramowitz & Stegun
    6.3.5, 6.3.18), five terms (within 1e-10 of scipy's, tests/kernels)."""
    r = 0.0
    while x < 6.0:
        r -= 1.0 / x
        x += 1.0
    f = 1.0 / (x * x)
    t = f * (-1.0 / 12 + f * (1.0 / 120 + f * (-1.0 / 252 + f * (1.0 / 240 + f * (-1.0 / 132)))))
    return r + np.log(x) - 0.5 / x + t


@njit(cache=True)
def logsumexp(a, n):
    """log sum_{j<n} exp(a_j), shifted by the largest a_j; -inf when every a_j is -inf."""
    mx = -np.inf
    for j in range(n):
        if a[j] > mx:
            mx = a[j]
    if mx == -np.inf:
        return mx
    s = 0.0
    for j in range(n):
        s += math.exp(a[j] - mx)
    return mx + math.log(s)


@njit(cache=True)
def log_polya_terms(nk, a, start):
    """start + sum_{k: n_k > 0} [log G(n_k + a_k) - log G(a_k)], summed in k order: the
    part of log Polya(z | a) that depends on the counts topic by topic."""
    r = start
    for k in range(a.shape[0]):
        if nk[k] > 0:
            r += math.lgamma(nk[k] + a[k]) - math.lgamma(a[k])
    return r


@njit(cache=True)
def log_polya(nk, a):
    """log Polya(z | a) from the topic counts nk (n = sum nk): the topic terms first, then
    + log G(A) - log G(n + A)."""
    A = 0.0
    n = 0.0
    for k in range(a.shape[0]):
        A += a[k]
        if nk[k] > 0:
            n += nk[k]
    return log_polya_terms(nk, a, 0.0) + math.lgamma(A) - math.lgamma(n + A)


@njit(cache=True)
def log_polya_n(nk, n, a):
    """log Polya(z | a) with the length n given: log G(A) - log G(A + n) first, then the
    topic terms added one by one."""
    A = 0.0
    for k in range(a.shape[0]):
        A += a[k]
    return log_polya_terms(nk, a, math.lgamma(A) - math.lgamma(A + n))
