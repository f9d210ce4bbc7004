"""CTM: Appendix B derivatives, Laplace/delta/Blei-Lafferty per-document inference, EM, C17."""

import numpy as np
import pytest
from scipy.optimize import approx_fprime

from latentlab.data.corpus import BowCorpus
from latentlab.data.splits import split_doc_halves
from latentlab.errors import DataError
from latentlab.models.ctm import CTM
from latentlab.models.ctm import vi as R
from latentlab.models.ctm.synthetic import synthetic_ctm


def _corpus(docs, V):
    X = np.zeros((len(docs), V), dtype=np.int64)
    for d, (ids, cnt) in enumerate(docs):
        X[d, ids] = cnt.astype(np.int64)
    return BowCorpus.from_dense(X)


def _fd(fun, x, h=1e-6):
    return np.array([(fun(x + h * e) - fun(x - h * e)) / (2 * h) for e in np.eye(len(x))])


def _prior(K, seed=0):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((K, K)) * 0.4
    return R.make_prior(rng.normal(size=K) * 0.3, A @ A.T + np.eye(K))


@pytest.mark.parametrize("K", [3, 10])
def test_gradient_hessian_fd(K):
    """C5: grad f and H of Appendix B against finite differences."""
    rng = np.random.default_rng(K)
    pr = _prior(K)
    nbar = rng.gamma(2.0, 3.0, K)
    N = nbar.sum()
    th = rng.normal(size=K)
    g = R.ctm_grad(th, nbar, N, pr)
    assert np.allclose(g, _fd(lambda t: R.ctm_f(t, nbar, N, pr), th), rtol=1e-5, atol=1e-6)
    H = R.ctm_hess(th, N, pr)
    Hfd = np.stack(
        [approx_fprime(th, lambda t, i=i: R.ctm_grad(t, nbar, N, pr)[i], 1e-7) for i in range(K)]
    )
    assert np.allclose(H, Hfd, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("K", [3, 10])
def test_delta_third_derivative_gradient_fd(K):
    """C5: the delta objective's gradient (third derivatives of f) against finite differences."""
    rng = np.random.default_rng(10 + K)
    pr = _prior(K, 1)
    nbar = rng.gamma(2.0, 3.0, K)
    N = nbar.sum()
    v = rng.gamma(1.0, 0.3, K)
    m = rng.normal(size=K)
    g = R.delta_g_grad(m, v, nbar, N, pr)
    gfd = _fd(lambda t: R.delta_g(t, v, nbar, N, pr), m)
    assert np.allclose(g, gfd, rtol=1e-5, atol=1e-6)


def _doc(K=5, V=40, N=30, seed=0):
    rng = np.random.default_rng(seed)
    logbeta = np.log(rng.dirichlet(np.full(V, 0.3), size=K))
    ids, cnt = np.unique(rng.integers(0, V, N), return_counts=True)
    return ids, cnt.astype(float), logbeta


def test_laplace_doc_is_stationary_and_matches_formula():
    ids, cnt, lb = _doc()
    pr = _prior(5)
    fit = R.laplace_doc(ids, cnt, lb, pr, tol=1e-12, max_iter=5000)
    # q(z) fixed point: phi from m; m = argmax f for that phi; V = (N(diag pi - pi pi^T) + P)^-1
    nbar = cnt @ np.exp(fit.log_phi)
    N = cnt.sum()
    assert np.linalg.norm(R.ctm_grad(fit.m, nbar, N, pr)) < 1e-6
    p = R.softmax(fit.m)
    assert np.allclose(fit.V, np.linalg.inv(N * (np.diag(p) - np.outer(p, p)) + pr.P))
    # C4: the phi update is exp(m_k) beta_{k,w} normalised
    ph = np.exp(fit.m)[None, :] * np.exp(lb[:, ids]).T
    assert np.allclose(np.exp(fit.log_phi), ph / ph.sum(1, keepdims=True))


def test_ahmed_xing_doc_reaches_the_laplace_fixed_point_or_reports_failure():
    """Sec. 3.2: θ̂ = previous m alternates φ with one Newton step; where it converges, it
    stops at Laplace's fixed point; a cap of 1 iteration cannot converge (reported False)."""
    ids, cnt, lb = _doc()
    pr = _prior(5)
    ok, it, m = R.ahmed_xing_doc(ids, cnt, lb, pr, tol=1e-10, max_iter=5000)
    assert ok and it > 1
    lap = R.laplace_doc(ids, cnt, lb, pr, tol=1e-12, max_iter=5000)
    assert np.allclose(m, lap.m, atol=1e-6)
    assert R.ahmed_xing_doc(ids, cnt, lb, pr, tol=1e-10, max_iter=1)[0] is False


def test_delta_doc_stationary():
    ids, cnt, lb = _doc(seed=1)
    pr = _prior(5, 2)
    fit = R.delta_doc(ids, cnt, lb, pr, tol=1e-9)
    nbar = cnt @ np.exp(fit.log_phi)
    N = cnt.sum()
    assert np.linalg.norm(R.delta_g_grad(fit.m, fit.V, nbar, N, pr)) < 1e-4
    p = R.softmax(fit.m)
    assert np.allclose(fit.V, 1 / (N * p * (1 - p) + np.diag(pr.P)), rtol=1e-4)


def test_eq21_trace_mostly_increasing():
    """C7 (Fig. 2): the Eq. 21 objective increases over per-document iterations (tolerance)."""
    docs, _ = synthetic_ctm(20, 60, 5, 60, seed=3)
    lb = R.init_topics(5, 60, 4)
    pr = R.make_prior(np.zeros(5), np.eye(5))
    n_dec = 0
    for ids, cnt in docs:
        tr = np.array(R.laplace_doc(ids, cnt, lb, pr, tol=1e-8).trace)
        n_dec += int(np.any(np.diff(tr) < -1e-6 * np.abs(tr[:-1])))
    assert n_dec <= 2


def test_bl_bound_below_importance_sampling():
    """C17: the Blei-Lafferty objective is a true lower bound on log p(w)."""
    rng = np.random.default_rng(0)
    K, V = 4, 30
    lb = np.log(rng.dirichlet(np.full(V, 0.5), size=K))
    pr = R.make_prior(np.zeros(K - 1), np.eye(K - 1) + 0.3)
    for s in range(3):
        ids, cnt = np.unique(rng.integers(0, V, 12), return_counts=True)
        cnt = cnt.astype(float)
        fit = R.bl_doc(ids, cnt, lb, pr)
        est, se = R.log_marginal_is(
            ids, cnt, lb, pr, fit.m, fit.V * 2.0, n_samples=20_000, seed=s, pinned_last=True
        )
        assert fit.bound <= est + 3 * se + 1e-3


def test_bl_trace_nondecreasing():
    ids, cnt, lb = _doc(seed=5)
    pr = R.make_prior(np.zeros(4), np.eye(4))
    tr = np.array(R.bl_doc(ids, cnt, lb, pr).trace)
    assert np.all(np.diff(tr) > -1e-6 * np.abs(tr[:-1]))


def test_singular_sigma_gets_ridge_recorded():
    """Bad input: singular Sigma0 (e.g. K close to the number of documents) -> ridge, recorded."""
    u = np.array([1.0, 1.0, 0.0])
    pr = R.make_prior(np.zeros(3), np.outer(u, u))
    assert pr.ridge > 0
    assert np.all(np.linalg.eigvalsh(pr.Sigma) > 0)
    pr2 = R.make_prior(np.zeros(3), np.eye(3))
    assert pr2.ridge == 0.0
    with pytest.raises(FloatingPointError):
        R.make_prior(np.zeros(3), np.full((3, 3), np.nan))


def test_mstep_with_more_topics_than_docs_is_finite():
    docs, _ = synthetic_ctm(4, 50, 3, 30, seed=1)
    # K = 8 > D = 4: Sigma0 = mean of outer products is near-singular
    m = CTM(8, "delta", seed=0, tol=0).fit(_corpus(docs, 50), 3)
    model, hist = m.model_, m.history
    assert np.isfinite([h["bound_per_word"] for h in hist]).all()
    assert np.all(np.linalg.eigvalsh(model.prior.Sigma) > 0)


def test_empty_document_is_an_error():
    from latentlab.data.corpus import BowCorpus

    c = BowCorpus(np.array([0, 1, 1]), np.array([0]), np.array([2]), ["a", "b"])
    with pytest.raises(DataError):
        R.corpus_to_docs(c)


@pytest.mark.parametrize("method", ["laplace", "delta", "bl"])
def test_em_runs_deterministic_and_heldout_finite(method):
    docs, _ = synthetic_ctm(40, 80, 4, 40, seed=2)
    corpus = _corpus(docs, 80)
    obs, held, _ = split_doc_halves(docs[:10], 0)
    out = []
    for _ in range(2):
        m = CTM(4, method, seed=1, tol=0).fit(corpus, 3)
        model, hist = m.model_, m.history
        s, n = R.heldout_loglik(model, obs, held)
        out.append((s, [h["bound_per_word"] for h in hist]))
        assert np.isfinite(s) and n > 0
    assert out[0] == out[1]
    s_mc, n = R.heldout_loglik(model, obs, held, predictive="mc", n_mc=200)
    assert np.isfinite(s_mc)


def test_split_halves_partitions_tokens():
    docs, _ = synthetic_ctm(10, 30, 3, 20, seed=0)
    obs, held, kept = split_doc_halves(docs, 7)
    for (i_o, c_o), (i_h, c_h), k in zip(obs, held, kept, strict=True):
        tot = np.zeros(30)
        np.add.at(tot, i_o, c_o)
        np.add.at(tot, i_h, c_h)
        ref = np.zeros(30)
        ref[docs[k][0]] = docs[k][1]
        assert np.array_equal(tot, ref)
        assert abs(c_o.sum() - c_h.sum()) <= 1


def test_numba_laplace_matches_numpy():
    docs, _ = synthetic_ctm(8, 50, 6, 40, seed=9)
    lb = R.init_topics(6, 50, 2)
    pr = _prior(6, 3)
    for ids, cnt in docs:
        a = R.laplace_doc(ids, cnt, lb, pr, use_numba=True)
        b = R.laplace_doc(ids, cnt, lb, pr, use_numba=False)
        assert a.n_iter == b.n_iter
        assert np.allclose(a.m, b.m, atol=1e-9) and np.allclose(a.V, b.V, atol=1e-9)
        assert np.allclose(a.trace, b.trace, rtol=1e-10)


def test_numba_delta_matches_scipy():
    docs, _ = synthetic_ctm(6, 50, 5, 40, seed=11)
    lb = R.init_topics(5, 50, 3)
    pr = _prior(5, 4)
    for ids, cnt in docs:
        a = R.delta_doc(ids, cnt, lb, pr, tol=1e-9, gtol=1e-9, use_numba=True)
        b = R.delta_doc(ids, cnt, lb, pr, tol=1e-9, gtol=1e-9, use_numba=False)
        # the outer alternation converges linearly: same fixed point, compared loosely in m
        assert np.allclose(a.m, b.m, atol=1e-3) and np.allclose(a.V, b.V, rtol=1e-3)
        assert np.isclose(a.bound, b.bound, rtol=1e-8)


def test_numba_bl_matches_scipy_cg():
    """The numba BL kernel (Newton for lambda) reaches the ctm-c/CG reference's optimum."""
    docs, _ = synthetic_ctm(6, 50, 5, 40, seed=12)
    lb = R.init_topics(5, 50, 5)
    pr = _prior(4, 6)
    for ids, cnt in docs:
        a = R.bl_doc(ids, cnt, lb, pr, tol=1e-10, use_numba=True)
        b = R.bl_doc(ids, cnt, lb, pr, tol=1e-10, use_numba=False)
        assert np.isclose(a.bound, b.bound, rtol=1e-6)
        assert np.allclose(a.m, b.m, atol=1e-3) and np.allclose(a.V, b.V, rtol=1e-3)
