import numpy as np
import pytest

from latentlab.data.splits import completion_split as split_halves
from latentlab.errors import DataError
from latentlab.evaluation.heldout import doc_loglik, document_completion, perplexity
from latentlab.models.lda.theta import estimate_theta

from .lda_helpers import synth_corpus


def test_split_conserves_tokens_and_is_seeded():
    c = synth_corpus(D=20, empty=2)
    s = split_halves(c, seed=3)
    assert s.n_dropped == 2
    kept = c.doc_lengths()[c.doc_lengths() >= 2]
    np.testing.assert_array_equal(s.observed.doc_lengths() + s.scored.doc_lengths(), kept)
    assert np.all(np.abs(s.observed.doc_lengths() - kept // 2) == 0)
    s2 = split_halves(c, seed=3)
    np.testing.assert_array_equal(s.scored.word_ids, s2.scored.word_ids)


def test_theta_is_a_fixed_point_and_loglik_matches_brute_force():
    rng = np.random.default_rng(0)
    c = synth_corpus(D=5, W=12, K=3)
    phi_wk = rng.dirichlet(np.ones(12), size=3).T.copy()
    alpha = np.array([0.1, 0.3, 0.5])
    th = estimate_theta(c, phi_wk, alpha, n_iter=2000, tol=1e-14)
    np.testing.assert_allclose(th.sum(1), 1)
    for d in range(c.n_docs):
        ids, cts = c.doc(d)
        n = th[d] * (cts.sum() + alpha.sum()) - alpha
        g = (n + alpha) * phi_wk[ids]
        g /= g.sum(1, keepdims=True)
        np.testing.assert_allclose((cts[:, None] * g).sum(0), n, atol=1e-7)
    ll = doc_loglik(c, phi_wk, th)
    X = c.to_dense()
    brute = (X * np.log(th @ phi_wk.T)).sum(1)
    np.testing.assert_allclose(ll, brute)


def test_true_topics_score_better_than_random():
    rng = np.random.default_rng(0)
    K, W = 3, 30
    phi = np.zeros((W, K)) + 1e-3
    for k in range(K):
        phi[k * 10 : (k + 1) * 10, k] = 1
    phi /= phi.sum(0)
    X = np.zeros((50, W), dtype=int)
    for d in range(50):
        X[d] = rng.multinomial(40, phi @ rng.dirichlet(np.full(K, 0.2)))
    from latentlab.data.corpus import BowCorpus

    s = split_halves(BowCorpus.from_dense(X), seed=0)
    good = document_completion(s, phi, 0.1)
    bad = document_completion(s, rng.dirichlet(np.ones(W), size=K).T.copy(), 0.1)
    assert good > bad
    assert perplexity(good) < perplexity(bad)
    assert np.isclose(perplexity(np.log(0.5)), 2.0)


def test_vocab_mismatch_is_an_error():
    c = synth_corpus(W=10)
    with pytest.raises(DataError, match="vocabulary"):
        estimate_theta(c, np.full((9, 2), 1 / 9), 0.1)


def test_log_predictive_is_document_completion_with_the_models_prior():
    """Dirichlet-prior models: document_completion with phi().T and alpha (HDP: its prior
    weights), the same theta estimator for every model."""
    from latentlab.models.hdp import HDPLDA
    from latentlab.models.lda import CGS

    train, test = synth_corpus(D=20, seed=1), synth_corpus(D=6, seed=2)
    split = split_halves(test, seed=0)
    cgs = CGS(3, seed=0).fit(train, 5)
    assert cgs.log_predictive(split) == document_completion(split, cgs.phi_wk(), cgs.alpha)
    hdp = HDPLDA(4, seed=0).fit(train, 3)
    want = document_completion(split, hdp.phi_vk(), hdp.prior_weights()[0])
    assert hdp.log_predictive(split) == want
