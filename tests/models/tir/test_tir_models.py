"""TIR / TIRE / DMR kernels against exact oracles (Foulds 2014, ch. 3)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import approx_fprime

from latentlab.data.corpus import BowCorpus
from latentlab.errors import DataError
from latentlab.models.tir import kernels, reference
from latentlab.models.tir.graph import CitationGraph, build_citation_graph, find_cycle
from latentlab.models.tir.model import InfluenceModel, tire_node_lse
from latentlab.models.tir.synthetic import generate


def tiny():
    """4 documents, 3 topics, 5 words; 2 cites 0 and 1, 3 cites 0 and 2."""
    docs = [[0, 1, 1, 2], [2, 3, 4], [0, 0, 1, 4, 3], [1, 2, 3]]
    ptr = np.concatenate([[0], np.cumsum([len(d) for d in docs])]).astype(np.int64)
    w = np.concatenate(docs).astype(np.int64)
    g = CitationGraph.from_edges(4, np.array([[2, 0], [2, 1], [3, 0], [3, 2]]))
    rng = np.random.default_rng(3)
    z = rng.integers(0, 3, len(w)).astype(np.int64)
    return ptr, w, z, g


def _state(ptr, w, z, K, W):
    ndk, nwk = reference.counts(ptr, w, z, K, W)
    return ndk, nwk, nwk.sum(0), ndk.sum(1)


@pytest.mark.parametrize("i", [0, 3, 5, 9, 14])
def test_exact_conditional_is_ratio_of_joints(i):
    ptr, w, z, g = tiny()
    K, W, a0, beta = 3, 5, 0.1, 0.1
    ew = np.array([1.5, 0.7, 2.0, 0.3])
    ndk, nwk, nk, nd = _state(ptr, w, z, K, W)
    d = int(np.searchsorted(ptr, i, side="right") - 1)
    k = z[i]
    ndk[d, k] -= 1
    nwk[w[i], k] -= 1
    nk[k] -= 1
    nd[d] -= 1
    a_d = np.empty(K)
    kernels.doc_alpha(d, g.cptr, g.cidx, ew, ndk, nd, a0, a_d)
    out, buf = np.empty(K), np.empty(K)
    kernels.exact_logits(d, i, w[i], ndk, nwk, nk, nd, a_d, g.rptr, g.ridx, g.reidx,
                         g.cptr, g.cidx, ew, a0, beta, W * beta, out, buf)  # fmt: skip
    p = np.exp(out - out.max())
    p /= p.sum()
    oracle = reference.joint_conditional(ptr, w, z, i, K, W, g.cptr, g.cidx, ew, a0, beta)
    np.testing.assert_allclose(p, oracle, rtol=1e-10)


@pytest.mark.parametrize("i", [0, 5, 14])
def test_approximate_conditional_drops_the_citer_factors(i):
    """The sweep's conditional (u -> draw) equals the joint ratio without the citers'
    Polya terms: check the kernel's cumulative weights."""
    ptr, w, z, g = tiny()
    K, W, a0, beta = 3, 5, 0.1, 0.1
    ew = np.array([1.5, 0.7, 2.0, 0.3])
    oracle = reference.joint_conditional(
        ptr, w, z, i, K, W, g.cptr, g.cidx, ew, a0, beta, drop_citers=True
    )
    ndk, nwk, nk, nd = _state(ptr, w, z, K, W)
    d = int(np.searchsorted(ptr, i, side="right") - 1)
    k = z[i]
    ndk[d, k] -= 1
    nwk[w[i], k] -= 1
    nk[k] -= 1
    a = reference.doc_alphas(g.cptr, g.cidx, ew, ndk, a0)[d]  # cited docs only: d != c
    q = (ndk[d] + a) * (nwk[w[i]] + beta) / (nk + W * beta)
    np.testing.assert_allclose(q / q.sum(), oracle, rtol=1e-10)


def test_exact_and_approx_agree_without_citers():
    """A document nobody cites has the same conditional under both samplers."""
    ptr, w, z, g = tiny()
    K, W, ew = 3, 5, np.array([1.5, 0.7, 2.0, 0.3])
    i = 14  # document 3, cited by nobody
    a = reference.joint_conditional(ptr, w, z, i, K, W, g.cptr, g.cidx, ew, 0.1, 0.1)
    b = reference.joint_conditional(ptr, w, z, i, K, W, g.cptr, g.cidx, ew, 0.1, 0.1, True)
    np.testing.assert_allclose(a, b, rtol=1e-12)


def test_sweep_numba_equals_numpy_draw_for_draw():
    ptr, w, z, g = tiny()
    K, W = 3, 5
    ew = np.array([1.5, 0.7, 2.0, 0.3])
    u = np.random.default_rng(0).random(len(w))
    s1 = _state(ptr, w, z, K, W)
    s2 = _state(ptr, w, z, K, W)
    z1, z2 = z.copy(), z.copy()
    a1 = np.zeros((4, K))
    a2 = np.zeros((4, K))
    for _ in range(3):
        kernels.tir_sweep(ptr, w, z1, s1[0], s1[1], s1[2], s1[3], a1, True, g.cptr, g.cidx,
                          ew, 0.1, 0.1, W * 0.1, u, np.empty(K))  # fmt: skip
        reference.tir_sweep(ptr, w, z2, s2[0], s2[1], s2[2], a2, True, g.cptr, g.cidx,
                            ew, 0.1, 0.1, u)  # fmt: skip
    np.testing.assert_array_equal(z1, z2)
    np.testing.assert_allclose(a1, a2)
    # counts conserved
    assert s1[0].sum() == len(w) and (s1[1].sum(0) == s1[2]).all()


def test_polya_kernel_matches_reference():
    rng = np.random.default_rng(1)
    ndk = rng.integers(0, 5, (6, 4))
    a = rng.gamma(1.0, 1.0, (6, 4)) + 0.05
    docs = np.arange(6)
    g = np.zeros_like(a)
    f = kernels.polya_alpha_grad(ndk, ndk.sum(1), a, docs, g)
    f2, g2 = reference.polya_objective(ndk, a, docs)
    assert f == pytest.approx(f2, rel=1e-12)
    np.testing.assert_allclose(g, g2, rtol=1e-9, atol=1e-12)
    assert kernels.digamma(0.1) == pytest.approx(-10.423754940411076, rel=1e-12)


def test_l_gradient_matches_finite_differences_and_reference():
    corpus, truth = generate(30, 40, 4, 20, 3, 1.0, 0.1, 0.1, seed=5)
    g = build_citation_graph(corpus.links, corpus.n_docs, corpus.doc_lengths(), seed=0)
    m = InfluenceModel("tir", K=4, seed=2).initialize(corpus, g)
    for _ in range(3):
        m.sweep()
    x = np.random.default_rng(0).gamma(2.0, 1.0, len(m.cited))
    f, grad = m.objective(x)
    num = approx_fprime(x, lambda v: m.objective(v)[0], 1e-6)
    np.testing.assert_allclose(grad, num, rtol=1e-4, atol=1e-5)
    l = np.zeros(corpus.n_docs)
    l[m.cited] = x
    f2, g2 = reference.tir_loglik_grad(l, g.cptr, g.cidx, m.ndk, 0.1)
    assert -f == pytest.approx(f2, rel=1e-10)
    np.testing.assert_allclose(-grad, g2[m.cited], rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize(
    "kind, est", [("tir", "map"), ("tire", "ml"), ("tire", "map"), ("dmr", "map")]
)
def test_other_gradients_match_finite_differences(kind, est):
    corpus, _ = generate(25, 30, 3, 15, 3, 1.0, 0.1, 0.1, seed=6)
    g = build_citation_graph(corpus.links, corpus.n_docs, corpus.doc_lengths(), seed=0)
    m = InfluenceModel(kind, K=3, estimator=est, seed=1).initialize(corpus, g)
    m.sweep()
    n = {"tir": len(m.cited), "tire": g.n_edges, "dmr": m.lam.size}[kind]
    x = np.random.default_rng(1).gamma(2.0, 0.5, n)
    _, grad = m.objective(x)
    num = approx_fprime(x, lambda v: m.objective(v)[0], 1e-6)
    np.testing.assert_allclose(grad, num, rtol=1e-4, atol=1e-5)


def test_tire_least_squares_is_a_direct_solve():
    """Eq 3.7: l^(a) minimises sum_d (l^(a,d) - l^(a))^2; compare with lstsq."""
    corpus, _ = generate(40, 30, 3, 10, 4, 1.0, 0.1, 0.1, seed=7)
    g = build_citation_graph(corpus.links, corpus.n_docs, corpus.doc_lengths(), seed=0)
    ew = np.random.default_rng(2).gamma(2.0, 1.0, g.n_edges)
    l = tire_node_lse(g, ew, np.full(g.n_docs, -1.0))
    A = np.zeros((g.n_edges, g.n_docs))
    A[np.arange(g.n_edges), g.cidx] = 1.0
    cited = np.unique(g.cidx)
    sol = np.linalg.lstsq(A[:, cited], ew, rcond=None)[0]
    np.testing.assert_allclose(l[cited], sol, rtol=1e-10)
    assert (l[np.setdiff1d(np.arange(g.n_docs), cited)] == -1.0).all()


def test_exact_sweep_conserves_counts_and_is_deterministic():
    corpus, _ = generate(15, 20, 3, 12, 3, 1.0, 0.1, 0.1, seed=8, kind="tire")
    g = build_citation_graph(corpus.links, corpus.n_docs, corpus.doc_lengths(), seed=0)
    runs = []
    for _ in range(2):
        m = InfluenceModel("tire", K=3, exact=True, interval=2, seed=4).fit(corpus, 4, graph=g)
        assert m.ndk.sum() == corpus.n_tokens and (m.ndk.sum(1) == m.nd).all()
        runs.append((m.z.copy(), m.ew.copy()))
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    np.testing.assert_array_equal(runs[0][1], runs[1][1])


def test_fit_callback_gets_model_and_info_and_stops():
    corpus, _ = generate(30, 30, 3, 15, 3, 1.0, 0.1, 0.1, seed=9)
    g = build_citation_graph(corpus.links, corpus.n_docs, corpus.doc_lengths(), seed=0)
    seen = []

    def cb(model, info):
        seen.append((model, info["iteration"]))
        return info["iteration"] == 3

    m = InfluenceModel("tir", K=3, interval=2, seed=1).fit(corpus, 10, callback=cb, graph=g)
    assert [i for _, i in seen] == [1, 2, 3] and all(mod is m for mod, _ in seen)
    assert m.iteration == 3


@pytest.mark.parametrize("kind", ["tir", "tire", "dmr", "lda"])
def test_fit_is_deterministic(kind):
    corpus, _ = generate(30, 30, 3, 15, 3, 1.0, 0.1, 0.1, seed=9)
    g = build_citation_graph(corpus.links, corpus.n_docs, corpus.doc_lengths(), seed=0)
    a = InfluenceModel(kind, K=3, interval=5, seed=11).fit(corpus, 10, graph=g)
    b = InfluenceModel(kind, K=3, interval=5, seed=11).fit(corpus, 10, graph=g)
    np.testing.assert_array_equal(a.z, b.z)
    np.testing.assert_array_equal(a.l, b.l)
    np.testing.assert_array_equal(a.alpha_dk, b.alpha_dk)
    assert (a.l >= 0).all() and (a.lam >= 0).all()


def test_regression_step_increases_the_objective():
    corpus, _ = generate(60, 40, 4, 20, 3, 0.5, 0.1, 0.1, seed=10)
    g = build_citation_graph(corpus.links, corpus.n_docs, corpus.doc_lengths(), seed=0)
    m = InfluenceModel("tir", K=4, interval=1000, seed=3).fit(corpus, 5, graph=g)
    before = m.objective(m.l[m.cited])[0]
    m.regress()
    assert m.objective(m.l[m.cited])[0] <= before


def test_graph_rules():
    lengths = np.array([3, 0, 2, 4, 1])
    links = np.array([[2, 0], [0, 2], [3, 3], [3, 1], [4, 3], [4, 3], [3, 4]])
    g = build_citation_graph(links, 5, lengths, seed=0)
    s = g.summary
    assert s["self_loops_dropped"] == 1 and s["duplicates_dropped"] == 1
    assert s["edges_to_empty_docs_dropped"] == 1 and s["cycles_broken"] == 2
    assert find_cycle(5, g.edges()) is None and g.n_edges == 2
    with pytest.raises(DataError, match="cycle"):
        build_citation_graph(links, 5, lengths, seed=0, on_cycle="error")
    with pytest.raises(DataError, match="outside"):
        build_citation_graph(np.array([[0, 7]]), 5, lengths, seed=0)


def test_model_refuses_empty_cited_document():
    c = BowCorpus(np.array([0, 1, 1]), np.array([0]), np.array([2]), ["a"])
    g = CitationGraph.from_edges(2, np.array([[0, 1]]))
    with pytest.raises(DataError, match="document 1 is cited but has no tokens"):
        InfluenceModel("tir", K=2).initialize(c, g)
