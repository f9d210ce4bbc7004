"""Figures 2, 5a/5b, 6a/6b of Wang & Blei (2013) from the raw CSVs (registry id -> function).

``fig2``: Eq. 21 per per-document iteration (input ``traces``); ``fig5a``/``fig5b``: per-word
bound on training data / held-out log likelihood against K (inputs ``sweeps``);
``fig6a``/``fig6b``: bound / held-out likelihood against wall-clock time (input ``history``).
"""

from __future__ import annotations

import json

import pandas as pd

from latentlab.studies.nonconjugate_vi.study import (
    STUDY,
    Fig2PlotSettings,
    Fig5PlotSettings,
    Fig6PlotSettings,
)
from latentlab.studies.shape import FigureOutput


def _raw_meta(path) -> dict:
    return json.loads(path.with_suffix(".meta.json").read_text())


@STUDY.figure("fig2", settings=Fig2PlotSettings)
def fig2(ctx) -> FigureOutput:
    """Fig. 2: the objective per EM iteration of each method on two documents (input
    ``traces``)."""
    f2 = ctx.settings.fig2
    df = ctx.csv("traces")
    fig = draw_fig2(df, f2.corpus, f2.K)
    meta = _raw_meta(ctx.input("traces"))
    return FigureOutput(fig, df, {k: meta.get(k) for k in ("corpus", "K", "em_iters", "tol")})


def draw_fig2(df, corpus: str, K: int):
    """Fig. 2 from its CSV: the objective per iteration, one panel per document."""
    from latentlab.plotting import figure, name_dataset

    fig, axes = figure(1, 2, squeeze=False)
    for ax, (dname, g) in zip(axes[0], df.groupby("doc"), strict=True):
        for meth, gg in g.groupby("method"):
            ax.plot(gg.iteration, gg.objective, marker=".", label=meth)
        ax.set_title(f"{dname} ({corpus}, K={K})")
        ax.set_xlabel("iteration")
        ax.set_ylabel("approximate objective (Eq. 21)")
        ax.legend()
    name_dataset(fig, corpus)
    return fig


@STUDY.redraw("fig2")
def _redraw_fig2(df, meta):
    f2 = meta["settings"]["fig2"]
    return draw_fig2(df, f2["corpus"], f2["K"])


def converged_fits(sweep: pd.DataFrame) -> pd.Series:
    """A sweep's ``em_converged`` as bool (CSV round trips give strings); all True for
    sweeps written before the column existed (Fig. 5 and claims C9/C10)."""
    if "em_converged" not in sweep.columns:
        return pd.Series(True, index=sweep.index)
    return sweep.em_converged.astype(str).str.lower() == "true"


# the methods as Fig. 5 names them; Blei and Lafferty's objective is a true lower bound
# on the marginal, the other two the approximation of Eq. 21 (Sec. 5: "while not a bound")
FIG5_METHODS = {
    "fig5a": {
        "bl": "Blei–Lafferty (true lower bound)",
        "laplace": "Laplace (approximate, Eq. 21)",
        "delta": "delta method (approximate, Eq. 21)",
    },
    "fig5b": {"bl": "Blei–Lafferty", "laplace": "Laplace", "delta": "delta method"},
}
FIG5 = {
    "fig5a": ("bound", "per-word bound on the training data"),
    "fig5b": ("heldout", "per-word held-out log likelihood"),
}


@STUDY.figure("fig5a", "fig5b", settings=Fig5PlotSettings)
def fig5(ctx) -> FigureOutput:
    """Fig. 5a (per-word bound on training data) or 5b (held-out) against K.

    A point is the mean over seeds; ``n_converged`` of its ``n_fits`` reached the EM
    tolerance. Points with a fit cut by ``ctm.em_time_budget_s`` (or ``ctm.em_iter_budget``;
    the sweep's ``em_stop`` says which) are drawn hollow: claims C9/C10 leave those fits out
    (issue 22, case 5)."""
    sweeps = ctx.input_list("sweeps")
    df = pd.concat([pd.read_csv(f) for f in sweeps], ignore_index=True)
    df["_conv"] = converged_fits(df)
    agg = (
        df.groupby(["corpus", "method", "K"])
        .agg(
            bound_mean=("bound_per_word", "mean"),
            bound_sd=("bound_per_word", "std"),
            heldout_mean=("heldout_per_word", "mean"),
            heldout_sd=("heldout_per_word", "std"),
            n_seeds=("seed", "nunique"),
            n_fits=("seed", "size"),
            n_converged=("_conv", "sum"),
        )
        .reset_index()
        .fillna({"bound_sd": 0.0, "heldout_sd": 0.0})
    )
    col = FIG5[ctx.step][0]
    sub = agg[["corpus", "method", "K", f"{col}_mean", f"{col}_sd", "n_seeds", "n_fits",
               "n_converged"]]  # fmt: skip
    meta = {
        "sources": [str(p) for p in sweeps],
        "note": "BL bound is a true bound (K-1 dims); "
        "Laplace/delta values are the Eq. 21 approximation; "
        "hollow points (n_converged < n_fits) include fits cut by the EM budget "
        "(ctm.em_iter_budget or ctm.em_time_budget_s), "
        "left out of claims C9/C10",
    }
    return FigureOutput(draw_fig5(sub, ctx.step), sub, meta)


@STUDY.redraw("fig5a", "fig5b")
def _redraw_fig5(df, meta):
    return draw_fig5(df, meta["step"])


def draw_fig5(sub: pd.DataFrame, step: str):
    """Fig. 5a/5b from its CSV: one panel per corpus, the mean over seeds against K with
    the sd over seeds as error bars; a point with a fit cut by the EM budget is hollow."""
    from latentlab.plotting import figure, name_dataset

    col, ylabel = FIG5[step]
    names = FIG5_METHODS[step]
    corpora = list(dict.fromkeys(sub["corpus"]))
    fig, axes = figure(1, len(corpora), squeeze=False)
    for ax, cname in zip(axes[0], corpora, strict=True):
        for meth, g in sub[sub.corpus == cname].groupby("method", sort=False):
            eb = ax.errorbar(g.K, g[f"{col}_mean"], yerr=g[f"{col}_sd"], marker="o",
                             label=names.get(meth, meth), capsize=2)  # fmt: skip
            cut = g[g.n_converged < g.n_fits]
            if len(cut):  # hollow marker over a point with fits cut by the EM budget
                ax.plot(cut.K, cut[f"{col}_mean"], "o", mfc="white",
                        mec=eb[0].get_color(), zorder=3)  # fmt: skip
        ax.set_title(cname)
        ax.set_xlabel("number of topics K")
        ax.set_ylabel(ylabel)
    n = sorted(set(sub["n_seeds"].astype(int)))
    seeds = f"{n[0]}" if len(n) == 1 else f"{n[0]}–{n[-1]}"
    handles, labels = axes[0][0].get_legend_handles_labels()
    title = (
        f"mean over {seeds} seeds, error bars: sd over seeds; hollow: a point with a fit cut "
        "by the EM budget"
    )
    fig.legend(handles, labels, loc="outside lower center", ncol=3, fontsize=7, title=title,
               title_fontsize=7)  # fmt: skip
    name_dataset(fig, *corpora)
    return fig


@STUDY.figure("fig6a", "fig6b", settings=Fig6PlotSettings)
def fig6(ctx) -> FigureOutput:
    """Fig. 6a (approximate bound) or 6b (held-out log likelihood) against wall-clock time,
    Laplace vs delta."""
    df = ctx.csv("history")
    col = FIG6[ctx.step][0]
    if "seed" not in df.columns:
        df["seed"] = 0
    fig = draw_fig6(df, ctx.step, ctx.settings.fig6.corpus, ctx.settings.fig6.K)
    meta = _raw_meta(ctx.input("history"))
    keep = ("corpus", "K", "em_max_iter", "seeds")
    return FigureOutput(fig, df[["method", "seed", "iter", "time_s", col]],
                        {k: meta.get(k) for k in keep})  # fmt: skip


FIG6 = {
    "fig6a": ("bound_per_word", "per-word approximate bound"),
    "fig6b": ("heldout_per_word", "per-word held-out log likelihood"),
}


@STUDY.redraw("fig6a", "fig6b")
def _redraw_fig6(df, meta):
    f6 = meta["settings"]["fig6"]
    return draw_fig6(df, meta["step"], f6["corpus"], f6["K"])


def draw_fig6(df, step: str, corpus: str, K: int):
    """Fig. 6a/6b from the CSV: the measure against wall-clock time, one line per seed."""
    from latentlab.plotting import figure, measured_axis, name_dataset

    col, ylabel = FIG6[step]
    fig, ax = figure()
    colors = {}
    for (meth, seed), g in df.groupby(["method", "seed"]):
        lab = None if meth in colors else meth
        line = ax.plot(g.time_s, g[col], marker="o", ms=3, label=lab, color=colors.get(meth),
                       alpha=1.0 if seed == 0 else 0.6)  # fmt: skip
        colors.setdefault(meth, line[0].get_color())
    ax.set_xlabel("wall-clock time (s)")
    measured_axis(ax)
    ax.set_ylabel(ylabel)
    n = df.seed.nunique()
    ax.set_title(f"{corpus}, K={K}" + (f" ({n} seeds)" if n > 1 else ""))
    ax.legend()
    name_dataset(fig, corpus)
    return fig
