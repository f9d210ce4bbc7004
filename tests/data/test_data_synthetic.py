"""Synthetic generators: shapes, normalisation, determinism, known truth."""

from __future__ import annotations

import numpy as np
import pytest

from latentlab.data.synthetic import Truth, hdp_corpus, lda_corpus, stick_breaking, synth
from latentlab.errors import ConfigError

LDA = dict(n_docs=50, n_vocab=40, n_topics=4, doc_length=30, alpha=0.5, beta=0.1)
HDP = dict(n_docs=50, n_vocab=40, truncation=20, gamma=2.0, alpha0=3.0, beta=0.1, doc_length=30)


def test_lda_shapes_and_determinism():
    c, t = lda_corpus(LDA, seed=1)
    assert c.validate() and c.n_docs == 50 and c.n_vocab == 40
    assert t.phi.shape == (4, 40) and t.theta.shape == (50, 4)
    np.testing.assert_allclose(t.phi.sum(1), 1) and np.testing.assert_allclose(t.theta.sum(1), 1)
    assert (c.doc_lengths() >= 1).all()
    c2, _ = lda_corpus(LDA, seed=1)
    assert c2.content_sha256() == c.content_sha256()
    assert lda_corpus(LDA, seed=2)[0].content_sha256() != c.content_sha256()


def test_lda_word_frequencies_follow_truth():
    p = dict(LDA, n_docs=400, doc_length=200)
    c, t = lda_corpus(p, seed=3)
    expected = (t.theta * c.doc_lengths()[:, None]).sum(0) @ t.phi
    observed = c.to_dense().sum(0)
    assert np.corrcoef(expected, observed)[0, 1] > 0.98


def test_asymmetric_alpha():
    _, t = lda_corpus(dict(LDA, asymmetric_alpha=True), seed=1)
    assert np.all(np.diff(t.alpha) < 0) and np.isclose(t.alpha.sum(), 0.5 * 4)


def test_stick_breaking_and_hdp():
    pi = stick_breaking(np.random.default_rng(0), 2.0, 25)
    assert pi.shape == (25,) and np.isclose(pi.sum(), 1) and (pi >= 0).all()
    c, t = hdp_corpus(HDP, seed=4)
    assert t.pi is not None and np.isclose(t.pi.sum(), 1)
    np.testing.assert_allclose(t.alpha, 3.0 * t.pi)
    assert c.n_docs == 50 and t.phi.shape == (20, 40)


def test_synth_writes_truth(tmp_path):
    s = synth("synth_hdp", HDP, 9, tmp_path)
    assert s["n_docs"] == 50 and (tmp_path / "dataset.npz").exists()
    t = Truth.load(tmp_path / "truth.npz")
    assert t.pi.shape == (20,) and t.params["seed"] == 9
    with pytest.raises(ConfigError, match="n_topics"):
        lda_corpus({k: v for k, v in LDA.items() if k != "n_topics"}, 0)
    with pytest.raises(ConfigError, match="alpha"):
        lda_corpus(dict(LDA, alpha=0), 0)
