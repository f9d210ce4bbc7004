"""Evidence steps of ``hdp_pcvb0``: the files its causes and published/real/REVERSALS.md
case 1 cite, built by the study's rules (``results/{run}/hdp_pcvb0/evidence/<name>.csv`` +
``.meta.json``; ``snakemake hdp_pcvb0_evidence``) so that ``latentlab rebuild`` regenerates
and compares them (issue 37: they were made by one-off scripts before).

* ``evidence_runs``: every perplexity fit of the run (its ``runs/perplexity/`` JSONs) beside
  the held-out perplexity of the training unigram on the same 80/20 split, the no-topic
  state the zero-order AA fits stall in (REVERSALS case 1); no model is fitted;
* ``evidence_keff_ladder``: effective topics against the truncation T (claim C13's causes),
  the study's configurations refitted at more T on its own split, options and seeds;
* ``evidence_traces``: per-iteration traces at one T (REVERSALS case 1: KOS at T = 300),
  with the Eq 29/30 fixed-point diagnostics, from each reading of the initial β0τ_v.

Every fit uses the perplexity step's split (``runs.split``: 80/20 within documents, seed
base_seed + split_seed) and options (``options`` overlaid by ``perplexity.options``).
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.errors import ConfigError, DataError
from latentlab.outputs import write_table
from latentlab.studies.hdp_pcvb0.runs import load_corpus, new_model, split
from latentlab.studies.hdp_pcvb0.study import (
    STUDY,
    EvidenceFitSettings,
    RunsEvidenceSettings,
    model_options,
)

log = logging.getLogger("latentlab.hdp_pcvb0")


def unigram_perplexity(train, test) -> float:
    """Held-out perplexity of the training unigram (MLE; OOV test tokens were dropped by the
    split, ``oov_rule: drop``)."""
    c = np.bincount(train.words, minlength=train.V).astype(float)
    p = c / c.sum()
    with np.errstate(divide="ignore"):
        logp = np.log(p[test.word])
    return float(np.exp(-np.sum(test.count * logp) / test.n_tokens))


def _sig(x, digits: int = 6) -> float:
    """``x`` to ``digits`` significant digits (the published runs file's %.6g)."""
    return float(f"{float(x):.{digits}g}")


def _opts(ctx, **overlay):
    s = ctx.settings
    return model_options(
        s.options, {**s.perplexity.options, **overlay}, "hdp_pcvb0.perplexity.options"
    )


def _data_by_name(ctx) -> dict[str, Path]:
    return {Path(p).stem: Path(p) for p in ctx.input_list("data")}


# ------------------------------------------------------------------------ runs
def runs_rows(run: dict, sp, corpus, uni: float) -> list[dict]:
    """One row per (T, run) of one perplexity run JSON ``run`` (its dataset's split ``sp``,
    corpus and unigram perplexity ``uni``)."""
    rows = []
    for r in run["runs"]:
        tr = list(r["trace"])
        mid = tr[4:50]
        rows.append({
            "dataset": run["dataset"], "config": run["config"], "T": int(r["T"]),
            "run": int(r["run"]),
            "n_docs": int(sp.info["n_docs_in"] - sp.info["n_docs_dropped_short"]),
            "n_train_tokens": int(sp.info["n_train_tokens"]),
            "tokens_per_doc": _sig(corpus.n_tokens / corpus.n_docs),
            "n_vocab": int(corpus.n_vocab), "unigram_perplexity": _sig(uni),
            "final_perplexity": _sig(r["final_perplexity"]),
            "final_over_unigram": _sig(r["final_perplexity"] / uni),
            "perplexity_it1": _sig(tr[0]) if tr else np.nan,
            "perplexity_it5_50_min": _sig(min(mid)) if mid else np.nan,
            "perplexity_it5_50_max": _sig(max(mid)) if mid else np.nan,
            "alpha0": _sig(r["alpha0"]), "beta0": _sig(r["beta0"]), "gamma0": _sig(r["gamma0"]),
            "effective_topics": int(r["effective_topics"]),
            "effective_topics_0p1pct": int(r["effective_topics_0p1pct"]),
            "max_alpha_pi_E": _sig(r["max_alpha_pi_E"]),
        })  # fmt: skip
    return rows


@STUDY.run("evidence_runs", settings=RunsEvidenceSettings)
def evidence_runs(ctx) -> None:
    """Every perplexity fit of the run (input ``runs``: its JSONs) beside the unigram
    perplexity of the same 80/20 split (input ``data``), reading the run files only."""
    data = _data_by_name(ctx)
    by_ds: dict[str, list[tuple[str, dict, Path]]] = {}
    for f in ctx.input_list("runs"):
        run = json.loads(Path(f).read_text())
        by_ds.setdefault(run["dataset"], []).append((run["config"], run, Path(f)))
    rows, splits = [], {}
    for ds, runs in by_ds.items():  # the rule's order of the corpora
        if ds not in data:
            raise DataError(runs[0][2], f"no input data/{ds}.npz for its corpus {ds!r}")
        corpus = load_corpus(data[ds])
        sp = split(ctx, corpus, data[ds])
        uni = unigram_perplexity(sp.train, sp.test)
        splits[ds] = {**sp.info, "unigram_perplexity": uni}
        for _, run, f in sorted(runs, key=lambda x: x[0]):  # by configuration name
            for key in ("n_train_tokens", "n_test_tokens"):
                if run["split"][key] != sp.info[key]:
                    raise DataError(
                        f,
                        f"its split differs from the settings' ({key} {run['split'][key]} "
                        f"vs {sp.info[key]})",
                    )
            rows.extend(runs_rows(run, sp, corpus, uni))
    table = pd.DataFrame(rows)
    # NaN: perplexity_it1 and the 5-50 range of a fit without a per-iteration trace
    meta = ctx.meta(splits=splits, runs=[str(p) for p in ctx.input_list("runs")])
    write_table(table, ctx.output("csv"), meta=meta, allow_nan=True)


# ------------------------------------------------------------------ keff ladder
@STUDY.run("evidence_keff_ladder", settings=EvidenceFitSettings)
def evidence_keff_ladder(ctx) -> None:
    """Effective topics against the truncation T (claim C13's causes): each corpus of
    ``evidence.keff_ladder.T`` fitted at its levels on the perplexity step's split."""
    ev = ctx.settings.evidence.keff_ladder
    data = _data_by_name(ctx)
    opts = _opts(ctx)
    rows, splits = [], {}
    for ds, Ts in ev.T.items():
        if ds not in data:
            raise ConfigError("hdp_pcvb0.evidence.keff_ladder.T", f"no input data for {ds!r}")
        sp = split(ctx, load_corpus(data[ds]), data[ds])
        uni = unigram_perplexity(sp.train, sp.test)
        splits[ds] = {**sp.info, "unigram_perplexity": uni}
        log.info("%s: %s; unigram perplexity %.2f", ds, sp.info, uni)
        for T in Ts:
            for config in ev.configs:
                for r in range(ev.runs):
                    m = new_model(T, config, options=opts, seed=ctx.seed(0, r),
                                  task="evidence.keff_ladder")  # fmt: skip
                    t0 = time.process_time()
                    m.fit(sp.train, ev.iterations)
                    cpu = time.process_time() - t0
                    rows.append({
                        "dataset": ds, "config": config, "T": int(T), "run": r,
                        "iterations": ev.iterations, "unigram_perplexity": round(uni, 3),
                        "final_perplexity": round(float(m.perplexity(sp.test)), 3),
                        "effective_topics": m.effective_topics(1.0),
                        "effective_topics_0p1pct": m.effective_topics(1e-3 * m.data.n_tokens),
                        "alpha0": float(m.alpha0), "beta0": float(m.beta0),
                        "gamma0": float(m.gamma0),
                        "max_alpha_pi_E": float(np.max(m.alpha0 * m.Epi)),
                        "cpu_seconds": round(cpu, 1),
                    })  # fmt: skip
                    log.info("%s", rows[-1])
    table = pd.DataFrame(rows)
    meta = ctx.meta(splits=splits, cpu_seconds_total=float(table.cpu_seconds.sum()))
    write_table(table, ctx.output("csv"), meta=meta)


# ----------------------------------------------------------------------- traces
FP_KEYS = ("num", "lo", "hi", "n_iter", "converged")


def trace_row(m, it: int, ppl: float, secs: float) -> dict:
    """The state of fit ``m`` after iteration ``it``: test perplexity ``ppl``, the
    hyperparameters, τ statistics, topics in use, and the last Eq 29/30 fixed point of α0
    and β0 (NaN for CVB/CVB0: their hyperparameters are Gamma posteriors of [24])."""
    tau = np.asarray(m.tau, dtype=float)
    tz = tau[tau > 0]
    nk = np.asarray(m.nk, dtype=float)
    fp = m.diagnostics.get("fp_last", {})
    row = {
        "iteration": int(it),
        "perplexity": float(ppl),
        "alpha0": float(m.alpha0),
        "gamma0": float(m.gamma0),
        "beta0": float(m.beta0),
        "tau_perplexity": float(np.exp(-np.sum(tz * np.log(tz)))),
        "tau_max": float(tau.max()),
        "effective_topics": m.effective_topics(1.0),
        "max_nk_share": float(nk.max() / nk.sum()),
        "max_alpha_pi": float(np.max(m.prior_weights()[0])),
        "seconds": float(secs),
    }
    for name in ("alpha0", "beta0"):
        d = fp.get(name, {})
        for key in FP_KEYS:
            row[f"fp_{name}_{key}"] = d.get(key, np.nan)
    return row


@STUDY.run("evidence_traces", settings=EvidenceFitSettings)
def evidence_traces(ctx) -> None:
    """Per-iteration traces of each fit of ``evidence.traces.fits`` on one corpus at one T
    (REVERSALS case 1), on the perplexity step's split."""
    ev = ctx.settings.evidence.traces
    inp = ctx.input("data")
    sp = split(ctx, load_corpus(inp), inp)
    uni = unigram_perplexity(sp.train, sp.test)
    log.info("%s: %s; unigram perplexity %.2f", ev.dataset, sp.info, uni)
    rows = []
    for fit in ev.fits:
        opts = _opts(ctx, beta_init=fit.beta_init)
        m = new_model(ev.T, fit.config, options=opts, seed=ctx.seed(0),
                      task="evidence.traces")  # fmt: skip
        t0 = time.perf_counter()

        def cb(mod, info, fit=fit):
            nonlocal t0
            ppl = mod.perplexity(sp.test)
            row = {"dataset": ev.dataset, "config": fit.config, "T": ev.T,
                   "beta_init": fit.beta_init,
                   **trace_row(mod, info["iteration"], ppl, time.perf_counter() - t0)}  # fmt: skip
            rows.append(row)
            log.info("%s %s it %d: ppl %.1f a0 %.4g g0 %.4g b0 %.4g eff %d %.1fs", fit.config,
                     fit.beta_init, row["iteration"], ppl, row["alpha0"], row["gamma0"],
                     row["beta0"], row["effective_topics"], row["seconds"])  # fmt: skip
            t0 = time.perf_counter()

        m.fit(sp.train, fit.iterations, callback=cb)
    table = pd.DataFrame(rows)
    for name in ("alpha0", "beta0"):  # True/False, empty where the fit has no fixed point
        col = f"fp_{name}_converged"
        table[col] = table[col].map(lambda v: v if isinstance(v, bool) else "")
    meta = ctx.meta(split=sp.info, unigram_perplexity_same_split=uni,
                    seconds_total=float(table.seconds.sum()))  # fmt: skip
    # NaN: the fixed-point columns of the CVB/CVB0 rows
    write_table(table, ctx.output("csv"), meta=meta, allow_nan=True)
