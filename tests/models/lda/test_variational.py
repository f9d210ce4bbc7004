import numpy as np
import pytest

from latentlab.errors import ConfigError, DivergenceError
from latentlab.models.lda import CVB0, SCVB0, SVB, BatchVB, MapLdaU, StepSize, kernels, reference

from .lda_helpers import synth_corpus


def _stats_from_gamma(c, gamma, cnts, wids, indptr, K):
    D = len(indptr) - 1
    d_of = np.repeat(np.arange(D), np.diff(indptr))
    mg = cnts[:, None] * gamma
    ndk = np.zeros((D, K))
    np.add.at(ndk, d_of, mg)
    nwk = np.zeros((c.n_vocab, K))
    np.add.at(nwk, wids, mg)
    return ndk, nwk, mg.sum(0)


# ----------------------------------------------------------------------------- CVB0 / CVB
@pytest.mark.parametrize("order", [0, 2])
@pytest.mark.parametrize("clumping", [True, False])
def test_cvb_kernel_matches_reference(order, clumping):
    c = synth_corpus(D=8, W=10, K=3, mean_len=8, seed=1)
    m = CVB0(3, alpha=0.3, beta=0.1, order=order, clumping=clumping, seed=0).initialize(c)
    g = m.gamma.copy()
    ndk, nwk, nk = m.n_dk.copy(), m.n_wk.copy(), m.n_k.copy()
    m.step()
    m.step()
    for _ in range(2):
        reference.cvb_sweep(
            m.indptr, m.wids, m.cnts, g, ndk, nwk, nk, m.alpha, 0.1, c.n_vocab * 0.1, order == 2
        )
    np.testing.assert_allclose(m.gamma, g, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(m.n_wk, nwk, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("order", [0, 2])
def test_cvb_invariants(order, tiny):
    m = CVB0(4, alpha=0.1, beta=0.05, order=order, seed=3).fit(tiny, 5)
    assert np.all(m.gamma >= 0)
    np.testing.assert_allclose(m.gamma.sum(1), 1)
    np.testing.assert_allclose(m.n_k.sum(), tiny.n_tokens)
    np.testing.assert_allclose(m.n_dk.sum(1), tiny.doc_lengths())
    ndk, nwk, nk = _stats_from_gamma(tiny, m.gamma, m.cnts, m.wids, m.indptr, 4)
    np.testing.assert_allclose(m.n_dk, ndk, atol=1e-9)
    np.testing.assert_allclose(m.n_wk, nwk, atol=1e-9)
    assert m.n_wk.min() > -1e-9
    np.testing.assert_allclose(m.phi().sum(1), 1)


def test_cvb_determinism(tiny):
    a = CVB0(3, seed=5).fit(tiny, 3)
    b = CVB0(3, seed=5).fit(tiny, 3)
    np.testing.assert_array_equal(a.gamma, b.gamma)


# ----------------------------------------------------------------------------- MAP_LDA_U
def test_map_em_kernel_matches_reference(tiny):
    m = MapLdaU(3, alpha=1.5, beta=1.2, seed=0).initialize(tiny)
    ref = reference.map_em_step(
        m.indptr, m.wids, m.cnts, m.n_dk, m.n_wk, m.n_k, m.alpha, m.beta, m.W
    )
    m.step()
    for a, b in zip((m.n_dk, m.n_wk, m.n_k), ref, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10)


def test_c4_13_map_lda_u_objective_never_decreases():
    """C4.13: batch MAP_LDA_U (alpha, beta > 1) is EM, so Eq. B.1 never decreases."""
    c = synth_corpus(D=40, W=30, K=4, mean_len=30, seed=2)
    m = MapLdaU(4, alpha=1.1, beta=1.01, seed=1).initialize(c)
    obj = [m.objective()]
    for _ in range(40):
        m.step()
        obj.append(m.objective())
    d = np.diff(obj)
    assert d.min() > -1e-8 * abs(obj[-1]), d.min()
    assert obj[-1] > obj[0]
    np.testing.assert_allclose(m.n_k.sum(), c.n_tokens)


def test_map_lda_u_requires_shifted_hyperparameters():
    with pytest.raises(ConfigError, match="alpha"):
        MapLdaU(3, alpha=0.5, beta=2)
    with pytest.raises(ConfigError, match="beta"):
        MapLdaU(3, alpha=2, beta=0.5)


# ----------------------------------------------------------------------------- SCVB0
def _dense_scvb0_reference(m, corpus, n_minibatches, seed):
    """Replay SCVB0.fit with the dense numpy reference, consuming the same random draws."""
    rng = np.random.default_rng(seed)
    W, K = corpus.n_vocab, m.K
    if not m.clumping:
        from latentlab.models.lda.cvb import expand_tokens

        indptr, wids, cnts = expand_tokens(corpus, rng)
    else:
        indptr, wids, cnts = corpus.indptr, corpus.word_ids, corpus.counts
    C = corpus.n_tokens
    G = rng.gamma(100.0, 1.0 / 100.0, size=(W, K))
    nphi = G * (C / G.sum())
    nz = nphi.sum(0)
    docs = np.flatnonzero(np.diff(corpus.indptr) > 0)
    order, pos, t = np.empty(0, dtype=np.int64), 0, 0
    doclen = corpus.doc_lengths().astype(float)
    for _ in range(n_minibatches):
        if pos >= len(order):
            order, pos = docs[rng.permutation(len(docs))], 0
        b = order[pos : pos + m.minibatch]
        pos += len(b)
        e = rng.standard_exponential((len(b), K))
        t += 1
        nphi, nz, thetas = reference.scvb0_minibatch(
            b, indptr, wids, cnts, doclen, nphi, nz, m.alpha, m.beta, C, m.rho_phi(t),
            m.rho_theta, m.n_burn, e / e.sum(1, keepdims=True),
        )  # fmt: skip
    return nphi, nz


@pytest.mark.parametrize("clumping", [True, False])
def test_scvb0_kernel_matches_dense_reference(clumping, tiny):
    m = SCVB0(3, alpha=0.2, beta=0.05, minibatch=7, clumping=clumping, seed=4)
    m.fit(tiny, max_docs=35)
    nphi, nz = _dense_scvb0_reference(m, tiny, 5, seed=4)
    np.testing.assert_allclose(m.n_phi, nphi, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(m.n_z, nz, rtol=1e-9)


def test_c4_11_scvb0_statistics_conserved_and_nonnegative(tiny):
    m = SCVB0(4, minibatch=5, seed=0).fit(tiny, n_iter=2)
    C = tiny.n_tokens
    assert m.n_phi.min() >= 0 and m.n_z.min() >= 0
    np.testing.assert_allclose(m.n_phi.sum(), C, rtol=1e-9)
    np.testing.assert_allclose(m.n_phi.sum(0), m.n_z, rtol=1e-9)
    np.testing.assert_allclose(m.phi().sum(1), 1)
    # document statistics: sum to C_d after every token update, and non-negative
    rng = np.random.default_rng(0)
    nth = 12.0 * rng.dirichlet(np.ones(4))
    for t in range(1, 40):
        g = rng.dirichlet(np.ones(4))
        nth = reference.theta_update(nth, g, 12.0, m.rho_theta(t))
        assert nth.min() >= 0
        np.testing.assert_allclose(nth.sum(), 12.0)


def test_c4_12_clumped_update_equals_repeated_single_updates():
    rng = np.random.default_rng(1)
    for m_ad in (1, 2, 5, 17):
        nth = 30 * rng.dirichlet(np.ones(5))
        g = rng.dirichlet(np.ones(5))
        rho = 0.137
        rep = nth.copy()
        for _ in range(m_ad):
            rep = reference.theta_update(rep, g, 30.0, rho)
        np.testing.assert_allclose(
            reference.theta_update_clumped(nth, g, 30.0, rho, m_ad), rep, rtol=1e-12
        )


def test_c4_10_scvb0_minibatch_one_equals_online_em_map():
    """C4.10: SCVB0 with one-token minibatches and hyperparameters (alpha, beta) gives
    the iterates of online EM for MAP_LDA_U with (alpha + 1, beta + 1)."""
    c = synth_corpus(D=6, W=8, K=3, mean_len=6, seed=7)
    K, W = 3, c.n_vocab
    ptr, w = c.to_tokens()
    dids = np.repeat(np.arange(c.n_docs), np.diff(ptr))
    rng = np.random.default_rng(0)
    perm = rng.permutation(len(w))
    dids, wids = dids[perm].astype(np.int64), w[perm]
    doclen = c.doc_lengths().astype(float)
    C = float(c.n_tokens)
    nphi0 = C * rng.dirichlet(np.ones(W * K)).reshape(W, K)
    nz0 = nphi0.sum(0)
    nth0 = doclen[:, None] * rng.dirichlet(np.ones(K), size=c.n_docs)
    sched_phi = StepSize(1.0, 10.0, 0.9)
    sched_th = StepSize(1.0, 10.0, 0.9)
    rho_phi = sched_phi(np.arange(1, len(w) + 1))
    alpha, beta = 0.1, 0.01
    nth, nphi, nz = nth0.copy(), nphi0.copy(), nz0.copy()
    kernels.scvb0_token_stream(
        dids, wids, doclen, nth, nphi, nz, np.full(K, alpha), beta, W * beta, C, rho_phi,
        sched_th.s, sched_th.tau, sched_th.kappa, np.zeros(c.n_docs, dtype=np.int64),
    )  # fmt: skip
    em = reference.online_em_map_lda_u(
        dids, wids, doclen, nth0, nphi0, nz0, alpha + 1, beta + 1, C, rho_phi, sched_th
    )
    for a, b in zip((nth, nphi, nz), em, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_scvb0_determinism_and_empty_docs():
    c = synth_corpus(D=20, empty=4)
    a = SCVB0(3, minibatch=4, seed=2).fit(c, n_iter=1)
    b = SCVB0(3, minibatch=4, seed=2).fit(c, n_iter=1)
    np.testing.assert_array_equal(a.n_phi, b.n_phi)
    assert a.n_empty_docs == 4 and a.docs_seen == 20


def test_scvb0_bad_settings(tiny):
    with pytest.raises(ConfigError, match="minibatch"):
        SCVB0(3, minibatch=10_000).fit(tiny, n_iter=1)
    with pytest.raises(ConfigError, match="K"):
        SCVB0(0)
    with pytest.raises(ConfigError, match="rho_phi"):
        SCVB0(3, rho_phi={"s": 5, "tau": 1, "kappa": 0.9})  # rho_1 > 1
    with pytest.raises(ConfigError, match="rho_theta.kappa"):
        SCVB0(3, rho_theta={"s": 1, "tau": 10, "kappa": 1.5})
    with pytest.raises(ConfigError, match="rho_phi.s"):
        SCVB0(3, rho_phi={"s": 0, "tau": 10, "kappa": 0.9})


def test_nan_statistic_raises_divergence(tiny):
    m = SCVB0(3, minibatch=5, seed=0).initialize(tiny)
    m.M[:] = np.nan
    with pytest.raises(DivergenceError, match=r"N\^Z.*iteration 1"):
        m.partial_fit(m._next_docs())


# ----------------------------------------------------------------------------- SVB / VB
def test_svb_local_kernel_matches_hoffman_reference(tiny):
    m = SVB(3, minibatch=6, n_local=5, offset=0.5, seed=0).initialize(tiny)
    eb = m.exp_elog_phi_wk()
    docs = np.arange(6)
    g0 = np.random.default_rng(1).gamma(100, 0.01, (6, 3))
    gout = np.empty_like(g0)
    acc = np.zeros_like(m.acc)
    kernels.svb_minibatch(
        docs, m.indptr, m.wids, m.cnts, m.L, m.lscale, m.Lsum, m.eta, m.W, m.alpha, 5, 0.0,
        g0, acc, m.touched, m.touched_list, m.expElogbeta, gout,
    )  # fmt: skip
    acc_ref = np.zeros_like(acc)
    for j, d in enumerate(docs):
        ids, cts = tiny.doc(d)
        g, ss = reference.svb_local(ids, cts.astype(float), eb, m.alpha, g0[j], 5)
        np.testing.assert_allclose(gout[j], g, rtol=1e-9)
        acc_ref[ids] += ss
    np.testing.assert_allclose(acc, acc_ref, rtol=1e-9, atol=1e-14)


def test_svb_lambda_update_matches_dense(tiny):
    m = SVB(3, minibatch=5, n_local=1, seed=0).initialize(tiny)
    lam0 = m.lam.copy()
    eb = m.exp_elog_phi_wk()
    state = m.rng.bit_generator.state
    docs = m._next_docs()
    m.rng.bit_generator.state = state
    m._order, m._pos = np.empty(0, dtype=np.int64), 0
    m.partial_fit(m._next_docs())
    rng = np.random.default_rng()
    rng.bit_generator.state = state
    rng.permutation(len(m.docs))
    g0 = rng.gamma(100, 0.01, (5, 3))
    ss = np.zeros_like(lam0)
    for j, d in enumerate(docs):
        ids, cts = tiny.doc(d)
        ss[ids] += reference.svb_local(ids, cts.astype(float), eb, m.alpha, g0[j], 1)[1]
    rho = m.rho(1)
    expect = (1 - rho) * lam0 + rho * (m.eta + len(m.docs) / 5 * ss)
    np.testing.assert_allclose(m.lam, expect, rtol=1e-9)


def test_svb_offsets_and_normalisation(tiny):
    m = SVB(3, alpha=0.1, beta=0.01, offset=0.5, minibatch=5, seed=0)
    assert np.allclose(m.alpha, 0.6) and np.isclose(m.eta, 0.51)
    m.fit(tiny, n_iter=1)
    np.testing.assert_allclose(m.phi().sum(1), 1)
    assert np.all(m.lam > 0)


def test_batch_vb_runs_and_is_deterministic(tiny):
    a = BatchVB(3, seed=1).fit(tiny, 3)
    b = BatchVB(3, seed=1).fit(tiny, 3)
    np.testing.assert_array_equal(a.lam, b.lam)
    np.testing.assert_allclose(a.phi().sum(1), 1)


def test_svb_dense_mode_gives_the_same_iterates(tiny):
    a = SVB(3, minibatch=5, n_local=2, seed=3).fit(tiny, n_iter=1)
    b = SVB(3, minibatch=5, n_local=2, seed=3, dense=True).fit(tiny, n_iter=1)
    np.testing.assert_allclose(a.lam, b.lam, rtol=1e-9)
