"""Numba kernel of sequential Jaakkola-Jordan (JJ 2000) for Bayesian logistic regression.

The plain-numpy twin is :func:`latentlab.models.logreg.vi.jj_sequential_reference`; the two
agree to rounding (tests/models/logreg/test_jj_sequential.py).

One observation x (label y) is absorbed into N(m, V) with natural mean h = V^-1 m:
  h' = h + (y - 1/2) x,  V' = V - k Vx Vx^T with k = c / (1 + c x^T V x), c = 2 lambda(xi),
  m' = V' h' (Sherman-Morrison on V^-1 + c x x^T). xi is found by ``inner`` fixed-point steps
  xi^2 = x^T V' x + (x^T m')^2, where only the scalars x^T V' x = xVx - k xVx^2 and
  x^T m' = (Vx . h')(1 - k xVx) change with xi, so the d x d update is done once per
  observation, with the last step's c (the reference recomputes it every step).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def jj_lambda_scalar(xi: float) -> float:
    """lambda(xi) = tanh(xi/2) / (4 xi), with the series 1/8 - xi^2/192 near 0."""
    xi = abs(xi)
    if xi > 1e-6:
        return math.tanh(0.5 * xi) / (4.0 * xi)
    return 0.125 - xi * xi / 192.0


@njit(cache=True)
def jj_sequential_pass(X, y, V, h, m, inner):
    """Absorb the rows of X in order; V (d x d, symmetric), h and m (d) are updated in place."""
    n, d = X.shape
    Vx = np.empty(d)
    for i in range(n):
        x = X[i]
        xVx = 0.0
        for a in range(d):
            s = 0.0
            for b in range(d):
                s += V[a, b] * x[b]
            Vx[a] = s
            xVx += x[a] * s
        r = y[i] - 0.5
        xm = 0.0
        vh = 0.0
        for a in range(d):
            h[a] += r * x[a]
            xm += x[a] * m[a]
            vh += Vx[a] * h[a]
        xi = math.sqrt(xVx + xm * xm)
        k = 0.0
        for _ in range(inner):
            c = 2.0 * jj_lambda_scalar(xi)
            k = c / (1.0 + c * xVx)
            xvnx = xVx - k * xVx * xVx
            xmn = vh * (1.0 - k * xVx)
            xi = math.sqrt(max(xvnx + xmn * xmn, 1e-16))
        for a in range(d):
            for b in range(d):
                V[a, b] -= k * Vx[a] * Vx[b]
        for a in range(d):
            s = 0.0
            for b in range(d):
                s += V[a, b] * h[b]
            m[a] = s
