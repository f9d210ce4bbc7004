"""Figures 5.4-5.11 of Foulds (2014) ch. 5 from the raw per-document results (conventions
in ``tables.py``)."""

from __future__ import annotations

import pandas as pd

from latentlab.plotting import declare_shared, figure, log_axis, name_dataset, scaled_axis
from latentlab.studies.shape import FigureOutput

from .results import load_models, stats_frame
from .study import (
    ENTROPY_ROLE,
    ITERATION_FIGS,
    NTEMPS_ROLE,
    SCATTER_ROLES,
    STUDY,
    CorporaSettings,
)
from .tables import CONVENTIONS


def _num(fig_id: str) -> str:
    return fig_id[3:].replace("_", ".")


def _stand_in(ctx, role: str) -> str:
    return f"{role.upper()} stand-in {ctx.settings.corpora[role].dataset}"


PAIRS = [  # panel, (method, run) on x, (method, run) on y, axis names
    ("LR", ("lr", 0), ("lr", 1), ("run 1", "run 2")),
    ("Std AIS", ("std_ais", 0), ("std_ais", 1), ("run 1", "run 2")),
    ("Ratio-AIS geometric (fwd vs rev)", ("geo", 0), ("geo_rev", 0), ("forward", "reverse")),
    ("Ratio-AIS convex (fwd vs rev)", ("convex", 0), ("convex_rev", 0), ("forward", "reverse")),
]


@STUDY.figure(*SCATTER_ROLES, settings=CorporaSettings)
def scatter(ctx):
    """Figs 5.4/5.5: per-document perplexity ratios, run 1 (x) vs run 2 (y)."""
    role = SCATTER_ROLES[ctx.step]
    df = ctx.csv("raw")
    out = []
    for regime in ("cheap", "expensive"):
        g = df[df.regime == regime]
        n = int(g.n_temps.iloc[0])
        for name, (mx, rx), (my, ry), _ in PAIRS:
            x = g[(g.method == mx) & (g.run == rx)].sort_values("doc")["perp_ratio"].to_numpy()
            y = g[(g.method == my) & (g.run == ry)].sort_values("doc")["perp_ratio"].to_numpy()
            for d, (a, b) in enumerate(zip(x, y, strict=True)):
                out.append(
                    {"regime": regime, "n_temps": n, "panel": name, "doc": d, "x": a, "y": b}
                )
    out = pd.DataFrame(out)
    meta = {**CONVENTIONS, "role": role}
    dataset = ctx.settings.corpora[role].dataset
    fig = draw_scatter(out, _scatter_title(ctx.step, _stand_in(ctx, role)), dataset)
    return FigureOutput(fig, out, meta)


def _scatter_title(step: str, stand_in: str) -> str:
    return f"Fig {_num(step)}: {stand_in}, perplexity ratio learned/perturbed"


@STUDY.redraw(*SCATTER_ROLES)
def _redraw_scatter(df, meta):
    role = meta["role"]
    dataset = meta["settings"]["corpora"][role]["dataset"]
    stand_in = f"{role.upper()} stand-in {dataset}"
    return draw_scatter(df, _scatter_title(meta["step"], stand_in), dataset)


def draw_scatter(out: pd.DataFrame, title: str, dataset: str):
    """Figs 5.4/5.5 from their CSV: one row per regime, one panel per estimator pair.

    The panels of a row share their bounds, tight around every estimator but standard
    AIS, as the document draws them ("the bounds of the figures, which are tight around the
    results of the other methods"), so the spreads compare by eye; a panel says how many of
    its points fall outside them (the document: "Missing Standard AIS results are outside
    of the bounds of the figures")."""
    fig, axes = figure(2, 4, width=2.7, height=2.8)
    for i, regime in enumerate(("cheap", "expensive")):
        g = out[out.regime == regime]
        n = int(g.n_temps.iloc[0])
        ref = g[g.panel != "Std AIS"]
        lo = float(min(ref["x"].min(), ref["y"].min()))
        hi = float(max(ref["x"].max(), ref["y"].max()))
        lim = (lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo))
        for j, (name, _, _, (xl, yl)) in enumerate(PAIRS):
            s = g[g.panel == name]
            x, y = s["x"].to_numpy(), s["y"].to_numpy()
            ax = axes[i, j]
            ax.scatter(x, y, s=6, alpha=0.7)
            ax.plot(lim, lim, "k-", lw=0.5)
            ax.axvline(1, color="grey", lw=0.5)
            ax.axhline(1, color="grey", lw=0.5)
            ax.set_xlim(lim)
            ax.set_ylim(lim)
            off = int(((x < lim[0]) | (x > lim[1]) | (y < lim[0]) | (y > lim[1])).sum())
            note = f"\n{off} of {len(x)} points outside the bounds" if off else ""
            ax.set_title(f"{name}, {n} temps{note}", fontsize=8)
            ax.set_xlabel(f"ratio, {xl}", fontsize=8)
            ax.set_ylabel(f"ratio, {yl}", fontsize=8)
            ax.tick_params(labelsize=8)
        declare_shared(axes[i], "x")
        declare_shared(axes[i], "y")
    name_dataset(fig, dataset)
    fig.suptitle(title + " (one point per document; bounds shared within a row)", fontsize=9)
    return fig


@STUDY.figure("fig5_6", settings=CorporaSettings)
def fig5_6(ctx):
    """Fig 5.6: estimated log-likelihood difference vs the number of temperatures."""
    df = ctx.csv("raw")
    dataset = ctx.settings.corpora[NTEMPS_ROLE].dataset
    return FigureOutput(draw_fig5_6(df, dataset), df, {"role": NTEMPS_ROLE, "dataset": dataset})


@STUDY.redraw("fig5_6")
def _redraw_fig5_6(df, meta):
    return draw_fig5_6(df, meta["settings"]["corpora"][NTEMPS_ROLE]["dataset"])


def draw_fig5_6(df, dataset: str):
    """Fig 5.6 from its CSV: one document of the NIPS stand-in (``doc``, ``N`` words), the
    mean over ``S`` importance samples and their sd as error bars (the document: 100)."""
    fig, ax = figure(1, 1, width=4.8, height=3.4)
    for m, lab in (
        ("std_ais", "Std AIS"),
        ("geo", "Ratio-AIS (geometric)"),
        ("geo_rev", "Ratio-AIS (geometric, reverse)"),
    ):
        g = df[df.method == m].sort_values("n_temps")
        ax.errorbar(g.n_temps, g["mean"], yerr=g["sd"], label=lab, capsize=2, marker="o", ms=3)
    ax.set_xscale("log")
    log_axis(ax, "x")
    ax.set_xlabel("number of temperatures n")
    ax.set_ylabel("estimated log P(w|Φ) − log P(w|Φ')")
    S = "–".join(str(v) for v in sorted(set(df["S"].astype(int))))
    ax.set_title(
        f"Fig 5.6: {NTEMPS_ROLE.upper()} stand-in {dataset}, document {int(df['doc'].iloc[0])} "
        f"({int(df['N'].iloc[0])} words)\nmean over {S} importance samples, error bars: sd "
        "(the document: 100 samples)",
        fontsize=8,
    )
    fig.legend(loc="outside lower center", ncol=3, fontsize=7)
    name_dataset(fig, dataset)
    return fig


@STUDY.figure(*ITERATION_FIGS, settings=CorporaSettings)
def fig_iteration(ctx):
    """Figs 5.7/5.8 (kind='ll': mean held-out log-likelihood per document) and 5.9/5.10
    (kind='var': run-to-run variance, averaged over documents) vs training iteration."""
    role, kind = ITERATION_FIGS[ctx.step]
    what = "held-out log-likelihood" if kind == "ll" else "run-to-run variance"
    title = f"Fig {_num(ctx.step)}: {what} per training iteration, {_stand_in(ctx, role)}"
    df = ctx.csv("raw")
    rows = []
    for (m, n, it), g in df.groupby(["method", "n_temps", "iteration"]):
        if kind == "ll":
            val = g["loglik"].mean()
        else:
            val = g.groupby("doc")["loglik"].var(ddof=1).mean()
        rows.append({"method": m, "n_temps": int(n), "iteration": int(it), "value": float(val)})
    out = pd.DataFrame(rows)
    dataset = ctx.settings.corpora[role].dataset
    return FigureOutput(draw_iteration(out, kind, title, dataset), out, {"role": role})


@STUDY.redraw(*ITERATION_FIGS)
def _redraw_iteration(df, meta):
    role, kind = ITERATION_FIGS[meta["step"]]
    dataset = meta["settings"]["corpora"][role]["dataset"]
    return draw_iteration(df, kind, _redraw_title(meta, role, kind), dataset)


def _redraw_title(meta, role, kind):
    what = "held-out log-likelihood" if kind == "ll" else "run-to-run variance"
    stand_in = f"{role.upper()} stand-in {meta['settings']['corpora'][role]['dataset']}"
    return f"Fig {_num(meta['step'])}: {what} per training iteration, {stand_in}"


def draw_iteration(out, kind: str, title: str, dataset: str):
    """Figs 5.7-5.10 from their CSV: colour names the estimator, line style the number of
    temperatures; the legend sits below the panel, off the traces."""
    fig, ax = figure(1, 1, width=5, height=3.2)
    names = {"iteration_ais": "Iteration-AIS", "std_ais": "Std AIS", "lr": "LR"}
    colours = {"iteration_ais": "tab:blue", "std_ais": "tab:purple", "lr": "tab:green"}
    top = out.n_temps.max()
    for (m, n), g in out.groupby(["method", "n_temps"]):
        g = g.sort_values("iteration")
        ax.plot(
            g.iteration,
            g.value,
            label=f"{names[m]} ({n} temps)",
            color=colours[m],
            ls="-" if n == top else "--",
        )
    ax.set_xlabel("training iteration")
    ax.set_ylabel(
        "mean held-out log-likelihood per document" if kind == "ll" else "variance across runs"
    )
    if kind == "var":
        ax.set_yscale("log")
        log_axis(ax, "y")  # the variances' span depends on the data
    else:
        scaled_axis(ax, "y")
    ax.set_title(title, fontsize=8)
    fig.legend(loc="outside lower center", ncol=3, fontsize=7)
    name_dataset(fig, dataset)
    return fig


@STUDY.figure("fig5_11", settings=CorporaSettings)
def fig5_11(ctx):
    """Fig 5.11: total topic entropy and log prior per CGS iteration."""
    m = load_models(ctx.input("models"))
    title = f"Fig 5.11: topics per CGS iteration, {_stand_in(ctx, ENTROPY_ROLE)}"
    df = stats_frame(m, ctx.input("models"))
    dataset = ctx.settings.corpora[ENTROPY_ROLE].dataset
    return FigureOutput(
        draw_fig5_11(df, title, dataset), df, {"role": ENTROPY_ROLE, "models": m["info"]}
    )


@STUDY.redraw("fig5_11")
def _redraw_fig5_11(df, meta):
    dataset = meta["settings"]["corpora"][ENTROPY_ROLE]["dataset"]
    stand_in = f"{ENTROPY_ROLE.upper()} stand-in {dataset}"
    return draw_fig5_11(df, f"Fig 5.11: topics per CGS iteration, {stand_in}", dataset)


def draw_fig5_11(df, title: str, dataset: str):
    """Fig 5.11 from its CSV (large values in units of 10^k named in the axis label, not
    matplotlib's "1e6" above the panel, which ran into the panel's top)."""
    df = df.assign(optimized=df["optimized"].astype(bool))
    fig, axes = figure(1, 2, width=3.6, height=2.8)
    for ax, col, lab in (
        (axes[0], "entropy", "total topic entropy (nats)"),
        (axes[1], "log_prior", "log prior of the topics"),
    ):
        ax.plot(df.iteration, df[col], lw=1)
        for it in df.iteration[df.optimized]:
            ax.axvline(it, color="red", lw=0.4, alpha=0.6)
        ax.set_xlabel("CGS iteration")
        ax.set_ylabel(lab)
        scaled_axis(ax, "y")
    fig.suptitle(title + " (red: hyperparameter optimisation)", fontsize=8)
    name_dataset(fig, dataset)
    return fig
