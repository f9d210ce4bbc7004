"""Gaussian DP mixture from the IWTM machinery (LDA+GDPMM baseline, Sec. 5.6.1; issue 22
case 7): known blobs are found, the ELBO never decreases under CAVI, it is IWTM with one
topic and the identity map, and its quantiser is the Student-t predictive."""

from __future__ import annotations

import numpy as np
import pytest

from latentlab.errors import ConfigError, DataError
from latentlab.models.iwtm.cavi import CaviSettings, IWTMCavi
from latentlab.models.iwtm.gdpmm import GdpmmSettings, IWTMGdpmm
from latentlab.models.iwtm.normal_gamma import (
    NGPrior,
    augment,
    cluster_posterior,
    log_predictive_stats,
    student_t_logpdf,
)

CENTRES = np.array([[0.0, 0.0, 0.0], [8.0, 0.0, 2.0], [0.0, 9.0, -3.0]])


def _blobs(seed=0, n=150, sd=0.4):
    rng = np.random.default_rng(seed)
    lab = np.repeat(np.arange(3), n)
    X = CENTRES[lab] + sd * rng.normal(size=(3 * n, 3))
    perm = rng.permutation(len(X))
    return X[perm], lab[perm]


def _prior(X):
    """The study's base measure: beta0 = 1, chi1 = 32 per dimension, chi1 chi2 =
    precision(x) (ch. 5)."""
    return NGPrior.from_data(X, beta0=1.0, chi1=32.0 * X.shape[1])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_three_blobs_three_clusters_and_their_means(seed):
    X, lab = _blobs(seed)
    m = IWTMGdpmm(GdpmmSettings(C=20, gamma=1.0), _prior(X), seed=seed).fit(X, 60)
    assert m.n_used() == 3, m.n_c.round(1)
    used = m.used()
    # each true centre has exactly one fitted mean within 0.15 of it
    d = np.linalg.norm(m.q.mt[used][:, None, :] - CENTRES[None], axis=2)
    assert sorted(d.argmin(0).tolist()) == [0, 1, 2]
    assert d.min(0).max() < 0.15
    np.testing.assert_allclose(np.sort(m.n_c[used]), [150, 150, 150], atol=1.0)
    # quantisation = the true partition up to relabelling
    w = m.predict(X)
    assert len(np.unique(w)) == 3
    for k in range(3):
        assert len(np.unique(w[lab == k])) == 1


@pytest.mark.parametrize("seed", [0, 3])
def test_elbo_never_decreases_fixed_order(seed):
    """With a fixed stick order every block is an exact coordinate step (as IWTM's C8)."""
    X, _ = _blobs(seed, n=60, sd=1.5)
    m = IWTMGdpmm(GdpmmSettings(C=15, gamma=2.0, reorder=False), _prior(X), seed=seed)
    m.fit(X, 25, trace_blocks=True)
    e = np.array([v for _, _, v in m.trace])
    assert np.isfinite(e).all()
    assert np.diff(e).min() >= -1e-9 * np.abs(e).max(), np.diff(e).min()
    assert e[-1] > e[0]


def test_with_reordering_local_and_cluster_blocks_stay_monotone():
    X, _ = _blobs(4, n=60, sd=1.5)
    m = IWTMGdpmm(GdpmmSettings(C=15, gamma=2.0), _prior(X), seed=4)
    m.fit(X, 25, trace_blocks=True)
    e = np.array([v for _, _, v in m.trace])
    for i in range(1, len(m.trace)):
        if m.trace[i][1] in ("local", "cluster"):
            assert e[i] - e[i - 1] >= -1e-9 * np.abs(e).max(), m.trace[i]


def test_is_iwtm_with_one_topic_and_the_identity_map():
    """IWTM with T = 1, K = C, one document, c_top = C and map_top = 1 starts from the
    identity atom->cluster map; its local, cluster and topic-stick blocks (mapping and
    master sticks skipped) must give the GDPMM's states with gamma = alpha0, and its ELBO
    must equal the GDPMM's plus IWTM's mapping and master-stick terms."""
    X, _ = _blobs(5, n=40, sd=1.0)
    C, a0 = 12, 1.7
    prior = _prior(X)
    iw = IWTMCavi(CaviSettings(T=1, C=C, K=C, alpha0=a0, gamma=3.0, c_top=C, map_top=1,
                               max_local=3), prior, seed=9, threads=1)  # fmt: skip
    iw.initialize(X)
    assert (iw.map_idx[:, 0] == np.arange(C)).all() and (iw.map_val == 1).all()
    g = IWTMGdpmm(GdpmmSettings(C=C, gamma=a0), prior, seed=9, threads=1).initialize(X)
    np.testing.assert_array_equal(iw.q.mt, g.q.mt)
    np.testing.assert_allclose(iw.elog_pi[0], g.elog_beta, rtol=1e-13)
    ip = np.array([0, len(X)])
    Xa = augment(X)
    for _ in range(6):
        st = iw.local_step(X, ip)
        gs = g.local_step(X, Xa)
        np.testing.assert_allclose(st.n_k, gs.n_c, rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(st.s_k, gs.s_c, rtol=1e-9, atol=1e-8)
        assert st.entropy == pytest.approx(gs.entropy, rel=1e-9)
        iw.cluster_step(st)
        g.cluster_step(gs)
        iw.topic_stick_step(st)
        g.stick_step(gs.n_c)
        np.testing.assert_allclose(iw.q.mt, g.q.mt, rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(iw.q.chi2, g.q.chi2, rtol=1e-9)
        np.testing.assert_allclose(iw.elog_pi[0], g.elog_beta, rtol=1e-9, atol=1e-9)
        extra = float(iw.elog_beta[iw.map_idx[:, 0]].sum()) + iw._stick_terms(
            iw.mu[None], iw.mv[None], iw.c_order[None], iw.s.gamma
        )
        assert iw.elbo(st) == pytest.approx(g.elbo(gs) + extra, rel=1e-10)
    assert g.n_used() < C  # the test is not vacuous: clusters have died


def test_student_t_is_the_conjugate_predictive():
    """With 0/1 weights the CAVI cluster posterior is the exact conjugate one, so the
    quantiser's Student-t must equal the collapsed predictive of Eq. 4.11."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4))
    prior = NGPrior.from_data(X, 1.3, 5.0)
    z = rng.integers(0, 3, size=30)
    R = np.eye(3)[z]
    q = cluster_posterior(R.sum(0), R.T @ X, R.T @ (X * X).sum(1), prior)
    Y = rng.normal(size=(7, 4))
    got = student_t_logpdf(Y, q)
    for c in range(3):
        Xc = X[z == c]
        for i, y in enumerate(Y):
            want = log_predictive_stats(y, float(len(Xc)), Xc.sum(0), float((Xc * Xc).sum()),
                                        prior.m, prior.beta0, prior.a, prior.b)  # fmt: skip
            assert got[i, c] == pytest.approx(want, rel=1e-10)


def test_deterministic_and_bad_input():
    X, _ = _blobs(6, n=30)
    a = IWTMGdpmm(GdpmmSettings(C=10), _prior(X), seed=1).fit(X, 5)
    b = IWTMGdpmm(GdpmmSettings(C=10), _prior(X), seed=1).fit(X, 5)
    np.testing.assert_array_equal(a.q.mt, b.q.mt)
    with pytest.raises(ConfigError):
        IWTMGdpmm(GdpmmSettings(C=0), _prior(X))
    with pytest.raises(ConfigError):
        IWTMGdpmm(GdpmmSettings(gamma=0.0), _prior(X))
    Xb = X.copy()
    Xb[0, 0] = np.nan
    with pytest.raises(DataError):
        IWTMGdpmm(GdpmmSettings(C=10), _prior(X)).fit(Xb, 2)
