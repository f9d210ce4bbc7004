"""The method grid of Table 2.1: DRIFT, LFRM(last/current/all), the urn baseline, naive.

Each function takes binary symmetric networks and returns predictive edge probabilities;
the run steps score them (``latentlab.models.drift.predict``).
"""

from __future__ import annotations

from dataclasses import asdict

import numpy as np

from latentlab.models.drift import predict as pr
from latentlab.models.drift.sampler import Data, Hyper, run_chains
from latentlab.studies.shape import derive_seed

from .study import METHODS


def hyper_of(h, fixed_K=None) -> Hyper:
    return Hyper(**asdict(h), fixed_K=fixed_K)


def forecast_all(
    Ytr, y_next, hyper, seed, chains, burnin, samples, thin, draws, c_frac, norm, processes
):
    """Scores (dict per method), mean predictive matrices for forecasting y_next, and the
    DRIFT chains' per-iteration traces (K⁺, α, ε, MH acceptance; claim C2.6)."""
    rng = np.random.default_rng([seed, 99])
    out, mats = {}, {}
    T, N, _ = Ytr.shape
    p_naive = np.full((1, N, N), pr.naive_probs(Ytr))
    p_urn = pr.urn_probs(Ytr, None, c_frac, norm)[None]
    fits = {
        "LFRM_last": (Data.from_networks(Ytr[-1:]), False),
        "LFRM_all": (Data.from_networks(Ytr, static=True), False),
        "DRIFT": (Data.from_networks(Ytr), True),
    }
    P = {"Naive": p_naive, "Baseline": p_urn}
    for m, (data, dynamic) in fits.items():
        smp, tr = run_chains(data, hyper, seed, chains, burnin, samples, thin, processes)
        P[m] = pr.forecast_probs(smp, rng, draws, dynamic)
        if m == "DRIFT":
            trace = trace_rows(tr)
    for m in METHODS:
        out[m] = pr.score_forecast(P[m], y_next)
        mats[m] = P[m].mean(axis=0)
    out["Naive"]["auc"] = float("nan")  # constant predictions: AUC N/A (Table 2.1)
    return out, mats, trace


def trace_rows(traces) -> list[dict]:
    """One row per (chain, iteration) of ``run_chains``' traces: K (K⁺ after the sweep),
    α, ε and the MH acceptance rates."""
    return [
        {"chain": c, "iteration": r["iteration"], "K": r["K"], "alpha": r["alpha"],
         "eps": r["eps"], "acc_w": r["acc_w"], "acc_eps": r["acc_eps"]}
        for c, tr in enumerate(traces)
        for r in tr
    ]  # fmt: skip


def heldout_mask(shape, frac, rng) -> np.ndarray:
    """Symmetric mask of held-out pairs i < j (a share ``frac`` of all entries over time)."""
    T, N, _ = shape
    iu = np.triu_indices(N, 1)
    m = np.zeros(shape, bool)
    pick = rng.random((T, len(iu[0]))) < frac
    m[:, iu[0], iu[1]] = pick
    return m | m.transpose(0, 2, 1)


def missing_all(Y, heldout, hyper, seed, chains, burnin, c_frac, norm, processes):
    """Posterior-mean probabilities (T, N, N) per method for the held-out task, and the
    DRIFT chains' traces (:func:`trace_rows`)."""
    T, N, _ = Y.shape
    obs = ~heldout
    P = {
        "Naive": np.full(Y.shape, pr.naive_probs(Y, obs)),
        "Baseline": np.repeat(pr.urn_probs(Y, obs, c_frac, norm)[None], T, axis=0),
    }
    smp, tr = run_chains(Data.from_networks(Y, obs), hyper, seed, chains, burnin, 1, 1, processes)
    P["DRIFT"] = pr.posterior_mean_probs(smp, T)
    trace = trace_rows(tr)
    static = Data.from_networks(Y, obs, static=True)
    smp, _ = run_chains(static, hyper, derive_seed(seed, r=1), chains, burnin, 1, 1, processes)
    P["LFRM_all"] = pr.posterior_mean_probs(smp, T)
    cur = np.zeros(Y.shape)
    for t in range(T):
        smp, _ = run_chains(
            Data.from_networks(Y[t : t + 1], obs[t : t + 1]),
            hyper,
            derive_seed(seed, r=2 + t),
            chains,
            burnin,
            1,
            1,
            processes,
        )
        cur[t] = pr.posterior_mean_probs(smp, 1)[0]
    P["LFRM_current"] = cur
    return P, trace


def heldout_scores(P, Y, heldout):
    """Per method: scores dict and the held-out (probability, label) vectors."""
    iu = np.triu_indices(Y.shape[1], 1)
    m = heldout[:, iu[0], iu[1]]
    y = Y[:, iu[0], iu[1]][m]
    res, vec = {}, {}
    for name, p in P.items():
        res[name] = pr.score_missing(p, Y, heldout)
        vec[name] = p[:, iu[0], iu[1]][m]
    res["Naive"]["auc"] = float("nan")
    return res, vec, y
