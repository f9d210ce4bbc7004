"""Linear stability of the symmetric state of the Eq 35 sweep (models/hdp/stability.py)."""

import numpy as np
import pytest
from scipy.special import digamma

from latentlab.data import synthetic
from latentlab.data.tokens import TokenCorpus, as_tokens
from latentlab.errors import ConfigError
from latentlab.models.hdp import HDPLDA
from latentlab.models.hdp import stability as S


def tiny(seed=0, N=4, V=5, lo=2, hi=5):
    rng = np.random.default_rng(seed)
    lens = rng.integers(lo, hi, N)
    ptr = np.concatenate([[0], np.cumsum(lens)])
    return TokenCorpus(ptr, rng.integers(0, V, ptr[-1]), V)


@pytest.fixture(scope="module")
def small():
    """60 documents, 80 words (1,262 tokens): AA's eigenvalue crosses 1 between T = 20
    and T = 50."""
    c, _ = synthetic.hdp_tsb_corpus(N=60, V=80, T_true=10, mean_len=20, seed=3)
    return c


@pytest.mark.parametrize("hyper", S.HYPER)
@pytest.mark.parametrize("prior", ["AS", "AA"])
def test_symmetric_state_is_a_fixed_point_of_the_sweep(hyper, prior):
    data = tiny()
    st = S.symmetric_state(data, 3, prior, hyper)
    q0 = np.full((data.n_tokens, 3), 1 / 3)
    assert np.abs(S.sweep_map(data, q0, st) - q0).max() < 1e-14
    # and not of a state with unequal topic weights
    st.alpha_pi = st.alpha_pi * np.array([1.0, 2.0, 3.0])
    assert np.abs(S.sweep_map(data, q0, st) - q0).max() > 1e-3


@pytest.mark.parametrize("hyper", S.HYPER)
@pytest.mark.parametrize("prior", ["AS", "AA"])
def test_jacobian_is_the_finite_difference_jacobian_of_the_kernel_sweep(hyper, prior):
    data = tiny(seed=1, N=5, V=4)
    T, h, n = 3, 1e-6, data.n_tokens
    st = S.symmetric_state(data, T, prior, hyper)
    q0 = np.full((n, T), 1 / T)
    M = S.jacobian_dense(data, st)
    J = np.zeros((n, n))
    for j in range(n):
        E = np.zeros((n, T))
        E[j, 0], E[j, 1] = 1.0, -1.0  # a perturbation that keeps q_j on the simplex
        D = (S.sweep_map(data, q0 + h * E, st) - S.sweep_map(data, q0 - h * E, st)) / (2 * h)
        J[:, j] = D[:, 0]
        # the same linear map acts on every topic: topic 1 moves opposite, topic 2 not at all
        assert np.allclose(D[:, 1], -D[:, 0], atol=1e-7)
        assert np.allclose(D[:, 2], 0.0, atol=1e-7)
    assert np.abs(J - M).max() < 1e-8
    assert np.abs(M).max() > 0.1


def test_parallel_map_and_the_gauss_seidel_relation():
    """Jacobi map written out entry by entry; Gauss-Seidel = (I - L)^-1 U of the same
    splitting (tokens in stream order)."""
    data = tiny(seed=2, N=4, V=3)
    st = S.symmetric_state(data, 4, "AA", "solved")
    ia, ib, ic = S._coefficients(data, st)
    n = data.n_tokens
    d_of = np.repeat(np.arange(data.n_docs), data.doc_lengths())
    w = data.words
    MJ = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j:
                MJ[i, j] = ia[d_of[i]] * (d_of[i] == d_of[j]) + ib[w[i]] * (w[i] == w[j]) - ic
    assert np.allclose(S.jacobian_dense(data, st, "parallel"), MJ)
    L, U = np.tril(MJ, -1), np.triu(MJ, 1)
    assert np.allclose(S.jacobian_dense(data, st), np.linalg.solve(np.eye(n) - L, U))


def test_solved_hyperparameters_satisfy_eqs_29_to_32():
    data = tiny(seed=3, N=6, V=7, lo=3, hi=9)
    T = 4
    st = S.symmetric_state(data, T, "AA", "solved")
    nd = data.doc_lengths().astype(float)
    nv = np.bincount(data.words, minlength=data.V).astype(float)
    Id = 1 - (1 - 1 / T) ** nd
    Iv = np.where(nv > 0, 1 - (1 - 1 / T) ** nv, 0.0)
    a0 = st.alpha0
    assert a0 * np.sum(digamma(nd + a0) - digamma(a0)) == pytest.approx(T * Id.sum(), rel=1e-7)
    b0, nk = st.beta0, data.n_tokens / T
    assert b0 * T * (digamma(nk + b0) - digamma(b0)) == pytest.approx(T * Iv.sum(), rel=1e-7)
    assert np.allclose(st.tau, Iv / Iv.sum()) and np.allclose(st.beta_v, b0 * st.tau)
    assert np.allclose(st.alpha_pi, a0 / T)
    st_as = S.symmetric_state(data, T, "AS", "solved")
    assert np.allclose(st_as.tau, 1 / data.V) and st_as.beta0 == pytest.approx(b0)
    # the held E[pi] = 1/T is close to what Eqs 24-28 give at the state
    assert 0 < st.pi_deviation < 0.5


def test_init_state_reads_the_options():
    data = tiny()
    st = S.symmetric_state(data, 10, "AA", "init")
    assert st.alpha0 == pytest.approx(0.1) and np.allclose(st.alpha_pi, 0.01)
    assert st.beta0 == pytest.approx(0.1 * data.V / 10) and np.allclose(st.beta_v, 0.01)
    pv = S.symmetric_state(data, 10, "AA", "init", {"beta_init": "per_V"})
    assert pv.beta0 == pytest.approx(0.1) and np.allclose(pv.beta_v, 0.1 / data.V)


def test_init_eigenvalue_does_not_depend_on_T(small):
    """At α0π_k = β_v = 0.1/T (literal) T·A_d = n_d − 0.9 and T·B_w = n_w − 0.9: the
    linearised sweep, and so its eigenvalue, is the same at every T."""
    ev = [abs(S.top_eigenvalues(small, S.symmetric_state(small, T, "AA", "init"), k=1)[0])
          for T in (5, 60)]  # fmt: skip
    assert ev[0] == pytest.approx(ev[1], rel=1e-6) and ev[0] > 1


def test_size_mode_is_projected_out():
    data = tiny(seed=4, N=6, V=5, lo=3, hi=7)
    st = S.symmetric_state(data, 3, "AS", "solved")
    n = data.n_tokens
    P = np.eye(n) - np.ones((n, n)) / n
    PMP = P @ S.jacobian_dense(data, st) @ P
    assert np.allclose(PMP @ np.ones(n), 0.0)
    ev = np.linalg.eigvals(PMP)
    top = S.top_eigenvalues(data, st, k=2)
    assert abs(top[0]) == pytest.approx(np.abs(ev).max(), rel=1e-10)
    full = S.top_eigenvalues(data, st, k=1, project_size=False)
    dense = np.linalg.eigvals(S.jacobian_dense(data, st))
    assert abs(full[0]) == pytest.approx(np.abs(dense).max())


def test_arpack_agrees_with_a_dense_solve(small):
    """Above 400 tokens the eigenvalues come from ARPACK: the same as the dense solve."""
    st = S.symmetric_state(small, 30, "AA", "solved")
    data = as_tokens(small)
    n = data.n_tokens
    assert n > 400
    P = np.eye(n) - np.ones((n, n)) / n
    dense = np.abs(np.linalg.eigvals(P @ S.jacobian_dense(data, st) @ P)).max()
    assert abs(S.top_eigenvalues(data, st, k=3)[0]) == pytest.approx(dense, rel=1e-6)


def test_eigenvalue_crosses_one_where_the_aa_runs_stall(small):
    """AA: unstable at T = 10 (eigenvalue > 1), stable at T = 100 (< 1) and falling in T;
    PCVB0 AA from the document's initialisation breaks the symmetry at T = 10 and stays at
    the symmetric state at T = 100 (every q within 0.2 of 1/T after 60 iterations)."""
    ev = {T: abs(S.top_eigenvalues(small, S.symmetric_state(small, T, "AA", "solved"), k=1)[0])
          for T in (10, 20, 50, 100)}  # fmt: skip
    assert ev[10] > ev[20] > ev[50] > ev[100]
    assert ev[10] > 1.5 and ev[20] > 1 > ev[50] and ev[100] < 0.5
    moved = {}
    for T in (10, 100):
        m = HDPLDA(T, "pcvb0", "AA", seed=0).fit(small, 60)
        moved[T] = float(np.abs(m.q - 1 / T).max())
    assert moved[10] > 0.8 and moved[100] < 0.2


def test_stability_row_and_errors(small):
    r = S.stability(small, 50, "AS", "solved", k=2)
    assert r["T"] == 50 and r["prior"] == "AS" and r["hyper"] == "solved"
    assert r["eigenvalue"] >= r["eigenvalue_2"] and r["unstable"] == (r["eigenvalue"] > 1)
    rp = S.stability(small, 50, "AS", "solved", k=2, order="parallel")
    # a Jacobi sweep amplifies less than the in-place sweep of Algorithm 1 here
    assert 1 < rp["eigenvalue"] < r["eigenvalue"]
    with pytest.raises(ConfigError, match="stability.T"):
        S.symmetric_state(small, 1, "AA")
    with pytest.raises(ConfigError, match="stability.prior"):
        S.symmetric_state(small, 5, "XX")
    with pytest.raises(ConfigError, match="stability.hyper"):
        S.symmetric_state(small, 5, "AA", "other")
    with pytest.raises(ConfigError, match="stability.order"):
        S.linear_sweep(small, S.symmetric_state(small, 5, "AA"), "diagonal")
