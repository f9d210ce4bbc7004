"""Prediction with DRIFT / LFRM samples (Eq. 2.29) and the non-model baselines (Sec. 2.6).

Conventions (Sec. 2.6, after Eq. 2.29; the AUC convention is ours): forecasting *averages
likelihoods* over (sample, draw of
Z^t): LL = log mean_s exp(ll_s); missing data *averages edge probabilities* over samples
and then takes logs. AUC always uses per-dyad averaged probabilities. Pairs are unordered
(i < j), self-loops excluded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from scipy.special import expit, logsumexp

from latentlab.errors import ConfigError

if TYPE_CHECKING:  # the sampler (numba kernels) is not needed to score predictions
    from latentlab.models.drift.sampler import State

CLIP = 1e-6  # probabilities are clipped to [CLIP, 1 − CLIP] before logs (ours)


def pairs(N: int):
    return np.triu_indices(N, 1)


def edge_probs(Z_t, W, eps) -> np.ndarray:
    """σ(z_i W z_jᵀ + ε) for one time step, (N, N)."""
    Zf = Z_t.astype(float)
    return expit(Zf @ W @ Zf.T + eps)


def advance(st: State, rng) -> np.ndarray:
    """Z^(T+1) from Z^(T) by one step of each feature's Markov chain (new births ignored)."""
    last = st.Z[-1]
    p = np.where(last == 1, st.b, st.a)
    return (rng.random(last.shape) < p).astype(np.int8)


def forecast_probs(samples, rng, n_draws: int, dynamic: bool) -> np.ndarray:
    """(S * n_draws, N, N) predictive edge probabilities of the next step (Eq. 2.29).
    ``dynamic`` False (LFRM): the sampled Z itself is used, one draw per sample."""
    out = []
    for st in samples:
        if dynamic:
            for _ in range(n_draws):
                out.append(edge_probs(advance(st, rng), st.W, st.eps))
        else:
            out.append(edge_probs(st.Z[-1], st.W, st.eps))
    return np.array(out)


def bernoulli_ll(p, y) -> np.ndarray:
    p = np.clip(p, CLIP, 1 - CLIP)
    return y * np.log(p) + (1 - y) * np.log1p(-p)


def auc(scores, labels) -> float:
    """Area under the ROC curve (Mann–Whitney, ties counted half); NaN if one class is empty."""
    scores = np.asarray(scores, float)
    labels = np.asarray(labels).astype(bool)
    n1, n0 = labels.sum(), (~labels).sum()
    if n1 == 0 or n0 == 0:
        return float("nan")
    from scipy.stats import rankdata  # here: scipy.stats costs a job ~0.5 s to import

    r = rankdata(scores)
    return float((r[labels].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def roc_curve(scores, labels):
    """(fpr, tpr) points, thresholds from high to low."""
    order = np.argsort(-np.asarray(scores), kind="stable")
    lab = np.asarray(labels).astype(bool)[order]
    tp = np.concatenate([[0], np.cumsum(lab)])
    fp = np.concatenate([[0], np.cumsum(~lab)])
    return fp / max(1, fp[-1]), tp / max(1, tp[-1])


def score_forecast(P, y) -> dict:
    """P (S, N, N) per-draw probabilities, y (N, N): LL = log-mean-exp over draws, AUC of p̄."""
    iu = pairs(y.shape[0])
    yy = y[iu]
    ll_draws = np.array([bernoulli_ll(p[iu], yy).sum() for p in P])
    pbar = P.mean(axis=0)
    return {
        "ll": float(logsumexp(ll_draws) - np.log(len(ll_draws))),
        "auc": auc(pbar[iu], yy),
        "pred_density": float(pbar[iu].mean()),
        "true_density": float(yy.mean()),
    }


def score_missing(pbar, Y, heldout) -> dict:
    """pbar, Y, heldout (T, N, N): LL = Σ log p̄ over held-out pairs i < j, AUC of p̄."""
    iu = pairs(Y.shape[1])
    m = heldout[:, iu[0], iu[1]]
    p = pbar[:, iu[0], iu[1]][m]
    y = Y[:, iu[0], iu[1]][m]
    return {"ll": float(bernoulli_ll(p, y).sum()), "auc": auc(p, y), "n_heldout": int(m.sum())}


def naive_probs(Y, observed=None) -> float:
    """'Naive': the mean density of the observed (training) pairs, the same for every dyad."""
    iu = pairs(Y.shape[1])
    obs = np.ones(Y.shape, bool) if observed is None else observed
    m = obs[:, iu[0], iu[1]]
    return float(np.clip(Y[:, iu[0], iu[1]][m].mean(), CLIP, 1 - CLIP))


def urn_probs(Y, observed=None, c_frac: float = 0.2, norm: str = "density") -> np.ndarray:
    """The urn ('Baseline', Sec. 2.6): Pr(edge ij) ∝ n_ij + c, c = (training steps) · c_frac.

    ``norm`` (the document leaves it open): ``density`` scales the urn's shares so that the
    expected number of edges equals the mean number of training edges per step;
    ``beta`` uses (n_ij + c)/(n_obs_ij + 2c) (a Beta-Bernoulli reading).
    """
    T, N, _ = Y.shape
    obs = np.ones(Y.shape, bool) if observed is None else observed
    n = (Y * obs).sum(0).astype(float)
    n_obs = obs.sum(0).astype(float)
    c = T * c_frac
    iu = pairs(N)
    if norm == "density":
        share = (n[iu] + c) / (n[iu] + c).sum()
        mean_edges = (Y * obs)[:, iu[0], iu[1]].sum() / max(1.0, n_obs[iu].mean())
        p = share * mean_edges
    elif norm == "beta":
        p = (n[iu] + c) / (n_obs[iu] + 2 * c)
    else:
        raise ConfigError("baseline.norm", f"unknown normalisation {norm!r} (density | beta)")
    out = np.zeros((N, N))
    out[iu] = np.clip(p, CLIP, 1 - CLIP)
    return out + out.T


def posterior_mean_probs(samples, T: int) -> np.ndarray:
    """(T, N, N) posterior mean of σ(η^(t)) over samples (missing data, Sec. 2.6).
    Samples with one latent step (LFRM(all)) are broadcast over the T steps."""
    acc = None
    for st in samples:
        P = np.array([edge_probs(st.Z[t], st.W, st.eps) for t in range(st.Z.shape[0])])
        if P.shape[0] == 1:
            P = np.repeat(P, T, axis=0)
        acc = P if acc is None else acc + P
    return acc / len(samples)
