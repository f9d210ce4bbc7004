"""HDPLDA end to end on tiny synthetic corpora: the eight configurations, determinism,
bad input, the τ_v = 0 rule, memory of PCVB0 vs CVB, the Gibbs cross-check."""

import numpy as np
import pytest

from latentlab.data.corpus import BowCorpus
from latentlab.data.splits import split_within_documents
from latentlab.data.synthetic import hdp_tsb_corpus as hdp_corpus
from latentlab.errors import ConfigError, DataError
from latentlab.models.hdp import CONFIGS, HDPLDA
from latentlab.models.hdp.gibbs import GibbsHDP
from latentlab.models.hdp.updates import FixedPointError


@pytest.fixture(scope="module")
def split():
    corpus, _ = hdp_corpus(N=120, V=300, T_true=20, mean_len=60, seed=4)
    return split_within_documents(corpus, seed=1)


@pytest.mark.parametrize("config", CONFIGS)
def test_every_configuration_runs_and_is_deterministic(split, config):
    method, prior = config.split("_")
    m1 = HDPLDA(15, method, prior, seed=3).fit(split.train, 6)
    m2 = HDPLDA(15, method, prior, seed=3).fit(split.train, 6)
    np.testing.assert_array_equal(m1.q, m2.q)
    assert m1.alpha0 == m2.alpha0 and m1.beta0 == m2.beta0
    ppl = m1.perplexity(split.test)
    assert np.isfinite(ppl) and 1 < ppl < split.train.V
    assert m1.perplexity(split.test) == m2.perplexity(split.test)
    # counts stay consistent with q
    np.testing.assert_allclose(m1.ndk.sum(1), split.train.doc_lengths(), rtol=1e-9)
    np.testing.assert_allclose(m1.nkv.sum(0), m1.nk, rtol=1e-9)
    assert m1.Epi.sum() == pytest.approx(1.0)
    assert np.isclose(m1.theta().sum(1), 1).all() and np.isclose(m1.phi().sum(1), 1).all()
    assert m1.phi().shape == (15, split.train.V)


def test_pcvb0_learns_and_improves(split):
    trace = []
    m = HDPLDA(20, "pcvb0", "AS", seed=0)
    m.fit(split.train, 40, callback=lambda mod, info: trace.append(mod.perplexity(split.test)))
    assert trace[-1] < trace[0]
    assert m.alpha0 != 0.1 and m.gamma0 != 1.0
    assert not m.diagnostics["fp_failures"]
    assert np.all(m.alpha0 * m.Epi < 1)  # the α_k < 1 premise of Eq 20


def test_pcvb0_holds_no_variance_counts(split):
    """Claim C1: PCVB0's state has no V-counts, so it is smaller than CVB's."""
    a = HDPLDA(15, "pcvb0", "AS").fit(split.train, 1)
    b = HDPLDA(15, "cvb", "AS").fit(split.train, 1)
    assert a.vdk.size == 1 and a.state_bytes() < b.state_bytes()


def test_truncation_below_two_is_refused():
    with pytest.raises(ConfigError, match=r"HDPLDA\.T: truncation level T must be an integer"):
        HDPLDA(1)
    with pytest.raises(ConfigError, match=r"GibbsHDP\.T"):
        GibbsHDP(1)
    with pytest.raises(ConfigError, match=r"HDPLDA\.method"):
        HDPLDA(5, method="vb")


def test_fit_takes_a_bow_corpus_and_the_callback_stops_it():
    """One model interface: BowCorpus in, callback(model, info) -> stop."""
    from latentlab.data.tokens import TokenCorpus

    corpus, _ = hdp_corpus(N=30, V=50, T_true=5, mean_len=20, seed=2)
    a = HDPLDA(4, "pcvb0", "AS", seed=1).fit(corpus, 3)
    b = HDPLDA(4, "pcvb0", "AS", seed=1).fit(TokenCorpus.from_bow(corpus), 3)
    np.testing.assert_array_equal(a.q, b.q)
    assert a.theta().shape == (30, 4) and a.phi().shape == (4, 50)
    seen = []
    m = HDPLDA(4, "cvb0", "AS").fit(
        corpus, 10, callback=lambda m, i: seen.append(i) or len(seen) == 2
    )
    assert m.iteration == 2 and [i["iteration"] for i in seen] == [1, 2]
    g = GibbsHDP(4, seed=0).fit(corpus, 10, callback=lambda g, i: i["iteration"] == 3)
    assert g.phi().shape == (4, 50)
    np.testing.assert_allclose(g.phi().sum(1), 1)


def test_short_document_in_split():
    c = BowCorpus.from_dense(np.array([[2, 1, 0], [0, 1, 0], [1, 1, 1]]))
    with pytest.raises(DataError, match="fewer than 2 tokens"):
        split_within_documents(c, short_docs="error", source="toy.npz")
    sp = split_within_documents(c, short_docs="drop")
    assert sp.info["n_docs_dropped_short"] == 1 and list(sp.doc_ids) == [0, 2]
    assert np.all(sp.train.doc_lengths() >= 1)


def test_unseen_test_word_rules():
    """Word 3 occurs once, in a 2-token document: it lands in training or test."""
    dense = np.array([[5, 3, 2, 0], [0, 4, 4, 0], [3, 0, 0, 1]] + [[2, 2, 2, 0]] * 5)
    c = BowCorpus.from_dense(dense)
    seeds = [s for s in range(40) if split_within_documents(c, seed=s, oov_rule="keep")
             .info["n_test_oov_tokens"] > 0]  # fmt: skip
    s = seeds[0]
    with pytest.raises(DataError, match="never seen in training"):
        split_within_documents(c, seed=s, oov_rule="error")
    dropped = split_within_documents(c, seed=s, oov_rule="drop")
    assert dropped.info["n_test_oov_tokens"] == 1
    kept = split_within_documents(c, seed=s, oov_rule="keep")
    assert kept.test.n_tokens == dropped.test.n_tokens + 1
    m = HDPLDA(3, "pcvb0", "AA").fit(kept.train, 3)
    assert m.tau[3] == 0.0  # Eq 31
    with pytest.raises(DataError, match="zero predictive probability"):
        m.perplexity(kept.test)
    assert np.isfinite(m.perplexity(dropped.test))
    mf = HDPLDA(3, "pcvb0", "AA", options={"tau_floor": 1e-6}).fit(kept.train, 3)
    assert mf.tau[3] > 0 and np.isfinite(mf.perplexity(kept.test))
    # AS keeps τ = 1/V: finite without any rule
    assert np.isfinite(HDPLDA(3, "pcvb0", "AS").fit(kept.train, 3).perplexity(kept.test))


def test_fixed_point_failure_is_reported(split):
    m = HDPLDA(10, "pcvb0", "AS", options={"fp_max_iter": 2, "fp_tol": 1e-15}).fit(split.train, 2)
    assert m.diagnostics["fp_failures"] and "inner iterations" in m.diagnostics["fp_failures"][0]
    with pytest.raises(FixedPointError, match="after 2 inner iterations"):
        HDPLDA(10, "pcvb0", "AS", options={"fp_max_iter": 2, "fp_tol": 1e-15, "fp_strict": True}
               ).fit(split.train, 2)  # fmt: skip


def test_unknown_option_is_refused():
    with pytest.raises(ConfigError, match="unknown option"):
        HDPLDA(5, options={"alpah0_init": 1.0})


@pytest.mark.parametrize("method", ["pcvb0", "cvb"])
def test_sort_topics_keeps_counts(split, method):
    m = HDPLDA(12, method, "AS", options={"sort_topics": True}).fit(split.train, 4)
    np.testing.assert_allclose(m.ndk.sum(0), m.nk, rtol=1e-9)
    assert np.isfinite(m.perplexity(split.test))


@pytest.mark.parametrize("method", ["pcvb0", "pcvb"])
def test_fold_in(split, method):
    m = HDPLDA(10, method, "AS").fit(split.train, 5)
    nk0 = m.nk.copy()
    th = m.fold_in(split.train, n_iter=3)
    assert th.shape == (split.train.n_docs, 10)
    np.testing.assert_allclose(th.sum(1), 1)
    np.testing.assert_array_equal(m.nk, nk0)  # global statistics frozen


def test_gibbs_cross_check(split):
    g = GibbsHDP(20, seed=2).fit(split.train, 60)
    assert g.table_bound_holds()  # claim C14
    m = HDPLDA(20, "pcvb0", "AS", seed=2).fit(split.train, 60)
    pg, pv = g.perplexity(split.test), m.perplexity(split.test)
    assert abs(pg - pv) / pg < 0.3


def test_beta_init_readings(split):
    V, T = split.train.V, 10
    lit = HDPLDA(T, options={"beta_init": "literal"})
    lit._init(split.train)
    assert lit.beta0 == pytest.approx(0.1 * V / T) and lit.beta_v[0] == pytest.approx(0.1 / T)
    pv = HDPLDA(T, options={"beta_init": "per_V"})
    pv._init(split.train)
    assert pv.beta0 == pytest.approx(0.1) and pv.beta_v[0] == pytest.approx(0.1 / V)
    un = HDPLDA(T, options={"beta_init": "unnormalised"})
    un._init(split.train)
    assert un.beta0 == pytest.approx(0.1) and un.beta_v[0] == pytest.approx(0.1 / T)


def test_fold_in_drops_words_without_training_mass():
    """AA: a held-out document with a word never seen in training (τ_v = 0)."""
    from latentlab.data.tokens import TokenCorpus

    train = TokenCorpus(np.array([0, 4, 8]), np.array([0, 1, 0, 2, 1, 2, 1, 0]), 4)
    m = HDPLDA(3, "pcvb0", "AA").fit(train, 3)
    assert m.tau[3] == 0
    test = TokenCorpus(np.array([0, 3, 3, 4, 4]), np.array([0, 3, 1, 3]), 4)
    th = m.fold_in(test, n_iter=2)
    assert np.all(np.isfinite(th)) and m.diagnostics["fold_in_dropped_tokens"] == 2
    np.testing.assert_allclose(th.sum(1), 1)


def test_hyper_burnin_holds_hyperparameters(split):
    m = HDPLDA(8, "pcvb0", "AS", options={"hyper_burnin": 3})
    m._init(split.train)
    for _ in range(3):
        m.step()
        assert m.alpha0 == 0.1 and m.gamma0 == 1.0
    m.step()
    assert m.alpha0 != 0.1
