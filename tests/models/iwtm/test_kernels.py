"""IWTM CAVI E-step kernels against plain-numpy oracles: top-k selection (exact sets and
order on tie-free data, the tie rule on data with ties), the fused candidate lists, the
factorised local step on sparse candidates, bits independent of the thread count."""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest

from latentlab.models.iwtm import reference as ref
from latentlab.models.iwtm.cavi import CaviSettings, IWTMCavi
from latentlab.models.iwtm.kernels import N_BLOCKS, chunk_candidates, local_kernel, topk_rows
from latentlab.models.iwtm.normal_gamma import NGPrior


def _topk(A, k):
    out = np.empty((len(A), k), np.int64)
    topk_rows(np.ascontiguousarray(A), k, out)
    return out


@pytest.mark.parametrize("k", [1, 3, 10, 37])
def test_topk_tie_free_equals_numpy(k):
    A = np.random.default_rng(k).normal(size=(203, 37))  # several stripes, a ragged last
    got = _topk(A, k)
    np.testing.assert_array_equal(got, ref.topk_rows_ref(A, k))
    want = np.sort(np.argpartition(-A, k - 1, axis=1)[:, :k], 1)
    np.testing.assert_array_equal(np.sort(got, 1), want)


def test_topk_tie_rule_lower_index_wins():
    np.testing.assert_array_equal(_topk(np.array([[1.0, 3.0, 3.0, 2.0, 3.0]]), 2), [[1, 2]])
    np.testing.assert_array_equal(_topk(np.array([[5.0, 5.0, 5.0, 5.0]]), 3), [[0, 1, 2]])
    np.testing.assert_array_equal(_topk(np.array([[0.0, 1.0, 0.0, 1.0]]), 3), [[1, 3, 0]])
    A = np.random.default_rng(0).integers(0, 4, size=(500, 40)).astype(np.float64)
    for k in (1, 5, 12, 40):
        np.testing.assert_array_equal(_topk(A, k), ref.topk_rows_ref(A, k))
    A[:, :] = -np.inf  # all equal, infinite
    np.testing.assert_array_equal(_topk(A[:3], 4), np.tile(np.arange(4), (3, 1)))


def _mapping(K, C, J, rng, zeros=True):
    mi = np.array([rng.choice(C, J, replace=False) for _ in range(K)], np.int64)
    mv = rng.random((K, J))
    if zeros:
        mv[rng.random((K, J)) < 0.3] = 0.0
        mv[np.arange(K), rng.integers(0, J, K)] = 0.5 + rng.random(K)  # a positive entry
    return mi, mv / mv.sum(1, keepdims=True)


@pytest.mark.parametrize("c_top", [1, 4, 12])
def test_chunk_candidates_equals_numpy(c_top):
    rng = np.random.default_rng(c_top)
    N, C, K, J = 60, 12, 30, 4
    El = rng.normal(size=(N, C))
    mi, mv = _mapping(K, C, J, rng)
    m = IWTMCavi(CaviSettings(T=2, C=C, K=K, c_top=c_top, map_top=J), NGPrior(np.zeros(2), 1, 1, 1))
    m.map_idx, m.map_val = mi, mv
    aptr, aids = m._atom_index()
    top, ptr, atoms, G = chunk_candidates(El, m.c_top, aptr, aids, mi, mv)
    p2, a2, g2 = ref.candidates_ref(El, c_top, mi, mv)
    np.testing.assert_array_equal(ptr, p2)
    np.testing.assert_array_equal(atoms, a2)
    np.testing.assert_allclose(G, g2, rtol=1e-13, atol=1e-13)
    if c_top < C:
        np.testing.assert_array_equal(top, ref.topk_rows_ref(El, c_top))


def _sparse_setup(seed=0, c_top=2):
    rng = np.random.default_rng(seed)
    lens = rng.integers(1, 7, size=11)
    ip = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    N, D, C, K, T = ip[-1], 3, 7, 15, 4
    X = rng.normal(size=(N, D))
    El = rng.normal(0, 2, size=(N, C))
    mi, mv = _mapping(K, C, 3, rng)
    mv[:, :] = 0.0
    mv[:, 0] = 1.0
    mi[:, 0] = rng.integers(0, C - 2, K)  # clusters C-2, C-1 own no atom
    El[0, C - 2 :] = 100.0  # datum 0's candidates are empty when c_top = 2
    m = IWTMCavi(CaviSettings(T=T, C=C, K=K, c_top=c_top, map_top=3), NGPrior(np.zeros(D), 1, 1, 1))
    m.map_idx, m.map_val = mi, mv
    aptr, aids = m._atom_index()
    _, cptr, atoms, G = chunk_candidates(El, m.c_top, aptr, aids, mi, mv)
    elog_pi = np.log(rng.dirichlet(np.ones(K), size=T))
    return X, ip, cptr, atoms, G, elog_pi, T, K, D


def _run_local(X, ip, cptr, atoms, G, elog_pi, T, K, D, max_local, tol, acc=True):
    nd = len(ip) - 1
    at, ndt = np.zeros((nd, T)), np.zeros((nd, T))
    z, nk = np.zeros((N_BLOCKS, K, T)), np.zeros((N_BLOCKS, K))
    sk, qk, ent = np.zeros((N_BLOCKS, K, D)), np.zeros((N_BLOCKS, K)), np.zeros((N_BLOCKS, 1))
    sw = local_kernel(X, ip, cptr, atoms, G, np.ascontiguousarray(elog_pi.T), 0.3, max_local,
                      tol, at, ndt, acc, z, nk, sk, qk, ent)  # fmt: skip
    return at, ndt, z.sum(0).T, nk.sum(0), sk.sum(0), qk.sum(0), float(ent.sum()), sw


@pytest.mark.parametrize(("max_local", "tol"), [(0, 0.0), (3, 0.0), (50, 1e-4)])
@pytest.mark.parametrize("c_top", [2, 7])
def test_local_kernel_on_sparse_candidates_equals_numpy(max_local, tol, c_top):
    args = _sparse_setup(c_top=c_top)
    X, ip, cptr, atoms, G, elog_pi, T, K, D = args
    assert (c_top == 7) or cptr[1] == 0  # datum 0 has no candidate
    at, ndt, zeta, n_k, s_k, q_k, ent, _ = _run_local(*args, max_local, tol)
    w = ref.sparse_local(X, ip, cptr, atoms, G, elog_pi, 0.3, max_local, tol)
    # numba's digamma (|err| < 1e-12) vs scipy's, carried through up to 50 sweeps
    rt = 1e-11 if max_local < 5 else 1e-9
    np.testing.assert_allclose(at, w[0], rtol=rt)
    np.testing.assert_allclose(ndt, w[0] - 0.3, rtol=rt, atol=1e-12)
    for got, want in zip((zeta, n_k, s_k, q_k), w[1:5], strict=True):
        np.testing.assert_allclose(got, want, rtol=rt, atol=1e-12)
    assert ent == pytest.approx(w[5], rel=rt)
    n_in = (np.diff(cptr) > 0).sum()
    assert n_k.sum() == pytest.approx(n_in) and zeta.sum() == pytest.approx(n_in)


def test_local_kernel_without_accumulation_sets_alpha_only():
    args = _sparse_setup(seed=3, c_top=3)
    a1 = _run_local(*args, 5, 0.0)
    a0 = _run_local(*args, 5, 0.0, acc=False)
    np.testing.assert_allclose(a0[0], a1[0], rtol=1e-12)
    assert not a0[3].any() and a0[6] == 0.0


def test_kernels_same_bits_for_any_thread_count():
    if nb.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one numba thread only")
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(c, 0.5, size=(40, 3)) for c in rng.normal(0, 3, size=(6, 3))])
    ip = np.arange(0, len(X) + 1, 8)
    prior = NGPrior.from_data(X, beta0=1.0, chi1=4.0)
    fits = []
    for th in (1, 2):
        s = CaviSettings(T=3, C=10, K=20, c_top=3, map_top=4, max_local=20)
        fits.append(IWTMCavi(s, prior, seed=2, chunk=50, threads=th).fit(X, ip, 3))
    a, b = fits
    np.testing.assert_array_equal(a.q.mt, b.q.mt)
    np.testing.assert_array_equal(a.map_idx, b.map_idx)
    np.testing.assert_array_equal(a.map_val, b.map_val)
    np.testing.assert_array_equal(a.last_stats.zeta, b.last_stats.zeta)
    np.testing.assert_array_equal(a.train_theta(), b.train_theta())


def test_nearest_clusters_equals_numpy_and_ties_go_to_the_lower_index():
    from latentlab.models.iwtm.kernels import nearest_clusters

    rng = np.random.default_rng(4)
    m = rng.normal(size=(90, 13))
    for k in (1, 7, 89):
        out = np.empty((len(m), k), np.int64)
        nearest_clusters(m, out)
        np.testing.assert_array_equal(out, ref.nearest_ref(m, k))
    m = np.repeat(rng.integers(0, 3, size=(30, 4)).astype(np.float64), 2, axis=0)  # ties
    out = np.empty((len(m), 9), np.int64)
    nearest_clusters(m, out)
    np.testing.assert_array_equal(out, ref.nearest_ref(m, 9))


# ---------------------------------------------------------------------------- float32 E l
def _integer_case(seed, R=400, n=12, C=60):
    """Integer features and weights: every float64 dot product is exact (|sum| < 2^36), so
    the float64 top-C is unambiguous, while float32 (24 bits) cannot resolve gaps below
    ~2^10 at these magnitudes. Clusters 10-19 copy clusters 0-9 (exact ties); clusters
    20-29 copy them with one unit added to the weight of feature 0, which takes values in
    -3..3 (gaps of 0-3 units: exact ties and near-ties)."""
    from latentlab.models.iwtm.kernels import f32_error_bound

    rng = np.random.default_rng(seed)
    Xa = rng.integers(-(2**18), 2**18, size=(R, n)).astype(np.float64)
    Xa[:, 0] = rng.integers(-3, 4, size=R)
    WT = rng.integers(-(2**12), 2**12, size=(C, n)).astype(np.float64)
    WT[10:20] = WT[:10]
    WT[20:30] = WT[:10]
    WT[20:30, 0] += 1.0
    El32 = Xa.astype(np.float32) @ WT.T.astype(np.float32)
    wmax = np.sqrt((WT * WT).sum(1)).max()
    err = f32_error_bound(n) * wmax * np.sqrt((Xa * Xa).sum(1))
    return Xa, WT, El32, err


@pytest.mark.parametrize("k", [1, 5, 10, 29])
@pytest.mark.parametrize("seed", [0, 1])
def test_select_f32_equals_exact_float64_top_with_ties(seed, k):
    from latentlab.models.iwtm.kernels import select_f32

    Xa, WT, El32, err = _integer_case(seed)
    want = ref.topk_rows_ref(Xa @ WT.T, k)  # exact integers in float64
    top = np.empty((len(Xa), k), np.int64)
    extra = select_f32(El32, Xa, WT, err, k, top)
    np.testing.assert_array_equal(top, want)
    assert extra > 0  # the window did hold more than k clusters somewhere
    # float32 alone gets the ties and near-ties wrong: the re-check is what makes it exact
    assert (_topk(El32.astype(np.float64), k) != want).any()


def test_select_f32_bound_holds_on_gaussian_rows():
    from latentlab.models.iwtm.kernels import f32_error_bound

    rng = np.random.default_rng(3)
    Xa = rng.normal(0, 30, size=(300, 130))
    W = rng.normal(0, 1e3, size=(130, 500))
    El32 = (Xa.astype(np.float32) @ W.astype(np.float32)).astype(np.float64)
    bound = f32_error_bound(130) * np.sqrt((W * W).sum(0)).max() * np.sqrt((Xa * Xa).sum(1))
    assert (np.abs(El32 - Xa @ W) <= bound[:, None]).all()
    assert np.abs(El32 - Xa @ W).max() > 1e-4 * bound.min()  # not vacuous


def test_candidates_from_top_equals_fused_float64_kernel():
    from latentlab.models.iwtm.kernels import atom_weights, candidates_from_top

    rng = np.random.default_rng(5)
    N, n, C, K, J = 80, 6, 12, 30, 4
    Xa = rng.normal(size=(N, n))
    WT = rng.normal(size=(C, n))
    El = Xa @ WT.T
    mi, mv = _mapping(K, C, J, rng)
    m = IWTMCavi(CaviSettings(T=2, C=C, K=K, c_top=4, map_top=J), NGPrior(np.zeros(2), 1, 1, 1))
    m.map_idx, m.map_val = mi, mv
    aptr, aids = m._atom_index()
    top, ptr, atoms, G = chunk_candidates(El, 4, aptr, aids, mi, mv)
    WkT = np.empty((K, n))
    atom_weights(WT, mi, mv, WkT)
    p2, a2, g2 = candidates_from_top(Xa, top, aptr, aids, WkT)
    np.testing.assert_array_equal(p2, ptr)
    np.testing.assert_array_equal(a2, atoms)
    np.testing.assert_allclose(g2, G, rtol=1e-12, atol=1e-12)
