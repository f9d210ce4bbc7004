"""iwtm tables: Table 4.1 (soft IWTM vs LDA on IWTM's own clusters) and Sec 5.6.1
(decoupled SVM vs generative classification), Gibbs vs VI time; :func:`svi_final`, the Fig 6.1
runs' summary that the figures and claims share (here, not in pipeline.py: no scipy)."""

from __future__ import annotations

import pandas as pd

from latentlab.studies.shape import TableOutput

from .study import STUDY, FigSettings


@STUDY.table("table4_1", settings=FigSettings)
def table4_1(ctx):
    """Table 4.1: soft IWTM vs LDA on IWTM's own clusters, mean accuracy per dataset, T and
    training size (input ``ch4``)."""
    df = pd.concat([pd.read_csv(p) for p in ctx.input_list("ch4")], ignore_index=True)
    d = df[df.model.isin(["IWTM", "LDA_on_IWTM_clusters"])]
    g = d.groupby(["dataset", "T", "n_train", "model"]).agg(acc=("acc", "mean"), K=("K", "mean"))
    t = g.acc.unstack("model").reset_index()
    t["vocab"] = g.K.xs("IWTM", level="model").values
    return TableOutput(t, {"reductions": ctx.settings.reductions})


@STUDY.table("sec5_6_1", settings=FigSettings)
def sec5_6_1(ctx):
    """Sec 5.6.1: Gibbs IWTM (ch. 4) vs CAVI IWTM (ch. 5), accuracy and training time side by
    side (inputs ``ch4``, ``ch5``)."""
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


@STUDY.table("table7_1", settings=FigSettings)
def table7_1(ctx):
    """Table 7.1: IVI vs retraining from scratch at each training size (mean over seeds):
    time (s; IVI = the incremental step: M', EXTEND, the round's iterations) and ELBO."""
    df = pd.concat([pd.read_csv(p) for p in ctx.input_list("ivi")], ignore_index=True)
    cols = {"scratch_s": "scratch_s", "ivi_s": "ivi_delta_s", "scratch_elbo": "scratch_elbo",
            "ivi_elbo": "ivi_elbo", "noext_elbo": "noext_elbo",
            "scratch_clusters": "scratch_clusters", "ivi_clusters": "ivi_clusters",
            "noext_clusters": "noext_clusters"}  # fmt: skip
    t = df.groupby(["dataset", "n_docs"])[list(cols)].mean().rename(columns=cols).reset_index()
    first = t.groupby("dataset").n_docs.transform("min") == t.n_docs
    t.loc[first, ["ivi_delta_s", "ivi_elbo"]] = float("nan")  # the seed set: no IVI step
    t["scratch_over_ivi_time"] = t.scratch_s / t.ivi_delta_s
    t["ivi_minus_scratch_rel"] = (t.ivi_elbo - t.scratch_elbo) / t.scratch_elbo.abs()
    return TableOutput(t, {"reductions": ctx.settings.reductions}, allow_nan=True)


def svi_final(df):
    """Fig 6.1 runs: mean over seeds of the last ELBO snapshot of each rho (ELBO, seconds)."""
    last = df.dropna(subset=["elbo"]).sort_values("iteration").groupby(["rho", "seed"]).tail(1)
    return last.groupby("rho").agg(elbo=("elbo", "mean"), seconds=("seconds", "mean"))
