"""Property tests (hypothesis): invariants of the stochastic and batch updates."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from latentlab.models.lda import CVB0, SCVB0, SVB, reference

from .lda_helpers import synth_corpus

corpora = st.builds(
    synth_corpus,
    D=st.integers(3, 15),
    W=st.integers(2, 12),
    K=st.integers(1, 4),
    mean_len=st.integers(1, 15),
    seed=st.integers(0, 1000),
    empty=st.integers(0, 2),
)


@settings(max_examples=25, deadline=None)
@given(
    c=corpora,
    K=st.integers(1, 5),
    mb=st.integers(1, 3),
    clump=st.booleans(),
    n_burn=st.integers(0, 2),
    seed=st.integers(0, 100),
)
def test_c4_11_scvb0_invariants(c, K, mb, clump, n_burn, seed):
    m = SCVB0(K, minibatch=mb, clumping=clump, n_burn=n_burn, seed=seed).fit(c, n_iter=2)
    assert m.n_phi.min() >= 0 and m.n_z.min() >= 0
    np.testing.assert_allclose(m.n_phi.sum(), c.n_tokens, rtol=1e-9)
    np.testing.assert_allclose(m.n_phi.sum(0), m.n_z, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(m.phi().sum(1), 1)


@settings(max_examples=25, deadline=None)
@given(
    nth=st.lists(st.floats(0, 50), min_size=2, max_size=6),
    m=st.integers(1, 30),
    rho=st.floats(1e-4, 1.0),
    seed=st.integers(0, 100),
)
def test_c4_12_clumped_theta_update_property(nth, m, rho, seed):
    nth = np.array(nth)
    g = np.random.default_rng(seed).dirichlet(np.ones(len(nth)))
    rep = nth.copy()
    for _ in range(m):
        rep = reference.theta_update(rep, g, 20.0, rho)
    np.testing.assert_allclose(
        reference.theta_update_clumped(nth, g, 20.0, rho, m), rep, rtol=1e-9, atol=1e-9
    )


@settings(max_examples=15, deadline=None)
@given(c=corpora, K=st.integers(1, 4), order=st.sampled_from([0, 2]), seed=st.integers(0, 99))
def test_cvb_statistics_sum_to_C_and_Cd(c, K, order, seed):
    m = CVB0(K, order=order, seed=seed).fit(c, 2)
    np.testing.assert_allclose(m.n_k.sum(), c.n_tokens, rtol=1e-9)
    np.testing.assert_allclose(m.n_dk.sum(1), c.doc_lengths(), atol=1e-9)
    assert m.n_wk.min() > -1e-9


@settings(max_examples=15, deadline=None)
@given(c=corpora, K=st.integers(1, 4), B=st.integers(1, 3), seed=st.integers(0, 99))
def test_svb_lambda_positive_and_normalised(c, K, B, seed):
    m = SVB(K, minibatch=1, n_local=B, seed=seed).fit(c, n_iter=1)
    assert np.all(m.lam > 0)
    np.testing.assert_allclose(m.phi().sum(1), 1)
