"""Tables and figures of Foulds (2014) ch. 5 from the raw per-document results.

Conventions (recorded in every output's metadata):

* perplexity ratio of a document: perp(1)/perp(2) = exp(-(L1 - L2)/N_d) (Eqs. 5.46-5.47);
  < 1 means model 1 (learned / asymmetric alpha) is preferred;
* "empirical variance" over the runs of a document: unbiased sample variance, which for
  two runs a, b is (a - b)^2 / 2 (P5.8), averaged over documents;
* corpus-level ratio (AMBIG in the document): exp(-sum_d mean_r(L1 - L2) / sum_d N_d);
* ratio-AIS "forward" anneals model 2 -> model 1, "reverse" model 1 -> 2; in the scatter
  plots (Figs 5.4/5.5) run 1 vs run 2 of LR and standard AIS, forward vs reverse of
  ratio-AIS (the pairing of the document's figures; P5.8).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from latentlab.outputs import write_figure, write_table
from latentlab.plotting import figure
from latentlab.studies.ais_eval.core import METHOD_LABELS, METHODS

CONVENTIONS = {
    "perplexity_ratio": "exp(-(L1-L2)/N_d), Eq. 5.47; < 1 favours model 1",
    "variance": "unbiased variance over runs per document ((a-b)^2/2 for two runs), averaged",
    "corpus_ratio": "exp(-sum_d mean_r (L1-L2) / sum_d N_d) (AMBIG, digest 1.5)",
    "directions": "forward = model 2 -> model 1; reverse = model 1 -> 2",
}


def _label(role, dataset, regime):
    return f"{role.upper()} stand-in {dataset} ({regime})"


def doc_variance(df: pd.DataFrame) -> pd.Series:
    """Mean over documents of the per-document variance of the perplexity ratio."""
    v = df.groupby(["method", "doc"])["perp_ratio"].var(ddof=1)
    return v.groupby("method").mean()


def corpus_ratio(df: pd.DataFrame) -> pd.Series:
    out = {}
    for m, g in df.groupby("method"):
        per_doc = g.groupby("doc").agg(lr=("logratio", "mean"), N=("N", "first"))
        out[m] = float(np.exp(-per_doc["lr"].sum() / per_doc["N"].sum()))
    return pd.Series(out)


def mean_updates(df: pd.DataFrame) -> pd.Series:
    """Token-level Gibbs updates per document and run (both models for LR / Std AIS)."""
    return df.groupby("method")["updates"].mean()


def pct_prefer(df: pd.DataFrame) -> pd.Series:
    """% of documents with perp ratio < 1 (model 1 preferred), averaged over runs."""
    return (
        df.groupby(["method", "run"])["perp_ratio"]
        .apply(lambda x: 100 * (x < 1).mean())
        .groupby("method")
        .mean()
    )


def _order(s: pd.Series) -> list:
    return [float(s.get(m, np.nan)) for m in METHODS]


def table5_1(raws: dict, out_csv, out_md, meta):
    rows = []
    for (role, dataset), df in raws.items():
        for regime in ("cheap", "expensive"):
            g = df[df.regime == regime]
            rows.append(
                [_label(role, dataset, regime), int(g.n_temps.iloc[0]), *_order(pct_prefer(g))]
            )
    t = pd.DataFrame(rows, columns=["corpus", "n_temps", *[METHOD_LABELS[m] for m in METHODS]])
    write_table(t, out_csv, out_md, {**meta, **CONVENTIONS}, floatfmt=".1f")
    return t


def table5_2(raws: dict, out_csv, out_md, meta):
    rows = []
    for stat, fn in (
        ("variance of per-document perplexity ratio", doc_variance),
        ("corpus-level perplexity ratio", corpus_ratio),
        ("token-level Gibbs updates per document and run", mean_updates),
    ):
        for (role, dataset), df in raws.items():
            for regime in ("cheap", "expensive"):
                g = df[df.regime == regime]
                rows.append([stat, _label(role, dataset, regime), *_order(fn(g))])
    t = pd.DataFrame(rows, columns=["statistic", "corpus", *[METHOD_LABELS[m] for m in METHODS]])
    write_table(t, out_csv, out_md, {**meta, **CONVENTIONS}, floatfmt=".3g")
    return t


def table5_3(raws: dict, out_csv, out_md, meta):
    rows = []
    for (role, dataset), df in raws.items():
        ref = df[df.regime == "lr_long"].set_index("doc")["perp_ratio"]
        for regime in ("cheap", "expensive"):
            g = df[df.regime == regime]
            rows.append(
                [
                    "variance of per-document perplexity ratio",
                    _label(role, dataset, regime),
                    *_order(doc_variance(g)),
                ]
            )
            rows.append(
                [
                    "corpus-level perplexity ratio (asym/sym)",
                    _label(role, dataset, regime),
                    *_order(corpus_ratio(g)),
                ]
            )
            corr = {}
            for m, gm in g[g.run == 0].groupby("method"):
                x = gm.set_index("doc")["perp_ratio"].reindex(ref.index)
                corr[m] = (
                    float(np.corrcoef(x, ref)[0, 1])
                    if len(ref) > 2 and x.std() > 0
                    else float("nan")
                )
            rows.append(
                [
                    "correlation with a long LR run",
                    _label(role, dataset, regime),
                    *_order(pd.Series(corr)),
                ]
            )
            rows.append(
                [
                    "token-level Gibbs updates per document and run",
                    _label(role, dataset, regime),
                    *_order(mean_updates(g)),
                ]
            )
    t = pd.DataFrame(rows, columns=["statistic", "corpus", *[METHOD_LABELS[m] for m in METHODS]])
    write_table(t, out_csv, out_md, {**meta, **CONVENTIONS}, floatfmt=".4g", allow_nan=True)
    return t


def fig_scatter(df: pd.DataFrame, title: str, png, csv, meta):
    """Figs 5.4/5.5: per-document perplexity ratios, run 1 (x) vs run 2 (y)."""
    pairs = [
        ("LR", ("lr", 0), ("lr", 1)),
        ("Std AIS", ("std_ais", 0), ("std_ais", 1)),
        ("Ratio-AIS geometric (fwd vs rev)", ("geo", 0), ("geo_rev", 0)),
        ("Ratio-AIS convex (fwd vs rev)", ("convex", 0), ("convex_rev", 0)),
    ]
    fig, axes = figure(2, 4, width=2.6, height=2.6)
    out = []
    for i, regime in enumerate(("cheap", "expensive")):
        g = df[df.regime == regime]
        n = int(g.n_temps.iloc[0])
        for j, (name, (mx, rx), (my, ry)) in enumerate(pairs):
            x = g[(g.method == mx) & (g.run == rx)].sort_values("doc")["perp_ratio"].to_numpy()
            y = g[(g.method == my) & (g.run == ry)].sort_values("doc")["perp_ratio"].to_numpy()
            ax = axes[i, j]
            ax.scatter(x, y, s=6, alpha=0.7)
            lo, hi = float(min(x.min(), y.min())), float(max(x.max(), y.max()))
            ax.plot([lo, hi], [lo, hi], "k-", lw=0.5)
            ax.axvline(1, color="grey", lw=0.5)
            ax.axhline(1, color="grey", lw=0.5)
            ax.set_title(f"{name}\n{n} temps", fontsize=7)
            for d, (a, b) in enumerate(zip(x, y, strict=True)):
                out.append(
                    {"regime": regime, "n_temps": n, "panel": name, "doc": d, "x": a, "y": b}
                )
    fig.suptitle(title, fontsize=8)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    write_figure(fig, png, pd.DataFrame(out), csv, {**meta, **CONVENTIONS})


def fig5_6(df: pd.DataFrame, png, csv, meta):
    fig, ax = figure(1, 1, width=4.5, height=3.2)
    for m, lab in (
        ("std_ais", "Std AIS"),
        ("geo", "Ratio-AIS (geometric)"),
        ("geo_rev", "Ratio-AIS (geometric, reverse)"),
    ):
        g = df[df.method == m].sort_values("n_temps")
        ax.errorbar(g.n_temps, g["mean"], yerr=g["sd"], label=lab, capsize=2, marker="o", ms=3)
    ax.set_xscale("log")
    ax.set_xlabel("number of temperatures n")
    ax.set_ylabel("estimated log P(w|Φ) − log P(w|Φ')")
    ax.legend()
    write_figure(fig, png, df, csv, meta)


def fig_iteration(df: pd.DataFrame, kind: str, title: str, png, csv, meta):
    """Figs 5.7/5.8 (kind='ll': mean held-out log-likelihood per document) and 5.9/5.10
    (kind='var': run-to-run variance, averaged over documents) vs training iteration."""
    rows = []
    for (m, n, it), g in df.groupby(["method", "n_temps", "iteration"]):
        if kind == "ll":
            val = g["loglik"].mean()
        else:
            val = g.groupby("doc")["loglik"].var(ddof=1).mean()
        rows.append({"method": m, "n_temps": int(n), "iteration": int(it), "value": float(val)})
    out = pd.DataFrame(rows)
    fig, ax = figure(1, 1, width=5, height=3.2)
    names = {"iteration_ais": "Iteration-AIS", "std_ais": "Std AIS", "lr": "LR"}
    for (m, n), g in out.groupby(["method", "n_temps"]):
        g = g.sort_values("iteration")
        ax.plot(
            g.iteration,
            g.value,
            label=f"{names[m]} ({n} temps)",
            ls="-" if n == out.n_temps.max() else "--",
        )
    ax.set_xlabel("training iteration")
    ax.set_ylabel(
        "mean held-out log-likelihood per document" if kind == "ll" else "variance across runs"
    )
    if kind == "var":
        ax.set_yscale("log")
    ax.set_title(title, fontsize=8)
    ax.legend(fontsize=6)
    write_figure(fig, png, out, csv, meta)
    return out


def fig5_11(stats: np.ndarray, title: str, png, csv, meta):
    df = pd.DataFrame(
        stats, columns=["iteration", "entropy", "log_prior", "alpha_sum", "beta", "optimized"]
    )
    df["optimized"] = df["optimized"].astype(bool)
    fig, axes = figure(1, 2, width=3.6, height=2.8)
    for ax, col, lab in (
        (axes[0], "entropy", "total topic entropy (nats)"),
        (axes[1], "log_prior", "log prior probability of the topics"),
    ):
        ax.plot(df.iteration, df[col], lw=1)
        for it in df.iteration[df.optimized]:
            ax.axvline(it, color="red", lw=0.4, alpha=0.6)
        ax.set_xlabel("CGS iteration")
        ax.set_ylabel(lab)
    fig.suptitle(title + " (red: hyperparameter optimisation)", fontsize=8)
    write_figure(fig, png, df, csv, meta)
    return df
