"""The budget of TIR's regression step (Foulds 2014, Sec 3.4: "maximum likelihood updates on
l, obtained via stochastic EM using gradient ascent"; issue 37, reading regression_budget):
L-BFGS-B for at most ``lbfgs_iter`` iterations, or ``grad_iter`` projected gradient-ascent
steps of size ``grad_step``, with the steps that stop at the budget counted."""

from __future__ import annotations

import numpy as np
import pytest
from test_tir_l_recovery import RATE, star_corpus

from latentlab.errors import ConfigError
from latentlab.models.tir import reference
from latentlab.models.tir.graph import build_citation_graph
from latentlab.models.tir.model import InfluenceModel
from latentlab.models.tir.synthetic import generate


def _given_true_z(**kw):
    """A TIR model on a star corpus (6 sources, 12 citers each) with the true z and
    l = l_init everywhere: the regression problem of Eq 3.6 with a known optimum."""
    corpus, g, l_true, ndk = star_corpus(6, 12)
    m = InfluenceModel("tir", K=3, rate=RATE, **kw).initialize(corpus, g)
    m.ndk[:] = ndk
    m._update_alpha()
    return m, g, ndk


def _loglik(m, g, ndk, l):
    """Eq 3.6 by the numpy reference (not the model's kernel)."""
    return reference.tir_loglik_grad(l, g.cptr, g.cidx, ndk, m.alpha0)


def test_one_gradient_step_is_the_projected_update():
    """optimizer gradient, 1 step: l <- max(0, l + grad_step * d log Pr(z | l) / dl) on the
    cited documents, with the gradient of the numpy reference of Eqs 3.5-3.6."""
    m, g, ndk = _given_true_z(optimizer="gradient", grad_iter=1, grad_step=0.05, l_init=1.0)
    l0 = m.l.copy()
    _, grad = _loglik(m, g, ndk, l0)
    m.regress()
    want = l0.copy()
    want[m.cited] = np.maximum(l0[m.cited] + 0.05 * grad[m.cited], 0.0)
    np.testing.assert_allclose(m.l, want, rtol=1e-10, atol=1e-12)
    assert m.reg_stats == {"steps": 1, "iterations": 1, "at_budget": 1}


def test_a_gradient_step_stops_at_zero():
    """A step that would make l negative leaves it at 0 (the bound l >= 0, Alg 4)."""
    m, g, ndk = _given_true_z(optimizer="gradient", grad_step=1e6, l_init=1.0)
    _, grad = _loglik(m, g, ndk, m.l.copy())
    down = m.cited[grad[m.cited] < 0]
    assert len(down), "the check needs a coordinate whose gradient points below 0"
    m.regress()
    assert (m.l[down] == 0.0).all() and (m.l >= 0).all()


def test_small_gradient_steps_reach_the_lbfgs_optimum_where_it_is_finite():
    """Gradient ascent run long enough with a small step reaches the maximum that L-BFGS-B
    run to convergence finds, in every coordinate whose maximum lies at a finite l: the two
    optimisers differ in their budget, not their target. Where the likelihood still rises
    far out (a source whose citers match it closely), the budget decides l: the gradient
    steps stop lower, still climbing."""
    a, g, ndk = _given_true_z(optimizer="lbfgs", lbfgs_iter=10000)
    a.regress()
    assert a.reg_stats["at_budget"] == 0  # converged before its cap
    b, _, _ = _given_true_z(optimizer="gradient", grad_iter=20000, grad_step=0.02)
    b.regress()
    near = a.l[a.cited] < 20  # coordinates whose maximum is at a moderate l
    assert near.sum() >= 4 and (~near).sum() >= 1
    np.testing.assert_allclose(b.l[a.cited][near], a.l[a.cited][near], rtol=1e-3, atol=1e-3)
    far = a.cited[~near]
    grad = _loglik(b, g, ndk, b.l)[1]
    assert (b.l[far] < a.l[far]).all() and (grad[far] > 0).all()


@pytest.mark.parametrize("budget", [1, 3])
def test_lbfgs_budget_caps_the_iterations_and_counts_the_capped_steps(budget):
    """lbfgs_iter = k: no step takes more than k L-BFGS-B iterations, a step that did not
    converge within them is counted as stopped at the budget, and each step still raises
    the likelihood of z (a partial M-step)."""
    m, g, ndk = _given_true_z(optimizer="lbfgs", lbfgs_iter=budget)
    before = _loglik(m, g, ndk, m.l.copy())[0]
    m.regress()
    st = m.reg_stats
    assert st["steps"] == 1 and 1 <= st["iterations"] <= budget
    assert st["at_budget"] == 1  # the star corpus needs more than 3 iterations
    assert _loglik(m, g, ndk, m.l)[0] > before
    # more budget, closer to the maximum
    full, _, _ = _given_true_z(optimizer="lbfgs", lbfgs_iter=10000)
    full.regress()
    assert _loglik(full, g, ndk, full.l)[0] >= _loglik(m, g, ndk, m.l)[0]


def test_stochastic_em_with_a_budget_is_deterministic_and_counts_every_step():
    corpus, _ = generate(60, 40, 4, 20, 3, 0.5, 0.1, 0.1, seed=10)
    g = build_citation_graph(corpus.links, corpus.n_docs, corpus.doc_lengths(), seed=0)
    for kw in ({"optimizer": "lbfgs", "lbfgs_iter": 1},
               {"optimizer": "gradient", "grad_iter": 2, "grad_step": 0.1}):  # fmt: skip
        a = InfluenceModel("tir", K=4, interval=5, seed=3, **kw).fit(corpus, 20, graph=g)
        b = InfluenceModel("tir", K=4, interval=5, seed=3, **kw).fit(corpus, 20, graph=g)
        np.testing.assert_array_equal(a.l, b.l)
        assert a.reg_stats["steps"] == 4  # a regression step after sweeps 5, 10, 15, 20
        assert a.reg_stats["iterations"] <= 4 * max(kw.get("lbfgs_iter", 0), kw.get("grad_iter", 0))


@pytest.mark.parametrize(
    "kw, key",
    [
        ({"optimizer": "newton"}, "optimizer"),
        ({"grad_step": 0.0}, "grad_step"),
        ({"grad_step": float("nan")}, "grad_step"),
        ({"grad_iter": 0}, "lbfgs_iter/grad_iter"),
        ({"lbfgs_iter": 0}, "lbfgs_iter/grad_iter"),
    ],
)
def test_bad_optimiser_settings_are_refused_naming_the_parameter(kw, key):
    with pytest.raises(ConfigError, match=key.replace("/", ".")):
        InfluenceModel("tir", K=3, **kw)
