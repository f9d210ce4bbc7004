"""Tables 1 and 2 of Wang & Blei (2013) from the raw rows, next to the document's values."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
from scipy import stats

from latentlab.studies.nonconjugate_vi.blr import PAPER_T1, PAPER_T2, _na, paired_tests
from latentlab.studies.nonconjugate_vi.study import STUDY
from latentlab.studies.shape import TableOutput


def _raw_meta(ctx, name):
    return json.loads(ctx.input(name).with_suffix(".meta.json").read_text())


def _t_greater(diff) -> float:
    if np.allclose(diff, 0):
        return 0.5
    return float(stats.ttest_1samp(diff, 0.0, alternative="greater").pvalue)


@STUDY.table("table1")
def table1(ctx) -> TableOutput:
    """Table 1: mean accuracy (%) and log likelihood per dataset and method; one-sided
    t-tests over problems against JJ."""
    per = ctx.csv("problems")
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
