"""SVI and IVI for IWTM: C4 (one SVI step with rho = 1 on the whole corpus is one CAVI
step), natural-parameter round trip and validity, ELBO finite, determinism, the MAP topic
kernel against a dense oracle, pruning consistency, Hungarian matching, EXTEND shapes,
bad input."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import digamma

from latentlab.errors import ConfigError, DataError
from latentlab.models.iwtm.cavi import CaviSettings, IWTMCavi
from latentlab.models.iwtm.ivi import corr_docs, extend, match_topics, prune
from latentlab.models.iwtm.normal_gamma import (
    NGPrior,
    cluster_posterior,
    expected_loglik,
    from_natural,
    natural_posterior,
    to_natural,
)
from latentlab.models.iwtm.svi import IWTMSvi, SviSettings, doc_rows


def _data(seed=0, n_docs=20, D=2):
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 3, size=(4, D))
    lens = rng.integers(4, 9, size=n_docs)
    X = np.vstack([centres[rng.integers(0, 4, size=n)] + 0.4 * rng.normal(size=(n, D))
                   for n in lens])  # fmt: skip
    return X, np.concatenate([[0], np.cumsum(lens)])


def _settings(C=8, K=16, T=3, c_top=3, map_top=4, mode="tied"):
    return CaviSettings(T=T, C=C, K=K, alpha0=1.5, gamma=2.0, c_top=c_top, map_top=map_top,
                        mapping_mode=mode, max_local=30, local_tol=1e-6)  # fmt: skip


@pytest.mark.parametrize("mode", ["tied", "per_topic"])
@pytest.mark.parametrize("sparse", [True, False])
def test_c4_svi_rho1_full_batch_equals_cavi(mode, sparse):
    X, ip = _data(0)
    s = _settings(c_top=3 if sparse else 8, map_top=4 if sparse else 8, mode=mode)
    prior = NGPrior.from_data(X, 1.0, 4.0)
    a = IWTMCavi(s, prior, seed=3).fit(X, ip, 1)
    b = IWTMSvi(s, prior, SviSettings(rho=1.0), seed=3).fit(X, ip, 1)
    assert b.batch_size(len(ip) - 1) == len(ip) - 1 and b.scale == 1.0
    for nm in ("mt", "nu", "chi1", "chi2"):
        np.testing.assert_allclose(getattr(b.q, nm), getattr(a.q, nm), rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(b.map_idx, a.map_idx)
    np.testing.assert_allclose(b.map_val, a.map_val, atol=1e-10)
    np.testing.assert_allclose(b.zeta_stick, a.zeta_stick, atol=1e-10)
    np.testing.assert_allclose(b.elog_pi, a.elog_pi, atol=1e-10)
    np.testing.assert_allclose(b.xi, a.xi, atol=1e-10)
    np.testing.assert_allclose(b.elog_beta, a.elog_beta, atol=1e-10)
    np.testing.assert_allclose(b.n_c, a.n_c, atol=1e-10)
    assert b.elbo(a.last_stats) == pytest.approx(a.elbo(a.last_stats), rel=1e-12)


def test_natural_parameters_round_trip_and_blend_stay_valid():
    rng = np.random.default_rng(1)
    prior = NGPrior(rng.normal(size=3), beta0=0.7, a=2.5, b=0.8)
    n = rng.uniform(0, 5, size=6)
    Xs = [rng.normal(size=(4, 3)) for _ in range(6)]
    s = np.array([x.sum(0) for x in Xs]) * (n / 4)[:, None]
    q = np.array([(x * x).sum() for x in Xs]) * n / 4 + (s * s).sum(1) / np.maximum(n, 1e-9)
    want = cluster_posterior(n, s, q, prior)
    got = from_natural(natural_posterior(n, s, q, prior))
    for nm in ("mt", "nu", "chi1", "chi2"):
        np.testing.assert_allclose(getattr(got, nm), getattr(want, nm), rtol=1e-10)
    back = from_natural(to_natural(want))
    np.testing.assert_allclose(back.chi2, want.chi2, rtol=1e-10)
    # a convex combination of valid natural parameters is valid; the scaled statistics
    # (N_doc/|S| replication) enter linearly
    eta = to_natural(want).blend(natural_posterior(n, s, q, prior, scale=4.0), 0.3)
    r = from_natural(eta)
    assert np.all(r.nu > 0) and np.all(r.chi1 > 0) and np.all(r.chi2 > 0)
    np.testing.assert_allclose(r.nu, 0.7 * want.nu + 0.3 * (prior.beta0 + 4 * n))


def test_svi_runs_elbo_finite_params_valid_and_deterministic():
    X, ip = _data(2, n_docs=24)
    prior = NGPrior.from_data(X, 1.0, 4.0)
    runs = []
    for _ in range(2):
        m = IWTMSvi(_settings(), prior, SviSettings(rho=0.25), seed=5)
        m.fit(X, ip, 12, snapshots=[4, 8, 12])
        runs.append(m)
    a, b = runs
    assert a.batch_size(24) == 6 and a.scale == 4.0
    e = [r["elbo"] for r in a.snapshots]
    assert len(e) == 3 and np.all(np.isfinite(e))
    assert np.all(a.q.nu > 0) and np.all(a.q.chi1 > 0) and np.all(a.q.chi2 > 0)
    assert np.allclose(a.map_val.sum(1), 1) and np.all(a.map_val >= 0)
    assert np.all(a.zeta_stick >= 0)
    # the expected data count stays the corpus size (clusters are rescaled statistics)
    assert a.n_c.sum() == pytest.approx(len(X), rel=0.2)
    np.testing.assert_array_equal(a.q.mt, b.q.mt)
    assert [r["elbo"] for r in b.snapshots] == e
    assert a.docs_seen == 12 * 6 and a.history[-1]["iteration"] == 12


def test_minibatch_rows_select_whole_documents():
    ip = np.array([0, 2, 5, 9, 10])
    rows, sub = doc_rows(ip, np.array([1, 3]))
    np.testing.assert_array_equal(rows, [2, 3, 4, 9])
    np.testing.assert_array_equal(sub, [0, 3, 4])


def test_map_topic_kernel_matches_dense_oracle():
    X, ip = _data(4)
    m = IWTMSvi(_settings(c_top=8, map_top=8), NGPrior.from_data(X, 1.0, 4.0),
                SviSettings(rho=0.5), seed=0).fit(X, ip, 6)  # fmt: skip
    got = m.map_topics(X, ip)
    st = m.local_step(X, ip, accumulate=False)
    G = expected_loglik(X, m.q) @ m.beta_dense().T  # N x K
    want = np.empty(len(X), int)
    for d in range(len(ip) - 1):
        a = st.alpha_t[d]
        elt = digamma(a) - digamma(a.sum())
        for i in range(ip[d], ip[d + 1]):
            lg = elt[:, None] + m.elog_pi + G[i][None, :]
            want[i] = np.argmax(np.exp(lg - lg.max()).sum(1))  # Eq. 6.44
    np.testing.assert_array_equal(got, want)


def _fitted(seed=0, n_docs=30, **kw):
    X, ip = _data(seed, n_docs)
    s = _settings(C=12, K=24, map_top=4, c_top=4)
    m = IWTMSvi(s, NGPrior.from_data(X, 1.0, 4.0), SviSettings(rho=0.5), seed=seed)
    return m.fit(X, ip, 25), X, ip


def test_prune_nothing_is_the_identity():
    m, X, ip = _fitted()
    e0, B = m.full_elbo(X, ip), m.beta_dense()
    info = prune(m, threshold=0.0, slack=0)
    assert info["clusters_removed"] == 0 and info["atoms_removed"] == 0
    np.testing.assert_allclose(m.beta_dense(), B, atol=1e-15)
    assert m.full_elbo(X, ip) == pytest.approx(e0, rel=1e-12)


def test_prune_keeps_data_assignment_and_does_not_lower_the_elbo():
    m, X, ip = _fitted()
    n_c = m.n_c.copy()
    e0, top0, th0 = m.full_elbo(X, ip), m.map_topics(X, ip), m.transform(X, ip)
    info = prune(m, threshold=1e-2, slack=1)
    assert info["clusters_removed"] > 0 and info["atoms_removed"] > 0
    assert info["cluster_mass_removed"] < 1e-2 * info["clusters_removed"]
    assert m.C == (n_c >= 1e-2).sum() + 1 and m.map_idx.shape == (m.K, min(4, m.C))
    np.testing.assert_allclose(np.sort(m.n_c)[-3:], np.sort(n_c)[-3:])
    assert np.allclose(m.map_val.sum(1), 1)
    # removing empty components removes prior/KL terms only: the bound does not drop
    assert m.full_elbo(X, ip) >= e0 - 1e-6 * abs(e0)
    assert (m.map_topics(X, ip) == top0).mean() > 0.97
    assert np.abs(m.transform(X, ip) - th0).max() < 0.05
    m.fit(X, ip, 3)  # the pruned model trains on
    assert np.isfinite(m.full_elbo(X, ip))


def test_hungarian_recovers_a_known_permutation():
    rng = np.random.default_rng(7)
    W = rng.dirichlet(np.full(6, 0.3), size=80)
    perm = rng.permutation(6)
    W2 = np.empty_like(W)
    W2[:, perm] = W  # topic t of M is topic perm[t] of M'
    W2 += 0.01 * rng.random(W2.shape)
    np.testing.assert_array_equal(match_topics(W, W2), perm)
    with pytest.raises(DataError, match="must match"):
        match_topics(W, W2[:, :5])


def test_extend_concatenates_blockwise():
    X, ip = _data(1, 30)
    s = _settings(C=12, K=24, map_top=4, c_top=4)
    prior = NGPrior.from_data(X, 1.0, 4.0)
    h = 15
    a = IWTMSvi(s, prior, SviSettings(rho=0.5), seed=0).fit(X[: ip[h]], ip[: h + 1], 15)
    b = IWTMSvi(s, prior, SviSettings(rho=0.5), seed=1).fit(X[ip[h] :], ip[h:] - ip[h], 15)
    prune(a)
    prune(b)
    Ca, Ka, Cb, Kb = a.C, a.K, b.C, b.K
    za, zb, xa, xb = a.zeta_stick.copy(), b.zeta_stick.copy(), a.xi.copy(), b.xi.copy()
    mta, mtb = a.q.mt.copy(), b.q.mt.copy()
    W, W2 = a.transform(X, ip), b.transform(X, ip)
    perm = extend(a, b, W, W2)
    assert (a.C, a.K) == (Ca + Cb, Ka + Kb)
    np.testing.assert_array_equal(a.q.mt, np.vstack([mta, mtb]))  # (clusters concatenated)
    np.testing.assert_allclose(a.zeta_stick, np.hstack([za, zb[perm]]))  # (7.4-7.5)
    np.testing.assert_allclose(a.xi, np.concatenate([xa, xb]))  # (7.1-7.2)
    B = a.beta_dense()  # (7.6): block diagonal
    assert B[:Ka, Ca:].sum() == 0 and B[Ka:, :Ca].sum() == 0
    assert np.allclose(B.sum(1), 1)
    a.fit(X, ip, 5)
    assert a.scale == pytest.approx(30 / 15)  # N_doc/|S| of the grown corpus
    assert np.isfinite(a.full_elbo(X, ip))


def test_bad_input():
    prior = NGPrior(np.zeros(2), 1.0, 1.0, 1.0)
    for rho in (0.0, 1.5, -0.1):
        with pytest.raises(ConfigError, match="rho"):
            IWTMSvi(_settings(), prior, SviSettings(rho=rho))
    with pytest.raises(ConfigError, match="batch"):
        IWTMSvi(_settings(), prior, SviSettings(rho=0.5, batch=0))
    m = IWTMSvi(_settings(), prior, SviSettings(rho=0.5))
    with pytest.raises(DataError, match="no documents"):
        m.fit(np.zeros((0, 2)), np.array([0]), 1)
    with pytest.raises(DataError, match="no documents"):
        corr_docs(0, 10, np.random.default_rng(0))
    with pytest.raises(ConfigError, match="prune"):
        prune(_fitted()[0], threshold=-1.0)
