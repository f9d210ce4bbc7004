"""Claims of chapter 2 (digest §8, C2.x, and the text's statements about Figs 2.4/2.5)."""

from __future__ import annotations

import numpy as np

from latentlab.claims.spec import Claim, Measured, NotRun

from .study import STUDY, ClaimsSettings

ENRON_NOTE = (
    "Enron: Perry & Wolfe coding (156 employees, 21,635 messages) instead of the document's "
    "151 people / 34,182 emails; absolute numbers differ"
)

CLAIMS = [
    Claim(
        "C2.1",
        where="Table 2.1",
        statement="DRIFT has the best forecast LL and AUC",
        paper_value="DRIFT best in LL and AUC (synthetic: LL -11.6, AUC 0.939)",
        how="true",
    ),
    Claim(
        "C2.2",
        where="Table 2.1",
        statement="DRIFT has the best missing-data LL and AUC",
        paper_value="DRIFT best in LL and AUC (synthetic: LL -219, AUC 0.925)",
        how="true",
    ),
    Claim(
        "C2.3",
        where="Fig 2.2",
        statement="with K = 3 the posterior mean Z recovers the true Z",
        paper_value="share of data sets with every feature corr > claims.recovery_corr",
        how="ge",
        tolerance=0.0,
        dataset="synthetic DRIFT (K=3)",
        note="threshold and share are the digest's, the document shows images only",
    ),
    Claim(
        "C2.4",
        where="Table 2.2",
        statement="the baseline ties DRIFT at k = 10; DRIFT wins for k >= 50",
        paper_value="10 vs 10 at k=10; 48 vs 36 at k=50; 361 vs 285 at k=1000",
        how="true",
        note=ENRON_NOTE,
    ),
    Claim(
        "C2.5",
        where="Fig 2.5",
        statement="DRIFT scales back its predicted density once the "
        "network sparsifies (closer to the true density than LFRM(all) and the baseline)",
        paper_value="DRIFT sparser at t = 36",
        how="true",
        note=ENRON_NOTE,
    ),
    Claim(
        "C2.6",
        where="Sec 2.5",
        statement="the posterior of α and the K⁺ trace are stable",
        paper_value="stable traces",
        how="true",
    ),
    Claim(
        "C2.7",
        where="Sec 2.7 / Tables 2.3-2.4 / Fig 2.8",
        statement="LFRM_LDA / BMF_LDA recover planted feature-topic associations "
        "(share of synthetic data sets where every planted feature passes)",
        paper_value="share >= claims.text_share",
        how="ge",
        tolerance=0.0,
        note="per planted feature: topic and actors matched to the same model feature, "
        "Z accuracy >= claims.text_acc, topic L1 < claims.text_l1_ratio x the distance to "
        "the nearest other planted topic; the document gives no number",
    ),
    Claim(
        "C2.13",
        where="Sec 2.7.2",
        statement="topics are stable after burn-in; no feature swapping "
        "(share of recorded samples whose topics match the planted ones as the posterior "
        "mean does)",
        paper_value=1.0,
        how="ge",
        tolerance=0.0,
        note="document: 'we verified that feature swapping ... did not occur' (Enron)",
    ),
    Claim(
        "C2.8",
        where="Fig 2.4",
        statement="no model beats the baseline early on (t < 12)",
        paper_value="no model above the baseline for t < 12",
        how="true",
        note=ENRON_NOTE,
    ),
    Claim(
        "C2.9",
        where="Fig 2.4",
        statement="DRIFT is above the baseline for larger t",
        paper_value="DRIFT > baseline for t >= 12",
        how="true",
        note=ENRON_NOTE,
    ),
    Claim(
        "C2.10",
        where="Fig 2.4",
        statement="LFRM(last) does well at the last time step",
        paper_value="LFRM(last) >= LFRM(all) and baseline at the last month",
        how="true",
        note=ENRON_NOTE,
    ),
    Claim(
        "C2.11",
        where="Table 2.3 / Fig 2.8",
        statement="Enron LFRM_LDA topics (Management, Fantasy Football, Fuel, Meetings, "
        "California Energy); 4.5 active features per person; 81/140 actors have 'meetings'",
        paper_value="Table 2.3; 4.5; 81/140",
        dataset="enron text",
        data_kind="real",
    ),
    Claim(
        "C2.12",
        where="Table 2.4",
        statement="Twitter emergency-management topics",
        paper_value="Table 2.4",
        not_testable="the HEROIC Twitter data (Spiro et al. 2011) are private; the "
        "synthetic Table 2.4 analogue (node documents) is tested under C2.7",
        dataset="twitter",
    ),
]
STUDY.claims(CLAIMS, settings=ClaimsSettings)


def _monthly_dataset(ctx):
    real = ctx.json("network_summary").get("data_kind", "real") == "real"
    return "enron monthly (top 50)" if real else "Enron-like synthetic"


def _best(df, metric, methods):
    v = {m: float(np.nanmean(df[df.method == m][metric])) for m in methods}
    return v


def _drift_best(ctx, task, kind):
    """DRIFT best in LL and AUC on the synthetic data and the monthly network."""
    out = []
    sc = ctx.csv("synth_scores")
    monthly = ctx.csv("forecast") if task == "forecast" else ctx.csv("missing")
    mkind = ctx.json("network_summary").get("data_kind", "real")
    margin = ctx.settings.claims.auc_margin
    for df, ds, dk in (
        (sc[sc.task == task], "synthetic DRIFT", "synthetic"),
        (monthly, "enron monthly" if mkind == "real" else "Enron-like", mkind),
    ):
        others = [m for m in df.method.unique() if m != "DRIFT"]
        ll = _best(df, "ll", df.method.unique())
        auc = _best(df, "auc", [m for m in df.method.unique() if m != "Naive"])
        ok_ll = all(ll["DRIFT"] > ll[m] for m in others)
        ok_auc = all(auc["DRIFT"] > auc[m] + margin for m in others if m != "Naive")
        note = (
            "LL "
            + ", ".join(f"{m}={v:.4g}" for m, v in ll.items())
            + "; AUC "
            + ", ".join(f"{m}={v:.3f}" for m, v in auc.items())
        )
        out.append(Measured(bool(ok_ll and ok_auc), dataset=ds, data_kind=dk, note=note))
    return out


@STUDY.claim("C2.1")
def _(ctx):
    return _drift_best(ctx, "forecast", None)


@STUDY.claim("C2.2")
def _(ctx):
    return _drift_best(ctx, "missing", None)


@STUDY.claim("C2.3")
def _(ctx):
    rec = ctx.csv("recovery")
    thr = ctx.settings.claims.recovery_corr
    per = rec.groupby("dataset")["corr"].min()
    share = float((per > thr).mean())
    return Measured(
        share,
        paper_value=ctx.settings.claims.recovery_share,
        note=f"min feature corr per data set: {np.round(per.values, 3).tolist()}",
    )


@STUDY.claim("C2.4")
def _(ctx):
    t = ctx.csv("table2_2").set_index("k")
    kind = ctx.json("network_summary").get("data_kind", "real")
    if 10 not in t.index or not (t.index >= 50).any():
        return NotRun("fewer than 50 held-out entries in this run")
    tie = abs(int(t.loc[10, "Baseline"]) - int(t.loc[10, "DRIFT"])) <= 1
    wins = bool((t.loc[t.index >= 50, "DRIFT"] > t.loc[t.index >= 50, "Baseline"]).all())
    note = "; ".join(f"k={k}: DRIFT {r.DRIFT} vs Baseline {r.Baseline}" for k, r in t.iterrows())
    return Measured(bool(tie and wins), dataset=_monthly_dataset(ctx), data_kind=kind, note=note)


@STUDY.claim("C2.5")
def _(ctx):
    f = ctx.csv("forecast")
    kind = ctx.json("network_summary").get("data_kind", "real")
    T = int(f.t.max())
    late = f[f.t > T - 4]  # the last few (sparse) months
    err = {
        m: float(
            np.mean(
                np.abs(
                    late[late.method == m].pred_density.values
                    - late[late.method == m].true_density.values
                )
            )
        )
        for m in ("DRIFT", "LFRM_all", "Baseline")
    }
    ok = err["DRIFT"] < err["LFRM_all"] and err["DRIFT"] < err["Baseline"]
    note = f"months {T - 3}..{T}: |pred - true density| " + ", ".join(
        f"{m}={v:.4f}" for m, v in err.items()
    )
    return Measured(bool(ok), dataset=_monthly_dataset(ctx), data_kind=kind, note=note)


@STUDY.claim("C2.6")
def _(ctx):
    return NotRun("α / K⁺ traces are not written by this study's steps yet (no config runs it)")


TEXT_KINDS = {
    "enron_text": "synthetic LFRM_LDA (Poisson, edge documents)",
    "twitter_text": "synthetic LFRM_LDA (logistic, diagonal W, node documents)",
    "bmf_text": "synthetic BMF_LDA (Gaussian ratings, reviews)",
}


@STUDY.claim("C2.7")
def _(ctx):
    c = ctx.settings.claims
    out = []
    for kind, name in TEXT_KINDS.items():
        rec = ctx.csv(f"recovery_{kind}")
        ok = rec.groupby("dataset").apply(
            lambda g: bool(
                (g.model_feature == g.z_matched_feature).all()
                and (g.acc_topic >= c.text_acc).all()
                and (g.l1_ratio < c.text_l1_ratio).all()
            ),
            include_groups=False,
        )
        per = rec.groupby("dataset").agg(
            association=("association", "first"),
            min_acc=("acc_topic", "min"),
            max_l1_ratio=("l1_ratio", "max"),
        )
        note = "; ".join(
            f"set {d}: association {r.association:.2f}, min Z acc {r.min_acc:.3f}, "
            f"max L1 ratio {r.max_l1_ratio:.3f}"
            for d, r in per.iterrows()
        )
        out.append(
            Measured(
                float(ok.mean()),
                dataset=name,
                data_kind="synthetic",
                paper_value=c.text_share,
                note=note,
            )
        )
    return out


@STUDY.claim("C2.13")
def _(ctx):
    out = []
    for kind, name in TEXT_KINDS.items():
        rec = ctx.csv(f"recovery_{kind}")
        per = rec.groupby("dataset").swap_share.first()
        out.append(
            Measured(
                float(1.0 - per.mean()),
                dataset=name,
                data_kind="synthetic",
                note="share of recorded samples with another topic matching, per data set: "
                + ", ".join(f"{v:.2f}" for v in per.values),
            )
        )
    return out


@STUDY.claim("C2.11")
def _(ctx):
    return NotRun(
        "the Enron email bodies (CMU Enron corpus, 'sent_items' folders) are public but not "
        "in the data mirror, which holds only the Perry & Wolfe network with subject lines "
        "(digest §7); no config of this repository downloads them, so no config runs it "
        "(C2.7 tests the model on synthetic text networks instead)",
        dataset="enron text",
        data_kind="real",
    )


def _vs_baseline(ctx):
    f = ctx.csv("forecast")
    base = f[f.method == "Baseline"].set_index("t").ll
    return f, {
        m: f[f.method == m].set_index("t").ll - base
        for m in ("Naive", "LFRM_last", "LFRM_all", "DRIFT")
    }


@STUDY.claim("C2.8")
def _(ctx):
    f, d = _vs_baseline(ctx)
    kind = ctx.json("network_summary").get("data_kind", "real")
    early = ctx.settings.claims.early_t
    shares = {m: float((s[s.index < early] > 0).mean()) for m, s in d.items()}
    ok = all(v < ctx.settings.claims.early_share for v in shares.values())
    note = f"share of months t < {early} above the baseline: " + ", ".join(
        f"{m}={v:.2f}" for m, v in shares.items()
    )
    return Measured(bool(ok), dataset=_monthly_dataset(ctx), data_kind=kind, note=note)


@STUDY.claim("C2.9")
def _(ctx):
    f, d = _vs_baseline(ctx)
    kind = ctx.json("network_summary").get("data_kind", "real")
    early = ctx.settings.claims.early_t
    s = d["DRIFT"][d["DRIFT"].index >= early]
    if not len(s):
        return NotRun(f"the run has no month t >= {early}")
    share = float((s > 0).mean())
    return Measured(
        bool(share > 0.5),
        dataset=_monthly_dataset(ctx),
        data_kind=kind,
        note=f"DRIFT above the baseline in {share:.2f} of months t >= {early}",
    )


@STUDY.claim("C2.10")
def _(ctx):
    f = ctx.csv("forecast")
    kind = ctx.json("network_summary").get("data_kind", "real")
    T = int(f.t.max())
    last = f[f.t == T].set_index("method").ll
    ok = last["LFRM_last"] >= last["LFRM_all"] and last["LFRM_last"] >= last["Baseline"]
    return Measured(
        bool(ok),
        dataset=_monthly_dataset(ctx),
        data_kind=kind,
        note="LL at t=T: " + ", ".join(f"{m}={v:.4g}" for m, v in last.items()),
    )
