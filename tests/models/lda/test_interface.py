"""The one model interface (issue 9, point 6): fit(corpus, n_iter, callback(model, info) ->
stop), phi() K x W, theta() D x K, errors naming the model's own parameters."""

import numpy as np
import pytest
from scipy.special import digamma

from latentlab.errors import ConfigError
from latentlab.models.lda import CGS, CVB0, SCVB0, SVB, BatchVB, MapLdaU
from latentlab.models.lda.vb import vb_theta

from .lda_helpers import synth_corpus

BATCH = {
    "CGS": lambda: CGS(3, seed=1),
    "CVB0": lambda: CVB0(3, seed=1),
    "CVB": lambda: CVB0(3, order=2, clumping=False, seed=1),
    "MapLdaU": lambda: MapLdaU(3, seed=1),
    "BatchVB": lambda: BatchVB(3, max_local=5, seed=1),
}
MINIBATCH = {
    "SCVB0": lambda: SCVB0(3, minibatch=7, seed=1),
    "SVB": lambda: SVB(3, minibatch=7, n_local=2, seed=1),
}


@pytest.fixture
def with_empty():
    return synth_corpus(D=20, W=15, empty=2, seed=3)


@pytest.mark.parametrize("name", sorted({**BATCH, **MINIBATCH}))
def test_phi_theta_shapes_and_normalisation(name, with_empty):
    make = {**BATCH, **MINIBATCH}[name]
    m = make().fit(with_empty, 2)
    phi, theta = m.phi(), m.theta()
    assert phi.shape == (3, with_empty.n_vocab)
    assert theta.shape == (with_empty.n_docs, 3)
    np.testing.assert_allclose(phi.sum(axis=1), 1, rtol=1e-12)
    np.testing.assert_allclose(theta.sum(axis=1), 1, rtol=1e-12)
    assert phi.min() >= 0 and theta.min() >= 0
    np.testing.assert_array_equal(m.phi_wk(), phi.T)  # the documented alias


@pytest.mark.parametrize("name", sorted(BATCH))
def test_batch_callback_gets_model_and_info_and_stops(name, tiny):
    seen = []

    def cb(model, info):
        seen.append((model, dict(info)))
        return info["iteration"] == 3

    m = BATCH[name]().fit(tiny, 10, callback=cb)
    assert [i["iteration"] for _, i in seen] == [1, 2, 3]
    assert all(mod is m for mod, _ in seen)
    assert m.iteration == 3


@pytest.mark.parametrize("name", sorted(MINIBATCH))
def test_minibatch_n_iter_counts_passes_and_callback_stops(name, tiny):
    seen = []
    m = MINIBATCH[name]().fit(tiny, 2, callback=lambda mod, info: seen.append(info) or False)
    assert m.docs_seen == 2 * tiny.n_docs  # two passes, the last minibatch of a pass short
    assert seen[-1]["epoch"] == 2.0 and seen[-1]["docs_seen"] == m.docs_seen
    assert [i["minibatch"] for i in seen] == list(range(1, len(seen) + 1))
    stop = MINIBATCH[name]().fit(tiny, 2, callback=lambda mod, info: info["minibatch"] == 2)
    assert stop.minibatches == 2
    half = MINIBATCH[name]().fit(tiny, 0.5)
    assert half.docs_seen == 21  # ceil(15 / 7) minibatches of 7 documents


@pytest.mark.parametrize("name", sorted(MINIBATCH))
def test_minibatch_budgets_are_keywords(name, tiny):
    m = MINIBATCH[name]().fit(tiny, None, max_docs=14)
    assert m.docs_seen == 14
    with pytest.raises(ConfigError) as e:
        MINIBATCH[name]().fit(tiny, None)
    assert e.value.key == "n_iter"


@pytest.mark.parametrize("name", sorted(MINIBATCH))
def test_theta_draws_no_random_numbers(name, tiny):
    """theta() in the middle of training leaves the rest of the run bit for bit equal."""
    a = MINIBATCH[name]().fit(tiny, 1)
    a.theta()
    a.resume(1)
    b = MINIBATCH[name]().fit(tiny, 1).resume(1)
    np.testing.assert_array_equal(a.phi(), b.phi())


@pytest.mark.parametrize("name", sorted({**BATCH, **MINIBATCH}))
def test_bad_n_iter_names_n_iter(name, tiny):
    make = {**BATCH, **MINIBATCH}[name]
    with pytest.raises(ConfigError) as e:
        make().fit(tiny, -1)
    assert e.value.key == "n_iter"


def test_errors_name_the_models_own_parameters():
    with pytest.raises(ConfigError) as e:
        SVB(3, rho={"s": 1.0, "tau": 1.0, "kappa": 2.0})
    assert e.value.key == "rho.kappa"
    with pytest.raises(ConfigError) as e:
        SCVB0(3, rho_theta={"s": 1.0, "tau": 1.0})
    assert e.value.key == "rho_theta.kappa"
    with pytest.raises(ConfigError) as e:
        CGS(0)
    assert e.value.key == "K"


def test_vb_theta_is_a_fixed_point_of_the_local_step(tiny):
    """E_q[theta] from :func:`vb_theta` satisfies gamma = alpha + sum_w n_w phi_w (Blei et
    al. 2003, Eq. 7) to the tolerance asked for."""
    rng = np.random.default_rng(0)
    K = 3
    eb = rng.dirichlet(np.ones(tiny.n_vocab), size=K).T  # W x K, any positive topics
    alpha = np.array([0.2, 0.5, 1.0])
    csr = (tiny.indptr, tiny.word_ids, tiny.counts.astype(float))
    theta = vb_theta(csr, eb, alpha, max_iter=10_000, tol=1e-12)
    for d in range(tiny.n_docs):
        ids, cnt = tiny.doc(d)
        gamma = theta[d] * (alpha.sum() + cnt.sum())  # sum gamma = sum alpha + C_d
        eth = np.exp(digamma(gamma) - digamma(gamma.sum()))
        new = alpha + eth * ((cnt / (eb[ids] @ eth)) @ eb[ids])
        np.testing.assert_allclose(new, gamma, rtol=1e-8)


def test_batchvb_theta_is_the_last_estep(tiny):
    m = BatchVB(3, max_local=50, tol=1e-9, seed=2).fit(tiny, 3)
    g = m._gamma
    np.testing.assert_allclose(m.theta()[m.docs], g / g.sum(axis=1, keepdims=True))
    m0 = BatchVB(3, seed=2).fit(tiny, 0)  # before any iteration: a local step at the start
    csr = (tiny.indptr, tiny.word_ids, tiny.counts.astype(float))
    np.testing.assert_array_equal(m0.theta(), vb_theta(csr, m0.exp_elog_phi_wk(), m0.alpha))
