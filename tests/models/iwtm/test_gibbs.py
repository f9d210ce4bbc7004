"""Gibbs IWTM: every draw's conditional equals the ratio of joint marginals (C10, Eqs
4.1-4.3, 4.12-4.14), counts stay consistent, determinism, class prediction (4.16)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import gammaln

from latentlab.errors import ConfigError
from latentlab.models.iwtm import reference as ref
from latentlab.models.iwtm.gibbs import GibbsSchedule, IWTMGibbs, _leaf_logprobs, predict_class
from latentlab.models.iwtm.normal_gamma import NGPrior


def _tiny(seed=0, y=(0, 1, -1)):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(7, 2))
    indptr = np.array([0, 3, 5, 7])
    prior = NGPrior(np.zeros(2), beta0=0.5, a=2.0, b=0.7)
    g = IWTMGibbs(T=2, prior=prior, alpha0=1.3, gamma=0.9, dish_cap=16, seed=seed)
    g.setup(X, indptr, np.array(y), n_classes=2)
    g.alpha_y = np.array([[0.6, 1.4], [2.0, 0.3]])
    g.log_py = np.log([0.4, 0.6])
    g.sweep(np.arange(7))
    g.sweep(np.arange(7))
    return g


def _state_joint(g, z, tab, dish_of):
    return ref.crf_log_joint(g.X, g.doc, g.y, z, tab, dish_of, g.alpha_y, g.alpha0, g.gamma,
                             g.prior, g.log_py)  # fmt: skip


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("i", [0, 4, 6])  # labelled docs (classes 0, 1) and the unlabelled doc
def test_c10_conditional_equals_ratio_of_joints(seed, i):
    g = _tiny(seed)
    g._unseat([i])
    a = g._args()
    leaves = _leaf_logprobs(i, a[0], a[1], a[2], a[5], a[6], a[7], a[9], a[10], a[11], a[12],
                            a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22],
                            a[23], a[24], a[25])  # fmt: skip
    lp = np.array([leaf[3] for leaf in leaves])
    assert np.exp(lp).sum() == pytest.approx(1.0, abs=1e-12)
    seated = g.z >= 0
    live_t = np.where(g.table_n > 0)[0]
    dish_of = {int(t): int(g.table_dish[t]) for t in live_t}
    new_t = int(g.table_n.shape[0]) + 1
    new_k = int(g.dish_cap) + 1
    joints = []
    for r, t, k, _ in leaves:
        z = g.z.copy()
        tab = g.tab.copy()
        d = dict(dish_of)
        if t < 0:
            t = new_t
            d[t] = new_k if k < 0 else k
        z[i], tab[i] = r, t
        assert seated.sum() == len(z) - 1
        joints.append(_state_joint(g, z, tab, d))
    joints = np.array(joints)
    want = joints - np.logaddexp.reduce(joints)
    np.testing.assert_allclose(lp, want, atol=1e-9)


def test_counts_consistent_after_sweeps():
    g = _tiny(3)
    g.sweep(np.arange(7))
    live = g.table_n > 0
    assert g.table_n.sum() == 7 and g.counters[0] == live.sum()
    assert (np.bincount(g.z, minlength=2) == g.n_r).all()
    for k in np.where(g.dish_m > 0)[0]:
        members = live & (g.table_dish == k)
        assert g.dish_m[k] == members.sum()
        on = np.isin(g.tab, np.where(members)[0])
        assert g.dish_n[k] == on.sum()
        np.testing.assert_allclose(g.dish_s[k], g.X[on].sum(0), atol=1e-12)
    for d in range(3):
        np.testing.assert_array_equal(g.ndt[d], np.bincount(g.z[g.doc == d], minlength=2))
    assert (g.c_rk.sum(1) == g.n_r).all()


def test_fold_in_leaves_state_unchanged_and_is_deterministic():
    def run():
        g = _tiny(4, y=(0, 1, -1))
        g._unseat([5, 6])  # a test document starts unseated
        before = (np.sort(g.table_n), np.sort(g.dish_n))
        out = g.fold_in([2], n_iter=3)
        after = (np.sort(g.table_n), np.sort(g.dish_n))
        return out, before, after

    o1, b, a = run()
    np.testing.assert_array_equal(b[0], a[0])
    np.testing.assert_allclose(b[1], a[1])
    o2, _, _ = run()
    np.testing.assert_array_equal(o1, o2)
    assert o1.sum() == 2


def test_fit_deterministic_and_hyper_updates():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-2, 0.3, (30, 2)), rng.normal(2, 0.3, (30, 2))])
    indptr = np.arange(0, 61, 10)
    y = np.array([0, 0, 0, 1, 1, 1])
    prior = NGPrior(np.zeros(2), beta0=1.0, a=1.0, b=1.0)
    sch = GibbsSchedule(n_iter=12, burn_in=5, hyper_every=5, test_iter=2)
    fits = [IWTMGibbs(3, prior, seed=7, dish_cap=64).fit(X, indptr, y, 2, sch) for _ in range(2)]
    np.testing.assert_array_equal(fits[0].z, fits[1].z)
    assert fits[0].alpha0 == fits[1].alpha0 and fits[0].alpha0 != 50.0
    assert 1 <= fits[0].n_dishes() <= 60


def test_predict_class_is_eq_4_16():
    alpha = np.array([[3.0, 0.1], [0.1, 3.0]])
    ndt = np.array([[9, 1], [0, 5]])
    lp = np.log([0.5, 0.5])
    got = predict_class(ndt, alpha, lp)
    A = alpha.sum(1)
    for j, n in enumerate(ndt):
        s = [
            gammaln(A[c])
            - gammaln(A[c] + n.sum())
            + (gammaln(alpha[c] + n) - gammaln(alpha[c])).sum()
            for c in range(2)
        ]
        assert got[j] == int(np.argmax(s))


def test_bad_settings_are_named():
    prior = NGPrior(np.zeros(2), beta0=1.0, a=1.0, b=1.0)
    with pytest.raises(ConfigError, match="T"):
        IWTMGibbs(0, prior)
    g = IWTMGibbs(2, prior, dish_cap=1, seed=0)
    X = np.array([[0.0, 0.0], [50.0, 50.0], [-50.0, 50.0]] * 3)
    with pytest.raises(ConfigError, match="dish_cap"):
        g.fit(X, np.array([0, 3, 6, 9]), np.array([0, 1, 0]), 2, GibbsSchedule(3, 1, 1, 1))


def _pair_state(seed=0):
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 3, size=(4, 6))  # D = 6: the four-sum loop and its tail
    lens = rng.integers(10, 30, size=12)
    X = np.vstack([centres[rng.integers(0, 4, n)] + rng.normal(size=(n, 6)) for n in lens])
    ip = np.concatenate([[0], np.cumsum(lens)])
    y = np.array([0, 1, 0, 1, -1, 0, 1, -1, 0, 1, 0, -1])
    prior = NGPrior.from_data(X, 1.0, 1.0)
    gs = [IWTMGibbs(4, prior, alpha0=2.0, gamma=1.5, dish_cap=300, seed=seed).setup(X, ip, y, 2)
          for _ in range(2)]  # fmt: skip
    return gs, len(X)


@pytest.mark.parametrize("seed", [0, 1])
def test_fast_sweep_takes_the_reference_sweeps_draws(seed):
    """Same uniforms, same draws: the cached linear-weight sweep and the log-domain
    reference (whose conditional C10 checks) agree on every assignment for 10 sweeps with
    hyperparameter updates, and the caches equal a rebuild from the counts."""
    (fast, slow), N = _pair_state(seed)
    idx = np.arange(N)
    docs = np.where(fast.y >= 0)[0]
    for it in range(10):
        fast.sweep(idx)
        slow.sweep(idx, reference=True)
        np.testing.assert_array_equal(fast.z, slow.z)
        np.testing.assert_array_equal(fast.tab, slow.tab)
        np.testing.assert_array_equal(fast.table_dish, slow.table_dish)
        np.testing.assert_allclose(fast.dish_s, slow.dish_s, atol=1e-9)
        if it % 3 == 2:
            for g in (fast, slow):
                g.update_alpha_y(docs)
                g.update_alpha0()
    assert fast.n_dishes() > 1 and (fast.z >= 0).all()
    cache = [c.copy() for c in fast._cache()]
    fast.rebuild_cache()
    live = fast.dish_m > 0
    np.testing.assert_array_equal(cache[0], fast.c_kr)
    np.testing.assert_array_equal(cache[0].T, fast.c_rk)
    for old, new in zip(cache[1:], fast._cache()[1:], strict=True):
        np.testing.assert_array_equal(old[live], new[live])


@pytest.mark.parametrize("i", [0, 6])  # a labelled datum and one of the unlabelled document
def test_fast_sweep_draws_the_exact_conditional(i):
    """20,000 draws of one datum by the fast sweep against the conditional of every (r,
    table, dish) outcome (``_leaf_logprobs``, equal to the ratio of joints by C10)."""
    g = _tiny(5)
    g._unseat([i])
    a = g._args()
    leaves = _leaf_logprobs(i, a[0], a[1], a[2], a[5], a[6], a[7], a[9], a[10], a[11], a[12],
                            a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22],
                            a[23], a[24], a[25])  # fmt: skip
    p = {(r, t, k): np.exp(lp) for r, t, k, lp in leaves}
    live_t = set(np.where(g.table_n > 0)[0].tolist())
    live_k = set(np.where(g.dish_m > 0)[0].tolist())
    n = 20_000
    cnt = dict.fromkeys(p, 0)
    for _ in range(n):
        g.sweep([i])
        t = int(g.tab[i])
        k = int(g.table_dish[t])
        key = (int(g.z[i]), t if t in live_t else -1, k if (t in live_t or k in live_k) else -1)
        cnt[key] += 1
        g._unseat([i])
    assert sum(cnt.values()) == n and len(p) >= 6
    for key, pk in p.items():
        sd = np.sqrt(pk * (1 - pk) / n)
        assert abs(cnt[key] / n - pk) < 4.5 * sd + 1e-4, (key, cnt[key] / n, pk)
