"""MH and slice sampling of TIR's influence l (Foulds 2014, Sec 3.4, the alternatives to
stochastic EM): numba vs numpy twins draw for draw, and the samplers' stationary
distribution on tiny models against the exact posterior by quadrature."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import quad

from latentlab.errors import ConfigError
from latentlab.models.tir import kernels, reference
from latentlab.models.tir.graph import CitationGraph
from latentlab.models.tir.model import SLICE_MAX_OUT, InfluenceModel
from latentlab.models.tir.synthetic import generate

ALPHA0, RATE = 0.1, 0.5
# docs 0, 1 are cited; 2 cites 0; 3 cites 0 and 1 (fixed topic counts z)
NDK = np.array([[8, 1, 1], [1, 6, 1], [12, 2, 1], [9, 5, 2]], np.int64)


def _graph(edges):
    return CitationGraph.from_edges(4, np.array(edges, np.int64))


def _state(g, l):
    nd = NDK.sum(1)
    zbar = NDK / nd[:, None]
    a = np.full(NDK.shape, ALPHA0)
    kernels.all_alpha(g.cptr, g.cidx, l[g.cidx].copy(), NDK, nd, ALPHA0, a)
    return nd, zbar, a


def test_conditional_matches_reference_up_to_a_constant():
    g = _graph([[2, 0], [3, 0], [3, 1]])
    l = np.array([1.5, 0.7, 0.0, 0.0])
    nd, zbar, a = _state(g, l)
    for c in (0, 1):
        xs = [0.0, 0.3, 2.0, 9.0]
        ours = [kernels.l_cond_logp(c, x, l, g.rptr, g.ridx, zbar, NDK, nd, a, RATE) for x in xs]
        ref = [reference.l_cond_logp(c, x, l, g.cptr, g.cidx, NDK, ALPHA0, RATE) for x in xs]
        np.testing.assert_allclose(np.diff(ours), np.diff(ref), rtol=1e-10, atol=1e-10)
        assert kernels.l_cond_logp(c, -0.1, l, g.rptr, g.ridx, zbar, NDK, nd, a, RATE) == -np.inf


@pytest.mark.parametrize("method", ["mh", "slice"])
def test_numba_scan_equals_numpy_draw_for_draw(method):
    g = _graph([[2, 0], [3, 0], [3, 1]])
    cited = np.array([0, 1], np.int64)
    rng = np.random.default_rng(3)
    l_nb = np.array([1.5, 0.7, 0.0, 0.0])
    l_np = l_nb.copy()
    for _ in range(30):
        nd, zbar, a = _state(g, l_nb)
        if method == "mh":
            eps, u = rng.standard_normal(2), 1.0 - rng.random(2)
            acc = kernels.l_mh_scan(cited, l_nb, g.rptr, g.ridx, zbar, NDK, nd, a, RATE, 1.0,
                                    eps, u)  # fmt: skip
            acc2 = reference.l_mh_scan(cited, l_np, g.cptr, g.cidx, NDK, ALPHA0, RATE, 1.0, eps, u)
            assert acc == acc2
        else:
            u = 1.0 - rng.random((2, 3 + 40))
            _, stuck = kernels.l_slice_scan(cited, l_nb, g.rptr, g.ridx, zbar, NDK, nd, a, RATE,
                                            1.0, SLICE_MAX_OUT, u)  # fmt: skip
            stuck2 = reference.l_slice_scan(cited, l_np, g.cptr, g.cidx, NDK, ALPHA0, RATE, 1.0,
                                            SLICE_MAX_OUT, u)  # fmt: skip
            assert stuck == stuck2 == 0
        np.testing.assert_allclose(l_nb, l_np, rtol=1e-12)
        # the kernel kept alpha^(d) in step with the moved l
        np.testing.assert_allclose(a, _state(g, l_nb)[2], rtol=1e-12)


def _chain(g, cited, method, n, seed, l0):
    rng = np.random.default_rng(seed)
    l = l0.copy()
    nd, zbar, a = _state(g, l)
    out = np.empty((n, len(cited)))
    for t in range(n):
        if method == "mh":
            eps, u = rng.standard_normal(len(cited)), 1.0 - rng.random(len(cited))
            kernels.l_mh_scan(cited, l, g.rptr, g.ridx, zbar, NDK, nd, a, RATE, 2.0, eps, u)
        else:
            kernels.l_slice_scan(cited, l, g.rptr, g.ridx, zbar, NDK, nd, a, RATE, 2.0,
                                 SLICE_MAX_OUT, 1.0 - rng.random((len(cited), 63)))  # fmt: skip
        out[t] = l[cited]
    return out[n // 10 :]


def _batch_se(x, nb=50):
    m = x[: len(x) // nb * nb].reshape(nb, -1).mean(1)
    return m.std(ddof=1) / np.sqrt(nb)


@pytest.mark.parametrize("method", ["mh", "slice"])
def test_one_coordinate_stationary_distribution_is_the_exact_posterior(method):
    """One cited document with two citers: Pr(l | z) by quadrature vs the chain."""
    g = _graph([[2, 0], [3, 0]])
    cited = np.array([0], np.int64)
    l0 = np.array([1.0, 0.0, 0.0, 0.0])

    def f(x):
        return reference.l_cond_logp(0, x, l0, g.cptr, g.cidx, NDK, ALPHA0, RATE)

    c = f(5.0)
    Z = quad(lambda x: np.exp(f(x) - c), 0, np.inf)[0]
    mean = quad(lambda x: x * np.exp(f(x) - c), 0, np.inf)[0] / Z
    p2 = quad(lambda x: np.exp(f(x) - c), 0, 2.0)[0] / Z
    x = _chain(g, cited, method, 40000, 7, l0)[:, 0]
    se = _batch_se(x)
    # the test has teeth: the posterior mean is far from the prior mean 1 / RATE
    assert abs(mean - 1 / RATE) > 20 * se
    assert abs(x.mean() - mean) < 5 * se, (x.mean(), mean, se)
    ind = (x < 2.0).astype(float)
    assert abs(ind.mean() - p2) < 5 * _batch_se(ind) + 1e-3


@pytest.mark.parametrize("method", ["mh", "slice"])
def test_two_coordinates_stationary_means_match_grid_quadrature(method):
    """Two cited documents sharing a citer (their l are dependent a posteriori)."""
    g = _graph([[2, 0], [3, 0], [3, 1]])
    cited = np.array([0, 1], np.int64)
    l0 = np.array([1.0, 1.0, 0.0, 0.0])
    xs = np.linspace(0, 40, 401)
    lp = np.empty((len(xs), len(xs)))
    for i, x0 in enumerate(xs):
        for j, x1 in enumerate(xs):
            ll = np.array([x0, x1, 0.0, 0.0])
            lp[i, j] = reference.l_cond_logp(0, x0, ll, g.cptr, g.cidx, NDK, ALPHA0, RATE) - (
                RATE * x1
            )
    p = np.exp(lp - lp.max())
    p /= p.sum()
    exact = np.array([(p.sum(1) * xs).sum(), (p.sum(0) * xs).sum()])
    assert p[-1].sum() + p[:, -1].sum() < 1e-6  # the grid holds the mass
    x = _chain(g, cited, method, 40000, 11, l0)
    for k in range(2):
        se = _batch_se(x[:, k])
        assert abs(x[:, k].mean() - exact[k]) < 5 * se + 0.01, (k, x[:, k].mean(), exact[k], se)


def _corpus():
    return generate(60, 80, 4, 30, 3, 0.5, 0.1, 0.1, seed=5, kind="tir")


@pytest.mark.parametrize("est", ["mh", "slice"])
def test_sampler_fit_is_deterministic_and_averages(est):
    corpus, truth = _corpus()
    g = CitationGraph.from_edges(corpus.n_docs, corpus.links)

    def run(seed):
        m = InfluenceModel("tir", 4, estimator=est, rate=0.5, average_from=5, seed=seed)
        return m.fit(corpus, 12, graph=g)

    a, b, c = run(1), run(1), run(2)
    np.testing.assert_array_equal(a.l_mean, b.l_mean)
    assert not np.array_equal(a.l_mean, c.l_mean)
    assert a.n_averaged == 7
    assert np.all(a.l_mean >= 0) and np.isfinite(a.l_mean).all()
    assert a.mcmc_stats["proposals"] == 12 * len(a.cited)
    if est == "mh":
        assert 0 < a.mcmc_stats["accepted"] < a.mcmc_stats["proposals"]
    else:
        assert a.mcmc_stats["stuck"] == 0


def test_samplers_refuse_other_kinds():
    with pytest.raises(ConfigError):
        InfluenceModel("tire", 4, estimator="mh")
    with pytest.raises(ConfigError):
        InfluenceModel("tir", 4, estimator="slice", slice_width=0.0)
