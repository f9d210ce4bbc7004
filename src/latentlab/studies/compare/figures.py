"""Figures: held-out log-likelihood against training time; time and memory per method."""

from __future__ import annotations

import numpy as np
import pandas as pd

from latentlab.plotting import figure, log_axis, name_dataset
from latentlab.studies.shape import FigureOutput

from .runs import load_fits
from .study import STUDY, ReportSettings
from .tables import _meta


def _colors(methods):
    """One colour per distinct method (``methods`` may repeat one per K: counted once, or
    the 6 methods x 2 K of docs/config.md's example wrapped the cycle onto one colour)."""
    import matplotlib.pyplot as plt

    cyc = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    return {m: cyc[i % len(cyc)] for i, m in enumerate(dict.fromkeys(methods))}


@STUDY.figure("heldout_time", settings=ReportSettings)
def heldout_time(ctx) -> FigureOutput:
    """Document-completion log-likelihood per held-out token against training time, one
    panel per K, one line per method (checkpoints along each fit)."""
    fits = load_fits(ctx.input_list("fits"))
    rows = [{"method": f["label"], "K": f["K"], **pt} for f in fits for pt in f["curve"]]
    df = pd.DataFrame(rows)
    Ks = sorted(df.K.unique())
    fig, axes = figure(1, len(Ks), width=4.6, height=3.4, squeeze=False)
    col = _colors([f["label"] for f in fits])
    for ax, K in zip(axes[0], Ks, strict=True):
        for m, g in df[df.K == K].groupby("method", sort=False):
            t = np.maximum(g.seconds.to_numpy(), 1e-3)
            ax.plot(t, g.heldout_ll, marker="o", ms=3, label=m, color=col[m])
        ax.set_xscale("log")
        log_axis(ax, "x")  # the span is whatever the fits took: tick labels must not collide
        ax.set_xlabel("training time (s, log scale)")
        ax.set_ylabel("held-out log-likelihood per token (nats)")
        ax.set_title(f"{ctx.settings.dataset}, K = {K}")
    # below the panels: inside, it sat on the curves' early checkpoints
    handles, labels = axes[0][-1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=min(4, len(labels)))
    name_dataset(fig, ctx.settings.dataset)
    return FigureOutput(fig, df, _meta(ctx, fits))


@STUDY.figure("time_memory", settings=ReportSettings)
def time_memory(ctx) -> FigureOutput:
    """Training time and peak memory per method (bars grouped by K)."""
    fits = load_fits(ctx.input_list("fits"))
    df = pd.DataFrame(
        [
            {
                "method": f["label"],
                "K": f["K"],
                "train_seconds": f["train_seconds"],
                "peak_rss_mb": f["peak_rss_mb"],
            }
            for f in fits
        ]  # fmt: skip
    )
    methods = list(dict.fromkeys(df.method))
    Ks = sorted(df.K.unique())
    fig, axes = figure(1, 2, width=4.6, height=3.4)
    width = 0.8 / len(Ks)
    x = np.arange(len(methods))
    for ax, col, lab in (
        (axes[0], "train_seconds", "training time (s, log scale)"),
        (axes[1], "peak_rss_mb", "peak resident memory (MB)"),
    ):
        for i, K in enumerate(Ks):
            v = df[df.K == K].set_index("method").reindex(methods)[col]
            ax.bar(x + (i - (len(Ks) - 1) / 2) * width, v, width, label=f"K = {K}")
        ax.set_xticks(x, methods, rotation=90)  # the figure check boxes rotated text square
        ax.set_xlabel("method")
        ax.set_ylabel(lab)
        if col == "train_seconds":
            ax.set_yscale("log")
            log_axis(ax, "y")  # the span is whatever the fits took (the CI failure of stop 33)
    axes[0].set_title(f"{ctx.settings.dataset}: time per fit")
    axes[1].set_title("memory per fit process")
    axes[1].legend(bbox_to_anchor=(1.02, 1.0), loc="upper left")
    name_dataset(fig, ctx.settings.dataset)
    return FigureOutput(fig, df, _meta(ctx, fits))
