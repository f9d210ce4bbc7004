"""Figures of scvb0: id -> function returning the plotted numbers and the figure.

Figs 4.1, 4.2, 4.8-4.10 are small exact/Monte Carlo demos computed here (``demos.py``);
Figs 4.3-4.7 plot the curves written by ``runs.py``.
"""

from __future__ import annotations

import numpy as np

from latentlab.plotting import figure, log_axis, name_dataset
from latentlab.studies.shape import FigureOutput

from . import demos
from .study import STUDY, DemoSettings

# what the demos draw from: no corpus, a simulation or an exact computation (rule "dataset")
DEMO_DATA = {
    "fig4_1": "simulated",
    "fig4_2": "simulated",
    "fig4_8": "simulated",
    "fig4_9": "simulated",
    "fig4_10": "simulated",
}
CAPTIONS = {
    "fig4_1": "Robbins-Monro on h(w)=sin(w)+N(0,1): w converges to the root pi",
    "fig4_2": "Stochastic gradient ascent on sin(w): w converges to the maximum pi/2",
    "fig4_8": "Mean and variance of a CVB count variable, gamma ~ Beta(0.1, 0.1)",
    "fig4_9": "Chebyshev bound Var[n]/(0.1 E[n])^2 on a 10% deviation",
    "fig4_10": "L1 error of the CVB0 and CVB approximations to E[log(n+alpha)]",
}


@STUDY.figure("fig4_1", "fig4_2", settings=DemoSettings)
def stochastic_approximation(ctx):
    """Figs 4.1/4.2: Robbins-Monro root finding and stochastic gradient ascent on sin(w)."""
    q = ctx.settings.demos
    if ctx.step == "fig4_1":
        df = demos.robbins_monro(q.n_iter, q.w0_rm, ctx.seed(), q.step_a)
    else:
        df = demos.stochastic_gradient_ascent(q.n_iter, q.w0_sgd, ctx.seed(), q.step_a)
    f = draw_stochastic_approximation(df, ctx.step)
    return FigureOutput(f, df, {"caption": CAPTIONS[ctx.step], "rho": "a/t"})


def draw_stochastic_approximation(df, step: str):
    """Figs 4.1/4.2 from their CSV: sin(w) with the target, w and h(w) (or f(w)) per step."""
    if step == "fig4_1":
        target, col, lab = np.pi, "h_w", "h(w) = sin(w)"
    else:
        target, col, lab = np.pi / 2, "f_w", "f(w) = sin(w)"
    f, ax = figure(3, 1, width=5, height=2.2)
    x = np.linspace(0, 2 * np.pi, 200)
    ax[0].plot(x, np.sin(x))
    ax[0].axvline(target, ls="--", c="k")
    ax[0].set(xlabel="w", ylabel="sin(w)")
    ax[1].plot(df.iteration, df.w)
    ax[1].axhline(target, ls="--", c="k")
    ax[1].set(xlabel="iteration", ylabel="w")
    ax[2].plot(df.iteration, df[col])
    ax[2].set(xlabel="iteration", ylabel=lab)
    _demo_title(f, step)
    return f


def _demo_title(f, step: str) -> None:
    f.suptitle(f"{CAPTIONS[step]} ({DEMO_DATA[step]})", fontsize=8)
    name_dataset(f, DEMO_DATA[step])


@STUDY.figure("fig4_8", "fig4_9", settings=DemoSettings)
def count_moments(ctx):
    """Figs 4.8/4.9: moments of a CVB count variable and the Chebyshev bound."""
    q = ctx.settings.demos
    df = demos.count_moments(q.n_words, q.repeats, ctx.seed())
    if ctx.step == "fig4_8":
        keep = df[
            ["n_words", "mean", "variance", "mean_minus_variance", "mean_avg", "variance_avg"]
        ]
    else:
        keep = df[["n_words", "chebyshev_bound", "chebyshev_bound_avg"]].dropna()
    f = draw_count_moments(keep, ctx.step, q.repeats)
    return FigureOutput(f, keep, {"caption": CAPTIONS[ctx.step]})


def draw_count_moments(df, step: str, repeats: int):
    """Figs 4.8/4.9 from their CSV (``repeats``: the draws averaged in Fig 4.9)."""
    f, ax = figure()
    if step == "fig4_8":
        ax.plot(df.n_words, df["mean"], label="mean E[n]")
        ax.plot(df.n_words, df.variance, label="variance Var[n]")
        ax.set(xlabel="number of words", ylabel="value")
    else:
        ax.plot(df.n_words, df.chebyshev_bound, label="one draw (as the thesis)")
        ax.plot(df.n_words, df.chebyshev_bound_avg, label=f"mean of {repeats} draws")
        ax.set(xlabel="number of words", ylabel="Var/(0.1 E)^2", yscale="log")
    ax.legend()
    _demo_title(f, step)
    return f


@STUDY.figure("fig4_10", settings=DemoSettings)
def approximation_errors(ctx):
    """Fig 4.10: L1 error of the CVB0 and CVB approximations to E[log(n + alpha)]."""
    r = ctx.settings.fig4_10
    counts = np.unique(np.round(np.geomspace(1, r.max_words, r.n_points)))
    df = demos.approximation_errors(counts.astype(int), r.repeats, r.mc_draws, r.alpha, ctx.seed())
    return FigureOutput(draw_approximation_errors(df), df, {"caption": CAPTIONS[ctx.step]})


def draw_approximation_errors(df):
    """Fig 4.10 from its CSV."""
    f, ax = figure(1, 2)
    for a, ys in zip(ax, ("semilogx", "loglog"), strict=True):
        for c, lab in (
            ("cvb0_err_mc", "CVB0 vs MC"),
            ("cvb_err_mc", "CVB vs MC"),
            ("cvb0_err_exact", "CVB0 vs exact"),
            ("cvb_err_exact", "CVB vs exact"),
        ):
            getattr(a, ys)(df.n_words, df[c], label=lab, ls="-" if "mc" in c else "--")
        a.set(xlabel="number of words", ylabel="mean L1 error")
    ax[0].legend()
    _demo_title(f, "fig4_10")
    return f


@STUDY.redraw("fig4_1", "fig4_2", "fig4_8", "fig4_9", "fig4_10")
def _redraw_demo(df, meta):
    step = meta["step"]
    if step in ("fig4_1", "fig4_2"):
        return draw_stochastic_approximation(df, step)
    if step in ("fig4_8", "fig4_9"):
        return draw_count_moments(df, step, meta["settings"]["demos"]["repeats"])
    return draw_approximation_errors(df)


@STUDY.figure("fig4_3", "fig4_4", "fig4_5", "fig4_6")
def heldout_curves(ctx):
    """Figs 4.3-4.6 (and fig4_3_<dataset>): held-out LL per token against training time
    (4.3-4.5) or documents processed (4.6), from input ``curves`` (+ its ``info``)."""
    df = ctx.csv("curves")
    info = ctx.json("info")
    f, cap = draw_curves(df, info, ctx.step)
    return FigureOutput(f, df, {"caption": cap, "source": info})


def last_jumps(df, x: str = "docs_seen") -> dict[str, float]:
    """Methods whose held-out LL moves at the last checkpoint by more than twice any earlier
    step (mean over seeds per checkpoint): {method: that last step}. Such a rise rests on
    one checkpoint (scvb0 Fig 4.4 on synth_50k: SCVB0 and SVB-B5-O0.5 rose 0.4-0.6 nats
    between 53,100 and 99,400 documents in all 3 seeds, after flat curves)."""
    out = {}
    for m, s in df.groupby("method", sort=False):
        ll = s.groupby("docs_seen")["heldout_ll"].mean().sort_index().to_numpy()
        steps = np.diff(ll)
        if len(steps) >= 2 and abs(steps[-1]) > 2 * np.abs(steps[:-1]).max():
            out[str(m)] = float(steps[-1])
    return out


def draw_curves(df, info: dict, step: str):
    """Figs 4.3-4.6 from their CSV (the curves) and the run's ``info``: (figure, caption).

    Every checkpoint is a marker (the curves join measured points only); when a method's
    last step outgrows all its earlier ones (:func:`last_jumps`), the legend's title says
    so with the two last checkpoints, so a final ordering resting on one sparse checkpoint
    is shown as such, not smoothed over or hidden."""
    x = "docs_seen" if step == "fig4_6" else "train_seconds"
    f, ax = figure(width=5, height=3.5)
    n_seeds = int(df["seed"].nunique()) if "seed" in df else 1
    for m, s in df.groupby("method", sort=False):
        # over seeds: mean curve per checkpoint (x: mean time), band = min..max LL
        g = s.groupby("docs_seen").agg(
            x=(x, "mean"), ll=("heldout_ll", "mean"), lo=("heldout_ll", "min"),
            hi=("heldout_ll", "max"),
        )  # fmt: skip
        (line,) = ax.plot(g.x, g.ll, marker="o", ms=3, label=m)
        if n_seeds > 1:
            ax.fill_between(g.x, g.lo, g.hi, color=line.get_color(), alpha=0.2, lw=0)
    ax.set(
        xscale="log",
        xlabel="training time (s)" if x == "train_seconds" else "documents processed",
        ylabel="held-out log-likelihood per token",
        title=f"{info['dataset']} (K={info['K']}, {info['data_kind']}"
        + (f", mean and min–max range of {n_seeds} seeds)" if n_seeds > 1 else ")"),
    )
    log_axis(ax)
    note = "markers: the checkpoints"
    jumps = last_jumps(df)
    if jumps:
        cps = sorted(df["docs_seen"].unique())
        moved = ", ".join(f"{m} {v:+.2f}" for m, v in jumps.items())
        note += (
            f"; nothing is measured between the last two ({cps[-2]:,} and {cps[-1]:,} "
            f"documents):\nthe last step ({moved} nats) rests on that one checkpoint"
        )
    f.legend(loc="outside lower center", ncol=3, fontsize=7, title=note, title_fontsize=7)
    name_dataset(f, info["dataset"])
    cap = (
        f"Document-completion held-out LL vs {'time' if x == 'train_seconds' else 'documents'}"
        f"; dataset {info['dataset']} ({info['data_kind']})."
    )
    return f, cap


@STUDY.redraw("fig4_3", "fig4_4", "fig4_5", "fig4_6")
def _redraw_curves(df, meta):
    return draw_curves(df, meta["source"], meta["step"])[0]


@STUDY.figure("fig4_7")
def subsets(ctx):
    """Fig 4.7: SCVB0 on all documents vs batch VB on subsets (input ``curves``)."""
    df = ctx.csv("curves")
    info = ctx.json("info")
    cap = "SCVB0 on all documents vs batch VB on subsets"
    return FigureOutput(draw_subsets(df, info), df, {"caption": cap, "source": info})


@STUDY.redraw("fig4_7")
def _redraw_subsets(df, meta):
    return draw_subsets(df, meta["source"])


def draw_subsets(df, info: dict):
    """Fig 4.7 from its CSV and the run's ``info`` (the dataset, K, D_train)."""
    f, ax = figure(width=5, height=3.5)
    for m, s in df.groupby("method", sort=False):
        ax.plot(s.train_seconds, s.heldout_ll, marker="o", ms=3, label=m)
    ax.set(xscale="log", xlabel="training time (s)", ylabel="held-out log-likelihood per token")
    ax.set_title(
        f"{info['dataset']} (K={info['K']}, {info['data_kind']}, {info['D_train']:,} training "
        "documents;\nN: documents batch VB trains on)",
        fontsize=9,
    )
    log_axis(ax)
    f.legend(loc="outside lower center", ncol=2, fontsize=7)
    name_dataset(f, info["dataset"])
    return f
