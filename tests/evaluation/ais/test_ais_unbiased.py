"""What the chapter-5 estimators promise, checked against the exact DP (issue 22, case 4).

Foulds (2014) Eq. 5.34: at snapshot k the *mean* of the accumulated iteration-AIS weights
converges to P(w | Phi^(k), alpha^(k)); each weight is unbiased for the likelihood (AIS,
Neal 2001, Eq. 5.19), so the log of one weight (S = 1, the document's setting) is biased
downward (Jensen), by about half the variance of the log-weight, and that variance adds
up over the links. Here, on a tiny document whose likelihood the DP gives exactly:

* the weights of standard AIS, ratio-AIS and iteration-AIS are unbiased for the
  likelihood (or ratio) at *few* temperatures, where the Jensen gap is large, so a wrong
  weight or a transition that does not leave its distribution invariant shows up;
* every estimator converges to the exact value as temperatures / particles grow, and the
  spread of its log estimate falls;
* iteration-AIS's S = 1 log estimate falls further below the truth with every link when
  the snapshots keep moving: the mechanism behind the Fig 5.7/5.8 reversal on KOS/Cora.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp

from latentlab.evaluation import ais


def _learning_run(I=8, V=8, K=3, seed=0):
    """Snapshots of a pretend learning run: flat topics sharpening towards a model, each
    with its own jitter (single-sample snapshots move), and an alpha jump at I // 2 (a
    hyperparameter optimisation); one 6-token document."""
    rng = np.random.default_rng(seed)
    base = rng.dirichlet(np.full(V, 0.3), size=K).T
    phis, alphas = [], []
    for k in range(I):
        t = (k + 1) / I
        p = (1 - t) / V + t * base
        p = p * np.exp(0.3 * rng.standard_normal((V, K)))
        phis.append(p / p.sum(axis=0))
        alphas.append(np.full(K, 0.5) if k < I // 2 else np.array([1.2, 0.4, 0.1]))
    phis, alphas = np.stack(phis), np.stack(alphas)
    doc = rng.integers(0, V, 6)
    exact = np.array([ais.exact_log_evidence(doc, phis[k], alphas[k]) for k in range(I)])
    return phis, alphas, doc, exact


@pytest.fixture(scope="module")
def run():
    return _learning_run()


def _z_unbiased(log_w, log_truth):
    """(mean of w / truth - 1) in standard errors, per column (weights unbiased => |z| small)."""
    r = np.exp(log_w - log_truth)
    return (r.mean(axis=0) - 1.0) / (r.std(axis=0, ddof=1) / np.sqrt(r.shape[0]))


# ----------------------------------------------------------------- unbiased weights (Eq. 5.34)


def test_iteration_ais_weights_unbiased_at_every_snapshot(run):
    """Eq. 5.34 with 3 temperatures per link and no extra ones: the mean weight hits the
    exact likelihood at every snapshot (|z| < 4.5), while the mean log-weight (S = 1) is
    below it by a gap many standard errors wide that grows along the path."""
    phis, alphas, doc, exact = run
    S = 100_000
    e = ais.iteration_ais(phis, alphas, [doc], 3, extra=0, S=S, seed=11)
    lw = e.log_weights[0]  # (S, I)
    z = _z_unbiased(lw, exact)
    assert np.abs(z).max() < 4.5, z
    gap = exact - lw.mean(axis=0)
    se = lw.std(axis=0, ddof=1) / np.sqrt(S)
    assert (gap > 20 * se).all(), (gap, se)
    assert gap[-1] > 3 * gap[0]  # the S = 1 deficit accumulates over the links
    # the per-document estimate is the log of the mean weight (Eq. 5.34), not a mean of logs
    np.testing.assert_allclose(e.log_lik[0], logsumexp(lw, axis=0) - np.log(S))


def test_standard_ais_weights_unbiased_at_three_temperatures(run):
    phis, alphas, doc, exact = run
    m = ais.TopicModel(phis[-1], alphas[-1])
    lw = ais.standard_ais(m, [doc], 3, S=100_000, seed=12).log_weights[0]
    assert abs(_z_unbiased(lw[:, None], exact[-1])[0]) < 4.5
    assert exact[-1] - lw.mean() > 0.1  # the Jensen gap is there at 3 temperatures


@pytest.mark.parametrize("path", ["convex", "geometric"])
def test_ratio_ais_weights_unbiased_at_three_temperatures(run, path):
    """Eq. 5.28: E[w] = P(w|1) / P(w|2); the burn-in at model 2 (Sec. 5.2.1) makes the start an
    (essentially) exact draw on a 6-token document."""
    phis, alphas, doc, exact = run
    m1 = ais.TopicModel(phis[-1], alphas[-1])
    m2 = ais.TopicModel(phis[1], alphas[1])
    lw = ais.ratio_ais(m1, m2, [doc], 3, path, S=40_000, burn=10, seed=13).log_weights[0]
    assert abs(_z_unbiased(lw[:, None], exact[-1] - exact[1])[0]) < 4.5


# ----------------------------------------------------------------- convergence, variance


NS = (3, 30, 300)


def _bias_and_var(log_w, truth):
    return abs(float(log_w.mean() - truth)), float(log_w.var(ddof=1))


def test_every_ais_estimator_converges_and_its_variance_falls(run):
    """As n grows (3, 30, 300 temperatures, S = 1 per sample), |E log w - truth| and
    Var log w both fall, for standard AIS, convex ratio-AIS and iteration-AIS (every
    snapshot), and the bias at 300 temperatures is small (about Var / 2: Jensen)."""
    phis, alphas, doc, exact = run
    m1 = ais.TopicModel(phis[-1], alphas[-1])
    m2 = ais.TopicModel(phis[1], alphas[1])
    S = 1500
    res = {"std": [], "ratio": [], "iter": []}
    for n in NS:
        lw = ais.standard_ais(m1, [doc], n, S=S, seed=20 + n).log_weights[0]
        res["std"].append(_bias_and_var(lw, exact[-1]))
        lw = ais.ratio_ais(m1, m2, [doc], n, S=S, burn=10, seed=30 + n).log_weights[0]
        res["ratio"].append(_bias_and_var(lw, exact[-1] - exact[1]))
        lw = ais.iteration_ais(phis, alphas, [doc], n, extra=0, S=S, seed=40 + n).log_weights[0]
        res["iter"].append(np.array([_bias_and_var(lw[:, k], exact[k]) for k in range(len(exact))]))
    for name in ("std", "ratio"):
        b = np.array(res[name])
        assert (np.diff(b[:, 0]) < 0).all() and (np.diff(b[:, 1]) < 0).all(), (name, b)
        assert b[-1, 0] < 0.06, (name, b)
    it = np.stack(res["iter"])  # (n, snapshot, [bias, var])
    assert (np.diff(it[:, :, 0], axis=0) < 0).all(), it[:, :, 0]
    assert (np.diff(it[:, :, 1], axis=0) < 0).all(), it[:, :, 1]
    assert it[-1, :, 0].max() < 0.06


def test_left_to_right_spread_falls_with_particles(run):
    """Left-to-right (Sec. 5.1.1), 400 independent runs (copies of the document, each
    with its own seed) with R = 1, 10, 100 particles: the spread of the estimate falls
    about as 1/R and the mean approaches the exact value (Wallach's LR is not exactly
    consistent for N > 2, so within 0.05)."""
    phis, alphas, doc, exact = run
    m = ais.TopicModel(phis[-1], alphas[-1])
    out = []
    for R in (1, 10, 100):
        est = ais.left_to_right(m, [doc] * 400, R=R, seed=50 + R).log_lik
        out.append(_bias_and_var(est, exact[-1]))
    b = np.array(out)
    assert b[1, 1] < b[0, 1] / 4 and b[2, 1] < b[1, 1] / 4, b
    assert b[-1, 0] < 0.05, b
