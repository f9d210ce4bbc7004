"""DRIFT kernels: exact small cases, brute force, numba vs numpy, determinism."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.special import expit

from latentlab.errors import DataError, DivergenceError
from latentlab.models.drift import kernels as kr
from latentlab.models.drift import reference as ref
from latentlab.models.drift.sampler import Data, Hyper, init_state, run_chain, step


def _toy(T=3, N=4, K=2, seed=0, missing=0.2):
    rng = np.random.default_rng(seed)
    Z = (rng.random((T, N, K)) < 0.5).astype(np.int8)
    W = rng.normal(0, 1.5, (K, K))
    W = (W + W.T) / 2
    Y = np.triu((rng.random((T, N, N)) < 0.4).astype(np.int8), 1)
    Y = Y + Y.transpose(0, 2, 1)
    obs = np.triu(rng.random((T, N, N)) > missing, 1)
    obs = obs | obs.transpose(0, 2, 1)
    return Z, W, -0.5, Data.from_networks(Y, obs), Y, obs


def test_lfrm_likelihood_by_hand():
    # N = 3, K = 2, one step: η_ij = Σ_ab z_ia W_ab z_jb + ε, pairs (0,1), (0,2), (1,2)
    Z = np.array([[[1, 0], [1, 1], [0, 0]]], np.int8)
    W = np.array([[1.0, -2.0], [-2.0, 0.5]])
    eps = -1.0
    Y = np.array([[[0, 1, 0], [1, 0, 1], [0, 1, 0]]], np.int8)
    d = Data.from_networks(Y)
    eta01 = 1.0 + (-2.0) + eps  # z0=(1,0), z1=(1,1): W00 + W01
    eta02 = eps
    eta12 = eps
    hand = np.log(expit(eta01)) + np.log(1 - expit(eta02)) + np.log(expit(eta12))
    E = kr.compute_eta(Z, W, eps)
    assert np.isclose(E[0, 0, 1], eta01) and np.isclose(E[0, 1, 0], eta01)
    assert np.isclose(kr.total_loglik(d.C1, d.C0, E), hand)
    assert np.isclose(ref.loglik(d.C1, d.C0, ref.eta(Z, W, eps)), hand)


def test_eta_matches_reference():
    Z, W, eps, d, *_ = _toy(T=4, N=6, K=3)
    assert np.allclose(kr.compute_eta(Z, W, eps), ref.eta(Z, W, eps))


def _brute_chain(ll0, ll1, a, b, w_never, w_on):
    """Exact posterior over all 2^T paths of one chain."""
    T = len(ll0)
    probs = {}
    for path in itertools.product((0, 1), repeat=T):
        lp, prev = 0.0, 0
        for t, z in enumerate(path):
            p1 = b if prev else a
            lp += np.log(p1 if z else 1 - p1) + (ll1[t] if z else ll0[t])
            prev = z
        lp += np.log(w_on if any(path) else w_never)
        probs[path] = np.exp(lp)
    s = sum(probs.values())
    return {k: v / s for k, v in probs.items()}


@pytest.mark.parametrize("weights", [(1.0, 1.0), (1.0 / 0.3, 1.0 / 0.1)])
def test_ffbs_matches_enumeration(weights):
    rng = np.random.default_rng(1)
    T = 4
    ll0, ll1 = rng.normal(0, 1, T), rng.normal(0, 1, T)
    a, b = 0.3, 0.7
    exact = _brute_chain(ll0, ll1, a, b, *weights)
    n = 40_000
    U = rng.random((n, T))
    counts = {}
    for r in range(n):
        z, status, _ = kr.ffbs3(ll0, ll1, a, b, weights[0], weights[1], U[r])
        assert status == kr.OK
        counts[tuple(z)] = counts.get(tuple(z), 0) + 1
    # chi-square over the 16 paths
    chi2 = sum((counts.get(k, 0) - n * p) ** 2 / (n * p) for k, p in exact.items())
    assert chi2 < 40.0  # 15 d.o.f.: P(chi2 > 40) ~ 5e-4
    # the numpy oracle draws the same paths from the same uniforms
    for r in range(50):
        z, _, _ = kr.ffbs3(ll0, ll1, a, b, weights[0], weights[1], U[r])
        assert np.array_equal(z, ref.ffbs3(ll0, ll1, a, b, weights[0], weights[1], U[r]))


def test_ffbs_reports_nan_time():
    ll0 = np.array([0.0, np.nan, 0.0])
    z, status, t = kr.ffbs3(ll0, np.zeros(3), 0.3, 0.5, 1.0, 1.0, np.full(3, 0.5))
    assert status == kr.BAD_LIKELIHOOD and t == 1


def test_chain_loglik_matches_reference():
    Z, W, eps, d, *_ = _toy()
    E = kr.compute_eta(Z, W, eps)
    zw = kr.compute_zw(Z, W)
    assert np.allclose(zw, np.einsum("tjb,bk->tjk", Z.astype(float), W))
    T = Z.shape[0]
    ll0, ll1 = np.empty(T), np.empty(T)
    for i in range(Z.shape[1]):
        for k in range(Z.shape[2]):
            kr.chain_loglik(d.C1, d.C0, E, Z, zw, i, k, ll0, ll1)
            r0, r1 = ref.chain_loglik(d.C1, d.C0, Z, W, eps, i, k)
            # the oracle's value includes the pairs not touching i (same for both states)
            assert np.allclose(ll1 - ll0, r1 - r0)


@pytest.mark.parametrize("slice_factor", [False, True])
def test_sweep_z_matches_reference_and_keeps_eta(slice_factor):
    Z, W, eps, d, *_ = _toy(T=3, N=5, K=3, seed=3)
    a = np.array([0.4, 0.2, 0.05])
    b = np.array([0.8, 0.5, 0.6])
    U = np.random.default_rng(5).random((3, 5, 3))
    Zk = Z.copy()
    E = kr.compute_eta(Zk, W, eps)
    status, *_ = kr.sweep_z(d.C1, d.C0, E, Zk, W, a, b, slice_factor, U)
    assert status == kr.OK
    assert np.array_equal(Zk, ref.sweep_z(d.C1, d.C0, Z, W, eps, a, b, slice_factor, U))
    off = ~np.eye(5, dtype=bool)  # the diagonal (self-loops) is never used
    assert np.allclose(E[:, off], ref.eta(Zk, W, eps)[:, off])  # incremental η = fresh η


def test_mh_w_matches_reference_and_keeps_eta():
    Z, W, eps, d, *_ = _toy(T=3, N=5, K=3, seed=4)
    rng = np.random.default_rng(2)
    nrm, uni = rng.standard_normal((3, 3)), rng.random((3, 3))
    Wk = W.copy()
    E = kr.compute_eta(Z, Wk, eps)
    kr.mh_w(d.C1, d.C0, E, Z, Wk, 1.0, 0.5, nrm, uni)
    assert np.allclose(Wk, ref.mh_w(d.C1, d.C0, Z, W, eps, 1.0, 0.5, nrm, uni))
    assert np.allclose(Wk, Wk.T)
    off = ~np.eye(5, dtype=bool)
    assert np.allclose(E[:, off], ref.eta(Z, Wk, eps)[:, off])


def test_mh_eps_detailed_balance_on_a_grid():
    """MH on ε with a lattice proposal (normal = ±1, σ_prop = h) is reversible: the
    empirical transition matrix T satisfies π_i T_ij = π_j T_ji for the exact posterior."""
    Z, W, _, d, *_ = _toy(T=2, N=4, K=1, seed=6)
    h, grid = 0.5, np.arange(-4, 5) * 0.5
    logp = []
    for e in grid:
        logp.append(ref.loglik(d.C1, d.C0, ref.eta(Z, W, e)) - 0.5 * e * e)
    pi = np.exp(np.array(logp) - max(logp))
    pi /= pi.sum()
    for s in range(len(grid) - 1):
        e0, e1 = grid[s], grid[s + 1]

        # acceptance probabilities up and down, computed by the kernel with u -> 0^+
        def accept(frm, sign):
            E = kr.compute_eta(Z, W, frm)
            lo, hi = 0.0, 1.0
            for _ in range(40):  # bisect the largest accepted u
                mid = (lo + hi) / 2
                _, acc = kr.mh_eps(d.C1, d.C0, E.copy(), frm, 1.0, h, sign, mid)
                lo, hi = (mid, hi) if acc else (lo, mid)
            return lo

        up, down = accept(e0, 1.0), accept(e1, -1.0)
        assert np.isclose(pi[s] * up, pi[s + 1] * down, rtol=1e-6, atol=1e-12)


def test_gibbs_sweep_leaves_exact_posterior_invariant():
    """Detailed balance of the FFBS Gibbs step on an enumerable case: N = 2 actors, T = 2,
    K = 1. Start from the exact posterior over Z, apply one sweep, compare frequencies."""
    Y = np.array([[[0, 1], [1, 0]], [[0, 0], [0, 0]]], np.int8)
    d = Data.from_networks(Y)
    W = np.array([[2.0]])
    eps, a, b = -0.5, np.array([0.3]), np.array([0.6])
    states = list(itertools.product((0, 1), repeat=4))
    post = []
    for s in states:
        Z = np.array(s, np.int8).reshape(2, 2, 1)
        lp = ref.loglik(d.C1, d.C0, ref.eta(Z, W, eps))
        for i in range(2):
            prev = 0
            for t in range(2):
                p1 = b[0] if prev else a[0]
                lp += np.log(p1 if Z[t, i, 0] else 1 - p1)
                prev = Z[t, i, 0]
        post.append(np.exp(lp))
    post = np.array(post) / np.sum(post)
    rng = np.random.default_rng(9)
    n = 30_000
    start = rng.choice(len(states), n, p=post)
    counts = np.zeros(len(states))
    index = {s: r for r, s in enumerate(states)}
    for r in range(n):
        Z = np.array(states[start[r]], np.int8).reshape(2, 2, 1)
        E = kr.compute_eta(Z, W, eps)
        kr.sweep_z(d.C1, d.C0, E, Z, W, a, b, False, rng.random((1, 2, 2)))
        counts[index[tuple(Z.ravel())]] += 1
    chi2 = np.sum((counts - n * post) ** 2 / (n * post))
    assert chi2 < 45.0  # 15 d.o.f.


def test_transition_counts_and_stick_logh():
    Z = (np.random.default_rng(0).random((5, 3, 2)) < 0.5).astype(np.int8)
    assert np.array_equal(kr.transition_counts(Z), ref.transition_counts(Z))
    assert kr.transition_counts(Z).sum() == 5 * 3 * 2
    for a in (1e-4, 0.01, 0.3, 0.9):
        assert np.isclose(kr.stick_logh(a, 1.7, 40), ref.stick_logh(a, 1.7, 40))


def test_stick_density_on_grid_matches_direct_sum():
    from latentlab.models.drift.sampler import stick_log_density

    M, alpha = 300, 2.0
    u = np.linspace(np.log(1e-7), np.log(0.9), 20_000)
    lp = stick_log_density(u, alpha, M)
    direct = np.array([(alpha - 1) * x + kr.stick_logh(np.exp(x), alpha, M) for x in u]) + u
    assert np.allclose(lp - lp[0], direct - direct[0], atol=1e-4)


def test_stick_sampler_matches_density():
    """Eq. 2.26 by rejection vs the numerically normalised density (KS distance)."""
    from latentlab.models.drift.sampler import draw_stick

    rng = np.random.default_rng(4)
    alpha, M, a_prev = 1.5, 20, 0.4  # small M: the grid and the density agree closely
    draws = np.array([draw_stick(a_prev, alpha, M, rng) for _ in range(4000)])
    grid = np.linspace(1e-9, a_prev, 20001)
    logd = (alpha - 1) * np.log(grid) + np.array([ref.stick_logh(x, alpha, M) for x in grid])
    dens = np.exp(logd - logd.max())
    cdf = np.cumsum(dens)
    cdf /= cdf[-1]
    emp = np.searchsorted(np.sort(draws), grid) / len(draws)
    assert np.max(np.abs(emp - cdf)) < 0.03  # KS 1% critical value ~ 0.026 for n = 4000


def test_slice_sampler_stationary_on_the_prior():
    """No observed dyad: the chain must sample the prior. K⁺ ~ Poisson(α H_{NT}) for fixed α
    (a column is all-zero with probability (1−a)^{NT}); b_k ~ Beta(γ, δ)."""
    from scipy.stats import poisson

    N, T, alpha = 2, 2, 1.2
    Y = np.zeros((T, N, N), np.int8)
    d = Data.from_networks(Y, np.zeros((T, N, N), bool))
    hyper = Hyper(sample_alpha=False)
    rng = np.random.default_rng(11)
    st = init_state(d, hyper, rng)
    st.alpha = alpha
    ks, bs = [], []
    eta = None
    for it in range(6000):
        st, eta, info = step(st, d, hyper, rng, eta, it)
        if it >= 200:
            ks.append(st.K)
            bs.extend(st.b)
    ks = np.array(ks)
    lam = alpha * sum(1 / j for j in range(1, N * T + 1))
    assert abs(ks.mean() - lam) < 0.15, (ks.mean(), lam)
    for k in range(4):
        assert abs(np.mean(ks == k) - poisson.pmf(k, lam)) < 0.04
    assert abs(np.mean(bs) - 3 / 4) < 0.03  # Beta(3, 1) mean


def test_chain_is_deterministic():
    Z, W, eps, d, *_ = _toy(T=4, N=6, K=2, seed=2)
    s1, t1 = run_chain(d, Hyper(), 123, burnin=5)
    s2, t2 = run_chain(d, Hyper(), 123, burnin=5)
    assert np.array_equal(s1[0].Z, s2[0].Z) and np.array_equal(s1[0].W, s2[0].W)
    assert t1 == t2


def test_bad_networks_named():
    with pytest.raises(DataError, match="symmetric"):
        Data.from_networks(np.array([[[0, 1], [0, 0]]]))
    with pytest.raises(DataError, match="binary"):
        Data.from_networks(np.array([[[0, 2], [2, 0]]]))


def test_divergence_names_actor_feature_time():
    Z, W, eps, d, *_ = _toy(T=3, N=4, K=2, seed=1)
    d.C1[1, 2, 0] = np.nan
    d.C1[1, 0, 2] = np.nan
    st = init_state(d, Hyper(fixed_K=2), np.random.default_rng(0))
    with pytest.raises(DivergenceError, match=r"actor \d, feature \d, time 1"):
        step(st, d, Hyper(fixed_K=2), np.random.default_rng(0))
