"""The categorical draws of latentlab.kernels.sampling against brute-force searches, exact
for every uniform (including u = 0 and weights with zeros)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from latentlab.evaluation.ais import reference as ais_ref
from latentlab.kernels.sampling import (
    categorical,
    categorical_blocked,
    categorical_log,
    sample_cumulative,
    search_cumulative,
)

WEIGHTS = [
    [1.0],
    [0.0, 1.0],
    [1.0, 0.0],
    [0.0, 0.0, 2.5, 0.0, 1.0, 0.0],
    [0.3, 0.2, 0.5],
    [1e-300, 1.0, 1e300],
    [3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.5],
]


def _uniforms(seed=0, n=400):
    """Edge cases first (0, the largest double below 1), then random ones."""
    u = np.random.default_rng(seed).random(n)
    return np.concatenate([[0.0, 0.5, np.nextafter(1.0, 0.0)], u])


def _cumsum(w):
    """Sequential cumulative sums (the order the kernels add in)."""
    c = np.empty(len(w))
    t = 0.0
    for j, x in enumerate(w):
        t += x
        c[j] = t
    return c


def _first_above(c, r):
    """First k with c[k] > r, else the last index: a linear search, no shortcuts."""
    for k in range(len(c)):
        if c[k] > r:
            return k
    return len(c) - 1


def _random_weights(rng, n_cases=60):
    out = []
    for _ in range(n_cases):
        K = int(rng.integers(1, 13))
        w = rng.gamma(0.5, 1.0, K)
        w[rng.random(K) < 0.3] = 0.0
        if w.sum() == 0.0:
            w[int(rng.integers(K))] = 1.0
        out.append(w)
    return out


def _cases():
    return [np.asarray(w, float) for w in WEIGHTS] + _random_weights(np.random.default_rng(1))


@pytest.mark.parametrize("w", _cases())
def test_sample_cumulative_is_the_first_partial_sum_above_u_total(w):
    c = _cumsum(w)
    K = len(w)
    for u in _uniforms():
        k = sample_cumulative(c, K, u)
        assert k == _first_above(c, u * c[-1])
        assert k == search_cumulative(c, K, u * c[-1])
        if c[-1] > 0 and u * c[-1] < c[-1]:
            assert w[k] > 0  # a zero weight is never drawn


def test_sample_cumulative_u0_skips_leading_zeros_and_ties_go_right():
    c = _cumsum(np.array([0.0, 0.0, 1.0, 1.0]))
    assert sample_cumulative(c, 4, 0.0) == 2
    # target exactly on a partial sum: the next index (c[k] <= r moves on)
    assert search_cumulative(c, 4, 1.0) == 3
    assert search_cumulative(c, 4, 5.0) == 3  # beyond the total: the last index


@pytest.mark.parametrize("w", _cases())
def test_categorical_matches_brute_force(w):
    c = _cumsum(w)
    K = len(w)
    last_mass = max(j for j in range(K) if w[j] > 0)
    for u in _uniforms(2):
        want = next((j for j in range(K) if u * c[-1] < c[j]), last_mass)
        assert categorical(w, K, u) == want


def test_categorical_falls_back_to_the_last_option_with_mass():
    w = np.array([1.0, 2.0, 0.0, 0.0])
    assert categorical(w, 4, 1.0) == 1  # u * total == total: rounding case
    assert categorical(w, 4, 0.0) == 0
    assert categorical(np.array([0.0, 0.0, 3.0]), 3, 0.0) == 2


@pytest.mark.parametrize("w", _cases())
def test_categorical_log_matches_brute_force(w):
    with np.errstate(divide="ignore"):
        a = np.log(w)
    K = len(w)
    m = max(a)
    s = 0.0
    for x in a:
        s += math.exp(x - m)
    lse = m + math.log(s)
    p = _cumsum(np.array([math.exp(x - lse) for x in a]))
    last = max(j for j in range(K) if a[j] > -np.inf)
    for u in _uniforms(3):
        want = next((j for j in range(K) if u < p[j]), last)
        assert categorical_log(a, K, u) == want


@pytest.mark.parametrize("w", _cases())
def test_categorical_blocked_equals_the_ais_reference_draw(w):
    K = len(w)
    for u in _uniforms(4):
        assert categorical_blocked(w, K, u) == ais_ref._draw(w, lambda u=u: u)


@pytest.mark.parametrize("draw", ["cumulative", "weights", "log", "blocked"])
def test_draw_frequencies_on_a_uniform_grid(draw):
    """On M equally spaced uniforms each index is drawn w_k / sum w * M times, +-1."""
    w = np.array([0.0, 3.0, 1.0, 0.0, 2.0, 0.5, 0.0, 1.5, 2.0])
    K, M = len(w), 20000
    c = _cumsum(w)
    with np.errstate(divide="ignore"):
        a = np.log(w)
    fn = {
        "cumulative": lambda u: sample_cumulative(c, K, u),
        "weights": lambda u: categorical(w, K, u),
        "log": lambda u: categorical_log(a, K, u),
        "blocked": lambda u: categorical_blocked(w, K, u),
    }[draw]
    counts = np.zeros(K, int)
    for i in range(M):
        counts[fn((i + 0.5) / M)] += 1
    np.testing.assert_allclose(counts, w / w.sum() * M, atol=1.0)
