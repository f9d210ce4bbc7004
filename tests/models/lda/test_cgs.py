import itertools

import numpy as np
import pytest
from scipy.optimize import minimize

from latentlab.data.corpus import BowCorpus
from latentlab.errors import ConfigError, DataError
from latentlab.models.lda import CGS, kernels, reference, sample_fixed_phi
from latentlab.models.lda.hyper import (
    count_histograms,
    log_collapsed_joint,
    log_polya,
    minka_alpha,
    minka_beta_symmetric,
)

from .lda_helpers import synth_corpus


def test_conditional_matches_brute_force_joint_ratios():
    """Eq. 4.21 equals the ratio of collapsed joints Eq. 4.20 over the K values of z_i."""
    c = synth_corpus(D=4, W=6, K=3, mean_len=5, seed=3)
    K, beta = 3, 0.3
    alpha = np.array([0.2, 0.5, 1.0])
    ptr, w = c.to_tokens()
    rng = np.random.default_rng(0)
    z = rng.integers(0, K, len(w)).astype(np.int32)
    for i in range(len(w)):
        d = int(np.searchsorted(ptr, i, side="right") - 1)
        joints = []
        for k in range(K):
            zz = z.copy()
            zz[i] = k
            ndk, nwk, _ = kernels.count_assignments(ptr, w, zz, K, c.n_vocab)
            joints.append(log_collapsed_joint(ndk, nwk, alpha, beta))
        joints = np.array(joints)
        brute = np.exp(joints - joints.max())
        brute /= brute.sum()
        ndk, nwk, nk = kernels.count_assignments(ptr, w, z, K, c.n_vocab)
        ndk[d, z[i]] -= 1
        nwk[w[i], z[i]] -= 1
        nk[z[i]] -= 1
        p = reference.cgs_conditional(d, w[i], ndk, nwk, nk, alpha, beta, c.n_vocab * beta)
        np.testing.assert_allclose(p / p.sum(), brute, rtol=1e-10)


def test_numba_sweep_equals_numpy_reference(tiny):
    K, beta = 4, 0.1
    alpha = np.array([0.1, 0.2, 0.3, 0.4])
    ptr, w = tiny.to_tokens()
    W = tiny.n_vocab
    rng = np.random.default_rng(1)
    z = rng.integers(0, K, len(w)).astype(np.int32)
    ndk, nwk, nk = kernels.count_assignments(ptr, w, z, K, W)
    z2, ndk2, nwk2, nk2 = z.copy(), ndk.copy(), nwk.copy(), nk.copy()
    for _ in range(3):
        u = rng.random(len(w))
        inv = 1.0 / (nk + W * beta)
        kernels.cgs_sweep(ptr, w, z, ndk, nwk, nk, alpha, beta, W * beta, u, np.empty(K), inv)
        reference.cgs_sweep(ptr, w, z2, ndk2, nwk2, nk2, alpha, beta, W * beta, u)
        np.testing.assert_array_equal(z, z2)
    np.testing.assert_array_equal(ndk, ndk2)
    np.testing.assert_array_equal(nwk, nwk2)


def test_counts_conserved_and_consistent(tiny):
    m = CGS(5, alpha=0.1, beta=0.05, seed=2).fit(tiny, 5)
    ndk, nwk, nk = kernels.count_assignments(m.ptr, m.w, m.z, 5, tiny.n_vocab)
    np.testing.assert_array_equal(ndk, m.n_dk)
    np.testing.assert_array_equal(nwk, m.n_wk)
    assert m.n_k.sum() == tiny.n_tokens
    np.testing.assert_array_equal(m.n_dk.sum(1), tiny.doc_lengths())
    assert (m.n_dk >= 0).all() and (m.n_wk >= 0).all()
    np.testing.assert_allclose(m.phi().sum(1), 1)
    np.testing.assert_allclose(m.theta().sum(1), 1)
    assert m.phi().shape == (5, tiny.n_vocab) and m.phi_wk().shape == (tiny.n_vocab, 5)


def test_determinism(tiny):
    a = CGS(3, seed=7).fit(tiny, 4)
    b = CGS(3, seed=7).fit(tiny, 4)
    c = CGS(3, seed=8).fit(tiny, 4)
    np.testing.assert_array_equal(a.z, b.z)
    assert not np.array_equal(a.z, c.z)


def test_cgs_recovers_planted_topics():
    """Sanity: the sampler finds well-separated planted topics."""
    rng = np.random.default_rng(0)
    K, W = 3, 30
    phi = np.zeros((K, W))
    for k in range(K):
        phi[k, k * 10 : (k + 1) * 10] = 0.1
    X = np.zeros((60, W), dtype=int)
    for d in range(60):
        th = rng.dirichlet(np.full(K, 0.2))
        for _ in range(40):
            k = rng.choice(K, p=th)
            X[d, rng.choice(W, p=phi[k])] += 1
    m = CGS(K, alpha=0.1, beta=0.01, seed=0).fit(BowCorpus.from_dense(X), 60)
    est = m.phi()
    l1 = min(np.abs(est[list(p)] - phi).sum() for p in itertools.permutations(range(K)))
    assert l1 < 0.3


def test_mallet_schedule_and_callback(tiny, monkeypatch):
    calls = []
    m = CGS(3, optimize_interval=2, burn_in=3, seed=0)
    monkeypatch.setattr(m, "optimize_hyperparameters", lambda: calls.append(m.iteration))
    seen = []
    m.fit(tiny, 9, callback=lambda mod, info: seen.append(info["iteration"]))
    assert calls == [4, 6, 8]
    assert seen == list(range(1, 10))
    stop = CGS(3, seed=0).fit(tiny, 9, callback=lambda mod, info: info["iteration"] == 2)
    assert stop.iteration == 2


def test_default_schedule_first_optimisation_at_300():
    m = CGS(2)
    its = [it for it in range(1, 501) if it > m.burn_in and it % m.optimize_interval == 0]
    assert its[:2] == [300, 400]


def test_minka_alpha_matches_scipy():
    rng = np.random.default_rng(0)
    K = 4
    true = np.array([0.2, 0.5, 1.0, 2.0])
    ndk = np.stack([rng.multinomial(rng.integers(5, 40), rng.dirichlet(true)) for _ in range(300)])
    hist, len_hist = count_histograms(ndk)
    a = minka_alpha(np.ones(K), hist, len_hist, n_iter=5000, tol=1e-13)
    res = minimize(
        lambda la: -log_polya(ndk, np.exp(la)), np.zeros(K), method="BFGS", options={"gtol": 1e-9}
    )
    np.testing.assert_allclose(a, np.exp(res.x), rtol=1e-4)
    assert log_polya(ndk, a) >= -res.fun - 1e-6


def test_minka_beta_matches_scipy():
    rng = np.random.default_rng(1)
    W, K = 20, 3
    nwk = np.stack([rng.multinomial(200, rng.dirichlet(np.full(W, 0.3))) for _ in range(K)]).T
    b = minka_beta_symmetric(1.0, nwk, n_iter=5000, tol=1e-13)

    def nll(lb):
        return -log_polya(nwk.T, np.full(W, np.exp(lb[0])))

    res = minimize(nll, [0.0], method="BFGS", options={"gtol": 1e-10})
    np.testing.assert_allclose(b, np.exp(res.x[0]), rtol=1e-4)


def test_hyperparameter_learning_runs(tiny):
    m = CGS(3, alpha=0.5, beta=0.5, optimize_interval=5, burn_in=5, learn_beta=True, seed=0)
    m.fit(tiny, 10)
    assert np.all(m.alpha > 0) and m.beta > 0 and not np.allclose(m.alpha, 0.5)


def test_fixed_phi_sampler_matches_reference():
    rng = np.random.default_rng(3)
    W, K = 10, 3
    phi_wk = rng.dirichlet(np.ones(W), size=K).T.copy()
    alpha = np.array([0.1, 0.5, 1.0])
    w = rng.integers(0, W, 15).astype(np.int32)
    z = rng.integers(0, K, 15).astype(np.int32)
    nk = np.bincount(z, minlength=K).astype(np.int32)
    z2, nk2 = z.copy(), nk.copy()
    u = rng.random(15)
    kernels.fixed_phi_sweep(w, z, nk, phi_wk, alpha, u, np.empty(K))
    reference.fixed_phi_sweep(w, z2, nk2, phi_wk, alpha, u)
    np.testing.assert_array_equal(z, z2)
    zz, nn = sample_fixed_phi(phi_wk, alpha, w, 5, seed=1)
    assert nn.sum() == 15 and np.array_equal(np.bincount(zz, minlength=K), nn)


def test_fixed_phi_sampler_stationary_distribution():
    """Two tokens, K=2: the sampler's long-run frequencies match the exact posterior."""
    phi_wk = np.array([[0.7, 0.2], [0.3, 0.8]])
    alpha = np.array([0.5, 1.5])
    w = np.array([0, 1], dtype=np.int32)
    post = {}
    for a in range(2):
        for b in range(2):
            n = np.bincount([a, b], minlength=2)
            post[(a, b)] = np.exp(log_polya(n, alpha)) * phi_wk[0, a] * phi_wk[1, b]
    tot = sum(post.values())
    counts = {k: 0 for k in post}
    state = {"z": None}

    def cb(z, nk, it):
        counts[(int(z[0]), int(z[1]))] += 1

    sample_fixed_phi(phi_wk, alpha, w, 20000, seed=0, callback=cb)
    for k, v in post.items():
        assert abs(counts[k] / 20000 - v / tot) < 0.02
    del state


def test_bad_input(tiny):
    with pytest.raises(ConfigError, match="K"):
        CGS(0)
    with pytest.raises(ConfigError, match="alpha"):
        CGS(3, alpha=-1)
    with pytest.raises(ConfigError, match="beta"):
        CGS(3, beta=0)
    bad = BowCorpus(tiny.indptr, tiny.word_ids.copy(), tiny.counts, tiny.vocab[:5])
    with pytest.raises(DataError, match="word id"):
        CGS(3).fit(bad, 1)


def test_empty_documents_skipped_and_counted():
    c = synth_corpus(D=10, empty=3)
    m = CGS(3, seed=0).fit(c, 3)
    assert m.n_empty_docs == 3
    assert (m.n_dk[-3:] == 0).all()


@pytest.mark.parametrize("sampler", ["sparse", "dense"])
def test_sampler_stationary_distribution_matches_exact_posterior(sampler):
    """Tiny corpus (2 docs x 2 tokens, K = 2, asymmetric alpha): the chain's state
    frequencies match P(z | w) ∝ exp(Eq. 4.20) enumerated over all 16 states."""
    c = BowCorpus.from_token_lists([[0, 1], [1, 2]], ["a", "b", "c"])
    alpha = np.array([0.3, 0.9])
    beta = 0.4
    ptr, w = c.to_tokens()
    states = list(itertools.product(range(2), repeat=4))
    logp = []
    for s in states:
        ndk, nwk, _ = kernels.count_assignments(ptr, w, np.array(s, dtype=np.int32), 2, 3)
        logp.append(log_collapsed_joint(ndk, nwk, alpha, beta))
    post = np.exp(np.array(logp) - max(logp))
    post /= post.sum()
    m = CGS(2, alpha=alpha, beta=beta, optimize_interval=0, seed=11, sampler=sampler)
    m.initialize(c)
    counts = np.zeros(len(states))
    index = {s: i for i, s in enumerate(states)}
    n = 12000
    for _ in range(n):
        m.step()
        counts[index[tuple(int(x) for x in m.z)]] += 1
    assert np.abs(counts / n - post).max() < 0.02


def test_sparse_sampler_keeps_counts_and_word_lists_consistent(tiny):
    m = CGS(6, alpha=np.linspace(0.05, 0.5, 6), beta=0.02, seed=4).fit(tiny, 6)
    ndk, nwk, nk = kernels.count_assignments(m.ptr, m.w, m.z, 6, tiny.n_vocab)
    np.testing.assert_array_equal(ndk, m.n_dk)
    np.testing.assert_array_equal(nwk, m.n_wk)
    np.testing.assert_array_equal(nk, m.n_k)
    wnz, wlen, wpos = m._wl
    for w in range(tiny.n_vocab):
        assert set(wnz[w, : wlen[w]]) == set(np.flatnonzero(m.n_wk[w]))
        for j in range(wlen[w]):
            assert wpos[w, wnz[w, j]] == j


def test_sparse_and_dense_reach_similar_likelihood(tiny):
    a = CGS(4, seed=1, sampler="sparse").fit(tiny, 40).log_joint()
    b = CGS(4, seed=1, sampler="dense").fit(tiny, 40).log_joint()
    assert abs(a - b) / abs(b) < 0.05
