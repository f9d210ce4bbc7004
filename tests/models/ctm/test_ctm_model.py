"""CTM behind the one model interface: the EM of vi.em_iterations, phi/theta, callback."""

import numpy as np
import pytest

from latentlab.data.corpus import BowCorpus
from latentlab.data.splits import completion_split
from latentlab.errors import ConfigError
from latentlab.models.ctm import CTM
from latentlab.models.ctm import vi as R
from latentlab.models.ctm.synthetic import synthetic_ctm


def _corpus(docs, V, n_empty=0):
    X = np.zeros((len(docs) + n_empty, V), dtype=np.int64)
    for d, (ids, cnt) in enumerate(docs):
        X[d, ids] = cnt.astype(np.int64)
    return BowCorpus.from_dense(X)


@pytest.fixture(scope="module")
def small():
    docs, _ = synthetic_ctm(25, 40, 3, 30, seed=4)
    return docs, _corpus(docs, 40)


@pytest.mark.parametrize("method", ["laplace", "delta", "bl"])
def test_fit_is_em_iterations(method, small):
    docs, corpus = small
    m = CTM(3, method, seed=7, tol=0, estep_tol=1e-5).fit(corpus, 3)
    steps = list(R.em_iterations(
        R.corpus_to_docs(corpus), R.init_topics(3, 40, 7), method, max_iter=3, tol=0,
        opts={"tol": 1e-5},
    ))  # fmt: skip
    model, fits, _ = steps[-1]
    hist = [rec for _, _, rec in steps]
    np.testing.assert_array_equal(m.logbeta, model.logbeta)
    np.testing.assert_array_equal(m.prior.Sigma, model.prior.Sigma)
    assert [h["bound_per_word"] for h in m.history] == [h["bound_per_word"] for h in hist]
    assert m.iteration == 3
    phi, theta = m.phi(), m.theta()
    assert phi.shape == (3, 40) and theta.shape == (corpus.n_docs, 3)
    np.testing.assert_allclose(phi.sum(axis=1), 1, rtol=1e-12)
    np.testing.assert_allclose(theta.sum(axis=1), 1, rtol=1e-12)
    np.testing.assert_allclose(theta[0], R.mean_topic_proportions(method, fits[0]))
    np.testing.assert_array_equal(m.phi_wk(), phi.T)


def test_callback_gets_model_and_info_and_stops(small):
    _, corpus = small
    seen = []

    def cb(model, info):
        seen.append((model, info["iter"], info["bound_per_word"]))
        return info["iter"] == 2

    m = CTM(3, seed=0, tol=0).fit(corpus, 10, callback=cb)
    assert [s[1] for s in seen] == [1, 2] and all(s[0] is m for s in seen)
    assert m.iteration == 2 and len(m.history) == 2


def test_empty_documents_get_the_prior_proportions(small):
    docs, _ = small
    corpus = _corpus(docs, 40, n_empty=2)
    m = CTM(3, seed=0).fit(corpus, 2)
    th = m.theta()
    assert th.shape == (len(docs) + 2, 3)
    np.testing.assert_allclose(th[-1], R.softmax(m.prior.mu))
    same = CTM(3, seed=0).fit(_corpus(docs, 40), 2)
    np.testing.assert_array_equal(m.logbeta, same.logbeta)  # empty documents change nothing


def test_log_predictive_is_heldout_loglik_per_token(small):
    _, corpus = small
    m = CTM(3, seed=0, estep_max_iter=50).fit(corpus, 2)
    split = completion_split(corpus, seed=1)
    tot, n = R.heldout_loglik(
        m.model_, R.corpus_to_docs(split.observed), R.corpus_to_docs(split.scored),
        opts={"max_iter": 50},
    )  # fmt: skip
    assert m.log_predictive(split) == tot / n
    assert np.isfinite(m.log_predictive(split, predictive="mc", n_mc=50))


@pytest.mark.parametrize(
    "kw, key",
    [
        ({"K": 1}, "K"),
        ({"K": 3, "method": "gibbs"}, "method"),
        ({"K": 3, "estep_tol": 0}, "estep_tol"),
        ({"K": 3, "estep_max_iter": 0}, "estep_max_iter"),
        ({"K": 3, "ridge_rel": -1}, "ridge_rel"),
    ],
)
def test_errors_name_the_models_own_parameters(kw, key):
    with pytest.raises(ConfigError) as e:
        CTM(**kw)
    assert e.value.key == key


def test_bad_n_iter(small):
    with pytest.raises(ConfigError) as e:
        CTM(3).fit(small[1], 0)
    assert e.value.key == "n_iter"
