"""Figures of the tir study: Fig 3.4 (self vs non-self citation influence, synthetic
stand-in) and the l-recovery figure (Sec 3.4's synthetic check)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from latentlab.plotting import figure, name_dataset
from latentlab.studies.shape import FigureOutput

from .study import STUDY, first_run


def _welch(s, n, alternative: str = "greater"):
    """Welch's t-test of the self vs the non-self edges' influence: one-sided (self >
    non-self) by default, the test of ledger row C3.5."""
    from scipy.stats import ttest_ind  # here: the other figure needs no scipy.stats

    return ttest_ind(s, n, equal_var=False, alternative=alternative)


@STUDY.figure("fig3_4")
def fig3_4(ctx):
    """TIRE edge influence l^(c,d) of planted self-citation edges vs the others."""
    e = first_run(ctx.csv("edges"))
    t = np.load(ctx.input("truth"))
    if len(t["is_self"]) != len(e):
        raise ValueError("fig3_4: edge list and truth disagree in length")
    e = e.assign(is_self=t["is_self"], l_true=t["edge_weight"])
    s, n = e.l_edge[e.is_self], e.l_edge[~e.is_self]
    tt = _welch(s, n)
    fig = draw_fig3_4(e)
    meta = {
        "mean_self": float(s.mean()),
        "mean_nonself": float(n.mean()),
        "welch_t": float(tt.statistic),
        "welch_p_one_sided": float(tt.pvalue),  # self > non-self, as ledger C3.5
        "welch_p_two_sided": float(_welch(s, n, "two-sided").pvalue),
        "n_self": int(len(s)),
        "n_nonself": int(len(n)),
        "data": "synthetic (Cora has no author lists)",
    }
    return FigureOutput(fig, e, meta)


@STUDY.redraw("fig3_4")
def draw_fig3_4(e, meta=None):
    """Fig 3.4 from its CSV (one row per edge: ``l_edge``, ``is_self``); the title's p is
    the one-sided Welch test of self > non-self, the ledger's C3.5."""
    is_self = e.is_self.astype(str).str.lower() == "true"
    s, n = e.l_edge[is_self], e.l_edge[~is_self]
    tt = _welch(s, n)
    fig, ax = figure(width=5.5, height=3.6)
    ax.boxplot([n.to_numpy(), s.to_numpy()], showmeans=True)
    ax.set_xticks([1, 2], ["non-self citations", "self citations (planted)"])
    ax.set_xlabel(
        "citation edges of the synthetic corpus\n(box: quartiles and median, whiskers: 1.5 IQR, "
        "triangle: mean)"
    )
    ax.set_ylabel("edge-wise topical influence $l^{(c,d)}$ (words)")
    ax.set_title(
        f"Synthetic TIRE corpus: means {n.mean():.2f} (non-self) vs {s.mean():.2f} (self),\n"
        f"one-sided Welch t-test of self > non-self: p = {tt.pvalue:.2g} (ledger C3.5)",
        fontsize=8,
    )
    name_dataset(fig, "synthetic")
    return fig


@STUDY.figure("fig_l_recovery")
def fig_l_recovery(ctx):
    """Mean absolute error of l-hat against the true l (cited documents)."""
    r = ctx.csv("recovery")
    g = r.groupby("method", sort=False).l1.agg(["mean", "std", "count"]).reset_index()
    g["std"] = g["std"].fillna(0.0)  # one-row baselines
    fig = draw_l_recovery(g)
    meta = {"n_cited": int(r.n_cited.iloc[0])}
    if "setting" in r:
        first = r.dropna(subset=["setting"]).groupby("method", sort=False).setting.first()
        meta["settings_rep0"] = {str(k): str(v) for k, v in first.items()}
    return FigureOutput(fig, pd.DataFrame(g), meta)


@STUDY.redraw("fig_l_recovery")
def draw_l_recovery(g, meta=None):
    """The l-recovery figure from its CSV (method, mean, std, count): the error bars are
    the sd over a method's repetitions (none for the one-row baselines)."""
    fig, ax = figure(width=7.0, height=3.8)
    ax.barh(g.method, g["mean"], xerr=g["std"], color="0.6")
    ax.set_xlabel("mean |l-hat - l| over cited documents (words of prior precision)")
    ax.set_ylabel("estimator")
    ax.invert_yaxis()
    reps = int(g["count"].max())
    ax.set_title(
        f"TIR influence recovery on a synthetic citation DAG\n(mean over {reps} repetitions, "
        "error bars: sd over repetitions; baselines: one value)",
        fontsize=9,
    )
    name_dataset(fig, "synthetic")
    return fig
