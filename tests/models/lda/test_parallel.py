"""Parallel (numba prange) variants against their serial kernels: same result up to the
order of floating-point sums, statistics conserved, deterministic for a fixed number of
blocks/threads."""

import numpy as np
import pytest

from latentlab.errors import ConfigError
from latentlab.models.lda import SCVB0, SVB, BatchVB, kernels

from .lda_helpers import synth_corpus


def _minibatch_inputs(m, docs, seed=0):
    e = np.random.default_rng(seed).standard_exponential((len(docs), m.K))
    theta0 = e / e.sum(axis=1, keepdims=True)
    return (
        docs, m.indptr, m.wids, m.cnts, m.doclen, m.M, m.scale, m.n_z, m.alpha, m.beta,
        m.W * m.beta, m.n_burn, m._rho_theta_tab, theta0,
    )  # fmt: skip


def _fresh_acc(m):
    W, K = m.W, m.K
    return (np.zeros((W, K)), np.zeros(K), np.zeros(W, dtype=np.bool_),
            np.zeros(W, dtype=np.int64))  # fmt: skip


@pytest.mark.parametrize("n_blocks", [1, 2, 3, 7])
def test_scvb0_parallel_kernel_equals_serial(n_blocks):
    c = synth_corpus(D=40, W=30, K=4, mean_len=25, seed=5)
    m = SCVB0(5, alpha=0.3, beta=0.05, minibatch=10, seed=1).initialize(c)
    docs = np.random.default_rng(2).permutation(c.n_docs)[:23].astype(np.int64)
    inp = _minibatch_inputs(m, docs)
    acc, accZ, touched, tl = _fresh_acc(m)
    n = kernels.scvb0_minibatch(*inp, acc, accZ, touched, tl)
    acc2, accZ2, touched2, tl2 = _fresh_acc(m)
    ex = np.zeros((n_blocks - 1, m.W, m.K))
    exZ = np.zeros((n_blocks - 1, m.K))
    n2 = kernels.scvb0_minibatch_parallel(*inp, acc2, accZ2, touched2, tl2, ex, exZ)
    assert n2 == n
    assert set(tl2[:n2]) == set(tl[:n])
    np.testing.assert_array_equal(touched2, touched)
    np.testing.assert_allclose(acc2, acc, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(accZ2, accZ, rtol=1e-13)
    # conservation: the accumulated gamma mass is the number of tokens of the minibatch
    np.testing.assert_allclose(acc2.sum(), m.doclen[docs].sum(), rtol=1e-12)
    np.testing.assert_allclose(acc2.sum(0), accZ2, rtol=1e-12)
    # the per-block buffers are left cleared for the next minibatch
    assert not ex.any() and not exZ.any()


def test_split_by_work_covers_the_minibatch_in_order():
    c = synth_corpus(D=25, seed=3)
    docs = np.arange(25, dtype=np.int64)[::-1].copy()
    for nb in (1, 2, 4, 25, 40):
        b = kernels.split_by_work(docs, c.indptr, nb)
        assert len(b) == nb + 1 and b[0] == 0 and b[-1] == len(docs)
        assert np.all(np.diff(b) >= 0)
    b = kernels.split_by_work(docs, c.indptr, 2)
    work = np.diff(c.indptr)[docs]
    left, total = work[: b[1]].sum(), work.sum()
    assert abs(2 * left - total) <= 2 * work.max()


@pytest.mark.parametrize("threads", [2, 3])
def test_scvb0_threads_same_iterates_as_serial(threads, tiny):
    a = SCVB0(4, alpha=0.2, beta=0.05, minibatch=6, seed=3).fit(tiny, n_iter=3)
    b = SCVB0(4, alpha=0.2, beta=0.05, minibatch=6, seed=3, threads=threads)
    b.fit(tiny, n_iter=3)
    np.testing.assert_allclose(b.n_phi, a.n_phi, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(b.n_z, a.n_z, rtol=1e-10)
    np.testing.assert_allclose(b.n_phi.sum(), tiny.n_tokens, rtol=1e-9)
    np.testing.assert_allclose(b.n_phi.sum(0), b.n_z, rtol=1e-9)
    assert b.docs_seen == a.docs_seen and b.tokens_seen == a.tokens_seen


def test_scvb0_threads_deterministic(tiny):
    a = SCVB0(3, minibatch=5, seed=9, threads=2).fit(tiny, n_iter=2)
    b = SCVB0(3, minibatch=5, seed=9, threads=2).fit(tiny, n_iter=2)
    np.testing.assert_array_equal(a.n_phi, b.n_phi)
    np.testing.assert_array_equal(a.n_z, b.n_z)


def test_scvb0_threads_must_be_positive():
    with pytest.raises(ConfigError, match="threads"):
        SCVB0(3, threads=0)


@pytest.mark.parametrize("n_blocks", [1, 2, 5])
def test_svb_parallel_kernel_equals_serial(n_blocks):
    c = synth_corpus(D=30, W=25, K=3, mean_len=20, seed=8)
    m = SVB(4, alpha=0.2, beta=0.05, minibatch=10, n_local=3, seed=2).initialize(c)
    docs = np.random.default_rng(4).permutation(c.n_docs)[:17].astype(np.int64)
    g0 = np.random.default_rng(5).gamma(100.0, 0.01, size=(len(docs), m.K))

    def run(parallel):
        acc, _, touched, tl = _fresh_acc(m)
        eb, gout = np.zeros((m.W, m.K)), np.empty_like(g0)
        args = (docs, m.indptr, m.wids, m.cnts, m.L, m.lscale, m.Lsum, m.eta, m.W, m.alpha,
                3, 1e-3, g0, acc, touched, tl, eb, gout)  # fmt: skip
        if parallel:
            ex = np.zeros((n_blocks - 1, m.W, m.K))
            n = kernels.svb_minibatch_parallel(*args, ex)
            assert not ex.any()
        else:
            n = kernels.svb_minibatch(*args)
        return n, acc, touched, set(tl[:n]), eb, gout

    a, b = run(False), run(True)
    assert a[0] == b[0] and a[3] == b[3]
    np.testing.assert_array_equal(a[2], b[2])
    np.testing.assert_allclose(b[1], a[1], rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(b[4], a[4])  # exp(E log Phi): same per-word formula
    np.testing.assert_array_equal(b[5], a[5])  # gammas: per document, same operations
    # conservation: the sufficient statistics carry one unit of mass per token
    np.testing.assert_allclose(b[1].sum(), m.doclen[docs].sum(), rtol=1e-10)


@pytest.mark.parametrize("threads", [2, 3])
def test_svb_and_batch_vb_threads_same_iterates(threads, tiny):
    a = SVB(3, minibatch=6, n_local=2, seed=1).fit(tiny, n_iter=2)
    b = SVB(3, minibatch=6, n_local=2, seed=1, threads=threads).fit(tiny, n_iter=2)
    np.testing.assert_allclose(b.lam, a.lam, rtol=1e-10)
    a = BatchVB(3, max_local=5, seed=1).fit(tiny, 3)
    b = BatchVB(3, max_local=5, seed=1, threads=threads).fit(tiny, 3)
    np.testing.assert_allclose(b.lam, a.lam, rtol=1e-10)
    c = BatchVB(3, max_local=5, seed=1, threads=threads).fit(tiny, 3)
    np.testing.assert_array_equal(c.lam, b.lam)


def test_vb_threads_must_be_positive():
    with pytest.raises(ConfigError, match="threads"):
        SVB(3, threads=0)
    with pytest.raises(ConfigError, match="threads"):
        BatchVB(3, threads=0)
