"""iwtm figures: Fig 4.1 (accuracy vs vocabulary size), Fig 4.2 (confusion matrices),
Fig 5.1 (sparsity of b~), Fig 5.2 (CAVI IWTM vs LDA+KMEANS vs LDA+GDPMM), Fig 5.3 (time),
Fig 5.4 (semi-supervised)."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from latentlab.plotting import figure, log_axis, log_ticks, name_dataset, scaled_axis
from latentlab.studies.shape import FigureOutput

from .claims import CLAIMS
from .study import STUDY, FigSettings
from .tables import svi_final


def _concat(ctx, name):
    return pd.concat([pd.read_csv(p) for p in ctx.input_list(name)], ignore_index=True)


# the models as the document names them (the CSVs keep the code names)
MODEL_NAMES = {
    "sLDA_BOW": "LDA + bag of words (supervised)",
    "IWTM": "IWTM (Gibbs)",
    "LDA_on_IWTM_clusters": "LDA on IWTM's visual words",
    "IWTM_CAVI": "IWTM (CAVI) + HIK SVM",
    "LDA_KMEANS": "LDA + K-means words",
    "LDA_GDPMM": "LDA + GDPMM words",
}
ACC_VS_K = {  # figure -> (the line model, the dot models, title)
    "fig4_1": ("sLDA_BOW", ["IWTM", "LDA_on_IWTM_clusters"],
               "Fig 4.1: Gibbs IWTM vs supervised LDA+BOW"),
    "fig5_2": ("LDA_KMEANS", ["IWTM_CAVI", "LDA_GDPMM"],
               "Fig 5.2: CAVI IWTM + HIK SVM vs LDA+KMEANS vs LDA+GDPMM"),
}  # fmt: skip


def _name(m) -> str:
    return MODEL_NAMES.get(m, m)


def draw_acc_vs_k(df: pd.DataFrame, step: str):
    """Figs 4.1/5.2 from their CSV (one row per run): the line model's accuracy against its
    vocabulary size K (mean and sd over its runs), each dot model at its own (inferred) K;
    one panel per (dataset, T, n_train), one legend below the panels, off the points."""
    base, dots, title = ACC_VS_K[step]
    Ts, ns = sorted(df["T"].unique()), sorted(df.n_train.unique())
    ds = sorted(df.dataset.unique())
    fig, axes = figure(len(Ts) * len(ds), len(ns), width=4, height=3.2, squeeze=False)
    for a, (d, T) in enumerate([(d, T) for d in ds for T in Ts]):
        for b, n in enumerate(ns):
            ax = axes[a, b]
            sub = df[(df.dataset == d) & (df["T"] == T) & (df.n_train == n)]
            g = sub[sub.model == base].groupby("K").acc.agg(["mean", "std"]).reset_index()
            ax.errorbar(g.K, 100 * g["mean"], yerr=100 * g["std"].fillna(0), marker="o", ms=3,
                        capsize=2, label=_name(base), color="C0")  # fmt: skip
            for i, (mk, m) in enumerate(zip("Dsv", dots, strict=False)):
                s2 = sub[sub.model == m]
                if len(s2):
                    ax.plot(s2.K.mean(), 100 * s2.acc.mean(), mk, ms=9, label=_name(m),
                            color=f"C{i + 1}")  # fmt: skip
            ax.set_xscale("log")
            # the sweep's K, and the other models' own K where it is not crowded
            log_ticks(ax, g.K, extra=sub[sub.model != base].groupby("model").K.mean())
            ax.set_title(f"{d}, T={T}, {n}/class", fontsize=9)
            ax.set_xlabel("vocabulary size K (clusters)")
            ax.set_ylabel("test accuracy (%)")
    runs = df[df.model == base].groupby(["dataset", "T", "n_train", "K"]).size()
    lo, hi = int(runs.min()), int(runs.max())
    n_runs = f"{lo} run{'s' if hi > 1 else ''}" if lo == hi else f"{lo}–{hi} runs"
    note = f"line: mean over {n_runs} per K, error bars: sd over runs" + (
        " (none with one run)" if hi == 1 else ""
    )
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=3, fontsize=8,
               title=f"{note}; dots: each model at its own vocabulary size (mean over its runs)",
               title_fontsize=8)  # fmt: skip
    fig.suptitle(title)
    name_dataset(fig, *ds)
    return fig


def _acc_vs_k(ctx, name: str) -> FigureOutput:
    df = _concat(ctx, name)
    fig = draw_acc_vs_k(df, ctx.step)
    return FigureOutput(fig, df, {"reductions": ctx.settings.reductions}, allow_nan=True)


@STUDY.redraw("fig4_1", "fig5_2")
def _redraw_acc_vs_k(df, meta):
    return draw_acc_vs_k(df, meta["step"])


@STUDY.figure("fig4_1", settings=FigSettings)
def fig4_1(ctx):
    """Fig 4.1: accuracy vs vocabulary size, Gibbs IWTM (and LDA on its clusters) vs
    supervised LDA+BOW."""
    return _acc_vs_k(ctx, "ch4")


@STUDY.figure("fig5_2", settings=FigSettings)
def fig5_2(ctx):
    """Fig 5.2: accuracy vs vocabulary size, CAVI IWTM + HIK SVM vs LDA+KMEANS vs
    LDA+GDPMM."""
    res = _acc_vs_k(ctx, "ch5")
    df = res.data
    # which Gaussian DP mixture made LDA+GDPMM's words (ch5's gdpmm.engine; issue 22 case 7)
    eng = df.get("gdpmm_engine", pd.Series(dtype=object)).dropna().unique()
    res.meta["lda_gdpmm_engine"] = sorted(map(str, eng)) or ["sklearn (before the key)"]
    return res


def _confusion_panel(fig, ax, M, names, title, fontsize):
    """A row-normalised confusion matrix (true class x predicted class) with its colour bar."""
    im = ax.imshow(M, vmin=0, vmax=1, cmap="viridis")
    ax.grid(False)
    ax.set_xticks(range(len(names)), names, rotation=90, fontsize=fontsize)
    ax.set_yticks(range(len(names)), names, fontsize=fontsize)
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    ax.set_title(title, fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="fraction of true class")


@STUDY.figure("fig4_2", settings=FigSettings)
def fig4_2(ctx):
    """Fig 4.2: confusion matrices of IWTM and sLDA+BOW (each one's best run)."""
    paths = ctx.input_list("confusion")
    fig, axes = figure(len(paths), 2, width=5, height=4.6, squeeze=False)
    rows = []
    for a, p in enumerate(paths):
        z = np.load(p)
        keys = json.loads(str(z["keys"]))
        names = [str(c) for c in z["class_names"]]
        for b, m in enumerate(("IWTM", "sLDA_BOW")):
            M = z[m]
            k = keys[m]
            what = f"T={k[1]}, {k[2]}/class" + (f", K={k[4]}" if len(k) > 4 else "")
            title = f"{_dataset_of(p)}: {_name(m)}\n(best run: {what})"
            _confusion_panel(fig, axes[a, b], M, names, title, 6)
            for i, j in np.ndindex(M.shape):
                rows.append(dict(file=str(p), model=m, true=names[i], pred=names[j], rate=M[i, j]))
    fig.suptitle("Fig 4.2: row-normalised confusion matrices of the best models")
    name_dataset(fig, *[_dataset_of(p) for p in paths])
    return FigureOutput(fig, pd.DataFrame(rows), {"reductions": ctx.settings.reductions})


def _dataset_of(path) -> str:
    """The dataset of a per-dataset output ``<chapter>_<dataset>.<ext>`` (rules/iwtm.smk)."""
    return Path(path).stem.split("_", 1)[1]


@STUDY.figure("fig4_3", settings=FigSettings)
def fig4_3(ctx):
    """Fig 4.3: IWTM's confusion matrix on 8-scene (left) and its accuracy beside the
    document's IWTM and the quoted DLTM numbers (right)."""
    z = np.load(ctx.input("confusion"))
    df = pd.read_csv(ctx.input("scene8"))
    M, names = z["confusion"], [str(c) for c in z["class_names"]]
    fig, (ax, tx) = figure(1, 2, width=5.5, height=4.8, width_ratios=[1.3, 1])
    d, T = df.dataset.iloc[0], int(df["T"].iloc[0])
    _confusion_panel(fig, ax, M, names, f"IWTM on {d}, T = {T}", 7)
    acc, sd = 100 * df.acc.mean(), 100 * df.acc.std() if len(df) > 1 else float("nan")
    ours = f"{acc:.1f}" + (f" ± {sd:.1f}" if np.isfinite(sd) else " (1 run)")
    paper = {c.id: c.paper_value for c in CLAIMS if c.id in ("E4.3", "DLTM")}
    table = [[f"IWTM (ours, {df.data_kind.iloc[0]})", ours],
             ["IWTM (document)", f"{paper['E4.3']} ± 0.2"],
             ["DLTM (quoted by the document)", f"{paper['DLTM']}"]]  # fmt: skip
    tx.axis("off")
    tab = tx.table(cellText=table, colLabels=["model", "accuracy (%)"], loc="center",
                   cellLoc="left", colWidths=[0.72, 0.28])  # fmt: skip
    tab.auto_set_font_size(False)
    tab.set_fontsize(9)
    tab.scale(1, 1.8)
    tx.set_title(f"{int(df.n_train.iloc[0])} training images per class, "
                 f"{int(df.n_test.iloc[0])} test images", fontsize=9)  # fmt: skip
    fig.suptitle(f"Fig 4.3: IWTM on 8-scene (this run: {d}, {df.data_kind.iloc[0]})")
    name_dataset(fig, d)
    rows = [dict(true=names[i], pred=names[j], rate=M[i, j]) for i, j in np.ndindex(M.shape)]
    out = pd.DataFrame(rows).assign(dataset=d, T=T, acc_mean=acc)
    return FigureOutput(fig, out, {"runs": df.to_dict("records")})


@STUDY.figure("fig5_1", settings=FigSettings)
def fig5_1(ctx):
    """Fig 5.1: sparsity of b~, q(c_k = c) of the 100 atoms with the most data over the
    clusters they map to."""
    path = ctx.input_list("beta")[0]
    z = np.load(path)
    B, n_k = z["beta"], z["n_k"]
    top = np.argsort(-n_k, kind="stable")[:100]
    Bs = B[top]
    cols = np.unique(Bs.argmax(1))
    fig, ax = figure(width=7, height=5)
    im = ax.imshow(Bs[:, cols], aspect="auto", cmap="gray_r", vmin=0, vmax=1)
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="q(c_k = c)")
    step = max(1, len(cols) // 10)
    ax.set_xticks(range(0, len(cols), step), [str(c) for c in cols[::step]])
    ax.set_xlabel("cluster id (those any shown atom maps to most)")
    ax.set_ylabel("atom (100 largest by data)")
    frac = float((Bs.max(1) > 0.99).mean()) if len(Bs) else float("nan")
    ax.set_title(
        f"Fig 5.1: q(c_k) of the atoms on {_dataset_of(path)}; rows with max > 0.99: "
        f"{100 * frac:.0f} %",
        fontsize=10,
    )
    name_dataset(fig, _dataset_of(path))
    df = pd.DataFrame({"atom": top, "n_k": n_k[top], "max_b": Bs.max(1)})
    return FigureOutput(fig, df, {"onehot_frac": frac})


@STUDY.figure("fig5_3", settings=FigSettings)
def fig5_3(ctx):
    """Fig 5.3: LDA+KMEANS training time per K and its ratio to CAVI IWTM's."""
    df = _concat(ctx, "ch5")
    fig, axes = figure(1, 2, width=5, height=4)
    rows = []
    for (d, T, n), sub in df.groupby(["dataset", "T", "n_train"]):
        iw = sub[sub.model == "IWTM_CAVI"].seconds.mean()
        lk = sub[sub.model == "LDA_KMEANS"].groupby("K").seconds.mean()
        axes[0].plot(lk.index, lk.values, "o-", label=f"{d} T={T} {n}/class")
        axes[1].plot(lk.index, lk.values / iw, "o-", label=f"{d} T={T} {n}/class")
        for K, v in lk.items():
            rows.append(
                dict(dataset=d, T=T, n_train=n, K=K, lda_kmeans_s=v, iwtm_s=iw, ratio=v / iw)
            )
    ylabels = ("LDA+KMEANS training time (s)", "LDA+KMEANS time / IWTM CAVI time (ratio)")
    for ax, yl in zip(axes, ylabels, strict=True):
        ax.set_xscale("log")
        log_axis(ax, "x")
        ax.set_xlabel("vocabulary size K")
        ax.set_ylabel(yl)
    axes[1].axhline(1, color="k", lw=0.5)
    axes[0].legend(fontsize=8)
    fig.suptitle("Fig 5.3: run time (machine shared with other jobs)")
    name_dataset(fig, *sorted(df.dataset.unique()))
    return FigureOutput(fig, pd.DataFrame(rows), {"reductions": ctx.settings.reductions})


@STUDY.figure("fig5_4", settings=FigSettings)
def fig5_4(ctx):
    """Fig 5.4: accuracy vs the number of training images the topics see, one line per
    number of labelled images per class."""
    df = _concat(ctx, "semi")
    ds = sorted(df.dataset.unique())
    fig, axes = figure(1, len(ds), width=6, height=4.2, squeeze=False)
    rows = []
    for ax, d in zip(axes[0], ds, strict=True):
        sub = df[df.dataset == d]
        for nl, g in sub.groupby("n_labelled"):
            a = g.groupby("n_total").acc.agg(["mean", "std"]).reset_index()
            n_img = g.groupby("n_total").apply(
                lambda x: x.n_unlabelled_images.iloc[0], include_groups=False
            )
            x = a.n_total.values
            ax.errorbar(x, 100 * a["mean"], yerr=100 * a["std"].fillna(0), marker="o", ms=4,
                        capsize=2, label=f"{nl} labelled/class")  # fmt: skip
            for xt, m_, u in zip(x, a["mean"], n_img.values, strict=True):
                rows.append(dict(dataset=d, n_labelled=nl, n_total=xt, acc=m_, unlabelled=u))
        ax.set_xlabel("training images per class seen by CAVI (labelled + unlabelled)")
        ax.set_ylabel("test accuracy (%)")
        ax.set_title(f"{d}, T={int(sub['T'].iloc[0])}", fontsize=9)
        ax.legend(fontsize=8)
    fig.suptitle("Fig 5.4: semi-supervised IWTM (CAVI topics + HIK SVM); mean over runs, "
                 "error bars: sd over runs")  # fmt: skip
    name_dataset(fig, *ds)
    return FigureOutput(fig, pd.DataFrame(rows), {"reductions": ctx.settings.reductions},
                        allow_nan=True)  # fmt: skip


def _rho_label(rho):
    return "CAVI (rho = 1)" if rho == 1 else f"SVI rho = {rho:g}"


@STUDY.figure("fig6_1", settings=FigSettings)
def fig6_1(ctx):
    """Fig 6.1: (a) mean full-corpus ELBO vs training time, (b) number of clusters (n_c >= 1)
    vs training progress (documents seen / N_doc), SVI at each rho vs CAVI."""
    df = _concat(ctx, "svi")
    ds = sorted(df.dataset.unique())
    fig, axes = figure(len(ds), 2, width=5.5, height=4.2, squeeze=False)
    rows = []
    for a, d in enumerate(ds):
        sub = df[df.dataset == d]
        for rho, g in sub.groupby("rho"):
            snap = g.dropna(subset=["elbo"]).groupby("iteration")
            e = snap.agg(seconds=("seconds", "mean"), elbo=("elbo", "mean"),
                         sd=("elbo", "std"), passes=("passes", "mean"))  # fmt: skip
            axes[a, 0].errorbar(e.seconds, e.elbo, yerr=e.sd.fillna(0), marker="o", ms=3,
                                capsize=2, label=_rho_label(rho))  # fmt: skip
            c = g.groupby("iteration").agg(passes=("passes", "mean"), clusters=("clusters", "mean"))
            axes[a, 1].plot(c.passes, c.clusters, label=_rho_label(rho))
            for it, r in e.iterrows():
                rows.append(dict(dataset=d, rho=rho, iteration=it, seconds=r.seconds,
                                 passes=r.passes, elbo=r.elbo, elbo_sd=r.sd,
                                 clusters=float(c.clusters.loc[it])))  # fmt: skip
        n = int(sub.n_doc.iloc[0])
        axes[a, 0].set_xlabel("training time (s, snapshots excluded)")
        axes[a, 0].set_ylabel("full-corpus ELBO (nats)")
        scaled_axis(axes[a, 0], "y")  # 10^k in the label, no "1e6" above the panel
        axes[a, 0].set_title(f"(a) {d}: ELBO vs time, N_doc = {n}", fontsize=9)
        axes[a, 1].set_xlabel("documents seen / N_doc (CAVI iterations)")
        axes[a, 1].set_ylabel("clusters with n_c >= 1")
        axes[a, 1].set_title(f"(b) {d}: number of clusters", fontsize=9)
        for ax in axes[a]:
            ax.legend(fontsize=8)
    fig.suptitle(f"Fig 6.1: SVI vs CAVI, T = {int(df['T'].iloc[0])}, mean of "
                 f"{df.seed.nunique()} run(s) (error bars: sd over runs)")  # fmt: skip
    name_dataset(fig, *ds)
    return FigureOutput(fig, pd.DataFrame(rows), {"reductions": ctx.settings.reductions},
                        allow_nan=True)  # fmt: skip


@STUDY.figure("fig6_2", settings=FigSettings)
def fig6_2(ctx):
    """Fig 6.2: one LDA+KMEANS run's time (ch. 5, per K) divided by IWTM-SVI's training
    time at the smallest rho (Fig 6.1's runs), at the n_train and T of the SVI runs."""
    svi, c5 = _concat(ctx, "svi"), _concat(ctx, "ch5")
    fig, ax = figure(width=6.5, height=4.2)
    rows = []
    for d, sub in svi.groupby("dataset"):
        rho = float(sub.rho.min())
        t_svi = float(svi_final(sub).seconds.loc[rho])
        n, T = int(sub.n_train.iloc[0]), int(sub["T"].iloc[0])
        lk = c5[(c5.dataset == d) & (c5.model == "LDA_KMEANS") & (c5.n_train == n)
                & (c5["T"] == T)].groupby("K").seconds.mean()  # fmt: skip
        if lk.empty:
            continue
        ax.plot(lk.index, lk.values / t_svi, "o-", label=f"{d}, {n}/class, T = {T}")
        for K, v in lk.items():
            rows.append(dict(dataset=d, n_train=n, T=T, K=K, rho=rho, lda_kmeans_s=v,
                             iwtm_svi_s=t_svi, ratio=v / t_svi))  # fmt: skip
    ax.axhspan(1 / 3, 1 / 2.5, color="gray", alpha=0.25, label="document: SVI = 2.5-3x LDA+KMEANS")
    ax.set_xscale("log")
    log_axis(ax, "x")
    ax.set_xlabel("vocabulary size K of LDA+KMEANS")
    ax.set_ylabel("LDA+KMEANS time / IWTM-SVI time (ratio)")
    ax.legend(fontsize=8)
    ax.set_title(f"Fig 6.2: normalised training time (SVI rho = {svi.rho.min():g})", fontsize=10)
    name_dataset(fig, *sorted(svi.dataset.unique()))
    return FigureOutput(fig, pd.DataFrame(rows), {"reductions": ctx.settings.reductions})


@STUDY.figure("fig7_1", settings=FigSettings)
def fig7_1(ctx):
    """Fig 7.1 analogue: clusters with at least one expected datum (a) and the lower bound
    (b) vs VB iteration of a variational Gaussian DP mixture on this run's descriptors."""
    df = _concat(ctx, "pareback")
    fig, axes = figure(1, 2, width=5.5, height=4.2)
    g = df.groupby(["dataset", "iteration"]).agg(clusters=("clusters", "mean"),
                                                  lower_bound=("lower_bound", "mean"))  # fmt: skip
    for d, sub in g.groupby(level=0):
        sub = sub.droplevel(0)
        axes[0].plot(sub.index, sub.clusters, marker=".", label=d)
        axes[1].plot(sub.index, sub.lower_bound, marker=".", label=d)
    C, N = int(df.C.iloc[0]), int(df.N.iloc[0])
    axes[0].set_ylabel(f"clusters with >= 1 expected datum (of C = {C})")
    axes[1].set_ylabel("variational lower bound (sklearn lower_bound_)")
    scaled_axis(axes[1], "y")
    for ax, t in zip(axes, ("(a) number of clusters", "(b) lower bound"), strict=True):
        ax.set_xlabel("VB iteration")
        ax.set_title(t, fontsize=9)
        ax.legend(fontsize=8)
    fig.suptitle(f"Fig 7.1 analogue: paring back in a variational Gaussian DP mixture "
                 f"(N = {N}, {df.seed.nunique()} run(s))")  # fmt: skip
    name_dataset(fig, *sorted(df.dataset.unique()))
    return FigureOutput(fig, g.reset_index(), {"reductions": ctx.settings.reductions})


@STUDY.figure("fig7_3", settings=FigSettings)
def fig7_3(ctx):
    """Fig 7.3: (a) clusters and (b) ELBO on the current training set vs SVI iteration,
    IVI vs IVI-NO-EXTEND; dotted lines where the set grows."""
    df = _concat(ctx, "ivi_trace")
    ds = sorted(df.dataset.unique())
    fig, axes = figure(len(ds), 2, width=5.5, height=4.2, squeeze=False)
    rows = []
    for a, d in enumerate(ds):
        sub = df[df.dataset == d]
        for method, g in sub.groupby("method"):
            c = g.groupby("iteration").agg(clusters=("clusters", "mean"), n_doc=("n_doc", "first"))
            axes[a, 0].plot(c.index, c.clusters, label=method)
            e = g.dropna(subset=["elbo"]).groupby("iteration").elbo.agg(["mean", "std"])
            axes[a, 1].errorbar(e.index, e["mean"], yerr=e["std"].fillna(0), marker="o", ms=3,
                                capsize=2, label=method)  # fmt: skip
            for it, r in c.iterrows():
                rows.append(dict(dataset=d, method=method, iteration=it, n_doc=r.n_doc,
                                 clusters=r.clusters,
                                 elbo=e["mean"].get(it, np.nan)))  # fmt: skip
        grow = sub.groupby("iteration").n_doc.first()
        for it in grow.index[1:][np.diff(grow.values) > 0]:
            for ax in axes[a]:
                ax.axvline(it - 0.5, color="gray", lw=0.6, ls=":")
        axes[a, 0].set_ylabel("clusters with n_c >= 1")
        axes[a, 1].set_ylabel("ELBO on the current training set (nats)")
        scaled_axis(axes[a, 1], "y")
        axes[a, 0].set_title(f"(a) {d}: number of clusters", fontsize=9)
        axes[a, 1].set_title(f"(b) {d}: ELBO (documents {grow.min()} -> {grow.max()})",
                             fontsize=9)  # fmt: skip
        for ax in axes[a]:
            ax.set_xlabel("SVI iteration (dotted: the training set grows)")
            ax.legend(fontsize=8)
    fig.suptitle(f"Fig 7.3: incremental VI with and without EXTEND (mean of "
                 f"{df.seed.nunique()} run(s), error bars: sd over runs)")  # fmt: skip
    name_dataset(fig, *ds)
    return FigureOutput(fig, pd.DataFrame(rows), {"reductions": ctx.settings.reductions},
                        allow_nan=True)  # fmt: skip


# ------------------------------------------------------------- Figs 7.4-7.6 (active)
def _curves(df):
    """Mean and sd over seeds of accuracy (%) and model size per (model, K, method, n)."""
    g = df.assign(acc=100 * df.acc, K=df.K.fillna(-1)).groupby(
        ["dataset", "model", "K", "method", "n_labelled"]
    )
    out = g.agg(acc=("acc", "mean"), acc_sd=("acc", "std"), size=("size", "mean"),
                size_sd=("size", "std"), runs=("acc", "size")).reset_index()  # fmt: skip
    out["K"] = out.K.replace(-1, np.nan)
    return out


def _band(ax, g, label, **kw):
    line = ax.plot(g.n_labelled, g.acc, marker="o", ms=3, label=label, **kw)[0]
    sd = g.acc_sd.fillna(0)
    ax.fill_between(g.n_labelled, g.acc - sd, g.acc + sd, color=line.get_color(), alpha=0.15)


def _runs(df):
    return f"mean ± sd of {df.seed.nunique()} run(s)"


@STUDY.figure("fig7_4", settings=FigSettings)
def fig7_4(ctx):
    """Fig 7.4: IWTM test accuracy vs number of labelled documents, active (margin) vs
    random selection (mean ± sd over seeds)."""
    df = _concat(ctx, "active")
    cur = _curves(df[df.model == "IWTM"])
    ds = sorted(cur.dataset.unique())
    fig, axes = figure(1, len(ds), width=6, height=4.2, squeeze=False)
    for ax, d in zip(axes[0], ds, strict=True):
        for method, g in cur[cur.dataset == d].groupby("method"):
            _band(ax, g, f"IWTM {method}")
        ax.set_xlabel("labelled training documents")
        ax.set_ylabel("test accuracy (%)")
        ax.set_title(f"{d}", fontsize=9)
        ax.legend(fontsize=8)
    fig.suptitle(f"Fig 7.4: active learning vs random selection, IWTM ({_runs(df)})")
    name_dataset(fig, *ds)
    return FigureOutput(fig, cur, {"reductions": ctx.settings.reductions}, allow_nan=True)


@STUDY.figure("fig7_5", settings=FigSettings)
def fig7_5(ctx):
    """Fig 7.5: (a) active-learning accuracy, IWTM vs LDA+KMEANS at every K; (b) IWTM's
    clusters in use vs training size."""
    df = _concat(ctx, "active")
    cur = _curves(df[df.method == "active"])
    ds = sorted(cur.dataset.unique())
    fig, axes = figure(len(ds), 2, width=6, height=4.4, squeeze=False)
    for a, d in enumerate(ds):
        c = cur[cur.dataset == d]
        lda = c[c.model == "LDA_KMEANS"]
        cmap = plt.get_cmap("viridis", max(2, lda.K.nunique()))
        for i, (K, g) in enumerate(lda.groupby("K")):
            axes[a, 0].plot(g.n_labelled, g.acc, marker=".", color=cmap(i), lw=1,
                            label=f"LDA K = {int(K)}")  # fmt: skip
        iw = c[c.model == "IWTM"]
        _band(axes[a, 0], iw, "IWTM", color="crimson", lw=2.2)
        axes[a, 0].set_xlabel("labelled training documents")
        axes[a, 0].set_ylabel("test accuracy (%)")
        axes[a, 0].set_title(f"(a) {d}: active learning, IWTM vs LDA+KMEANS", fontsize=9)
        axes[a, 0].legend(fontsize=7, ncol=2)
        for method, g in _curves(df[(df.model == "IWTM") & (df.dataset == d)]).groupby("method"):
            axes[a, 1].errorbar(g.n_labelled, g["size"], yerr=g.size_sd.fillna(0), marker="o",
                                ms=3, capsize=2, label=f"IWTM {method}")  # fmt: skip
        axes[a, 1].set_xlabel("labelled training documents")
        axes[a, 1].set_ylabel("clusters with n_c >= 1")
        axes[a, 1].set_title(f"(b) {d}: IWTM's number of clusters", fontsize=9)
        axes[a, 1].legend(fontsize=8)
    fig.suptitle(f"Fig 7.5: active learning, IWTM vs LDA+KMEANS ({_runs(df)}; band and error "
                 "bars: sd over runs)")  # fmt: skip
    name_dataset(fig, *ds)
    return FigureOutput(fig, cur, {"reductions": ctx.settings.reductions}, allow_nan=True)


@STUDY.figure("fig7_6", settings=FigSettings)
def fig7_6(ctx):
    """Fig 7.6: LDA+KMEANS active vs random selection, one panel per vocabulary size K."""
    df = _concat(ctx, "active")
    cur = _curves(df[df.model == "LDA_KMEANS"])
    keys = sorted({(d, int(K)) for d, K in zip(cur.dataset, cur.K, strict=True)})
    ncol = min(4, len(keys))
    nrow = -(-len(keys) // ncol)
    fig, axes = figure(nrow, ncol, width=4, height=3.4, squeeze=False)
    for ax, (d, K) in zip(axes.flat, keys, strict=False):
        for method, g in cur[(cur.dataset == d) & (cur.K == K)].groupby("method"):
            _band(ax, g, method)
        ax.set_title(f"{d}, K = {K}", fontsize=9)
        ax.set_xlabel("labelled training documents")
        ax.set_ylabel("test accuracy (%)")
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(keys) :]:
        ax.axis("off")
    fig.suptitle(f"Fig 7.6: LDA+KMEANS active vs random selection per K ({_runs(df)})")
    name_dataset(fig, *sorted({d for d, _ in keys}))
    return FigureOutput(fig, cur, {"reductions": ctx.settings.reductions}, allow_nan=True)


# ------------------------------------------------------------------ Fig 6.3 (SUN maps)
@STUDY.figure("fig6_3", settings=FigSettings)
def fig6_3(ctx):
    """Fig 6.3: training images (when the set has pixels) with their per-patch MAP topics
    and visual words (colours arbitrary, one per label); per-class accuracy of the two
    SPM classifiers as the last panel."""
    z = np.load(ctx.input("maps"))
    acc = pd.read_csv(ctx.input("sun"))
    n = int(z["n_show"])
    # constrained layout keeps the suptitle above the first row's titles (tight_layout set
    # it on them: issue 40)
    fig, axes = figure(n + 1, 3, width=10 / 3, height=3.1, squeeze=False)
    rng = np.random.default_rng(0)
    colours = rng.random((4096, 3))
    for i in range(n):
        g = z[f"grid_{i}"]
        H, W = int(g[:, 0].max()) + 1, int(g[:, 1].max()) + 1
        if f"thumb_{i}" in z:
            axes[i, 0].imshow(z[f"thumb_{i}"], cmap="gray")
            axes[i, 0].set_title(f"training image {i + 1}", fontsize=9)
        else:
            axes[i, 0].text(0.5, 0.5, "synthetic document\n(no pixels)", ha="center",
                            va="center")  # fmt: skip
            axes[i, 0].axis("off")  # a note, not a panel
        panels = (("iwtm_topics", "IWTM MAP topics (Eq. 6.44)"),
                  ("visual_words", "visual words (K-means)"))  # fmt: skip
        for j, (key, title) in enumerate(panels, 1):
            img = np.ones((H, W, 3))
            img[g[:, 0], g[:, 1]] = colours[z[f"{key}_{i}"] % len(colours)]
            axes[i, j].imshow(img, interpolation="nearest")
            axes[i, j].set_title(f"{title}: {len(np.unique(z[f'{key}_{i}']))} labels",
                                 fontsize=9)  # fmt: skip
        for ax in axes[i]:
            ax.set_xticks([])
            ax.set_yticks([])
    a = acc.groupby("class_name")[["acc_vw", "acc_topic"]].mean().sort_values("acc_vw")
    ax = axes[n, 0]
    gs = ax.get_gridspec()
    for b in axes[n]:
        b.remove()
    ax = fig.add_subplot(gs[n, :])
    x = np.arange(len(a))
    ax.bar(x - 0.2, 100 * a.acc_vw, 0.4, label="SPM on visual words")
    ax.bar(x + 0.2, 100 * a.acc_topic, 0.4, label="SPM on IWTM MAP topics")
    ax.set_xticks(x, a.index, rotation=90, fontsize=7)
    ax.set_xlabel("scene class")
    ax.set_ylabel("per-class test accuracy (%)")
    ax.legend(fontsize=8)
    d = acc.dataset.iloc[0]
    fig.suptitle(f"Fig 6.3: topic vs visual-word maps and per-class accuracy ({d}, "
                 f"{acc.data_kind.iloc[0]})")  # fmt: skip
    name_dataset(fig, d)
    return FigureOutput(fig, a.reset_index(), {"reductions": ctx.settings.reductions})
