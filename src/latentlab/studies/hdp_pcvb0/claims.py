"""Claims C1–C16 of seed 001 (our numbering of the paper's checkable statements; ``where``
gives the paper's section or figure): the claims as data, one small function each.

Inputs of the claims step: ``perplexity``, ``knn``, ``links`` (run JSONs), ``init``,
``gibbs`` (JSONs) and ``bench`` (bench.csv). Tolerances are the ``claims`` settings
(:class:`~latentlab.studies.hdp_pcvb0.study.Tolerances`). The document gives no numeric
perplexities, accuracies or MAPs: orderings are checked as orderings, axis ranges as
ranges, the Fig 2 maxima as values. Statements that quote a run's T or a tolerance are
set per row.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
from scipy.special import gamma as gamma_fn

from latentlab.claims.ledger import judge
from latentlab.claims.prove import counter_example, direction_passes
from latentlab.claims.spec import Claim, Measured, NotRun, NotTestable, Sides
from latentlab.errors import MissingInput
from latentlab.studies.hdp_pcvb0.study import STUDY, ClaimsSettings, bench_table

FIG2_MAX = {"KOS": 0.1532, "WSJ": 0.0610, "20news": 0.0309, "Enron": 0.0176, "7conf": 0.0122}
FIG4_RANGE = {"20news": (0.65, 0.85), "7conf": (0.60, 0.72)}
FIG5_RANGE = {"AstroPh": (0.85, 0.97), "EnronNet": (0.80, 0.94)}
# Fig 3 y-axis ranges (read off its axes): left panel (perplexity vs T), right panel (vs
# iteration)
FIG3_LEFT = {"KOS": (1000, 2200), "WSJ": (1300, 2700), "20news": (1300, 2700),
             "Enron": (900, 2300), "7conf": (200, 800)}  # fmt: skip
FIG3_RIGHT = {"KOS": (1000, 3500), "WSJ": (1200, 4200), "20news": (1200, 5200),
              "Enron": (900, 4400), "7conf": (200, 1400)}  # fmt: skip
FIG3_RIGHT_ITERS = (5, 50)  # the right panel's x axis: iterations 5..50
# tick steps of those axes (Figs 3-5): a value one step outside must be refused
FIG3_LEFT_STEP = {"KOS": 200, "WSJ": 200, "20news": 200, "Enron": 200, "7conf": 100}
FIG3_RIGHT_STEP = {"KOS": 500, "WSJ": 500, "20news": 500, "Enron": 500, "7conf": 200}
FIG4_STEP = {"20news": 0.05, "7conf": 0.02}
FIG5_STEP = {"AstroPh": 0.02, "EnronNet": 0.02}
# chance levels of the protocols (the null a reproduction must refuse): 7-NN voting over
# 20 newsgroups / 7 conferences; a random ranking of 20 % positive links among as many
# negatives as the 80 % training links (expected AP ~ the positive fraction, 0.2)
FIG4_CHANCE = {"20news": 1 / 20, "7conf": 1 / 7}
FIG5_CHANCE = {"AstroPh": 0.2, "EnronNet": 0.2}
PRIVATE = {
    "WSJ": "WSJ text is LDC-licensed and the document cites no source",
    "7conf": "the 7-conference abstracts of Deng et al. (KDD 2011) are not distributed",
}
# The UCI Enron bag-of-words is public but not in the data mirror: not_run, not not_testable
ENRON_NOT_RUN = (
    "the UCI Enron bag-of-words is public but not in the data mirror; config/paper.yaml runs "
    "it (dataset enron_text, source uci_enron: downloaded from the UCI repository, checked by "
    "its document and vocabulary counts only, no pinned hash yet)"
)
PAIRS = [("pcvb0", "pcvb"), ("cvb0", "cvb")]
WIN = "every (T, prior, pair) cell and every paired run; margin 0: the document gives no values"

CLAIMS = [
    Claim("C1", "Abstract, Sec 1, 5.2", "PCVB0 keeps no variance counts: the arrays it keeps "
          "between sweeps are a subset of PCVB's and CVB's (by construction; bytes at every "
          "bench T in the note)", "no variance counts", data_kind="identity",
          note="true by construction of the methods (a code property, counted apart from "
          "empirical claims); the like-for-like memory comparison is C1b"),
    Claim("C1b", "Fig 1 (Memory usage)", "PCVB0 allocates less memory than CVB (tracemalloc "
          "peak of numpy buffers)", "PCVB0 < CVB", how="order", direction="<"),
    Claim("C15a", "Fig 1, Sec 7", "PCVB0 is cheaper per iteration than CVB (seconds per "
          "iteration; the document gives no speed number)", "CVB > PCVB0", how="order",
          note="CVB time includes the Teh et al. hyperparameter machinery; one bench run "
          "(a timing, margin 0: the document states no speed-up)"),
    Claim("C15b", "Fig 1", "PCVB0 is easier to implement: fewer logical lines in its "
          "inference path than CVB", "Implementation — Easy", data_kind="identity",
          note="lines of code of functions chosen by us (bench.lines_of_code): a property of "
          "this code base, not an empirical reproduction"),
    Claim("C2", "Sec 1, 5, 7", "PCVB0 needs no hyperparameter setting: final perplexity from "
          "initial α0, β0, γ0 scaled ×0.1/×1/×10 (max relative spread)", 0.0, how="abs",
          tolerance="claims.init_rel"),
    Claim("C3a", "Fig 2 caption, Eq 20", "Γ(1 + 0.05) = 0.9735", 0.9735, how="abs",
          tolerance=5e-5, dataset="scipy", data_kind="identity"),
    Claim("C3b", "Fig 2 caption, Eq 20", "Γ(0.05) = 19.47 (vs 1/0.05 = 20)", 19.47, how="abs",
          tolerance=5e-3, dataset="scipy", data_kind="identity"),
    Claim("C3c", "Sec 5.2", "Γ(α) ≤ 1/α, Γ(α+1) ≤ 1, Γ(n+α) ≥ Γ(n) for α ∈ (0, 1], n = 2..20",
          "bounds hold", dataset="scipy", data_kind="identity"),
    Claim("C5", "Fig 3 left, Sec 6.3", "CVB0 and PCVB0 give lower test perplexity than CVB "
          "and PCVB (one row per T: every (prior, pair) cell, every paired run)", 1.0,
          how="ge", group="perplexity"),
    Claim("C6a", "Fig 3, Sec 6.3", "PCVB ≈ CVB in perplexity (max relative difference of run "
          "means over T and prior)", 0.0, how="abs", tolerance="claims.similar_rel",
          group="perplexity"),
    Claim("C6b", "Fig 3, Sec 6.3", "PCVB0 ≈ CVB0 in perplexity (max relative difference of "
          "run means over T and prior)", 0.0, how="abs", tolerance="claims.similar_rel",
          group="perplexity"),
    Claim("C7", "Sec 6.3, Sec 7", "AS ≈ AA (max relative difference of run means over method "
          "and T)", 0.0, how="abs", tolerance="claims.similar_rel",
          group="perplexity"),
    Claim("C8", "Fig 3 right, Sec 6.3, 6.6", "CVB and PCVB converge in fewer iterations than "
          "CVB0 and PCVB0 (all pairs)", "second order faster", how="order", direction="<",
          group="perplexity"),
    Claim("C9", "Sec 6.6", "second order converges to worse optima: higher final perplexity "
          "than zero order at the trace T, all pairs ('faster' is C8's row)",
          "faster but worse", how="order", group="perplexity"),
    Claim("C10", "Sec 6.6", "the exp(−V/x²) factor makes q(z) sharper early (all pairs)",
          "sharper early", how="order", direction="<", group="perplexity"),
    Claim("C13", "Sec 5.3", "PCVB0 uses fewer effective topics (E[n_k] >= 1) than T, at "
          "every T: per run, the largest K_eff / T over its (T, prior) cells is below 1",
          "K_eff < T", how="order", direction="<", group="perplexity"),
    Claim("C16", "Abstract, Fig 1", "PCVB0 predicts better than CVB: lower test perplexity "
          "at the largest T, every prior and paired run ('as well as CVB0' is C6b's row)",
          "PCVB0(+), CVB(−)", how="order", direction="<", group="perplexity"),
    Claim("C4a", "Fig 2, Sec 5.1", "every E[α0π_k] under CVB AA is below 1, the premise of "
          "Eq 20 (max over k and runs)", 1.0, how="le", tolerance=0.0, group="perplexity"),
    Claim("C4b", "Fig 2 caption", "maximum E[α0π_k] under CVB AA", "the document's maximum",
          how="rel", tolerance="claims.fig2_rel", note="mean over runs of the per-run maximum",
          group="perplexity"),
    Claim("C4c", "Fig 2 caption", "E[β_v] under CVB AA also takes small values as E[α_k] "
          "does: 99th percentile of E[β_v] over the words seen in training, at most the "
          "caption's maximum E[α_k] for the corpus", "the document's maximum", how="le",
          tolerance=0.0, note="'Almost E[βv] ... also takes small value as in E[αk]': "
          "'almost' read as 99 % of the words, 'as in E[αk]' as the caption's maximum for "
          "the corpus (Fig 2 caption)", group="perplexity"),
    Claim("F3-left", "Fig 3 left", "test perplexity of every configuration and T lies in the "
          "document's y-axis range of the left panel", "axis range", how="abs",
          group="perplexity"),
    Claim("F3-right", "Fig 3 right", "the per-iteration test perplexity (iterations 5–50, "
          "trace T) of every configuration lies in the document's y-axis range of the right "
          "panel", "axis range", how="abs", group="perplexity"),
    Claim("C4d", "Fig 2 caption", "almost 99 % of E[α0π_k] (T = 300) lie in (0.05, 0.01] on "
          "WSJ", 0.99, dataset="WSJ", not_testable=PRIVATE["WSJ"] + " (the AP stand-in's "
          "bin shares are in C4b's note)"),
    Claim("C11a", "Fig 4, Sec 6.4", f"(P)CVB0 beats (P)CVB in 7-NN accuracy ({WIN})",
          "(P)CVB0 > (P)CVB", how="order", group="knn"),
    Claim("C11b", "Fig 4, Sec 6.4", "PCVB ≈ CVB in 7-NN accuracy (max absolute difference of "
          "run means)", 0.0, how="abs", tolerance="claims.similar_abs", group="knn"),
    Claim("C11c", "Fig 4, Sec 6.4", "PCVB0 ≈ CVB0 in 7-NN accuracy (max absolute difference "
          "of run means)", 0.0, how="abs", tolerance="claims.similar_abs", group="knn"),
    Claim("C11d", "Fig 4, Sec 6.4", "7-NN accuracy lies in the document's axis range",
          "axis range midpoint", how="abs", data_kind="none", group="knn"),
    Claim("C12a", "Fig 5, Sec 6.5", f"(P)CVB0 beats (P)CVB in link-prediction MAP ({WIN})",
          "(P)CVB0 > (P)CVB", how="order", group="links"),
    Claim("C12b", "Fig 5, Sec 6.5", "PCVB ≈ CVB in link-prediction MAP (max absolute "
          "difference of run means)", 0.0, how="abs", tolerance="claims.similar_abs",
          group="links"),
    Claim("C12c", "Fig 5, Sec 6.5", "PCVB0 ≈ CVB0 in link-prediction MAP (max absolute "
          "difference of run means)", 0.0, how="abs", tolerance="claims.similar_abs",
          group="links"),
    Claim("C12d", "Fig 5, Sec 6.5", "link-prediction MAP lies in the document's axis range",
          "axis range midpoint", how="abs", data_kind="none", group="links"),
    Claim("C14", "Sec 5.3", "Σ_d I(n_dk ≥ 1) ≤ m_·k (table-count lower bound) in a collapsed "
          "Gibbs run of Eqs 13–16, every iteration", "lower bound", data_kind="identity",
          note="true for every Gibbs sample by construction (m_dk >= 1 iff n_dk >= 1): a check "
          "of the sampler, counted apart from empirical claims"),
]  # fmt: skip
STUDY.claims(CLAIMS, settings=ClaimsSettings)


# ------------------------------------------------------------------ counter-examples
for _cid in ("C1b", "C15a", "C8", "C9", "C10", "C13", "C16", "C11a", "C12a"):
    counter_example("hdp_pcvb0", _cid)(direction_passes)


# ------------------------------------------------------------------ inputs
def _kind(ctx, ds: str) -> str:
    spec = ctx.settings.datasets.get(ds)
    return spec.data_kind if spec is not None else "synthetic"


def _paper(ctx, ds: str) -> str:
    spec = ctx.settings.datasets.get(ds)
    return spec.paper if spec is not None else ""


def _by_dataset(ctx, name: str) -> dict[str, list[dict]]:
    def load():
        per: dict[str, list] = {}
        for p in ctx.input_list(name):
            r = json.loads(p.read_text())
            per.setdefault(r["dataset"], []).append(r)
        return per

    return ctx._cached(("runs", name), load)


def _bench(ctx):
    b = bench_table(ctx.bench())
    bm = b[b.kind == "method"].set_index(["config", "T"])
    Tb = sorted(bm.index.get_level_values("T").unique())
    return bm, Tb


def _bench_row(ctx, value, identity: bool = False, **kw) -> Measured:
    ds = ctx.settings.bench.dataset
    return Measured(value, dataset=ds, data_kind="identity" if identity else _kind(ctx, ds), **kw)


def _bench_sides(ctx, a, b, **kw) -> Sides:
    ds = ctx.settings.bench.dataset
    return Sides(a, b, dataset=ds, data_kind=_kind(ctx, ds), unit="bench runs", **kw)


# ------------------------------------------------------------------ bench (C1, C15)
@STUDY.claim("C1")
def _c1(ctx):
    bm, Tb = _bench(ctx)
    ok = all(
        bm.loc[("pcvb0_AS", T), "state_mb"] < bm.loc[("cvb_AS", T), "state_mb"]
        and bm.loc[("pcvb0_AS", T), "state_mb"] < bm.loc[("pcvb_AS", T), "state_mb"]
        for T in Tb
    )
    note = "arrays kept (HDPLDA.state_bytes): all methods q, E-counts, log-zero stats; CVB, "
    note += "CVB0, PCVB also variance counts; " + "; ".join(
        f"T={T}: PCVB0 {bm.loc[('pcvb0_AS', T), 'state_mb']:.1f} MB, "
        f"PCVB {bm.loc[('pcvb_AS', T), 'state_mb']:.1f} MB, CVB "
        f"{bm.loc[('cvb_AS', T), 'state_mb']:.1f} MB"
        for T in Tb
    )
    return _bench_row(ctx, ok, identity=True, note=note)


@STUDY.claim("C1b")
def _c1b(ctx):
    bm, Tb = _bench(ctx)
    if "alloc_peak_mb" not in bm.columns:
        return NotRun("bench.csv has no allocation peaks (tracemalloc) in this run")
    Tm = max(Tb)
    al = {c: bm.loc[(c, Tm), "alloc_peak_mb"] for c in ("pcvb0_AA", "pcvb_AA", "cvb0_AA", "cvb_AA")}
    return _bench_sides(
        ctx,
        float(al["pcvb0_AA"]),
        float(al["cvb_AA"]),
        labels=("PCVB0 AA MB", "CVB AA MB"),
        statement="PCVB0 allocates less memory than CVB (tracemalloc peak of numpy buffers "
        f"over initialisation and the bench iterations, AA, T = {Tm})",
        note="margin 0: Fig 1 places the methods by memory without numbers; "
        + ", ".join(f"{c}: {v:.1f} MB" for c, v in al.items()),
    )


@STUDY.claim("C15a")
def _c15a(ctx):
    bm, Tb = _bench(ctx)
    Tm = max(Tb)
    cvb, pc = (float(bm.loc[(c, Tm), "sec_per_iter"]) for c in ("cvb_AA", "pcvb0_AA"))
    return _bench_sides(
        ctx,
        cvb,
        pc,
        labels=("CVB AA s/iter", "PCVB0 AA s/iter"),
        statement=f"PCVB0 is cheaper per iteration than CVB (AA, T = {Tm}; seconds per "
        "iteration; the document gives no speed number, Fig 1 and Sec 7 say 'cheaper')",
        note=f"speed-up CVB/PCVB0 {cvb / pc:.3g}",
    )


@STUDY.claim("C15b")
def _c15b(ctx):
    bm, _ = _bench(ctx)
    loc = bm.groupby("method")["loc"].first()
    return _bench_row(
        ctx,
        bool(loc["pcvb0"] < loc["cvb"]),
        identity=True,
        note=", ".join(f"{m}: {v}" for m, v in loc.items()),
    )


# ------------------------------------------------------------------ "similar" rows
def method_gap(mean: pd.Series, rel: bool) -> float:
    """The difference the document calls "(P)CVB0 outperformed (P)CVB" (Sec 6.3–6.5), as
    measured on the same cells: mean over (T, prior, pair) of |zero − second order| run
    means, relative to the second order for perplexity. NaN without a pair."""
    d = []
    for m, p, T in mean.index:
        for z, sec in PAIRS:
            if m == z and (sec, p, T) in mean:
                x = abs(float(mean[(z, p, T)]) - float(mean[(sec, p, T)]))
                d.append(x / float(mean[(sec, p, T)]) if rel else x)
    return float(np.mean(d)) if d else float("nan")


def similar_row(value: float, gap: float, setting: float, name: str) -> Measured:
    """A "similar" row (C2, C6, C7, C11b/c, C12b/c; the document gives no numbers): the
    tolerance is the setting, capped at half the zero- vs second-order gap measured on the
    same cells (issue 21: at most half the effect the document reports between methods),
    and that gap is a value the rule must refuse (``reject``)."""
    if not np.isfinite(gap):
        return Measured(value, note=f"no zero/second-order pair here: tolerance claims.{name}")
    tol = min(float(setting), gap / 2)
    return Measured(
        value,
        tolerance=tol,
        reject=[gap],
        note=f"tolerance {tol:.3g} = min(claims.{name} {setting:g}, half the zero- vs "
        f"second-order gap {gap:.3g} on the same cells, the difference the document calls "
        "'outperformed'); that gap must be refused",
    )


# ------------------------------------------------------------------ C2, C3, C14
@STUDY.claim("C2")
def _c2(ctx):
    ini = ctx.json("init")
    spread = []
    for c in dict.fromkeys(r["config"] for r in ini["runs"]):
        v = [r["perplexity"] for r in ini["runs"] if r["config"] == c]
        spread.append((max(v) - min(v)) / min(v))
    note = "; ".join(
        f"{r['config']} ×{r['factor']}: ppl {r['perplexity']:.2f}, α0 "
        f"{r['alpha0']:.3g}, β0 {r['beta0']:.3g}, γ0 {r['gamma0']:.3g}"
        for r in ini["runs"]
    )
    ds = ini["dataset"]
    ppl = _by_dataset(ctx, "perplexity").get(ds)
    gap = np.nan
    if ppl:
        a = _analysis(ctx, ds, ppl)
        gap = method_gap(a["mean"], rel=True)
    m = similar_row(float(max(spread)), gap, ctx.settings.claims.init_rel, "init_rel")
    m.dataset, m.data_kind, m.note = ds, _kind(ctx, ds), f"{m.note}; {note}"
    return m


@STUDY.claim("C3a")
def _c3a(ctx):
    return float(gamma_fn(1.05))


@STUDY.claim("C3b")
def _c3b(ctx):
    return float(gamma_fn(0.05))


@STUDY.claim("C3c")
def _c3c(ctx):
    a = np.linspace(0.01, 1.0, 100)
    return bool(
        np.all(gamma_fn(a) <= 1 / a + 1e-12)
        and np.all(gamma_fn(a + 1) <= 1 + 1e-12)
        and all(np.all(gamma_fn(n + a) >= gamma_fn(n)) for n in range(2, 21))
    )


@STUDY.claim("C14")
def _c14(ctx):
    g = ctx.json("gibbs")
    return Measured(
        bool(g["table_bound_all_iterations"]),
        dataset=g["dataset"],
        data_kind="identity",
        note=f"tables {g['tables_total']} >= doc-topic pairs {g['doc_topic_pairs']}; "
        f"Gibbs perplexity {g['perplexity']:.2f} at T={g['T']}",
    )


# ------------------------------------------------------------------ perplexity (Fig 2, 3)
def _iters_to(trace, rel):
    """Iterations after which the trace stays within ``rel`` of its final value."""
    final = trace[-1]
    ok = np.flatnonzero(np.abs(np.asarray(trace) - final) <= rel * final)
    last_bad = -1
    for i in range(len(trace)):
        if abs(trace[i] - final) > rel * final:
            last_bad = i
    return int(last_bad + 2) if len(ok) else len(trace)


def _trace_T(results: list[dict]) -> int:
    """The dataset's trace T (a configuration left out of it records None)."""
    return max(r["trace_T"] for r in results if r.get("trace_T") is not None)


def _analyse(results: list[dict], tol) -> dict:
    """Everything the Fig 3 claims of one dataset read."""
    df = pd.DataFrame(
        [
            {"config": r["config"], "method": r["method"], "prior": r["prior"], **run}
            for r in results
            for run in r["runs"]
        ]
    )
    tT = _trace_T(results)

    def at_trace(key):  # configurations that ran the trace T (per_dataset.max_T_configs)
        return {
            (r["method"], r["prior"]): np.mean(
                [run[key] for run in r["runs"] if run["T"] == tT], axis=0
            )
            for r in results
            if any(run["T"] == tT for run in r["runs"])
        }

    tr, en = at_trace("trace"), at_trace("entropy")
    return {
        "df": df,
        "mean": df.groupby(["method", "prior", "T"])["final_perplexity"].mean(),
        "runs": {
            k: dict(zip(g["run"], g["final_perplexity"], strict=True))
            for k, g in df.groupby(["method", "prior", "T"])
        },
        "Ts": sorted(df["T"].unique()),
        "priors": sorted(df.prior.unique()),
        "tT": tT,
        "tr": tr,
        "en": en,
        "its": {k: _iters_to(v, tol.converge_rel) for k, v in tr.items()},
        "e_it": min(int(tol.entropy_iteration), results[0]["iterations"]) - 1,
        "truth": results[0].get("truth"),
    }


def _analysis(ctx, ds: str, results: list[dict]) -> dict:
    """:func:`_analyse` of one perplexity dataset, computed once per claims step."""
    return ctx._cached(("analysis", ds), lambda: _analyse(results, ctx.settings.claims))


def _each_ppl(ctx, fn):
    """One row per perplexity dataset: ``fn(a) -> Measured`` on its analysis."""
    rows = []
    for ds, res in _by_dataset(ctx, "perplexity").items():
        a = _analysis(ctx, ds, res)
        m = fn(a)
        m.dataset, m.data_kind = ds, _kind(ctx, ds)
        rows.append(m)
    return rows


def _private(where, statement, paper_value, names):
    """Rows of the document's corpora this run cannot test: not_testable for the private
    ones (WSJ, 7conf), not_run for the public UCI Enron text."""
    return [
        NotRun(ENRON_NOT_RUN, dataset=n, data_kind="real", paper_value=paper_value(n))
        if n == "Enron"
        else NotTestable(
            PRIVATE[n],
            dataset=n,
            where=where,
            statement=statement.format(n),
            paper_value=paper_value(n),
        )  # fmt: skip
        for n in names
    ]


PAPER_T = (100, 200, 300)  # Sec 6: T ∈ {100, 200, 300} in Fig 3 left
REVERSAL = (
    "published/real/REVERSALS.md (issue 22 case 1: at T = 300 the zero-order "
    "methods stay at the symmetric, unigram-level state from the document's initialisation; "
    "reproduced on data with known topics by tests/models/hdp/test_hdp_known_truth.py)"
)


def c5_cells(runs: dict, T: int, priors) -> list[dict]:
    """The C5 comparisons at one T: per (prior, pair) the paired differences second − zero
    order (> 0: the zero-order method is lower), by run, over the runs both configurations
    share."""
    out = []
    for p in priors:
        for z, s in PAIRS:
            if (z, p, T) in runs and (s, p, T) in runs:
                rz, rs = runs[(z, p, T)], runs[(s, p, T)]
                both = sorted(set(rz) & set(rs))
                by_run = {r: rs[r] - rz[r] for r in both}
                out.append({"prior": p, "zero": z, "second": s, "by_run": by_run,
                            "diff": np.array(list(by_run.values()))})  # fmt: skip
    return out


def c5_per_run(cells: list[dict]) -> list[float]:
    """One C5 replicate per run: the fraction of that run's (prior, pair) cells where the
    zero-order method is lower (issue 38: the runs are the replicates, not the cells)."""
    runs = sorted({r for c in cells for r in c["by_run"]})
    return [float(np.mean([c["by_run"][r] > 0 for c in cells if r in c["by_run"]])) for r in runs]


def c5_row(runs: dict, T: int, priors) -> Measured:
    """One C5 row per T: in each run, the fraction of the (prior, pair) cells at that T
    where the zero-order method is lower; reproduced only if it is 1 (every cell) beyond the
    runs' noise (paper value 1, no tolerance). A single cell lost in every run (Cora: CVB
    below CVB0 AA by 182) makes the row not_reproduced; it cannot pass on a win fraction."""
    cells = c5_cells(runs, T, priors)
    per_run = c5_per_run(cells)
    n = "/".join(str(k) for k in sorted({len(c["diff"]) for c in cells})) or "0"
    txt = []
    for c in cells:
        d = c["diff"]
        txt.append(
            f"{c['second']}−{c['zero']} {c['prior']}: {d.mean():+.1f}"
            + (f" [{d.min():+.1f}, {d.max():+.1f}]" if len(d) > 1 else "")
        )
    k = len(cells)
    return Measured(
        per_run,
        paper_value=1.0,
        tolerance=0.0,
        reject=[(k - 1) / k],  # one cell lost in a run (Cora's CVB0 AA) must be refused
        statement=f"T = {T}: CVB0 and PCVB0 give lower test perplexity than CVB and PCVB "
        f"(per run, the fraction of the {len(cells)} (prior, pair) cell(s) at this T where "
        "the zero-order method is lower; reproduced only if every cell, beyond the runs' "
        "noise)",
        note=f"perplexity difference second − zero order, mean [min, max] over {n} run(s)"
        + (" (one run: no spread measured)" if n == "1" else "")
        + ": "
        + "; ".join(txt),
        unit="runs",
    )


def c5_not_run(run_Ts, ds: str, kind: str) -> list[NotRun]:
    """One not_run row per T of the document's Fig 3 left (T = 100, 200, 300) that this
    run's dataset lacks, with the per-T id of the row it would have (``C5-T100``)."""
    have = {int(x) for x in run_Ts}
    return [
        NotRun(
            f"the document's T = {T} is not in this run's hdp_pcvb0.perplexity.T for this "
            f"dataset (it ran T = {', '.join(map(str, sorted(have))) or 'none'}); "
            "config/paper.yaml runs T = 100, 200, 300",
            dataset=ds,
            data_kind=kind,
            claim_id=f"C5-T{T}",
            statement=f"T = {T}: CVB0 and PCVB0 give lower test perplexity than CVB and PCVB "
            "(every (prior, pair) cell, every paired run)",
        )
        for T in PAPER_T
        if T not in have
    ]


@STUDY.claim("C5")
def _c5(ctx):
    rows = []
    for ds, res in _by_dataset(ctx, "perplexity").items():
        a = _analysis(ctx, ds, res)
        for T in a["Ts"]:
            if not c5_cells(a["runs"], T, a["priors"]):
                continue  # no pair ran at this T (e.g. only the trace configurations)
            m = c5_row(a["runs"], int(T), a["priors"])
            m.claim_id = f"C5-T{int(T)}"
            if int(T) == 300 and ds == "kos":
                mean = a["mean"]
                extra = [
                    f"{c.upper()} {p} {mean[(c, p, 300)]:.1f}"
                    for c in ("cvb", "cvb0", "pcvb", "pcvb0")
                    for p in a["priors"]
                    if (c, p, 300) in mean
                ]
                m.note += f"; means at T = 300: {', '.join(extra)}; evidence: {REVERSAL}"
            m.dataset, m.data_kind = ds, _kind(ctx, ds)
            rows.append(m)
        rows += c5_not_run(a["Ts"], ds, _kind(ctx, ds))
    private = _private("Fig 3", "perplexity orderings on {}", lambda n: "(P)CVB0 < (P)CVB",
                       ("WSJ", "Enron", "7conf"))  # fmt: skip
    return rows + private


def _similar(a, x, y, rel):
    mean = a["mean"]
    d = [
        abs(mean[(x, p, T)] - mean[(y, p, T)]) / mean[(y, p, T)]
        for T in a["Ts"]
        for p in a["priors"]
        if (x, p, T) in mean and (y, p, T) in mean
    ]
    if not d:  # a partial run (a readings sweep) fitted only some configurations
        raise MissingInput("hdp_pcvb0 claims", f"perplexity runs of both {x} and {y}", {})
    return similar_row(float(max(d)), method_gap(mean, rel=True), rel, "similar_rel")


@STUDY.claim("C6a")
def _c6a(ctx):
    rel = ctx.settings.claims.similar_rel
    return _each_ppl(ctx, lambda a: _similar(a, "pcvb", "cvb", rel))


@STUDY.claim("C6b")
def _c6b(ctx):
    rel = ctx.settings.claims.similar_rel
    return _each_ppl(ctx, lambda a: _similar(a, "pcvb0", "cvb0", rel))


@STUDY.claim("C7")
def _c7(ctx):
    def row(a):
        mean = a["mean"]
        d = [
            abs(mean[(m, "AS", T)] - mean[(m, "AA", T)]) / mean[(m, "AA", T)]
            for m in ("cvb", "cvb0", "pcvb", "pcvb0")
            for T in a["Ts"]
            if (m, "AS", T) in mean and (m, "AA", T) in mean
        ]
        if not d:
            return NotRun("this run has no method in both AS and AA")
        return similar_row(
            float(max(d)), method_gap(mean, rel=True), ctx.settings.claims.similar_rel,
            "similar_rel",
        )  # fmt: skip

    return _each_ppl(ctx, row)


def pair_sides(a, what: str):
    """Second- and zero-order values per (prior, pair) at the trace T (Fig 3 right, Sec
    6.6): ``what`` is ``its`` (iterations to converge, C8), ``final`` (final perplexity of
    the run-mean trace, C9) or ``entropy`` (mean entropy of q at claims.entropy_iteration,
    C10). Returns (second, zero, cell names)."""
    its, tr, en, e_it = a["its"], a["tr"], a["en"], a["e_it"]
    get = {"its": lambda k: its[k], "final": lambda k: tr[k][-1], "entropy": lambda k: en[k][e_it]}
    sec, zero, names = [], [], []
    for p in a["priors"]:
        for z, s in (("cvb0", "cvb"), ("pcvb0", "pcvb")):
            if (z, p) in its and (s, p) in its:
                sec.append(float(get[what]((s, p))))
                zero.append(float(get[what]((z, p))))
                names.append(f"{s}/{z} {p}")
    return sec, zero, names


def _pair_row(a, what, labels, statement):
    sec, zero, names = pair_sides(a, what)
    fmt = ".0f" if what == "its" else ".3f" if what == "entropy" else ".1f"
    return Sides(
        sec,
        zero,
        labels=labels,
        unit="(prior, pair) cells",
        statement=statement,
        note="margin 0 (the document gives no values); run-mean traces at T = "
        f"{a['tT']}: "
        + "; ".join(
            f"{n}: {x:{fmt}} vs {y:{fmt}}" for n, x, y in zip(names, sec, zero, strict=True)
        ),
    )


@STUDY.claim("C8")
def _c8(ctx):
    rel = ctx.settings.claims.converge_rel
    return _each_ppl(ctx, lambda a: _pair_row(
        a, "its", ("CVB/PCVB iterations", "CVB0/PCVB0 iterations"),
        "CVB and PCVB converge in fewer iterations than CVB0 and PCVB0 (iterations to stay "
        f"within {rel:.0%} of the final perplexity, T = {a['tT']}; all pairs)",
    ))  # fmt: skip


@STUDY.claim("C9")
def _c9(ctx):
    return _each_ppl(ctx, lambda a: _pair_row(
        a, "final", ("CVB/PCVB final ppl", "CVB0/PCVB0 final ppl"),
        "second order converges to worse optima: higher final test perplexity than zero "
        f"order (T = {a['tT']}, all pairs; 'faster' is C8's row)",
    ))  # fmt: skip


@STUDY.claim("C10")
def _c10(ctx):
    return _each_ppl(ctx, lambda a: _pair_row(
        a, "entropy", ("CVB/PCVB entropy", "CVB0/PCVB0 entropy"),
        "the exp(−V/x²) factor makes q(z) sharper early: mean entropy of q at iteration "
        f"{a['e_it'] + 1} lower for CVB/PCVB than CVB0/PCVB0 (all pairs)",
    ))  # fmt: skip


def c13_per_run(pc: pd.DataFrame) -> tuple[list[float], list[str]]:
    """One C13 replicate per run: PCVB0's largest share of topics in use, K_eff / T, over
    the run's (T, prior) cells (the claim holds in a run only if it is below 1 in every
    cell; issue 38: the runs are the replicates, not the cells). Returns the shares and
    where each run's largest one is."""
    worst, where = [], []
    for _, g in pc.groupby("run"):
        share = g["effective_topics"] / g["T"]
        i = share.idxmax()
        worst.append(float(share[i]))
        where.append(f"T={int(g.loc[i, 'T'])} {g.loc[i, 'prior']}")
    return worst, where


@STUDY.claim("C13")
def _c13(ctx):
    def row(a):
        df = a["df"]
        pc = df[df.method == "pcvb0"].sort_values(["T", "prior", "run"])
        eff = pc.groupby("T")["effective_topics"].mean()
        Tmin, Tmax = min(eff.index), max(eff.index)
        truth = a["truth"]
        worst, where = c13_per_run(pc)
        note = "PCVB0 run means " + ", ".join(f"T={t}: {eff[t]:.1f}" for t in eff.index)
        if Tmax > Tmin:
            note += (f"; growth K_eff(T={Tmax}) / K_eff(T={Tmin}) = "
                     f"{eff[Tmax] / eff[Tmin]:.3g} vs T ratio {Tmax / Tmin:.3g}")  # fmt: skip
        note += "; largest K_eff / T per run: " + ", ".join(
            f"{w:.3g} ({c})" for w, c in zip(worst, where, strict=True)
        )
        note += f"; true topics with π > 1e-3: {truth}" if truth else ""
        return Sides(
            worst,
            [1.0] * len(worst),
            labels=("PCVB0 max K_eff/T", "1"),
            unit="runs",
            note=note,
        )

    return _each_ppl(ctx, row)


@STUDY.claim("C16")
def _c16(ctx):
    rel = ctx.settings.claims.similar_rel

    def row(a):
        runs, Tmax = a["runs"], max(a["Ts"])
        pc, cv = [], []
        for p in a["priors"]:
            if ("pcvb0", p, Tmax) in runs and ("cvb", p, Tmax) in runs:
                x, y = runs[("pcvb0", p, Tmax)], runs[("cvb", p, Tmax)]
                both = sorted(set(x) & set(y))
                pc += [float(x[r]) for r in both]
                cv += [float(y[r]) for r in both]
        mean = a["mean"]
        vs0 = ", ".join(
            f"{p}: PCVB0 {mean[('pcvb0', p, Tmax)]:.1f} vs CVB0 {mean[('cvb0', p, Tmax)]:.1f}"
            for p in a["priors"]
            if ("pcvb0", p, Tmax) in mean and ("cvb0", p, Tmax) in mean
        )
        return Sides(
            pc,
            cv,
            labels=("PCVB0 ppl", "CVB ppl"),
            unit="(prior, run)",
            statement=f"PCVB0 predicts better than CVB: lower test perplexity (T = {Tmax}, "
            "every prior and paired run; 'as well as CVB0' is C6b's row)",
            note=f"margin 0 (the document gives no values); vs CVB0 (C6b, within {rel:.0%}): "
            + vs0,
        )

    return _each_ppl(ctx, row)


def _alpha_pi_max(results, config):
    return [
        np.max(run["alpha_pi_E"])
        for r in results
        if r["config"] == config
        for run in r["runs"]
        if "alpha_pi_E" in run
    ]


@STUDY.claim("C4a")
def _c4a(ctx):
    rows = []
    for ds, res in _by_dataset(ctx, "perplexity").items():
        cv, pc = _alpha_pi_max(res, "cvb_AA"), _alpha_pi_max(res, "pcvb0_AA")
        if not cv:
            rows.append(NotRun("this run has no cvb_AA configuration", dataset=ds))
            continue
        rows.append(Measured(
            float(max(cv)), dataset=ds, data_kind=_kind(ctx, ds),
            statement=f"every E[α0π_k] under CVB AA (T = {_trace_T(res)}) is below 1, the "
            "premise of Eq 20 (max over k and runs)",
            note=f"PCVB0 AA max α0E[π_k] = {max(pc):.4f}" if pc else "",
        ))  # fmt: skip
    return rows


@counter_example("hdp_pcvb0", "C4a")
def _(row):
    """The rule "max E[α0π_k] <= 1" on α0π_k = 1.05 (the caption's Γ(1 + 0.05): past the
    premise of Eq 20) and on the document's largest maximum (KOS 0.1532)."""
    return {
        "fails": judge(1.0, 1.05, "le", 0.0)[0],
        "passes": judge(1.0, FIG2_MAX["KOS"], "le", 0.0)[0],
    }


def fig2_tolerance(corpus: str, rel: float) -> tuple[float, list[float]]:
    """C4b: a relative tolerance no wider than half the gap between this corpus's maximum
    and the nearest other maximum of the Fig 2 caption (the spread across the column), and
    the other maxima, which the rule must refuse."""
    x = FIG2_MAX[corpus]
    others = [v for k, v in FIG2_MAX.items() if k != corpus]
    half = min(abs(v - x) for v in others) / 2 / x
    return min(float(rel), half), others


def _bin_shares(results, config) -> str:
    """Share of E[α0π_k] in each Fig 2 bin, pooled over runs (figures.BINS)."""
    from latentlab.studies.hdp_pcvb0.figures import BINS

    v = np.concatenate(
        [run["alpha_pi_E"] for r in results if r["config"] == config for run in r["runs"]
         if "alpha_pi_E" in run] or [np.array([])]
    )  # fmt: skip
    if not v.size:
        return ""
    return "Fig 2 bins " + ", ".join(
        f"{name}: {np.mean((v > lo) & (v <= hi)):.1%}" for name, lo, hi in BINS
    )


@STUDY.claim("C4b")
def _c4b(ctx):
    rows = []
    for ds, res in _by_dataset(ctx, "perplexity").items():
        paper, cv = _paper(ctx, ds), _alpha_pi_max(res, "cvb_AA")
        base = paper.removesuffix("-standin")
        if base in FIG2_MAX and cv:
            stand = base != paper
            tol, others = fig2_tolerance(base, ctx.settings.claims.fig2_rel)
            rows.append(Measured(
                float(np.mean(cv)), dataset=ds, data_kind=_kind(ctx, ds),
                paper_value=FIG2_MAX[base], tolerance=tol, reject=others,
                statement=f"maximum E[α0π_k] under CVB AA on {base}"
                f"{f' (stand-in {ds})' if stand else ''} (T = {_trace_T(res)}; paper: "
                "T = 300)",
                note=f"relative tolerance {tol:.3g} = min(claims.fig2_rel, half the gap to the "
                "nearest other corpus's maximum in the caption, relative); the other corpora's "
                "maxima must be refused; " + _bin_shares(res, "cvb_AA"),
            ))  # fmt: skip
    return rows + _private("Fig 2 caption", "maximum E[α0π_k] under CVB AA on {}",
                           FIG2_MAX.get, ("WSJ", "Enron", "7conf"))  # fmt: skip


@STUDY.claim("C4c")
def _c4c(ctx):
    """Per run, the 99th percentile of E[β_v] against the caption's maximum E[α_k] of the
    corpus (its stand-in's document corpus; the largest maximum, KOS's, for a corpus the
    caption does not list): the runs are the replicates. The old bar, E[β_v] < 1 (the
    premise of Eq 20), must be refused."""
    rows = []
    for ds, res in _by_dataset(ctx, "perplexity").items():
        bs = [run["beta_v_E"] for r in res if r["config"] == "cvb_AA" for run in r["runs"]
              if "beta_v_E" in run]  # fmt: skip
        if not bs:
            rows.append(NotRun("this run has no cvb_AA configuration", dataset=ds))
            continue
        base = _paper(ctx, ds).removesuffix("-standin")
        bar_of = base if base in FIG2_MAX else "KOS"
        alpha = _alpha_pi_max(res, "cvb_AA")
        rows.append(Measured(
            [float(b["q99"]) for b in bs], dataset=ds, data_kind=_kind(ctx, ds),
            paper_value=FIG2_MAX[bar_of], reject=[1.0], unit="runs",
            statement="E[β_v] under CVB AA also takes small values as E[α_k] does: 99th "
            f"percentile of E[β_v] over the words seen in training (T = {_trace_T(res)}), at "
            f"most the caption's maximum E[α_k] on {bar_of}"
            + ("" if bar_of == base else " (the caption's largest; it lists no "
               f"{base or ds})"),
            note="max " + ", ".join(f"{b['max']:.3g}" for b in bs) + "; median "
            + ", ".join(f"{b['q50']:.3g}" for b in bs) + "; share below 1 "
            + ", ".join(f"{b['frac_below_1']:.4f}" for b in bs) + " (per run)"
            + (f"; our own max E[α0π_k] {max(alpha):.3g}" if alpha else ""),
        ))  # fmt: skip
    return rows


def range_row(values: dict, lo: float, hi: float, step: float, chance=None, fmt=".0f"):
    """Every value inside the document's axis range [lo, hi] (the document gives no series
    values, only its axes): our value is the one farthest from the midpoint, judged
    |x − mid| <= (hi − lo)/2; a value one tick step outside the range (and the protocol's
    chance level, where given) must be refused."""
    mid, half = (lo + hi) / 2, (hi - lo) / 2
    far = max(values, key=lambda k: abs(values[k] - mid))
    out = [f"{k}: {x:{fmt}}" for k, x in values.items() if not lo <= x <= hi]
    vals = np.array(list(values.values()))
    reject = [lo - step, hi + step] + ([chance] if chance is not None else [])
    return Measured(
        float(values[far]),
        paper_value=mid,
        tolerance=half,
        reject=reject,
        note=f"axis [{lo}, {hi}]: the value farthest from its midpoint ({far}); ours "
        f"{vals.min():{fmt}}–{vals.max():{fmt}}"
        + (f"; outside: {', '.join(out[:6])}" if out else "")
        + "; refused: one tick step outside the axis"
        + (f" and chance ({chance:.3g})" if chance is not None else ""),
    )


def _axis_rows(ctx, ranges, steps, values, what):
    """One row per perplexity dataset standing for a corpus with a Fig 3 axis range: are
    all ``values(a)`` inside the document's range (:func:`range_row`)? Others: nothing to
    compare."""
    rows = []
    for ds, res in _by_dataset(ctx, "perplexity").items():
        paper = _paper(ctx, ds).removesuffix("-standin")
        if paper not in ranges:
            continue
        a = _analysis(ctx, ds, res)
        lo, hi = ranges[paper]
        m = range_row(values(a), lo, hi, steps[paper])
        m.dataset, m.data_kind = ds, _kind(ctx, ds)
        m.statement = f"{what} lies in the document's y-axis range [{lo}, {hi}] for {paper}"
        rows.append(m)
    return rows or NotRun(
        "no perplexity dataset of this run stands for a corpus of Fig 3 (its `paper` key); "
        "config/real.yaml runs KOS",
        data_kind="none",
    )


@STUDY.claim("F3-left")
def _f3_left(ctx):
    def values(a):
        return {f"{m} {p} T={T}": float(v) for (m, p, T), v in a["mean"].items()}

    return _axis_rows(ctx, FIG3_LEFT, FIG3_LEFT_STEP, values,
                      "test perplexity of every configuration and T (run means)")  # fmt: skip


@STUDY.claim("F3-right")
def _f3_right(ctx):
    i0, i1 = FIG3_RIGHT_ITERS

    def values(a):
        out = {}
        for (m, p), tr in a["tr"].items():
            seg = np.asarray(tr)[i0 - 1 : i1]
            out[f"{m} {p} min"], out[f"{m} {p} max"] = float(seg.min()), float(seg.max())
        return out

    return _axis_rows(ctx, FIG3_RIGHT, FIG3_RIGHT_STEP, values,
                      f"test perplexity at iterations {i0}–{i1} of every configuration "
                      "(trace T, run mean)")  # fmt: skip


# ------------------------------------------------------------------ kNN, links (Fig 4, 5)
def _metric_frame(results, key, k) -> pd.DataFrame:
    rows = []
    for r in results:
        m, p = r["config"].split("_")
        for run in r["runs"]:
            v = run[key][k] if k is not None else run[key]
            rows.append({"method": m, "prior": p, "T": run["T"], "run": run["run"], "v": v})
    return pd.DataFrame(rows)


def _metric_means(results, key, k):
    df = _metric_frame(results, key, k)
    return (
        df.groupby(["method", "prior", "T"])["v"].mean(),
        sorted(df["T"].unique()),
        sorted(df.prior.unique()),
    )


def _each_metric(ctx, group, key, k, fn):
    rows = []
    for ds, res in _by_dataset(ctx, group).items():
        mean, Ts, priors = _metric_means(res, key, k)
        m = fn(ds, mean, Ts, priors)
        if m is not None:
            m.dataset, m.data_kind = ds, _kind(ctx, ds)
            rows.append(m)
    return rows


def paired_runs(df: pd.DataFrame):
    """Zero- and second-order values per (T, prior, pair, run) over the runs both
    configurations share (Figs 4, 5: '(P)CVB0 outperformed (P)CVB'), with cell notes."""
    by = {key: g.set_index("run")["v"] for key, g in df.groupby(["method", "prior", "T"])}
    zero, sec, notes = [], [], []
    for T in sorted(df["T"].unique()):
        for p in sorted(df.prior.unique()):
            for z, s in PAIRS:
                if (z, p, T) in by and (s, p, T) in by:
                    both = sorted(set(by[(z, p, T)].index) & set(by[(s, p, T)].index))
                    dz = [float(by[(z, p, T)][r]) for r in both]
                    ds_ = [float(by[(s, p, T)][r]) for r in both]
                    zero += dz
                    sec += ds_
                    d = np.subtract(dz, ds_)
                    notes.append(f"{z}−{s} {p} T={T}: {d.mean():+.3f} [{d.min():+.3f}, "
                                 f"{d.max():+.3f}]")  # fmt: skip
    return zero, sec, notes


def _wins(ctx, group, key, k, what):
    rows = []
    for ds, res in _by_dataset(ctx, group).items():
        zero, sec, notes = paired_runs(_metric_frame(res, key, k))
        rows.append(Sides(
            zero, sec, labels=("(P)CVB0", "(P)CVB"), unit="(T, prior, pair, run)",
            dataset=ds, data_kind=_kind(ctx, ds),
            statement=f"(P)CVB0 beats (P)CVB in {what} in every (T, prior, pair) cell and "
            "every paired run (margin 0: the document gives no values)",
            note="zero − second order, mean [min, max] over runs: " + "; ".join(notes),
        ))  # fmt: skip
    return rows


def _close(ctx, group, key, k, a, b):
    tol = ctx.settings.claims.similar_abs

    def row(ds, mean, Ts, priors):
        d = [
            abs(mean[(a, p, T)] - mean[(b, p, T)])
            for T in Ts
            for p in priors
            if (a, p, T) in mean and (b, p, T) in mean
        ]
        if not d:
            return NotRun(f"this run has no {a} and {b} pair")
        return similar_row(float(max(d)), method_gap(mean, rel=False), tol, "similar_abs")

    return _each_metric(ctx, group, key, k, row)


def _in_range(ctx, group, key, k, what, ranges, steps, chance):
    def row(ds, mean, Ts, priors):
        paper = _paper(ctx, ds)
        if paper not in ranges:
            return None
        lo, hi = ranges[paper]
        vals = {f"{m} {p} T={T}": float(v) for (m, p, T), v in mean.items()}
        m = range_row(vals, lo, hi, steps[paper], chance[paper], fmt=".3f")
        m.statement = (
            f"{what} of every configuration and T (run means) lies in the "
            f"document's axis range [{lo}, {hi}] for {paper}; the document gives "
            "no series values, so this refuses chance but not a weaker model"
        )
        return m

    rows = _each_metric(ctx, group, key, k, row)
    return rows or NotRun(
        f"no dataset of this run stands for {' or '.join(ranges)} (the document's axis "
        "ranges); config/real.yaml runs them"
    )


@STUDY.claim("C11a")
def _c11a(ctx):
    return _wins(ctx, "knn", "accuracy", "7", "7-NN accuracy") + [
        NotTestable(PRIVATE["7conf"], dataset="7conf", where="Fig 4 (7conf panel)",
                    statement="7-NN accuracy on 7conf", paper_value="0.60–0.72 axis")
    ]  # fmt: skip


@STUDY.claim("C11b")
def _c11b(ctx):
    return _close(ctx, "knn", "accuracy", "7", "pcvb", "cvb")


@STUDY.claim("C11c")
def _c11c(ctx):
    return _close(ctx, "knn", "accuracy", "7", "pcvb0", "cvb0")


@STUDY.claim("C11d")
def _c11d(ctx):
    return _in_range(ctx, "knn", "accuracy", "7", "7-NN accuracy", FIG4_RANGE, FIG4_STEP,
                     FIG4_CHANCE)  # fmt: skip


@STUDY.claim("C12a")
def _c12a(ctx):
    return _wins(ctx, "links", "map", None, "link-prediction MAP")


@STUDY.claim("C12b")
def _c12b(ctx):
    return _close(ctx, "links", "map", None, "pcvb", "cvb")


@STUDY.claim("C12c")
def _c12c(ctx):
    return _close(ctx, "links", "map", None, "pcvb0", "cvb0")


@STUDY.claim("C12d")
def _c12d(ctx):
    return _in_range(ctx, "links", "map", None, "link-prediction MAP", FIG5_RANGE, FIG5_STEP,
                     FIG5_CHANCE)  # fmt: skip


from .causes import CAUSES  # noqa: E402

STUDY.causes(CAUSES)
