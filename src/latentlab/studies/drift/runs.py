"""Computation steps of the drift study: synthetic data, monthly networks, the fits."""

from __future__ import annotations

import json
import logging
import time

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment

from latentlab.errors import ConfigError
from latentlab.models.drift.sampler import Data, run_chains
from latentlab.models.drift.synthetic import drift_dataset, enron_like
from latentlab.studies.shape import derive_seed

from .fitting import (
    forecast_all,
    heldout_mask,
    heldout_scores,
    hyper_of,
    missing_all,
)
from .networks import monthly_networks
from .study import (
    MISSING_METHODS,
    STUDY,
    MonthlyFitSettings,
    NetworkSettings,
    SynthDataSettings,
    SynthFitSettings,
)

log = logging.getLogger("latentlab.drift")


@STUDY.run("synth_data", settings=SynthDataSettings)
def synth_data(ctx):
    """Synthetic DRIFT data sets with known Z (Sec. 2.6.1); the last step is forecast."""
    s = ctx.settings.synthetic
    Ys, Zs, As, Bs = [], [], [], []
    for d in range(s.n_datasets):
        rng = np.random.default_rng(ctx.seed(s.seed_offset, d))
        Z, Y, a, b = drift_dataset(
            s.N, s.T + 1, s.W, s.eps, s.alpha, s.gamma, s.delta, rng, a=s.a, b=s.b
        )
        Ys.append(Y), Zs.append(Z), As.append(a), Bs.append(b)
    np.savez_compressed(
        ctx.output("networks"),
        Y=np.array(Ys),
        Z=np.array(Zs),
        a=np.array(As),
        b=np.array(Bs),
        W=np.array(s.W),
        eps=s.eps,
    )


def _align(Zs, Ztrue):
    """Hungarian alignment of a sample's features to the true ones (max correlation)."""
    K = Ztrue.shape[-1]
    t = Ztrue.reshape(-1, K).astype(float)
    z = Zs.reshape(-1, Zs.shape[-1]).astype(float)
    c = np.nan_to_num(np.corrcoef(t.T, z.T)[:K, K:])
    r, col = linear_sum_assignment(-c)
    return Zs[:, :, col[np.argsort(r)]]


@STUDY.run("synth_fit", settings=SynthFitSettings)
def synth_fit(ctx):
    """Table 2.1 (top), Figs 2.2 and 2.3: forecasting t = T + 1, missing data, recovery."""
    s = ctx.settings.synthetic_fit
    net = np.load(ctx.input("networks"))
    Yall, Ztrue = net["Y"], net["Z"]
    hyper = hyper_of(ctx.settings.hyper)
    rows, mats, traces = [], {}, []
    t0 = time.perf_counter()
    for d in range(min(s.datasets, len(Yall))):
        seed = ctx.seed(s.seed_offset, d)
        Ytr, ynext = Yall[d, :-1], Yall[d, -1]
        fit = {"dataset": d, "burnin": s.burnin, "N": Ytr.shape[1], "T": Ytr.shape[0]}
        res, m, tr = forecast_all(
            Ytr,
            ynext,
            hyper,
            seed,
            s.chains,
            s.burnin,
            1,
            1,
            s.forecast_draws,
            s.baseline_c,
            s.baseline_norm,
            s.processes,
        )
        rows += [{"dataset": d, "task": "forecast", "method": k, **v} for k, v in res.items()]
        traces += [{**fit, "task": "forecast", **r} for r in tr]
        if d == 0:
            mats = {**{f"P_{k}": v for k, v in m.items()}, "Y_next": ynext}
        rng = np.random.default_rng([seed, 7])
        held = heldout_mask(Ytr.shape, s.heldout_frac, rng)
        P, tr = missing_all(
            Ytr,
            held,
            hyper,
            derive_seed(seed, r=10_000),
            s.chains,
            s.burnin,
            s.baseline_c,
            s.baseline_norm,
            s.processes,
        )
        traces += [{**fit, "task": "missing", **r} for r in tr]
        res, _, _ = heldout_scores(P, Ytr, held)
        rows += [{"dataset": d, "task": "missing", "method": k, **v} for k, v in res.items()]
        log.info("synthetic data set %d: forecast and missing data done (%.0f s)", d,
                 time.perf_counter() - t0)  # fmt: skip
    pd.DataFrame(rows).to_csv(ctx.output("scores"), index=False)
    pd.DataFrame(traces).to_csv(ctx.output("trace"), index=False)
    # Fig 2.2: K constrained to 3, features aligned to the truth
    rec, zmean = [], None
    K = s.recovery_K
    for d in range(min(s.recovery_datasets, len(Yall))):
        Ytr = Yall[d, :-1]
        smp, _ = run_chains(
            Data.from_networks(Ytr),
            hyper_of(ctx.settings.hyper, K),
            ctx.seed(s.seed_offset, 50_000 + d),
            s.chains,
            s.burnin,
            1,
            1,
            s.processes,
        )
        Zt = Ztrue[d, :-1]
        zm = np.mean([_align(st.Z, Zt) for st in smp], axis=0)
        for k in range(K):
            c = np.corrcoef(zm[:, :, k].ravel(), Zt[:, :, k].ravel())[0, 1]
            acc = float(((zm[:, :, k] > 0.5) == Zt[:, :, k]).mean())
            rec.append(
                {"dataset": d, "feature": k, "corr": float(np.nan_to_num(c)), "accuracy": acc}
            )
        if d == 0:
            zmean = zm
        log.info("synthetic data set %d: K = %d recovery done", d, K)
    pd.DataFrame(rec).to_csv(ctx.output("recovery"), index=False)
    np.savez_compressed(ctx.output("matrices"), Z_true=Ztrue[0, :-1], Z_mean=zmean, **mats)
    ctx.output("timing").write_text(json.dumps({"seconds": time.perf_counter() - t0}))


@STUDY.run("network", settings=NetworkSettings)
def network(ctx):
    """Monthly sociomatrices: the Enron email network (top actors) or an Enron-like one."""
    s = ctx.settings.network
    if s.source == "enron_email":
        from latentlab.data.graph import TemporalGraph

        g = TemporalGraph.load(ctx.input("graph"))
        Y, labels, top, names, summary = monthly_networks(
            g, s.n_actors, s.first_month, s.last_month, s.outside_window, s.empty_month
        )
        summary["data_kind"] = "real"
    else:
        e = s.synthetic
        rng = np.random.default_rng(ctx.seed(s.seed_offset))
        Z, Y, W = enron_like(
            e.N,
            e.T,
            e.K,
            e.w_diag,
            e.w_off,
            e.eps,
            e.a,
            e.b,
            e.t_sparse,
            e.a_late,
            e.b_late,
            e.n_persistent,
            e.persistent_logit,
            rng,
        )
        labels = [f"t{t + 1}" for t in range(e.T)]
        names = [f"actor{i}" for i in range(e.N)]
        edges = Y.sum(axis=(1, 2)) // 2
        summary = {
            "source": "synthetic (Enron-like)",
            "data_kind": "synthetic",
            "T": e.T,
            "n_actors": e.N,
            "edges_per_month": edges.astype(int).tolist(),
        }
    np.savez_compressed(
        ctx.output("networks"), Y=Y.astype(np.int8), months=np.array(labels), names=np.array(names)
    )
    ctx.output("summary").write_text(json.dumps(summary, indent=1))


@STUDY.run("monthly_fit", settings=MonthlyFitSettings)
def monthly_fit(ctx):
    """Table 2.1 (bottom), Figs 2.4-2.7, Table 2.2: retrain every month, then missing data."""
    s = ctx.settings.monthly_fit
    net = np.load(ctx.input("networks"))
    Y = net["Y"].astype(np.int8)
    T = Y.shape[0]
    if s.first_t > T:  # (>= 2: MonthlyFit, at start-up)
        raise ConfigError("drift.monthly_fit.first_t", f"{s.first_t} > the data's {T} months")
    hyper = hyper_of(ctx.settings.hyper)
    rows, mats, times, traces = [], {}, [], []
    N = Y.shape[1]
    months = list(range(T, s.first_t - 1, -s.forecast_every))[::-1]  # always include T
    for t in months:  # 1-based month t, trained on 1..t-1
        t0 = time.perf_counter()
        res, m, tr = forecast_all(
            Y[: t - 1],
            Y[t - 1],
            hyper,
            ctx.seed(s.seed_offset, t),
            s.chains,
            s.burnin,
            s.samples,
            s.thin,
            s.forecast_draws,
            s.baseline_c,
            s.baseline_norm,
            s.processes,
        )
        times.append(time.perf_counter() - t0)
        log.info("month %d of %d: forecast fits done (%.0f s)", t, T, times[-1])
        rows += [{"t": t, "method": k, **v} for k, v in res.items()]
        fit = {"task": "forecast", "t": t, "burnin": s.burnin, "N": N, "T": t - 1}
        traces += [{**fit, **r} for r in tr]
        for k, v in m.items():
            mats[f"P_{k}_t{t}"] = v
    pd.DataFrame(rows).to_csv(ctx.output("forecast"), index=False)
    # missing data: split 0 is the document's one held-out set (Figs 2.6, 2.7, Table 2.2);
    # splits 1.. draw their own 20 % and fits (the missing-data rows' replicates)
    t0 = time.perf_counter()
    res_rows, arrays = [], {}
    for r in range(s.missing_splits):
        if r == 0:
            rng = np.random.default_rng([ctx.seed(s.seed_offset), 7])
            seed = ctx.seed(s.seed_offset, 20_000)
        else:
            rng = np.random.default_rng([ctx.seed(s.seed_offset), 7, r])
            seed = derive_seed(ctx.seed(s.seed_offset, 20_000), r=r)
        held = heldout_mask(Y.shape, s.heldout_frac, rng)
        P, tr = missing_all(
            Y,
            held,
            hyper,
            seed,
            s.missing_chains,
            s.missing_burnin,
            s.baseline_c,
            s.baseline_norm,
            s.processes,
        )
        task = "missing" if r == 0 else f"missing_s{r}"  # one trace group per fit (C2.6)
        fit = {"task": task, "t": T, "burnin": s.missing_burnin, "N": N, "T": T}
        traces += [{**fit, **row} for row in tr]
        res, vec, y = heldout_scores(P, Y, held)
        res_rows += [{"split": r, "method": k, **v} for k, v in res.items()]
        suffix = "" if r == 0 else f"_s{r}"
        arrays[f"labels{suffix}"] = y
        arrays.update({f"score_{k}{suffix}": vec[k] for k in MISSING_METHODS})
        if r == 0:
            arrays.update(heldout=held, P_DRIFT_all=P["DRIFT"], P_Baseline_all=P["Baseline"])
        log.info("missing data, split %d of %d done", r + 1, s.missing_splits)
    t_missing = time.perf_counter() - t0
    pd.DataFrame(traces).to_csv(ctx.output("trace"), index=False)
    pd.DataFrame(res_rows).to_csv(ctx.output("missing"), index=False)
    np.savez_compressed(ctx.output("matrices"), Y=Y, **arrays, **mats)
    ctx.output("timing").write_text(
        json.dumps(
            {
                "forecast_fit_seconds_per_month": times,
                "missing_seconds": t_missing,
            }
        )
    )
