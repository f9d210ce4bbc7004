"""iwtm tables: Table 4.1 (soft IWTM vs LDA on IWTM's own clusters) and Sec 5.6.1
(decoupled SVM vs generative classification), Gibbs vs VI time."""

from __future__ import annotations

import pandas as pd

from latentlab.studies.shape import TableOutput

from .study import STUDY, FigSettings


@STUDY.table("table4_1", settings=FigSettings)
def table4_1(ctx):
    df = pd.concat([pd.read_csv(p) for p in ctx.input_list("ch4")], ignore_index=True)
    d = df[df.model.isin(["IWTM", "LDA_on_IWTM_clusters"])]
    g = d.groupby(["dataset", "T", "n_train", "model"]).agg(acc=("acc", "mean"), K=("K", "mean"))
    t = g.acc.unstack("model").reset_index()
    t["vocab"] = g.K.xs("IWTM", level="model").values
    return TableOutput(t, {"reductions": ctx.settings.reductions})


@STUDY.table("sec5_6_1", settings=FigSettings)
def sec5_6_1(ctx):
    a = pd.concat([pd.read_csv(p) for p in ctx.input_list("ch4")], ignore_index=True)
    b = pd.concat([pd.read_csv(p) for p in ctx.input_list("ch5")], ignore_index=True)
    gi = (
        a[a.model == "IWTM"]
        .groupby(["dataset", "T", "n_train"])
        .agg(
            gibbs_acc=("acc", "mean"), gibbs_s=("seconds", "mean"), gibbs_sweeps=("sweeps", "first")
        )
    )
    vi = (
        b[b.model == "IWTM_CAVI"]
        .groupby(["dataset", "T", "n_train"])
        .agg(vi_acc=("acc", "mean"), vi_s=("seconds", "mean"))
    )
    t = gi.join(vi, how="outer").reset_index()
    t["gibbs_over_vi_time"] = t.gibbs_s / t.vi_s
    return TableOutput(t, {"reductions": ctx.settings.reductions}, allow_nan=True)
