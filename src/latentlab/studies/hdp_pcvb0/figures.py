"""Figures 1–5 of seed 001 from the raw run JSONs (each with the CSV of what it plots).

Registry: ``fig1`` (inputs ``runs`` = perplexity JSONs of the first dataset, ``bench``),
``fig2`` and ``fig3`` (``runs`` = perplexity JSONs), ``fig4`` (kNN JSONs), ``fig5``
(link JSONs).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.bench import bench_wide
from latentlab.studies.hdp_pcvb0.study import STUDY, Fig3Settings, bench_table
from latentlab.studies.shape import FigureOutput

BINS = [  # Fig 2 bins, written high → low in the document (which ends are closed it leaves open)
    ("over 0.1", 0.1, np.inf),
    ("(0.1, 0.05]", 0.05, 0.1),
    ("(0.05, 0.01]", 0.01, 0.05),
    ("under 0.01", -np.inf, 0.01),
]
STYLE = {
    "cvb": ("tab:red", "o"),
    "cvb0": ("tab:blue", "s"),
    "pcvb": ("tab:orange", "^"),
    "pcvb0": ("tab:green", "D"),
}


def load_runs(paths) -> list[dict]:
    return [json.loads(Path(p).read_text()) for p in paths]


# the document marks its own inferences with * (Fig 3's caption: "* indicates our inferences")
STAR_NOTE = "* the document's own inferences"


def _style(config: str, markers: bool = True) -> dict:
    """Colour and marker name the inference, the prior's line and fill: AA solid with a
    filled marker, AS dashed with a hollow one (a dash alone was lost in a short legend
    handle, so AS and AA read alike: issue 40)."""
    m, p = config.split("_")
    c, mk = STYLE[m]
    st = {"color": c, "ls": "-" if p == "AA" else "--"}
    if markers:
        st |= {"marker": mk, "mfc": c if p == "AA" else "white", "mec": c}
    return st


def _label(config):
    m, p = config.split("_")
    return f"{'*' if m.startswith('p') else ''}{m.upper()} {p}"


def _runs_note(agg: pd.DataFrame) -> str:
    n = sorted({int(c) for c in agg["count"]})
    runs = f"{n[0]}" if len(n) == 1 else f"{n[0]}–{n[-1]}"
    return f"{runs} run{'s' if n[-1] > 1 else ''}"


def perplexity_table(results: list[dict]) -> pd.DataFrame:
    rows = []
    for res in results:
        for r in res["runs"]:
            rows.append(
                {
                    "dataset": res["dataset"],
                    "config": res["config"],
                    "method": res["method"],
                    "prior": res["prior"],
                    "T": r["T"],
                    "run": r["run"],
                    "perplexity": r["final_perplexity"],
                    "effective_topics": r["effective_topics"],
                    "alpha0": r["alpha0"],
                    "beta0": r["beta0"],
                    "gamma0": r["gamma0"],
                    "sec_per_iter": r["sec_per_iter"],
                }
            )
    return pd.DataFrame(rows)


def fig2(results: list[dict]):
    """Histogram of E[α0π_k] under CVB AA at trace_T (and PCVB0 AA alongside)."""
    rows = []
    for res in results:
        if res["config"] not in ("cvb_AA", "pcvb0_AA"):
            continue
        for r in res["runs"]:
            if "alpha_pi_E" not in r:
                continue
            a = np.asarray(r["alpha_pi_E"])
            for name, lo, hi in BINS:
                rows.append(
                    {
                        "dataset": res["dataset"],
                        "config": res["config"],
                        "T": r["T"],
                        "run": r["run"],
                        "bin": name,
                        "proportion_pct": 100.0 * np.mean((a > lo) & (a <= hi)),
                        "max_alpha_pi": float(a.max()),
                    }
                )
    df = pd.DataFrame(rows)
    agg = (
        df.groupby(["dataset", "config", "T", "bin"], sort=False)
        .agg(proportion_pct=("proportion_pct", "mean"), max_alpha_pi=("max_alpha_pi", "max"))
        .reset_index()
    )
    return draw_fig2(agg), agg


def draw_fig2(agg: pd.DataFrame):
    """Fig 2 from its CSV (``agg``)."""
    from latentlab.plotting import figure, name_dataset

    cv = agg[agg.config == "cvb_AA"]
    datasets = list(dict.fromkeys(cv.dataset))
    fig, ax = figure(1, 1, width=6, height=3)
    w = 0.8 / max(1, len(datasets))
    for i, ds in enumerate(datasets):
        sub = cv[cv.dataset == ds].set_index("bin").loc[[b[0] for b in BINS]]
        ax.bar(
            np.arange(4) + i * w,
            sub.proportion_pct,
            w,
            label=f"{ds} (max {sub.max_alpha_pi.iloc[0]:.4f})",
        )
    ax.set_xticks(np.arange(4) + w * (len(datasets) - 1) / 2, [b[0] for b in BINS])
    ax.set_xlabel("Range of E[α0π_k]")
    ax.set_ylabel("Proportion (%)")
    ax.set_ylim(0, 100)
    ax.set_title(f"CVB AA, T = {int(cv['T'].iloc[0]) if len(cv) else '?'}")
    ax.legend(title="dataset (largest E[α0π_k])")
    if datasets:
        name_dataset(fig, *datasets)
    return fig


def fig3(results: list[dict]):
    """Left: perplexity vs T after the last iteration; right: vs iteration at trace_T."""
    agg = fig3_table(results)
    return draw_fig3(agg), agg


def fig3_table(results: list[dict]) -> pd.DataFrame:
    """Fig 3's CSV: per panel, dataset, configuration, T and iteration, the perplexity's
    mean, sd, min, max and count over runs."""
    rows = []
    for res in results:
        for r in res["runs"]:
            rows.append(
                {
                    "panel": "vs_T",
                    "dataset": res["dataset"],
                    "config": res["config"],
                    "T": r["T"],
                    "iteration": res["iterations"],
                    "run": r["run"],
                    "perplexity": r["final_perplexity"],
                }
            )
            for i, v in enumerate(r["trace"]):
                rows.append(
                    {
                        "panel": "vs_iteration",
                        "dataset": res["dataset"],
                        "config": res["config"],
                        "T": r["T"],
                        "iteration": i + 1,
                        "run": r["run"],
                        "perplexity": v,
                    }
                )
    df = pd.DataFrame(rows)
    agg = (
        df.groupby(["panel", "dataset", "config", "T", "iteration"], sort=False)["perplexity"]
        .agg(["mean", "std", "min", "max", "count"])
        .reset_index()
        .fillna({"std": 0.0})
    )
    return agg


def draw_fig3(agg: pd.DataFrame, note: str | None = None):
    """Fig 3 from its CSV (``agg``): perplexity vs T (left) and vs iteration (right);
    ``note``, a line under the title (which corpora a run leaves out)."""
    from latentlab.plotting import figure, name_dataset

    datasets = list(dict.fromkeys(agg.dataset))
    fig, axes = figure(len(datasets), 2, width=4.2, height=2.8, squeeze=False)
    for i, ds in enumerate(datasets):
        left, right = axes[i]
        for config in dict.fromkeys(agg.config):
            s = agg[(agg.dataset == ds) & (agg.config == config) & (agg.panel == "vs_T")]
            x = np.arange(len(s))
            left.errorbar(
                x, s["mean"], yerr=s["std"], **_style(config), label=_label(config), capsize=2
            )
            left.set_xticks(x, [str(t) for t in s["T"]])
            s = agg[(agg.dataset == ds) & (agg.config == config) & (agg.panel == "vs_iteration")]
            right.plot(s["iteration"], s["mean"], **_style(config, False), label=_label(config))
            right.fill_between(s["iteration"], s["min"], s["max"], color=_style(config)["color"],
                               alpha=0.1)  # fmt: skip
        it = agg[(agg.dataset == ds) & (agg.panel == "vs_T")]["iteration"]
        left.set_title(f"{ds}, after {int(it.max()) if len(it) else '?'} iterations")
        left.set_xlabel("truncation level T")
        left.set_ylabel("test perplexity")
        tr = agg[(agg.dataset == ds) & (agg.panel == "vs_iteration")]
        right.set_title(f"{ds}, T = {int(tr['T'].iloc[0]) if len(tr) else '?'}")
        right.set_xlabel("# of iterations")
        right.set_ylabel("test perplexity")
    name_dataset(fig, *datasets)
    fig.suptitle(
        f"Fig 3: mean test perplexity over {_runs_note(agg)}; left: error bars sd over runs, "
        "right: band min–max over runs" + (f"\n{note}" if note else ""),
        fontsize=9,
    )
    # one legend for both columns: colour and marker name the inference, line style and
    # marker fill the prior (AA solid and filled, AS dashed and hollow)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=4, fontsize=7, handlelength=3,
               title=f"{STAR_NOTE}; AA solid, filled; AS dashed, hollow",
               title_fontsize=7)  # fmt: skip
    return fig


def _metric_fig(results, key, ylabel, sub=None):
    rows = []
    for res in results:
        for r in res["runs"]:
            vals = r[key] if isinstance(r[key], dict) else {"": r[key]}
            for k, v in vals.items():
                rows.append(
                    {
                        "dataset": res["dataset"],
                        "config": res["config"],
                        "k": k,
                        "T": r["T"],
                        "run": r["run"],
                        key: v,
                    }
                )
    df = pd.DataFrame(rows)
    agg = (
        df.groupby(["dataset", "config", "k", "T"], sort=False)[key]
        .agg(["mean", "std", "count"])
        .reset_index()
        .fillna({"std": 0.0})
    )
    return draw_metric(agg, ylabel, sub), agg


def draw_metric(agg: pd.DataFrame, ylabel: str, sub=None):
    """Figs 4/5 from their CSV (``agg``): the metric vs T, one panel per dataset."""
    from latentlab.plotting import figure, name_dataset

    # k as the run writes it ("7", or "" for MAP) also when read back from the CSV (7.0, NaN)
    agg = agg.assign(k=agg["k"].map(lambda v: "" if pd.isna(v) else str(v).removesuffix(".0")))
    datasets = list(dict.fromkeys(agg.dataset))
    fig, axes = figure(1, len(datasets), width=4.2, height=3, squeeze=False)
    for i, ds in enumerate(datasets):
        ax = axes[0][i]
        for config in dict.fromkeys(agg.config):
            for k in dict.fromkeys(agg.k):
                s = agg[(agg.dataset == ds) & (agg.config == config) & (agg.k == k)]
                if sub is not None and k != sub:
                    continue
                x = np.arange(len(s))
                ax.errorbar(
                    x, s["mean"], yerr=s["std"], **_style(config), label=_label(config), capsize=2
                )
                ax.set_xticks(x, [str(t) for t in s["T"]])
        ax.set_title(ds + (f" {sub}nn" if sub else ""))
        ax.set_xlabel("truncation level T")
        ax.set_ylabel(ylabel)
    name_dataset(fig, *datasets)
    fig.suptitle(f"mean over {_runs_note(agg)}, error bars: sd over runs", fontsize=9)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=4, fontsize=7, handlelength=3,
               title=f"{STAR_NOTE}; AA solid, filled; AS dashed, hollow",
               title_fontsize=7)  # fmt: skip
    return fig


METRIC = {"fig4": ("accuracy", "Accuracy", "7"), "fig5": ("map", "MAP", None)}


def fig4(results):
    """7-NN accuracy by Hellinger distance vs T (k = 1 in the CSV as sensitivity)."""
    return _metric_fig(results, *METRIC["fig4"])


def fig5(results):
    """Link-prediction MAP vs T."""
    return _metric_fig(results, *METRIC["fig5"])


def fig1(bench_csv, ppl: pd.DataFrame):
    """Fig 1 as measured numbers: memory, time per iteration, LOC, final perplexity."""
    b = bench_table(bench_wide(bench_csv))
    b = b[b.kind == "method"]
    Tb = int(b["T"].max())
    b = b[b["T"] == Tb]
    ds = ppl.dataset.iloc[0]
    Tp = int(ppl["T"].max())
    pp = (
        ppl[(ppl.dataset == ds) & (ppl["T"] == Tp)]
        .groupby("config")["perplexity"]
        .mean()
        .rename("final_perplexity")
    )
    df = b[
        [
            "config",
            "method",
            "prior",
            "T",
            "state_mb",
            *(["alloc_peak_mb"] if "alloc_peak_mb" in b.columns else []),
            "rss_above_baseline_mb",
            "sec_per_iter",
            "loc",
        ]
    ].merge(pp, left_on="config", right_index=True)
    df = df.rename(columns={"T": "T_bench"})
    df["T_perplexity"] = Tp
    df["perplexity_dataset"] = ds
    return draw_fig1(df), df


def draw_fig1(df: pd.DataFrame):
    """Fig 1 from its CSV: one panel per measure, one horizontal bar per configuration
    (the configurations' names upright on the shared y axis, not tiny and rotated)."""
    from latentlab.plotting import figure, name_dataset

    ds, Tp = df["perplexity_dataset"].iloc[0], int(df["T_perplexity"].iloc[0])
    cols = [
        ("state_mb", "state memory (MB)"),
        *([("alloc_peak_mb", "peak allocation (MB)")] if "alloc_peak_mb" in df.columns else []),
        ("sec_per_iter", "s / iteration"),
        ("loc", "lines of code"),
        ("final_perplexity", f"perplexity ({ds}, T={Tp})"),
    ]
    h = max(2.0, 0.3 * len(df) + 0.9)
    fig, axes = figure(1, len(cols), width=2.2, height=h, sharey=True)
    y = np.arange(len(df))
    for ax, (col, lab) in zip(axes, cols, strict=True):
        ax.barh(y, df[col], color=[STYLE[m][0] for m in df.method], alpha=0.8)
        ax.set_xlabel(lab)
    axes[0].set_yticks(y, [_label(c) for c in df.config])
    axes[0].invert_yaxis()  # the configurations top to bottom in the CSV's order
    axes[0].set_ylabel("configuration")
    name_dataset(fig, ds)
    tb = int(df["T_bench"].iloc[0])
    fig.suptitle(
        f"Fig 1 as measured: cost per iteration at T={tb}, perplexity on {ds} ({STAR_NOTE})",
        fontsize=9,
    )
    return fig


# ------------------------------------------------------------------ registry
@STUDY.figure("fig1")
def _fig1(ctx) -> FigureOutput:
    """Fig 1 as measured numbers (bench.csv and the first perplexity dataset)."""
    runs = ctx.input_list("runs")
    fig, df = fig1(ctx.input("bench"), perplexity_table(load_runs(runs)))
    return FigureOutput(fig, df, {"inputs": [str(p) for p in runs]})


@STUDY.redraw("fig1", "fig2", "fig3", "fig4", "fig5")
def _redraw(df, meta):
    step = meta["step"]
    if step in METRIC:
        return draw_metric(df, *METRIC[step][1:])
    if step == "fig3":
        return draw_fig3(df, meta.get("panels_note"))
    return {"fig1": draw_fig1, "fig2": draw_fig2}[step](df)


@STUDY.figure("fig2", "fig4", "fig5")
def _from_runs(ctx) -> FigureOutput:
    """Figs 2, 4, 5 from the run JSONs of their kind."""
    runs = ctx.input_list("runs")
    fig, df = {"fig2": fig2, "fig4": fig4, "fig5": fig5}[ctx.step](load_runs(runs))
    return FigureOutput(fig, df, {"inputs": [str(p) for p in runs]})


def fig3_note(datasets: list[str] | None) -> str | None:
    """The line Fig 3 carries when ``fig3.datasets`` leaves corpora out: the document's
    Fig 3 has five corpora (KOS, 20news, Enron, NYTimes, PubMed)."""
    if datasets is None:
        return None
    return (
        f"{', '.join(datasets)} only (hdp_pcvb0.fig3.datasets); the document's Fig 3 has five "
        "corpora"
    )


@STUDY.figure("fig3", settings=Fig3Settings)
def _fig3(ctx) -> FigureOutput:
    """Fig 3 from the perplexity run JSONs (the corpora of ``fig3.datasets``)."""
    runs = ctx.input_list("runs")
    results = load_runs(runs)
    want = ctx.settings.fig3.datasets
    if want is not None:
        from latentlab.errors import DataError

        got = list(dict.fromkeys(r["dataset"] for r in results))
        if got != list(want):
            raise DataError(runs[0], f"fig3.datasets is {want}, the runs given are of {got}")
    note = fig3_note(want)
    df = fig3_table(results)
    meta = {"inputs": [str(p) for p in runs], **({"panels_note": note} if note else {})}
    return FigureOutput(draw_fig3(df, note), df, meta)
