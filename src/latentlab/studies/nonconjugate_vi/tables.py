"""Tables 1 and 2 of Wang & Blei (2013) from the raw rows, next to the document's values.

The document's values and the t-tests live here, not in ``blr.py`` (which computes the raw
rows), so that the table and claims steps do not import the logistic-regression code.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from latentlab.studies.nonconjugate_vi.study import STUDY, Table1TableSettings
from latentlab.studies.shape import TableOutput

PAPER_T1 = {  # Table 1 (verbatim): (accuracy %, log likelihood)
    ("yeast", "jj"): (79.7, -0.678),
    ("yeast", "laplace"): (80.1, -0.449),
    ("yeast", "delta"): (80.2, -0.450),
    ("scene", "jj"): (87.4, -0.670),
    ("scene", "laplace"): (89.4, -0.259),
    ("scene", "delta"): (89.5, -0.265),
}
PAPER_T2 = {  # Table 2 (verbatim)
    ("separate", "jj"): (70.5, -0.684),
    ("separate", "laplace"): (70.8, -0.569),
    ("separate", "delta"): (70.8, -0.571),
    ("pooled", "jj"): (71.2, -0.685),
    ("pooled", "laplace"): (71.3, -0.557),
    ("pooled", "delta"): (71.3, -0.557),
    ("hierarchical", "jj"): (71.3, -0.685),
    ("hierarchical", "laplace"): (71.9, -0.549),
    ("hierarchical", "delta"): (71.9, -0.559),
}


def _na(df: pd.DataFrame) -> pd.DataFrame:
    """Cells that do not apply (no paper value for jj_seq, no test of JJ against itself) are
    written as the string 'n/a', never as NaN."""
    out = df.copy()
    for col in out.columns:
        if out[col].isna().any():
            out[col] = [("n/a" if pd.isna(v) else v) for v in out[col]]
    return out


def _raw_meta(ctx, name):
    return json.loads(ctx.input(name).with_suffix(".meta.json").read_text())


def _t_greater(diff) -> float:
    """One-sided t-test p-value of mean(diff) > 0 (0.5 when every difference is 0)."""
    if np.allclose(diff, 0):
        return 0.5
    from scipy import stats  # here: only the t-tests need scipy.stats (~0.5 s to import)

    return float(stats.ttest_1samp(diff, 0.0, alternative="greater").pvalue)


def with_split(per: pd.DataFrame) -> pd.DataFrame:
    """``table1_problems`` rows with their ``split`` (a file without the column holds the
    standard split only: split 0)."""
    return per if "split" in per.columns else per.assign(split=0)


def problem_rows(per: pd.DataFrame, estimate: str = "standard") -> pd.DataFrame:
    """One row per (dataset, problem, method) of Table 1's estimate: the standard split's
    (``standard``), or the mean over the standard split and the re-splits
    (``resplit_mean``), in the file's order."""
    per = with_split(per)
    if estimate == "standard":
        return per[per.split == 0].drop(columns="split").reset_index(drop=True)
    if estimate != "resplit_mean":
        raise ValueError(f"unknown Table 1 estimate {estimate!r}")
    keys = ["dataset", "problem", "method"]
    num = [c for c in ("accuracy", "loglik", "fit_s") if c in per.columns]
    g = per.groupby(keys, sort=False)
    out = g[num].mean().reset_index()
    return out.assign(data_kind=g.data_kind.first().to_numpy(), n_splits=g.size().to_numpy())


def split_means(per: pd.DataFrame) -> pd.DataFrame:
    """Table 1's means over problems per (dataset, method, split): the replicates of its
    values (the standard split and the re-splits at its sizes)."""
    per = with_split(per)
    return (
        per.groupby(["dataset", "method", "split"], sort=False)[["accuracy", "loglik"]]
        .mean()
        .reset_index()
    )


@STUDY.table("table1", settings=Table1TableSettings)
def table1(ctx) -> TableOutput:
    """Table 1: mean accuracy (%) and log likelihood per dataset and method (the standard
    split's, or the mean over it and the re-splits: ``blr.table1_estimate``); one-sided
    t-tests over problems against JJ."""
    estimate = ctx.settings.blr.table1_estimate
    raw = with_split(ctx.csv("problems"))
    per = problem_rows(raw, estimate)
    methods = set(per.method)
    tab = []
    for (name, meth), g in per.groupby(["dataset", "method"], sort=False):
        pa = PAPER_T1.get((name, meth), (np.nan, np.nan))
        row = {
            "dataset": name,
            "method": meth,
            "accuracy_pct": 100 * g.accuracy.mean(),
            "loglik": g.loglik.mean(),
            "paper_accuracy_pct": pa[0],
            "paper_loglik": pa[1],
            "n_problems": len(g),
            "n_splits": int(raw[(raw.dataset == name) & (raw.method == meth)].split.nunique()),
            "estimate": estimate,
            "data_kind": g.data_kind.iloc[0],
        }
        if meth in ("laplace", "delta") and "jj" in methods:
            jj = per[(per.dataset == name) & (per.method == "jj")].sort_values("problem")
            g2 = g.sort_values("problem")
            for col in ("accuracy", "loglik"):
                row[f"p_{col}_vs_jj"] = _t_greater(g2[col].to_numpy() - jj[col].to_numpy())
        tab.append(row)
    meta = _raw_meta(ctx, "problems")
    return TableOutput(_na(pd.DataFrame(tab)), {k: meta.get(k) for k in ("preprocessing", "test")})


def _table2(per: pd.DataFrame) -> pd.DataFrame:
    kind = per.data_kind.iloc[0]
    tab = []
    for (setting, meth), gg in per.groupby(["setting", "method"], sort=False):
        pa = PAPER_T2.get((setting, meth), (np.nan, np.nan))
        tab.append(
            {
                "setting": setting,
                "method": meth,
                "accuracy_pct": 100 * gg.accuracy.mean(),
                "accuracy_sd": 100 * gg.accuracy.std(ddof=1) if len(gg) > 1 else 0.0,
                "loglik": gg.loglik.mean(),
                "loglik_sd": gg.loglik.std(ddof=1) if len(gg) > 1 else 0.0,
                "paper_accuracy_pct": pa[0],
                "paper_loglik": pa[1],
                "n_splits": len(gg),
                "data_kind": kind,
            }
        )
    order = {"separate": 0, "pooled": 1, "hierarchical": 2}
    return pd.DataFrame(tab).sort_values("setting", key=lambda s: s.map(order), kind="stable")


def paired_tests(per: pd.DataFrame) -> pd.DataFrame:
    """Paired one-sided t-tests over splits: hierarchical > pooled / separate (each method) and
    hierarchical Laplace > every other (setting, method) in log likelihood."""
    rows = []
    key = per.set_index(["setting", "method", "split"])

    def vals(s, m, col):
        return key.loc[(s, m)].sort_index()[col].to_numpy()

    def t(a, b):
        return _t_greater(a - b)

    for m in per.method.unique():
        for other in ("pooled", "separate"):
            for col in ("accuracy", "loglik"):
                a, b = vals("hierarchical", m, col), vals(other, m, col)
                rows.append(
                    {
                        "a": f"hierarchical/{m}",
                        "b": f"{other}/{m}",
                        "metric": col,
                        "mean_diff": float(np.mean(a - b)),
                        "p_value": t(a, b),
                    }
                )
    if "laplace" in set(per.method):
        a = vals("hierarchical", "laplace", "loglik")
        for (s, m), _ in per.groupby(["setting", "method"]):
            if (s, m) == ("hierarchical", "laplace"):
                continue
            b = vals(s, m, "loglik")
            rows.append(
                {
                    "a": "hierarchical/laplace",
                    "b": f"{s}/{m}",
                    "metric": "loglik",
                    "mean_diff": float(np.mean(a - b)),
                    "p_value": t(a, b),
                }
            )
    return pd.DataFrame(rows)


@STUDY.table("table2", "table2_tests")
def table2(ctx) -> TableOutput:
    """Table 2 (School: separate / pooled / hierarchical x JJ / Laplace / delta, mean and sd
    over splits) and its paired one-sided t-tests over splits (``table2_tests``)."""
    per = ctx.csv("splits")
    meta = _raw_meta(ctx, "splits")
    keep = {k: meta.get(k) for k in ("median", "positive_rate", "n_students", "n_schools",
                                     "d_raw", "target", "test")}  # fmt: skip
    if ctx.step == "table2_tests":
        return TableOutput(paired_tests(per), keep)
    return TableOutput(_na(_table2(per)), keep)
