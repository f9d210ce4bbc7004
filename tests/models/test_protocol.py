"""One interface test over every model class (issue 25, item 2; scikit-learn's
``check_estimator`` is the model): each topic model is a
:class:`latentlab.models.base.TopicModel` and behaves as one on a tiny synthetic corpus;
the regression and the network samplers follow their own small protocols."""

import inspect

import numpy as np
import pytest

from latentlab.data.corpus import BowCorpus
from latentlab.data.splits import completion_split
from latentlab.errors import ConfigError, DataError
from latentlab.models.base import NetworkSampler, Regression, TopicModel, rows_are_probabilities

K = 3


def _corpus(D, seed, W=12):
    """A tiny LDA-generated corpus (3 topics, 12 words), labels d % 2."""
    rng = np.random.default_rng(seed)
    phi = rng.dirichlet(np.full(W, 0.3), size=K)
    X = np.zeros((D, W), dtype=np.int64)
    for d in range(D):
        th = rng.dirichlet(np.full(K, 0.5))
        for k in rng.choice(K, size=12 + d % 5, p=th):
            X[d, rng.choice(W, p=phi[k])] += 1
    return BowCorpus.from_dense(X, labels=np.arange(D) % 2)


def _graph(n_docs):
    from latentlab.models.tir.graph import CitationGraph

    edges = [(d, c) for d in range(3, n_docs) for c in (d % 3, (d + 1) % 3)]
    return CitationGraph.from_edges(n_docs, np.array(edges))


def _lda(name, **kw):
    def make(seed):
        from latentlab.models import lda

        return getattr(lda, name)(K, seed=seed, **kw), {}

    return make


def _hdp(method):
    def make(seed):
        from latentlab.models.hdp import HDPLDA

        return HDPLDA(K + 1, method, seed=seed), {}

    return make


def _ctm(method):
    def make(seed):
        from latentlab.models.ctm import CTM

        return CTM(K, method, seed=seed, pseudo=0.1), {}

    return make


def _tir(kind):
    def make(seed):
        from latentlab.models.tir.model import InfluenceModel

        return InfluenceModel(kind, K, interval=2, seed=seed), {"graph": _graph(20)}

    return make


def _slda(seed):
    from latentlab.models.iwtm.gibbs import GibbsSchedule
    from latentlab.models.iwtm.slda import SupervisedLDA

    return SupervisedLDA(K, 12, seed=seed), {"schedule": GibbsSchedule(burn_in=1, hyper_every=2)}


MODELS = {
    "CGS": _lda("CGS"),
    "CVB0": _lda("CVB0"),
    "CVB": _lda("CVB0", order=2, clumping=False),
    "MapLdaU": _lda("MapLdaU"),
    "BatchVB": _lda("BatchVB", max_local=5),
    "SCVB0": _lda("SCVB0", minibatch=7),
    "SVB": _lda("SVB", minibatch=7, n_local=2),
    "HDP-PCVB0": _hdp("pcvb0"),
    "HDP-CVB": _hdp("cvb"),
    "CTM-laplace": _ctm("laplace"),
    "CTM-delta": _ctm("delta"),
    "CTM-bl": _ctm("bl"),
    "TIR": _tir("tir"),
    "TIRE": _tir("tire"),
    "DMR": _tir("dmr"),
    "sLDA": _slda,
}
N_ITER = 4


@pytest.fixture(scope="module")
def data():
    train, new = _corpus(20, 0), _corpus(6, 1)
    return train, new, completion_split(new, 2)


@pytest.fixture(scope="module")
def fitted(data):
    """Each model fitted twice with the same seed (the second run checks reproducibility)."""
    train = data[0]
    out = {}
    for name, make in MODELS.items():
        runs = []
        for _ in range(2):
            m, kw = make(5)
            runs.append((m.fit(train, N_ITER, **kw), m))
        out[name] = runs
    return out


@pytest.mark.parametrize("name", sorted(MODELS))
def test_is_a_topic_model(name, fitted):
    (ret, m), _ = fitted[name]
    assert isinstance(m, TopicModel)
    assert ret is m  # fit returns the model


@pytest.mark.parametrize("name", sorted(MODELS))
def test_phi_and_theta_are_probability_rows(name, fitted, data):
    train = data[0]
    (_, m), _ = fitted[name]
    phi, theta = m.phi(), m.theta()
    assert phi.shape[1] == train.n_vocab and theta.shape == (train.n_docs, phi.shape[0])
    assert phi.shape[0] == (K + 1 if name.startswith("HDP") else K)
    assert rows_are_probabilities(phi) and rows_are_probabilities(theta)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_transform_and_log_predictive(name, fitted, data):
    _, new, split = data
    (_, m), _ = fitted[name]
    th = m.transform(new)
    assert th.shape == (new.n_docs, m.phi().shape[0])
    assert rows_are_probabilities(th)
    ll = m.log_predictive(split)
    assert np.isfinite(ll) and ll < 0


@pytest.mark.parametrize("name", sorted(MODELS))
def test_same_seed_same_results(name, fitted, data):
    _, new, split = data
    (_, a), (_, b) = fitted[name]
    np.testing.assert_array_equal(a.phi(), b.phi())
    np.testing.assert_array_equal(a.theta(), b.theta())
    np.testing.assert_array_equal(a.transform(new), b.transform(new))
    assert a.log_predictive(split) == b.log_predictive(split)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_bad_input_names_the_problem(name, fitted, data):
    train, new, _ = data
    m, kw = MODELS[name](5)
    with pytest.raises(ConfigError) as e:
        m.fit(train, -1, **kw)
    assert e.value.key == "n_iter"
    (_, fit), _ = fitted[name]
    wider = BowCorpus(new.indptr, new.word_ids, new.counts, [*new.vocab, "extra"])
    with pytest.raises(DataError, match="vocabulary"):
        fit.transform(wider)


def test_regression_protocol():
    from latentlab.models.logreg.model import BayesianLogisticRegression

    rng = np.random.default_rng(0)
    X = np.hstack([rng.standard_normal((40, 2)), np.ones((40, 1))])
    y = (X[:, 0] + 0.3 * rng.standard_normal(40) > 0).astype(float)
    for method in ("laplace", "delta", "jj", "jj_seq"):
        m = BayesianLogisticRegression(method)
        assert isinstance(m, Regression)
        p = m.fit(X, y).predict_proba(X)
        assert p.shape == (40,) and np.all((p > 0) & (p < 1))
        assert np.mean((p > 0.5) == (y > 0.5)) > 0.8
    with pytest.raises(ConfigError) as e:
        BayesianLogisticRegression("newton")
    assert e.value.key == "method"


def test_network_samplers_share_one_chain_signature():
    from latentlab.models.drift import lfrm_lda, sampler

    for run_chain in (sampler.run_chain, lfrm_lda.run_chain):
        assert isinstance(run_chain, NetworkSampler)
        params = list(inspect.signature(run_chain).parameters)
        assert params[:6] == ["data", "hyper", "seed", "burnin", "n_samples", "thin"]
