"""Figures 2.2-2.8."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from latentlab.plotting import figure, name_dataset
from latentlab.studies.shape import FigureOutput

from .networks import frequent_pairs
from .study import METHODS, STUDY, FigureSettings, ReductionSettings, SynthFigureSettings
from .tables import text_arrays, top_words

LABEL = {"LFRM_last": "LFRM (last)", "LFRM_all": "LFRM (all)", "LFRM_current": "LFRM (current)"}


def _lab(m):
    return LABEL.get(m, m)


def _network(ctx) -> str:
    """The network's name as a figure writes it, from the run's ``network_summary``."""
    src = ctx.json("network_summary").get("source", "")
    return "Enron email" if src == "enron_email" else (src or "synthetic")


def _named(fig, what: str, name: str) -> None:
    """A suptitle naming the data, and the declaration the figure check reads."""
    fig.suptitle(f"{what}, {name}" if what else name, fontsize=9)
    name_dataset(fig, name)


@STUDY.figure("fig2_2", settings=SynthFigureSettings)
def fig2_2(ctx):
    """Ground truth Z (top) vs the mean of Z over the samples (bottom), K fixed to 3."""
    z = np.load(ctx.input("matrices"))
    Zt, Zm = z["Z_true"], z["Z_mean"]
    K = Zt.shape[2]
    fig, ax = figure(2, K, width=2.2, height=3.2, squeeze=False)
    rows = []
    for k in range(K):
        for r, (M, name) in enumerate(((Zt, "true"), (Zm, "estimated"))):
            im = ax[r, k].imshow(
                M[:, :, k], aspect="auto", cmap="gray_r", vmin=0, vmax=1, interpolation="nearest"
            )
            ax[r, k].set_title(f"feature {k + 1}\n{name}", fontsize=8)
            ax[r, k].set_xlabel("actor")
            ax[r, k].set_ylabel("time step")
            ax[r, k].xaxis.set_major_locator(MaxNLocator(integer=True))
            ax[r, k].grid(False)
            rows.append({"feature": k, "panel": name, "mean": float(M[:, :, k].mean())})
    # one colour scale for all panels: the true Z is 0/1, the estimate its mean over samples
    fig.colorbar(im, ax=ax.ravel().tolist(), shrink=0.6,
                 label="z (true: 0 or 1; estimated: mean over samples)")  # fmt: skip
    _named(fig, "ground truth Z (top) vs DRIFT's estimate (bottom)", "synthetic data set 0")
    return FigureOutput(fig, pd.DataFrame(rows), {"data_kind": "synthetic", "dataset": 0})


def _matrices(ax, mats, title_suffix="", x_labels=True):
    """One row of actor x actor matrices; ``x_labels=False`` (an upper row of a grid) leaves
    the x axis unlabelled so its label cannot run into the titles of the row below."""
    for c, (a, (name, M)) in enumerate(zip(ax, mats, strict=True)):
        im = a.imshow(M, cmap="gray_r", vmin=0, vmax=1, interpolation="nearest")
        a.set_title(name + ("\n" + title_suffix if title_suffix else ""), fontsize=8)
        a.xaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))  # actor indices
        if x_labels:
            a.set_xlabel("actor")
        else:
            a.set_xticklabels([])
        a.yaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))
        if c == 0:
            a.set_ylabel("actor")
        else:
            a.set_yticklabels([])
        a.grid(False)
    return im


@STUDY.figure("fig2_3", settings=SynthFigureSettings)
def fig2_3(ctx):
    """Held-out Y at T + 1 and the predictive edge probabilities of each method."""
    z = np.load(ctx.input("matrices"))
    mats = [("true Y", z["Y_next"])] + [(_lab(m), z[f"P_{m}"]) for m in METHODS]
    fig, ax = figure(1, len(mats), width=2.0, height=2.2)
    im = _matrices(ax, mats)
    fig.colorbar(im, ax=list(ax), shrink=0.7, label="Pr(edge)")
    _named(fig, "held-out Y and each method's predictive distribution", "synthetic data set 0")
    data = pd.DataFrame([{"panel": n, "mean": float(M.mean())} for n, M in mats])
    return FigureOutput(fig, data, {"data_kind": "synthetic", "dataset": 0})


@STUDY.figure("fig2_4", settings=ReductionSettings)
def fig2_4(ctx):
    """Test log-likelihood minus the baseline's at each month t."""
    f = ctx.csv("forecast")
    base = f[f.method == "Baseline"].set_index("t").ll
    rows = []
    for m in FIG2_4_METHODS:
        s = f[f.method == m].set_index("t").ll - base
        rows += [{"t": int(t), "method": m, "ll_minus_baseline": float(v)} for t, v in s.items()]
    df = pd.DataFrame(rows)
    kind = ctx.json("network_summary").get("data_kind", "real")
    net = _network(ctx)
    return FigureOutput(draw_fig2_4(df, net), df, {"data_kind": kind, "network": net})


FIG2_4_METHODS = ["Naive", "LFRM_last", "LFRM_all", "DRIFT"]


def draw_fig2_4(df: pd.DataFrame, network: str):
    """Fig 2.4 from its CSV (t, method, ll_minus_baseline)."""
    fig, ax = figure(1, 1, width=5.5, height=3.2)
    for m in FIG2_4_METHODS:
        s = df[df.method == m]
        ax.plot(s.t, s.ll_minus_baseline, marker=".", label=_lab(m))
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xlabel("month t (trained on 1..t-1)")
    ax.set_ylabel("test log-likelihood − baseline (nats)")
    # below the panel: inside, "best" still sat on some months' points
    fig.legend(loc="outside lower center", ncol=4)
    _named(fig, "", network)
    return fig


def _meta_network(meta: dict) -> str:
    """The network a published figure drew: its metadata's ``network``, or for one written
    before that key, the run's only real source (Enron email) or the synthetic one."""
    if meta.get("network"):
        return meta["network"]
    return "Enron email" if meta.get("data_kind") == "real" else "synthetic (Enron-like)"


@STUDY.redraw("fig2_4", "fig2_6")
def _redraw_network(df, meta):
    draw = {"fig2_4": draw_fig2_4, "fig2_6": draw_fig2_6}[meta["step"]]
    return draw(df, _meta_network(meta))


@STUDY.figure("fig2_5", settings=FigureSettings)
def fig2_5(ctx):
    """Held-out Y at two months (dense, sparse) and each method's predictive matrix."""
    z = np.load(ctx.input("matrices"))
    Y = z["Y"]
    T = Y.shape[0]
    months = [t for t in ctx.settings.fig_months if f"P_DRIFT_t{t}" in z.files]
    if not months:  # the run's network is shorter than the document's months
        months = [t for t in (T - 6, T) if f"P_DRIFT_t{t}" in z.files]
    fig, ax = figure(len(months), 1 + len(METHODS), width=1.9, height=2.1, squeeze=False)
    rows = []
    for r, t in enumerate(months):
        mats = [("true Y", Y[t - 1])] + [(_lab(m), z[f"P_{m}_t{t}"]) for m in METHODS]
        im = _matrices(ax[r], mats, f"t={t}", x_labels=r == len(months) - 1)
        rows += [{"t": t, "panel": n, "mean": float(M.mean())} for n, M in mats]
    fig.colorbar(im, ax=ax.ravel().tolist(), shrink=0.6, label="Pr(edge)")
    _named(fig, "held-out Y and each method's predictive distribution", _network(ctx))
    kind = ctx.json("network_summary").get("data_kind", "real")
    return FigureOutput(fig, pd.DataFrame(rows), {"data_kind": kind, "months": months})


@STUDY.figure("fig2_6", settings=FigureSettings)
def fig2_6(ctx):
    """DRIFT's posterior edge probability over time for the most frequent actor pairs
    (the document hand-picks four 'interesting' pairs; we take the most frequent ones)."""
    z = np.load(ctx.input("matrices"))
    Y, P = z["Y"], z["P_DRIFT_all"]
    T = Y.shape[0]
    pick = list(zip(*frequent_pairs(Y, ctx.settings.fig_pairs), strict=True))
    rows = []
    t = np.arange(1, T + 1)
    for i, j in pick:
        rows += [
            {
                "i": int(i),
                "j": int(j),
                "t": int(s),
                "p": float(P[s - 1, i, j]),
                "edge": int(Y[s - 1, i, j]),
            }
            for s in t
        ]
    df = pd.DataFrame(rows)
    kind = ctx.json("network_summary").get("data_kind", "real")
    net = _network(ctx)
    return FigureOutput(draw_fig2_6(df, net), df, {"data_kind": kind, "network": net})


def draw_fig2_6(df: pd.DataFrame, network: str):
    """Fig 2.6 from its CSV (i, j, t, p, edge): one panel per actor pair, in its order."""
    pick = list(dict.fromkeys(zip(df.i, df.j, strict=True)))
    fig, ax = figure(len(pick), 1, width=6.0, height=1.5, squeeze=False, sharex=True)
    for r, (i, j) in enumerate(pick):
        a = ax[r, 0]
        g = df[(df.i == i) & (df.j == j)]
        a.plot(g.t, g.p, color="C0", label="DRIFT Pr(edge)")
        on = g.t[g.edge == 1]
        a.scatter(on, np.full(len(on), 1.08), marker="|", color="k", label="edge present")
        a.set_ylim(0, 1.15)
        a.set_ylabel(f"pair ({i},{j})\nPr(edge)")
    ax[-1, 0].set_xlabel("month t")
    ax[0, 0].legend(loc="lower center", bbox_to_anchor=(0.5, 1.02), ncol=2)
    _named(fig, "the most frequent actor pairs", network)
    return fig


@STUDY.figure("fig2_7", settings=ReductionSettings)
def fig2_7(ctx):
    """ROC curves of the held-out entries (missing-data task).

    The CSV keeps every ``len/200``-th point of each curve and the figure draws them all,
    so it has no redraw."""
    from latentlab.models.drift.predict import roc_curve  # here: the other figures need no scipy

    z = np.load(ctx.input("matrices"))
    y = z["labels"]
    fig, ax = figure(1, 1, width=4.0, height=3.6)
    rows = []
    for m in ["Baseline", "LFRM_current", "LFRM_all", "DRIFT"]:
        fpr, tpr = roc_curve(z[f"score_{m}"], y)
        ax.plot(fpr, tpr, label=_lab(m))
        step = max(1, len(fpr) // 200)
        rows += [
            {"method": m, "fpr": float(a), "tpr": float(b)}
            for a, b in zip(fpr[::step], tpr[::step], strict=True)
        ]
    ax.plot([0, 1], [0, 1], color="gray", lw=0.6, ls="--")
    ax.set_xlabel("false positive rate")
    ax.set_ylabel("true positive rate")
    ax.legend(loc="lower right")
    _named(fig, "ROC, missing data", _network(ctx))
    kind = ctx.json("network_summary").get("data_kind", "real")
    return FigureOutput(fig, pd.DataFrame(rows), {"data_kind": kind})


@STUDY.figure("fig2_8")
def fig2_8(ctx):
    """Bipartite graph of actors and features: a line where the feature is active for the
    actor in more than half of the recorded samples (Sec. 2.7.2); colour against the
    planted Z (synthetic data set 0)."""
    z = np.load(ctx.input("data"))
    f = np.load(ctx.input("fit"))
    rec = ctx.csv("recovery")
    g = text_arrays(z, 0)
    zp, ph = f["r0_zprob"], f["r0_phi"]
    rec = rec[rec.dataset == 0].sort_values("feature")
    feats = rec.model_feature.astype(int).tolist()
    truth = g["Z_true"]
    N = zp.shape[0]
    fig, ax = figure(1, 1, width=7.5, height=max(4.0, 0.16 * N + 1.2))
    ya = np.linspace(1, 0, N)
    yf = np.linspace(0.9, 0.1, len(feats))
    rows = []
    for fi, (k, m) in enumerate(zip(rec.feature.astype(int), feats, strict=True)):
        for i in range(N):
            on, planted = zp[i, m] > 0.5, bool(truth[i, k])
            if on or planted:
                style = ("k", "-") if on and planted else (("C3", "-") if on else ("0.6", ":"))
                ax.plot([0, 1], [ya[i], yf[fi]], color=style[0], ls=style[1], lw=0.8)
            rows.append({"actor": i, "feature": k, "p": float(zp[i, m]), "planted": int(planted)})
        ax.text(1.02, yf[fi], f"feature {k}: " + top_words(ph[m], 4), va="center", fontsize=7)
    for i in range(N):
        ax.text(-0.02, ya[i], f"n{i}", ha="right", va="center", fontsize=6)
    ax.plot([], [], "k-", label="active (>1/2 of samples), planted")
    ax.plot([], [], "C3-", label="active, not planted")
    ax.plot([], [], color="0.6", ls=":", label="planted, not recovered")
    ax.set_xlim(-0.15, 1.6)
    ax.set_ylim(-0.04, 1.03)
    ax.axis("off")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3, fontsize=7, frameon=False)
    ax.set_title("Enron-like synthetic: actors (left) and latent features (right)")
    name_dataset(fig, "synthetic")
    return FigureOutput(fig, pd.DataFrame(rows), {"data_kind": "synthetic", "dataset": 0})
