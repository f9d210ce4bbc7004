"""CAVI IWTM: the ELBO never decreases after any block (C8), numba local step = dense
numpy oracle, sparse top-C bookkeeping, determinism, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from latentlab.errors import ConfigError, DataError
from latentlab.models.iwtm import reference as ref
from latentlab.models.iwtm.cavi import CaviSettings, IWTMCavi
from latentlab.models.iwtm.normal_gamma import NGPrior, expected_loglik


def _data(seed=0, n_docs=15, D=2):
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 3, size=(4, D))
    lens = rng.integers(4, 9, size=n_docs)
    X = np.vstack([centres[rng.integers(0, 4, size=n)] + 0.4 * rng.normal(size=(n, D))
                   for n in lens])  # fmt: skip
    return X, np.concatenate([[0], np.cumsum(lens)])


def _model(mode="tied", C=8, K=16, T=3, seed=0, **kw):
    X, ip = _data(seed)
    prior = NGPrior.from_data(X, beta0=1.0, chi1=4.0)
    s = CaviSettings(T=T, C=C, K=K, alpha0=1.5, gamma=2.0, c_top=C, map_top=C,
                     mapping_mode=mode, max_local=30, local_tol=1e-6, **kw)  # fmt: skip
    return IWTMCavi(s, prior, seed=seed), X, ip


@pytest.mark.parametrize("mode", ["tied", "per_topic"])
@pytest.mark.parametrize("seed", [0, 1])
def test_c8_elbo_never_decreases_after_any_block(mode, seed):
    """Fixed stick order (claim C8): every block is an exact coordinate step."""
    m, X, ip = _model(mode, seed=seed, reorder=False)
    m.fit(X, ip, n_iter=8, trace_blocks=True)
    e = np.array([v for _, _, v in m.trace])
    d = np.diff(e)
    assert np.isfinite(e).all()
    assert d.min() >= -1e-8 * abs(e).max(), list(zip(m.trace[1:], d, strict=True))
    assert e[-1] > e[0] + 10


def test_reordering_dips_only_at_stick_steps():
    """With reordering, a dip can only come from a stick step whose truncated last slot
    holds mass (the decreasing sort of Sec. 5.4.5 is optimal only when that slot is
    empty); the local, cluster and mapping blocks stay monotone."""
    m, X, ip = _model("tied", seed=0)
    m.fit(X, ip, n_iter=8, trace_blocks=True)
    e = np.array([v for _, _, v in m.trace])
    for (_, block, _), dd in zip(m.trace[1:], np.diff(e), strict=True):
        if block in ("cluster", "mapping", "local"):
            assert dd >= -1e-8 * abs(e).max()
        else:
            assert dd >= -0.1  # small dips only
    assert m.n_used() < m.C


def test_local_kernel_matches_dense_numpy():
    m, X, ip = _model("tied", seed=2)
    m.initialize(X)
    m.s = CaviSettings(**{**m.s.__dict__, "local_tol": 0.0, "max_local": 4})
    st = m.local_step(X, ip)
    at, zeta, n_k, s_k, q_k, ent = ref.dense_local(
        X, ip, m.elog_pi, m.beta_dense(), expected_loglik(X, m.q), m.alpha, 4
    )
    np.testing.assert_allclose(st.alpha_t, at, rtol=1e-10)
    np.testing.assert_allclose(st.zeta, zeta, atol=1e-10)
    np.testing.assert_allclose(st.n_k, n_k, atol=1e-10)
    np.testing.assert_allclose(st.s_k, s_k, atol=1e-9)
    np.testing.assert_allclose(st.q_k, q_k, atol=1e-9)
    assert st.entropy == pytest.approx(ent, rel=1e-10)
    # counts conserved: every datum's q(z, k) sums to one
    assert st.n_k.sum() == pytest.approx(len(X)) and st.ndt.sum() == pytest.approx(len(X))


def test_augmented_gemm_equals_expected_loglik_and_top_c_is_brute_force():
    m, X, ip = _model("tied", C=8, K=16, seed=5)
    m.initialize(X)
    E = m.expected_loglik(X)
    np.testing.assert_allclose(E, expected_loglik(X, m.q), rtol=1e-10, atol=1e-9)
    m.c_top, m.chunk = 3, 7  # several chunks, a ragged last one
    top = m.top_clusters(X)
    want = np.sort(np.argsort(-E, axis=1, kind="stable")[:, :3], 1)
    np.testing.assert_array_equal(np.sort(top, 1), want)


def test_sparse_top_c_keeps_counts_and_is_close_on_separated_data():
    X, ip = _data(3)
    prior = NGPrior.from_data(X, beta0=1.0, chi1=4.0)
    fits = []
    for c_top, J in ((8, 8), (3, 2)):
        s = CaviSettings(T=3, C=8, K=16, c_top=c_top, map_top=J, max_local=20)
        fits.append(IWTMCavi(s, prior, seed=1).fit(X, ip, 5))
    st = fits[1].last_stats
    assert st.n_k.sum() == pytest.approx(len(X))
    assert (fits[1].map_idx.shape == (16, 2)) and np.allclose(fits[1].map_val.sum(1), 1)
    th = [f.train_theta() for f in fits]
    assert np.abs(th[0] - th[1]).max() < 0.5  # same data, sparse approximation


def test_deterministic_same_bits():
    a = _model("tied", seed=4)
    b = _model("tied", seed=4)
    a[0].fit(a[1], a[2], 3)
    b[0].fit(b[1], b[2], 3)
    np.testing.assert_array_equal(a[0].q.mt, b[0].q.mt)
    np.testing.assert_array_equal(a[0].train_theta(), b[0].train_theta())


def test_transform_returns_distributions():
    m, X, ip = _model("tied", seed=5)
    m.fit(X, ip, 3)
    th = m.transform(X[: ip[3]], ip[:4])
    assert th.shape == (3, 3) and np.allclose(th.sum(1), 1)


def test_bad_settings_and_data():
    prior = NGPrior(np.zeros(2), 1.0, 1.0, 1.0)
    with pytest.raises(ConfigError, match="C"):
        IWTMCavi(CaviSettings(T=2, C=0, K=4), prior)
    with pytest.raises(ConfigError, match="mapping_mode"):
        IWTMCavi(CaviSettings(T=2, C=2, K=4, mapping_mode="x"), prior)
    m = IWTMCavi(CaviSettings(T=2, C=2, K=4), prior)
    X = np.array([[0.0, np.nan], [1.0, 1.0]])
    with pytest.raises(DataError, match="non-finite"):
        m.fit(X, np.array([0, 2]), 1)


def _pair(C=8, K=16, c_top=3, map_top=4, seed=0, **kw):
    X, ip = _data(seed, n_docs=40, D=4)
    prior = NGPrior.from_data(X, beta0=1.0, chi1=4.0)
    out = []
    for prec in ("float64", "float32"):
        s = CaviSettings(T=3, C=C, K=K, alpha0=1.5, gamma=2.0, c_top=c_top, map_top=map_top,
                         max_local=30, local_tol=1e-6, el_gemm=prec, **kw)  # fmt: skip
        out.append(IWTMCavi(s, prior, seed=seed, chunk=37))
    return out, X, ip


@pytest.mark.parametrize("seed", [0, 1])
def test_float32_el_gemm_gives_the_float64_fit(seed):
    """The float32 ranking + float64 re-check selects the same clusters, so the ELBO trace
    (every block, 6 iterations) and the fitted state equal the float64-only path's up to
    the rounding of G (a float64 dot with the atoms' weights instead of sum_c b_kc E l_ic)."""
    (m64, m32), X, ip = _pair(seed=seed)
    for m in (m64, m32):
        m.fit(X, ip, 6, trace_blocks=True)
    e64 = np.array([v for _, _, v in m64.trace])
    e32 = np.array([v for _, _, v in m32.trace])
    np.testing.assert_allclose(e32, e64, rtol=1e-11)
    np.testing.assert_array_equal(m32.map_idx, m64.map_idx)
    np.testing.assert_allclose(m32.q.mt, m64.q.mt, rtol=1e-10, atol=1e-10)
    assert m32.timing["el_gemm"] > 0 and getattr(m32, "f32_fallbacks", 0) == 0
    assert hasattr(m32, "f32_window_extra") and not hasattr(m64, "f32_window_extra")


def test_float32_top_clusters_equal_float64_on_near_tied_clusters():
    (m64, m32), X, ip = _pair(C=12, K=24, c_top=5)
    for m in (m64, m32):
        m.initialize(X)
    q = m64.q
    # clusters 6-11 copy 0-5 with nu scaled by 1 + 1e-7 / 1 - 1e-8: E l moves by the
    # same D/2 |1/nu - 1/nu'| (2e-7, 2e-8) for every datum, far below float32's
    # resolution here (~1e-6) and far above float64's rounding (~1e-15)
    for a, b, f in ((6, 0, 1 + 1e-7), (9, 3, 1 - 1e-8)):
        q.mt[a : a + 3], q.chi1[a : a + 3], q.chi2[a : a + 3] = (
            q.mt[b : b + 3],
            q.chi1[b : b + 3],
            q.chi2[b : b + 3],
        )
        q.nu[a : a + 3] = q.nu[b : b + 3] * f
    m32.q = q.copy()
    want = m64.top_clusters(X)
    np.testing.assert_array_equal(m32.top_clusters(X), want)
    El = m64.expected_loglik(X)
    np.testing.assert_array_equal(want, ref.topk_rows_ref(El, 5))
    El32 = m64.augment(X).astype(np.float32) @ m64.el_weights().astype(np.float32)
    assert (ref.topk_rows_ref(El32, 5) != want).any()  # float32 alone ranks them wrongly


def test_float32_overflow_falls_back_to_float64():
    (m64, m32), X, ip = _pair()
    X = X * 1e20  # |x|^2 ~ 1e40 > float32's largest value
    for m in (m64, m32):
        m.initialize(X)
    np.testing.assert_array_equal(m32.top_clusters(X), m64.top_clusters(X))
    assert m32.f32_fallbacks > 0


def test_el_gemm_setting_is_checked():
    with pytest.raises(ConfigError, match="el_gemm"):
        IWTMCavi(CaviSettings(T=2, C=2, K=4, el_gemm="float16"), NGPrior(np.zeros(2), 1, 1, 1))
