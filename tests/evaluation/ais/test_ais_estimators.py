"""Chapter-5 estimators against the exact DP ground truth (C5.1, C5.11-C5.13), numba vs
numpy agreement, determinism, work accounting and bad input."""

from __future__ import annotations

import numpy as np
import pytest

from latentlab.errors import ConfigError, DataError
from latentlab.evaluation import ais
from latentlab.evaluation.ais import kernels
from latentlab.evaluation.ais import reference as ref
from latentlab.kernels import ais as ais_core
from latentlab.kernels.rng import PyRng, doc_seeds, uniform


def _model(seed, V=10, K=3, conc=0.6, name="m"):
    rng = np.random.default_rng(seed)
    phi = rng.dirichlet(np.full(V, conc), size=K).T
    alpha = rng.gamma(2.0, 0.3, K) + 0.05
    return ais.TopicModel(phi, alpha, name)


def _docs(seed, n_docs=3, N=9, V=10):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, V, N) for _ in range(n_docs)]


@pytest.fixture(scope="module")
def setup():
    m1, m2, m3 = _model(1, name="a"), _model(2, name="b"), _model(3, name="c")
    docs = _docs(7)
    ex = {
        m.name: np.array([ais.exact_log_evidence(d, m.phi, m.alpha) for d in docs])
        for m in (m1, m2, m3)
    }
    return m1, m2, m3, docs, ex


# ----------------------------------------------------------------------------- ground truth


def test_dp_equals_brute_force():
    m = _model(5)
    for w in _docs(11, n_docs=3, N=6):
        assert ais.exact_log_evidence(w, m.phi, m.alpha) == pytest.approx(
            ais.brute_force_log_evidence(w, m.phi, m.alpha), abs=1e-10
        )


def test_dp_single_token_closed_form():
    m = _model(6)
    w = np.array([4])
    want = np.log(np.sum(m.alpha / m.alpha.sum() * m.phi[4]))
    assert ais.exact_log_evidence(w, m.phi, m.alpha) == pytest.approx(want, abs=1e-12)


def test_rng_twins_agree():
    st = np.array([123], np.uint64)
    py = PyRng(123)
    assert [uniform(st) for _ in range(5)] == [py() for _ in range(5)]


# ----------------------------------------------------------------------------- C5.1 convergence


def test_standard_ais_converges(setup):
    m1, _, _, docs, ex = setup
    e = ais.standard_ais(m1, docs, 3000, S=20, seed=1)
    assert np.abs(e.log_lik - ex["a"]).max() < 0.06


def test_prior_is_converges(setup):
    m1, _, _, docs, ex = setup
    e = ais.prior_is(m1, docs, S=1_000_000, seed=2)
    assert np.abs(e.log_lik - ex["a"]).max() < 0.06
    assert (e.updates == 0).all()


@pytest.mark.parametrize("path", ["convex", "geometric"])
def test_ratio_ais_converges_both_directions(setup, path):
    m1, m2, _, docs, ex = setup
    truth = ex["a"] - ex["b"]
    fwd = ais.ratio_ais(m1, m2, docs, 5000, path=path, S=50, burn=50, seed=3)
    rev = ais.ratio_ais(m2, m1, docs, 5000, path=path, S=50, burn=50, seed=4)
    assert np.abs(fwd.log_lik - truth).max() < 0.06
    assert np.abs(-rev.log_lik - truth).max() < 0.06


def test_iteration_ais_tracks_every_snapshot(setup):
    m1, m2, m3, docs, ex = setup
    phis = np.stack([m3.phi, m2.phi, m1.phi])
    alphas = np.stack([m3.alpha, m2.alpha, m1.alpha])
    e = ais.iteration_ais(phis, alphas, docs, 2000, extra=1000, S=20, seed=5)
    truth = np.stack([ex["c"], ex["b"], ex["a"]], axis=1)
    assert e.log_lik.shape == (len(docs), 3)
    assert np.abs(e.log_lik - truth).max() < 0.08


def test_left_to_right_exact_for_two_tokens():
    # For N <= 2 the particles are exact posterior draws, so LR is consistent in R.
    m = _model(8)
    w = np.array([1, 7])
    e = ais.left_to_right(m, [w], R=20_000, seed=6)
    assert e.log_lik[0] == pytest.approx(ais.exact_log_evidence(w, m.phi, m.alpha), abs=0.01)


def test_left_to_right_close_to_exact(setup):
    # Wallach's LR sweeps once per position and is not exactly consistent for N > 2
    # (Buntine 2009); it must still be close on tiny documents.
    m1, _, _, docs, ex = setup
    e = ais.left_to_right(m1, docs, R=2000, seed=7)
    assert np.abs(e.log_lik - ex["a"]).max() < 0.3


def test_harmonic_mean_runs(setup):
    m1, _, _, docs, ex = setup
    e = ais.harmonic_mean(m1, docs, S=2000, burn=20, seed=8)
    assert np.isfinite(e.log_lik).all()


# ----------------------------------------------------------------------------- C5.11-C5.13


def test_ratio_additivity_three_models(setup):
    """C5.12: (a - b) + (b - c) = (a - c) once converged."""
    m1, m2, m3, docs, _ = setup
    ab = ais.ratio_ais(m1, m2, docs, 10_000, S=30, burn=50, seed=9).log_lik
    bc = ais.ratio_ais(m2, m3, docs, 10_000, S=30, burn=50, seed=10).log_lik
    ac = ais.ratio_ais(m1, m3, docs, 10_000, S=30, burn=50, seed=11).log_lik
    assert np.abs(ab + bc - ac).max() < 0.08


def test_one_sample_equals_hundred_at_many_temperatures(setup):
    """C5.11: S = 1 and S = 100 agree at many temperatures."""
    # As in the document's use: two similar models (learned vs perturbed topics).
    m1, _, m3, docs, _ = setup
    m2 = ais.TopicModel(0.9 * m1.phi + 0.1 * m3.phi, m1.alpha, "perturbed")
    truth = np.array(
        [
            ais.exact_log_evidence(d, m1.phi, m1.alpha)
            - ais.exact_log_evidence(d, m2.phi, m2.alpha)
            for d in docs
        ]
    )
    one = ais.ratio_ais(m1, m2, docs, 10_000, S=1, burn=50, seed=12).log_lik
    many = ais.ratio_ais(m1, m2, docs, 10_000, S=100, burn=50, seed=13).log_lik
    assert np.abs(one - many).max() < 0.02
    assert np.abs(many - truth).max() < 0.01


def _exact_completion(words, obs, m):
    """log P(w_b | w_a) by enumerating z_a and continuing the DP from its counts."""
    import itertools

    wa, wb = words[obs], words[~obs]
    K = m.K
    logs, vals = [], []
    for za in itertools.product(range(K), repeat=len(wa)):
        za = np.array(za)
        logs.append(ais.log_joint(wa, za, m.phi, m.alpha))
        # P(w_b | z_a): Polya urn continued from the counts of z_a
        nk0 = np.bincount(za, minlength=K).astype(float)
        tot = []
        for zb in itertools.product(range(K), repeat=len(wb)):
            nk = nk0.copy()
            lp = 0.0
            for w, k in zip(wb, zb, strict=True):
                lp += np.log((nk[k] + m.alpha[k]) / (nk.sum() + m.alpha.sum()) * m.phi[w, k])
                nk[k] += 1
            tot.append(lp)
        vals.append(np.logaddexp.reduce(tot))
    logs = np.array(logs)
    post = logs - np.logaddexp.reduce(logs)
    return float(np.logaddexp.reduce(post + np.array(vals)))


def test_completion_identity(setup):
    """C5.13 / Eq. 5.37: the completion ratio equals full-document ratio times the
    reciprocal observed-part ratio, and ratio-AIS estimates it."""
    m1, m2, _, _, _ = setup
    words = np.array([0, 3, 5, 3, 9, 1, 2])
    obs = np.array([1, 1, 1, 1, 0, 0, 0], bool)
    direct = _exact_completion(words, obs, m1) - _exact_completion(words, obs, m2)

    def E(w, m):
        return ais.exact_log_evidence(w, m.phi, m.alpha)

    identity = (E(words, m1) - E(words[obs], m1)) - (E(words, m2) - E(words[obs], m2))
    assert identity == pytest.approx(direct, abs=1e-10)
    est, upd = ais.ratio_ais_completion(m1, m2, words, obs, 5000, S=50, burn=50, seed=14)
    assert est == pytest.approx(direct, abs=0.08)
    assert upd == 50 * (50 + 4999) * (len(words) + obs.sum())


# ----------------------------------------------------------------------------- numba vs numpy


@pytest.mark.parametrize("K", [3, 6, 9])
def test_kernels_match_reference_draw_for_draw(K):
    # K = 3: tail of the categorical scan only; K = 6, 9: blocks of 4 plus tail
    m1, m2 = _model(21, K=K), _model(22, K=K)
    w = _docs(23, n_docs=1, N=7)[0]
    s = int(doc_seeds(99, 1)[0])

    def st():
        return np.array([s], np.uint64)

    lw, u = ref.std_ais(w, m1.phi, m1.alpha, 15, 3, s)
    out = np.zeros(3)
    assert ais_core.std_ais_doc(np.log(m1.phi[w]), m1.alpha, 15, 3, st(), out) == u
    np.testing.assert_allclose(out, lw, rtol=1e-10, atol=1e-10)
    for geo in (False, True):
        lw, u = ref.ratio_ais(
            w, m1.phi, m1.alpha, m2.phi, m2.alpha, 15, 3, 4, s, "geometric" if geo else "convex"
        )
        out = np.zeros(3)
        args = (m1.phi[w], m2.phi[w], m1.alpha, m2.alpha, 15, 4, 3, geo, st(), out)
        assert kernels.ratio_doc(*args) == u
        np.testing.assert_allclose(out, lw, rtol=1e-10, atol=1e-10)
    lp, u = ref.left_to_right(w, m1.phi, m1.alpha, 3, s)
    lp2, u2 = kernels.lr_doc(m1.phi[w], m1.alpha, 3, st())
    assert u == u2 == 3 * 7 * 8 // 2
    assert lp2 == pytest.approx(lp, abs=1e-10)
    phis = np.stack([m2.phi[w], m1.phi[w]])
    alphas = np.stack([m2.alpha, m1.alpha])
    lw, u = ref.iteration_ais(w, [m2.phi, m1.phi], alphas, 10, 5, 2, s)
    out = np.zeros((2, 2))
    assert kernels.iter_ais_doc(phis, alphas, 10, 5, 2, st(), out) == u
    np.testing.assert_allclose(out, lw, rtol=1e-10, atol=1e-10)


def test_deterministic_and_thread_independent(setup):
    import numba

    m1, m2, _, docs, _ = setup
    a = ais.ratio_ais(m1, m2, docs, 50, seed=3, threads=1).log_weights
    b = ais.ratio_ais(m1, m2, docs, 50, seed=3, threads=numba.config.NUMBA_NUM_THREADS).log_weights
    c = ais.ratio_ais(m1, m2, docs, 50, seed=3, stream=1).log_weights
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_work_accounting(setup):
    m1, m2, _, docs, _ = setup
    N = len(docs[0])
    assert (ais.standard_ais(m1, docs, 40, S=2).updates == 2 * 39 * N).all()
    assert (ais.ratio_ais(m1, m2, docs, 40, S=2, burn=7).updates == 2 * (7 + 39) * N).all()
    assert ais.lr_particles(100, 9) == 20
    assert ais.lr_particles(100, 1000) == 1
    e = ais.left_to_right(m1, docs, n_temps=100)
    assert (e.updates == 20 * N * (N + 1) // 2).all()


# ----------------------------------------------------------------------------- alignment, bad input


def test_hungarian_alignment_recovers_permutation():
    m = _model(30, K=5, V=20, conc=0.2)
    perm = np.array([3, 0, 4, 1, 2])
    shuffled = m.permuted(perm)
    aligned, p = ais.align_topics(m, shuffled)
    np.testing.assert_array_equal(aligned.phi, m.phi)
    np.testing.assert_array_equal(aligned.alpha, m.alpha)
    np.testing.assert_array_equal(perm[p], np.arange(5))


def test_bad_input_is_refused(setup):
    m1, _, _, docs, _ = setup
    with pytest.raises(DataError, match="different K"):
        ais.ratio_ais(m1, _model(40, K=4), docs, 10)
    with pytest.raises(DataError, match="vocabulary"):
        ais.ratio_ais(m1, _model(41, V=11), docs, 10)
    v1 = ais.TopicModel(m1.phi, m1.alpha, vocab=[f"w{i}" for i in range(10)])
    v2 = ais.TopicModel(m1.phi, m1.alpha, vocab=[f"x{i}" for i in range(10)])
    with pytest.raises(DataError, match="different vocabularies"):
        ais.ratio_ais(v1, v2, docs, 10)
    for bad in (0, -3, 2.5):
        with pytest.raises(ConfigError):
            ais.standard_ais(m1, docs, bad)
    with pytest.raises(DataError, match="no tokens"):
        ais.standard_ais(m1, [docs[0], np.array([], int)], 10)
    with pytest.raises(DataError, match="outside"):
        ais.standard_ais(m1, [np.array([0, 10])], 10)
    with pytest.raises(DataError, match="sums to"):
        ais.TopicModel(m1.phi * 2, m1.alpha)


def test_zero_topic_probability_rule():
    phi = np.zeros((4, 2))
    phi[:2, 0] = 0.5
    phi[2:, 1] = 0.5
    alpha = np.array([0.5, 0.5])
    w = [np.array([0, 2, 3])]
    with pytest.raises(DataError, match="zero topic probability"):
        ais.standard_ais(ais.TopicModel(phi, alpha, floor=0.0), w, 10)
    floored = ais.TopicModel(phi, alpha)  # default floor 1e-12, columns renormalised
    for e in (
        ais.standard_ais(floored, w, 20, S=3),
        ais.ratio_ais(floored, floored, w, 20, path="geometric"),
        ais.left_to_right(floored, w, R=3),
        ais.prior_is(floored, w, S=5),
    ):
        assert np.isfinite(e.log_lik).all()
