"""Evidence the drift causes, readings and REVERSALS.md case 2 cite, built as targets of the
study (``results/{run}/drift/evidence/<name>.csv`` + ``.meta.json``; issue 37), so
``latentlab rebuild published/real/drift/evidence/<name>.csv`` regenerates and compares them.

- ``synthetic_signal``: how much temporal signal the synthetic DRIFT networks carry (issue
  22, case 2): per data set, the lag-1 edge autocorrelation and the oracle forecast of
  t = T + 1 (the generating model with the true Z^(T), a, b, W, ε), for the networks as the
  config generates them and for the finite prior's a_k, b_k drawn with the same seeds (the
  former generator; the reading ``synth_ab=prior``).
- ``traces``: a summary of the DRIFT fits' K⁺ and α traces (``synth_trace.csv`` and
  ``monthly_trace.csv`` are not published): per fit, its chains and iterations, K⁺ at the
  start, at half the burn-in and at the end, split-R̂ of K⁺ and α over iterations >=
  burn-in/2, mean α and the W acceptance rate (claims C2.6, C2.6b).
- ``text_chains`` / ``enron_chains`` (built on demand: ``snakemake drift_evidence_chains``):
  C2.13's settling run. Each text fit's published chain (chain 0, its seed) at the fit's
  burn-in and continued to ``text_chains.burnin_factor`` x it, beside independent chains at
  both; per chain, the share of recorded samples whose topics swap (the fit's own rule) and
  the share of chain 0's topics it finds again (:func:`~.enron_text.chain_matches`).
"""

from __future__ import annotations

import json
import time
from functools import partial

import numpy as np
import pandas as pd
from scipy.special import expit

from latentlab.models.drift import lfrm_lda as lm
from latentlab.models.drift.predict import auc
from latentlab.models.drift.synthetic import drift_dataset, edge_autocorrelation
from latentlab.outputs import write_table

from .enron_text import chain_matches, enron_hyper, enron_text_network, swap_share
from .study import (
    STUDY,
    EvidenceEnronChainSettings,
    EvidenceSignalSettings,
    EvidenceTextChainSettings,
    EvidenceTraceSettings,
)
from .text import load_dataset, spec_hyper, swapped_samples
from .traces import trace_stats


def oracle_forecast(Z_last, a, b, W, eps, y, rng, draws: int) -> tuple[float, float]:
    """The generating model's own forecast of ``y`` (N x N) from the true ``Z_last`` (N x K):
    each chain advanced one step with the true birth ``a`` and persistence ``b`` (Eq.
    2.19), ``draws`` times; returns the AUC of the mean edge probability over pairs i < j
    and the log of the mean likelihood (Eq. 2.29's Monte Carlo average)."""
    Z_last = np.asarray(Z_last)
    W = np.asarray(W, float)
    p = np.where(Z_last == 1, np.asarray(b)[None, :], np.asarray(a)[None, :])
    zz = (rng.random((draws, *Z_last.shape)) < p).astype(float)
    P = expit(np.einsum("sia,ab,sjb->sij", zz, W, zz) + eps)
    iu = np.triu_indices(Z_last.shape[0], 1)
    yy = np.asarray(y)[iu].astype(bool)
    Pi = np.clip(P[:, iu[0], iu[1]], 1e-12, 1 - 1e-12)
    ll_draw = np.where(yy, np.log(Pi), np.log1p(-Pi)).sum(axis=1)
    ll = float(np.logaddexp.reduce(ll_draw) - np.log(draws))
    return float(auc(Pi.mean(axis=0), yy)), ll


@STUDY.run("evidence_synthetic_signal", settings=EvidenceSignalSettings)
def evidence_synthetic_signal(ctx):
    """Temporal signal of the synthetic DRIFT networks: edge autocorrelation and the oracle
    forecast AUC / LL at t = T + 1 (REVERSALS.md case 2)."""
    s = ctx.settings.synthetic
    net = np.load(ctx.input("networks"))
    W, eps = np.asarray(net["W"], float), float(net["eps"])
    gens = [("config", f"a = {s.a}, b = {s.b}" if s.a is not None else "prior draw")]
    if s.a is not None or s.b is not None:
        gens.append(("prior", "a_k ~ Beta(alpha/K, 1), b_k ~ Beta(gamma, delta)"))
    rows = []
    for gen, what in gens:
        for d in range(len(net["Y"])):
            if gen == "config":
                Z, Y, a, b = net["Z"][d], net["Y"][d], net["a"][d], net["b"][d]
            else:  # the former generator with synth_data's seed of data set d
                rng = np.random.default_rng(ctx.seed(s.seed_offset, d))
                Z, Y, a, b = drift_dataset(
                    s.N, s.T + 1, s.W, s.eps, s.alpha, s.gamma, s.delta, rng, a=None, b=None
                )
            e = ctx.settings.evidence
            rng = np.random.default_rng(ctx.seed(e.seed_offset, d))
            oauc, oll = oracle_forecast(Z[-2], a, b, W, eps, Y[-1], rng, e.oracle_draws)
            rows.append({"generator": gen, "generator_settings": what, "dataset": d,
                         "edge_autocorrelation": float(edge_autocorrelation(Y[:-1])),
                         "oracle_auc": oauc, "oracle_ll": oll,
                         "edges_forecast": int(np.triu(Y[-1], 1).sum())})  # fmt: skip
    df = pd.DataFrame(rows)
    write_table(df, ctx.output("csv"), None, ctx.meta(), allow_nan=True)


def trace_summary(tr: pd.DataFrame, by: list[str], source: str, alpha_a, alpha_b) -> pd.DataFrame:
    """One row per DRIFT fit of a trace frame (``fitting.trace_rows`` plus the fit's
    columns): chains, iterations, K⁺ (mean over chains) at the first iteration, at half the
    burn-in and at the last, split-R̂ of K⁺ and α (:func:`~.traces.trace_stats`), mean α
    and W acceptance over iterations >= burn-in/2."""
    st, _ = trace_stats(tr, by, alpha_a, alpha_b)
    stats = {tuple(np.atleast_1d(k)): r for k, r in zip(st.fit, st.itertuples(), strict=True)}
    rows = []
    for key, g in tr.groupby(by):
        key = tuple(np.atleast_1d(key))
        burn = int(g.burnin.iloc[0])
        K = g.groupby("iteration").K.mean()
        half = g[g.iteration >= burn // 2]
        r = stats.get(key)
        rows.append({
            "source": source,
            **{c: v for c, v in zip(by, key, strict=True)},
            "burnin": burn,
            "chains": int(g.chain.nunique()),
            "iterations": int(g.iteration.nunique()),
            "K_first": float(K.iloc[0]),
            "K_half_burnin": float(K[K.index >= burn // 2].iloc[0]),
            "K_last": float(K.iloc[-1]),
            "rhat_K": float(r.rhat_K) if r is not None else np.nan,
            "rhat_alpha": float(r.rhat_alpha) if r is not None else np.nan,
            "alpha_mean": float(half.alpha.mean()),
            "acc_w_mean": float(half.acc_w.mean()) if "acc_w" in half else np.nan,
        })  # fmt: skip
    return pd.DataFrame(rows)


@STUDY.run("evidence_traces", settings=EvidenceTraceSettings)
def evidence_traces(ctx):
    """Per DRIFT fit: K⁺ over the iterations, split-R̂ of K⁺ and α (claims C2.6, C2.6b)."""
    h = ctx.settings.hyper
    parts = [
        trace_summary(ctx.csv("synth_trace"), ["dataset", "task"], "synthetic", h.alpha_a,
                      h.alpha_b),
        trace_summary(ctx.csv("monthly_trace").rename(columns={"t": "month"}),
                      ["task", "month"], "monthly", h.alpha_a, h.alpha_b),
    ]  # fmt: skip
    df = pd.concat(parts, ignore_index=True)
    cols = ["source", "dataset", "month", "task"]
    df = df[[c for c in cols if c in df] + [c for c in df if c not in cols]]
    write_table(df, ctx.output("csv"), None, ctx.meta(), allow_nan=True)


def chain_rows(fits, ratio: float, swaps) -> list[dict]:
    """One row per chain of one fit (``fits``: run_chain's results, chain 0 first): the
    share of its recorded samples that swap (``swaps(result)``) and the share of chain 0's
    topics it matches; chain 0's row holds the share matched by every other chain."""
    ph0 = fits[0][1]
    hits = [chain_matches(ph0, f[1], ratio) for f in fits[1:]]
    every = float(np.mean(np.logical_and.reduce(hits))) if hits else np.nan
    return [
        {
            "chain": c,
            "swap_share": float(np.mean(swaps(f))),
            "match_share_vs_chain0": float(np.mean(hits[c - 1])) if c else np.nan,
            "matched_by_every_chain": every if c == 0 else np.nan,
        }
        for c, f in enumerate(fits)
    ]


def _planted_swaps(fit, g) -> list[bool]:
    zp, ph, phis = fit[:3]
    matched = lm.recovery(zp, ph, g["Z_true"], g["Phi_true"], g["allowed"])["topic_match"]
    return swapped_samples(zp, phis, g, matched)


def _burnins(burnin: int, factor: int) -> tuple[int, int]:
    return burnin, burnin * factor


@STUDY.run("evidence_text_chains", settings=EvidenceTextChainSettings)
def evidence_text_chains(ctx):
    """C2.13 on the synthetic text networks at longer burn-in and several chains: per
    (kind, data set, burn-in, chain) the swapped share of the recorded samples (the rule of
    text_fit's ``swap_share``) and the share of chain 0's topics found again."""
    s, ev = ctx.settings.text_fit, ctx.settings.text_chains
    rows = []
    for kind in ev.kinds:
        z = np.load(ctx.input(kind))
        hyper = spec_hyper(s, json.loads(str(z["spec"])))
        for r in range(int(z["n_datasets"])):
            data, g = load_dataset(z, r)
            seeds = [ctx.seed(s.seed_offset, r)]
            seeds += [ctx.seed(ev.seed_offset + 100 * c, r) for c in range(1, ev.chains)]
            for burnin in _burnins(s.burnin, ev.burnin_factor):
                t0 = time.process_time()
                fits = [lm.run_chain(data, hyper, q, burnin, s.samples, s.thin) for q in seeds]
                cpu = time.process_time() - t0
                swaps = partial(_planted_swaps, g=g)
                for row in chain_rows(fits, ev.match_ratio, swaps):
                    rows.append({"source": kind, "dataset": r, "burnin": burnin,
                                 "samples": s.samples, **row, "cpu_s": cpu})  # fmt: skip
    write_table(pd.DataFrame(rows), ctx.output("csv"), None, ctx.meta(), allow_nan=True)


@STUDY.run("evidence_enron_chains", settings=EvidenceEnronChainSettings)
def evidence_enron_chains(ctx):
    """C2.13 on the Enron subject lines at longer burn-in and several chains: per (burn-in,
    chain) the swapped share of the recorded samples against the chain's own mean, the share
    of chain 0's topics it finds again and (chain 0) the share found by every chain."""
    e, nw, f, ev = (ctx.settings.enron_text, ctx.settings.network, ctx.settings.text_fit,
                    ctx.settings.text_chains)  # fmt: skip
    data, _, _, _, _ = enron_text_network(ctx.input("graph"), ctx.input("messages"), e, nw)
    hyper = enron_hyper(f)
    rows = []
    for burnin in _burnins(e.burnin, ev.burnin_factor):
        t0 = time.process_time()
        fits = [lm.run_chain(data, hyper, ctx.seed(e.seed_offset, c), burnin, e.samples, e.thin)
                for c in range(ev.chains)]  # fmt: skip
        cpu = time.process_time() - t0
        for row in chain_rows(fits, e.chain_match_ratio, lambda f: [swap_share(f[2], f[1])]):
            rows.append({"source": "enron", "dataset": 0, "burnin": burnin,
                         "samples": e.samples, **row, "cpu_s": cpu})  # fmt: skip
    write_table(pd.DataFrame(rows), ctx.output("csv"), None, ctx.meta(), allow_nan=True)
