"""Claims of chapter 2 (C2.x, our numbering of the chapter's checkable statements, and the
text's statements about Figs 2.4/2.5)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from latentlab.claims.noise import Noise
from latentlab.claims.spec import Claim, Measured, NotRun, Sides

from .networks import frequent_pairs
from .study import STUDY, ClaimsSettings
from .tables import PAPER_2_3
from .traces import split_rhat, trace_stats  # noqa: F401 (split_rhat: for the tests)

ENRON_NOTE = (
    "substitute: the mirror's Enron network is the Perry & Wolfe coding (156 employees, "
    "21,635 messages, 1998-11..2002-06) where the document's cleaning has 151 people and "
    "34,182 emails over 3 years; the same protocol (top 50 actors, monthly binary networks), "
    "other actors and edges, so absolute numbers differ"
)

ENRON_TEXT = "enron subject lines (top 50)"

# issue 22, case 2: the synthetic rows of C2.1 / C2.3 point at the sampler's known-truth check
REVERSAL = (
    "sampler checked on persistent DRIFT networks with known Z: "
    "tests/models/drift/test_drift_known_truth.py; published/real/REVERSALS.md (case 2)"
)

# C2.6: a split-R̂ of inf (each half of a chain constant, the halves different) enters the
# row's replicates as this finite value (far beyond any bound: the row can still be moved)
RHAT_CAP = 100.0

CLAIMS = [
    # one order row per metric and data set (C2.1-ll, C2.1-auc): DRIFT's mean against the
    # best other method's mean, the document's two sides from Table 2.1 (PAPER_2_1)
    Claim(
        "C2.1",
        where="Table 2.1",
        statement="DRIFT has the best forecast LL and AUC",
        paper_value="DRIFT best in LL and AUC (synthetic: LL -11.6, AUC 0.939)",
        how="order",
    ),
    Claim(
        "C2.2",
        where="Table 2.1",
        statement="DRIFT has the best missing-data LL and AUC",
        paper_value="DRIFT best in LL and AUC (synthetic: LL -219, AUC 0.925)",
        how="order",
    ),
    Claim(
        "C2.14",
        where="Fig 2.3",
        statement="on Fig 2.3's forecasting task (synthetic data set 0, t = T + 1) DRIFT's "
        "posterior predictive beats every other method's (one row per metric: its LL and "
        "AUC against the best other method's)",
        paper_value="DRIFT best ('Figure 2.3 illustrates this', Sec 2.6.1)",
        how="order",
        dataset="synthetic DRIFT (data set 0, Fig 2.3)",
        data_kind="synthetic",
        note="margin 0: the document gives no numbers for this one task (Table 2.1 averages "
        "10 data sets)",
    ),
    Claim(
        "C2.3",
        where="Fig 2.2",
        statement="with K = 3 the posterior mean Z recovers the true Z: per data set (the "
        "replicates), the smallest feature correlation with the true Z at least "
        "claims.recovery_corr",
        paper_value="every feature corr >= claims.recovery_corr",
        how="ge",
        tolerance=0.0,
        dataset="synthetic DRIFT (K=3)",
        note="threshold and share are ours, the document shows images only",
    ),
    Claim(
        "C2.4",
        where="Table 2.2",
        statement="DRIFT wins for k >= 50: more true positives than the baseline among the k "
        "held-out entries ranked most likely (one row per k; per held-out split)",
        paper_value="48 vs 36 at k=50 ... 361 vs 285 at k=1000",
        how="order",
        note=ENRON_NOTE + "; margin 0: true-positive counts scale with the held-out set, "
        "which is not the document's",
    ),
    Claim(
        "C2.4-tie",
        where="Table 2.2",
        statement="the baseline ties DRIFT at k = 10: |DRIFT - baseline| true positives among "
        "the 10 held-out entries ranked most likely, per held-out split, at most 1",
        paper_value=1,
        how="le",
        tolerance=0.0,
        reject=5,
        note="paper value: the document's small-k difference (10 vs 10 at k = 10, 20 vs 19 at "
        "k = 20); refused: 5, LFRM(current)'s distance from the baseline at k = 10; " + ENRON_NOTE,
    ),
    Claim(
        "C2.5",
        where="Fig 2.5",
        statement="DRIFT scales back its predicted density once the "
        "network sparsifies (closer to the true density than LFRM(all) and the baseline)",
        paper_value="DRIFT sparser at t = 36",
        how="order",
        direction="<",
        note=ENRON_NOTE,
    ),
    Claim(
        "C2.6",
        where="Sec 2.5 / 2.6.2",
        statement="the DRIFT sampler's K⁺ and α traces are stationary after the burn-in: "
        "per fit (the replicates), max(split-R̂ of K⁺, of α) over iterations >= burn-in/2 "
        "at most claims.trace_rhat",
        paper_value="burn-in 100 'found to be sufficient' (3 chains, Enron)",
        how="le",
        tolerance=0.0,
        note="paper value: BDA3's conventional split-R̂ bound (the document gives no "
        "diagnostic); a fit whose halves are each constant but differ (R̂ = inf) counts as "
        f"{RHAT_CAP:g}",
    ),
    Claim(
        "C2.6b",
        where="Sec 2.5 (Eq. 2.22)",
        statement="α's posterior is the one K⁺ implies: α − E[α | K⁺] = "
        "α − (K⁺ + α_a)/(H_NT + α_b) averages to 0 over the traces (|z| < claims.alpha_z)",
        paper_value="α | Z ~ Gamma(K⁺ + α_a, H_NT + α_b) (Sec 2.5)",
        how="true",
    ),
    Claim(
        "C2.7",
        where="Sec 2.7 / Tables 2.3-2.4 / Fig 2.8",
        statement="LFRM_LDA / BMF_LDA recover planted feature-topic associations "
        "(per synthetic data set, the replicates: 1 when every planted feature passes, else "
        "0; their mean, the share passing, at least claims.text_share)",
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
        "(per data set, the share of recorded samples whose topics match the planted ones as "
        "the posterior mean does; Enron: per topic, matched by every independent chain)",
        paper_value=1.0,
        how="ge",
        tolerance=0.0,
        note="document: 'we verified that feature swapping ... did not occur' (Enron)",
    ),
    Claim(
        "C2.8",
        where="Fig 2.4",
        statement="no model beats the baseline early on: for t < claims.early_t the baseline's "
        "forecast log-likelihood is above each model's (one row per model of Fig 2.4; "
        "one-sided paired t-test over the months at claims.order_alpha)",
        paper_value="no model above the baseline for t < 12",
        how="order",
        note=ENRON_NOTE + "; margin 0: Fig 2.4 gives no values",
    ),
    Claim(
        "C2.9",
        where="Fig 2.4",
        statement="DRIFT is above the baseline for larger t: a higher forecast "
        "log-likelihood for t >= claims.early_t (one-sided paired t-test over the months at "
        "claims.order_alpha; margin 0: Fig 2.4 gives no values)",
        paper_value="DRIFT > baseline for t >= 12",
        how="order",
        note=ENRON_NOTE,
    ),
    Claim(
        "C2.9b",
        where="Fig 2.4",
        statement="for t >= 12 DRIFT performs better than the other methods (one row per "
        "method of Fig 2.4; the baseline is C2.9)",
        paper_value="DRIFT > Naive, LFRM(last), LFRM(all) for t >= 12",
        how="order",
        note=ENRON_NOTE,
    ),
    Claim(
        "C2.10",
        where="Fig 2.4",
        statement="LFRM(last) does well at the last time step",
        paper_value="LFRM(last) > LFRM(all) and baseline at the last month",
        how="order",
        note=ENRON_NOTE,
    ),
    Claim(
        "C2.15",
        where="Fig 2.6",
        statement="DRIFT's estimated edge probabilities follow the edges of the "
        "claims.fig26_pairs most frequent pairs (performance 'fairly typical'): per pair, "
        "the mean probability over the months with an edge above the mean over the months "
        "without (one-sided paired t-test over the pairs at claims.order_alpha)",
        paper_value="the shown pairs' performance is fairly typical of the 50 most frequent",
        how="order",
        note=ENRON_NOTE + "; probabilities of the missing-data fit (Fig 2.6's P_DRIFT_all)",
    ),
    Claim(
        "C2.15b",
        where="Fig 2.6",
        statement="underfitting is rare: share of the claims.fig26_pairs most frequent pairs "
        "(with an edge; each pair a replicate, 1 when underfit) whose DRIFT edge probability "
        "stays below claims.underfit_p at every month",
        paper_value=0.25,
        how="le",
        tolerance=0.0,
        reject=0.5,
        note="paper value: Fig 2.6 shows one underfit pair ('a rare case') among four "
        "hand-picked 'interesting' ones of the 50 most frequent, so 1/4 bounds the "
        "document's share from above; half the pairs underfit (0.5) must be refused; " + ENRON_NOTE,
    ),
    Claim(
        "C2.16",
        where="Fig 2.7",
        statement="DRIFT's ROC curve on the Enron missing entries has the largest area (one "
        "row per other method of Fig 2.7; per held-out split)",
        paper_value="DRIFT best under both metrics (Sec 2.6.2; ROC curves in Fig 2.7, the "
        "document's missing-data AUC row is absent)",
        how="order",
        note=ENRON_NOTE + "; margin 0: the document gives no AUC for this task",
    ),
    Claim(
        "C2.11",
        where="Table 2.3 / Fig 2.8",
        statement="Enron LFRM_LDA topics (Management, Fantasy Football, Fuel, Meetings, "
        "California Energy); 4.5 active features per person; 81/140 actors have 'meetings'",
        paper_value="Table 2.3; 4.5; 81/140",
        how="order",
        dataset="enron text",
        data_kind="substitute",
        note="subject lines of the mirror's messages stand in for the email bodies; the "
        "study's 50 actors and window instead of 140 'sent_items' actors",
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


def monthly_kind(network_kind: str) -> str:
    """The data kind of the monthly rows: the mirror's Enron network is not the document's
    cleaning (:data:`ENRON_NOTE`), so by the data-kind rule (docs/design.md) it is a
    ``substitute``; the smoke run's Enron-like network stays ``synthetic``."""
    return "substitute" if network_kind == "real" else network_kind


def _monthly_kind(ctx) -> str:
    return monthly_kind(ctx.json("network_summary").get("data_kind", "real"))


def _built(ctx, *names: str) -> bool:
    """Whether this run built ``names``: always outside a partial run (a readings sweep or
    a ladder rung builds some of the study's outputs; rows from the others are left out,
    and a claim with no row left is not_run)."""
    if not getattr(ctx, "partial", False):
        return True
    return all(ctx.has_input(n) for n in names)


def _rows_or_missing(ctx, rows: list, name: str) -> list:
    """A partial run's rows, or MissingInput (``ctx.input`` raises it) when the run built
    none of the claim's inputs, ``name`` the first of them."""
    if not rows:
        ctx.input(name)
    return rows


def _best(df, metric, methods):
    v = {m: float(np.nanmean(df[df.method == m][metric])) for m in methods}
    return v


# Table 2.1 of the document: (DRIFT, the best other method, its name) per task, data set and
# metric. Naive has no AUC. The Enron missing-data AUC row is absent from the document's text
# we have (lost in extraction); the text says DRIFT is best "under both metrics", a
# direction only.
PAPER_2_1 = {
    ("forecast", "synthetic", "ll"): (-11.6, -28.4, "LFRM(last)"),
    ("forecast", "synthetic", "auc"): (0.939, 0.779, "LFRM(last)"),
    ("missing", "synthetic", "ll"): (-219.0, -478.0, "LFRM(all)"),
    ("missing", "synthetic", "auc"): (0.925, 0.691, "LFRM(all)"),
    ("forecast", "enron", "ll"): (-83.5, -98.3, "LFRM(all)"),
    ("forecast", "enron", "auc"): (0.910, 0.891, "LFRM(all)"),
    ("missing", "enron", "ll"): (-639.0, -981.0, "LFRM(all)"),
}


def gap_margin(paper, share: float) -> float:
    """The margin of a C2.1 / C2.2 row: ``share`` of the document's own gap between DRIFT and
    the best other method in that cell of Table 2.1 (``paper``: its (DRIFT, best other,
    name); 0 where the document gives no numbers)."""
    if not 0 <= share <= 0.5:
        raise ValueError(f"claims.gap_share {share:g}: a margin is at most half the gap")
    return 0.0 if paper is None else share * (paper[0] - paper[1])


def paired_by(df: pd.DataFrame, key: str, metric: str, a: str, b: str):
    """``a``'s and ``b``'s ``metric`` paired by ``key`` (data set, month, split), the keys
    where both are finite: (a values, b values, keys)."""
    pa = df[df.method == a].set_index(key)[metric].astype(float)
    pb = df[df.method == b].set_index(key)[metric].astype(float)
    keys = [k for k in sorted(set(pa.index) & set(pb.index))
            if np.isfinite(pa[k]) and np.isfinite(pb[k])]  # fmt: skip
    return [float(pa[k]) for k in keys], [float(pb[k]) for k in keys], keys


# the replicates of each C2.1 / C2.2 cell: data sets (synthetic), months (Enron forecasts,
# Table 2.1 averages t = 3..37), held-out splits (Enron missing data)
_UNIT = {"dataset": "data sets", "t": "months", "split": "held-out splits"}


def _drift_best(ctx, task, kind):
    """DRIFT best in LL and AUC on the synthetic data and the monthly network: per data set
    and metric, an order row of DRIFT against the best other method (the best mean, the
    document's statistic: scores averaged over data sets, or over months t = 3..37), paired
    by replicate (data set, month or held-out split); on the synthetic data beyond
    ``claims.gap_share`` of the document's own gap."""
    out = []
    cid = {"forecast": "C2.1", "missing": "C2.2"}[task]
    what = "forecast" if task == "forecast" else "missing-data"
    share = ctx.settings.claims.gap_share
    sets = []
    if _built(ctx, "synth_scores"):
        sc = ctx.csv("synth_scores")
        sets.append((sc[sc.task == task], "synthetic DRIFT", "synthetic", "synthetic", "dataset"))
    if _built(ctx, task if task == "forecast" else "missing", "network_summary"):
        monthly = ctx.csv("forecast") if task == "forecast" else ctx.csv("missing")
        if "split" not in monthly:  # a run before missing_splits: one held-out split
            monthly = monthly.assign(split=0)
        mkind = ctx.json("network_summary").get("data_kind", "real")
        ds = "enron monthly" if mkind == "real" else "Enron-like"
        key = "t" if task == "forecast" else "split"
        sets.append((monthly, ds, monthly_kind(mkind), "enron", key))
    for df, ds, dk, doc, key in sets:
        ll = _best(df, "ll", df.method.unique())
        auc = _best(df, "auc", [m for m in df.method.unique() if m != "Naive"])
        for metric, v in (("ll", ll), ("auc", auc)):
            others = {m: x for m, x in v.items() if m != "DRIFT"}
            # a method without a mean (NaN) is the best other: the row cannot pass on it
            best = max(others, key=lambda m: (bool(np.isnan(others[m])), others[m]))
            paper = PAPER_2_1.get((task, doc, metric))
            a, b, keys = paired_by(df, key, metric, "DRIFT", best)
            if not keys:  # the best other has no finite score: a row that cannot pass
                a, b = [v["DRIFT"]], [others[best]]
            # the synthetic networks are the document's model at its N and T, so its gap
            # carries over; the substitute Enron network's LL scale is not the document's
            # (ours per month ~2.2x its -98.3), so its rows keep margin 0 with their months
            # or splits as replicates
            margin = gap_margin(paper, share) if doc == "synthetic" else 0.0
            note = (
                f"means over {len(keys)} {_UNIT[key]}: "
                + metric.upper()
                + " "
                + ", ".join(f"{m}={x:{'.4g' if metric == 'll' else '.3f'}}" for m, x in v.items())
                + f"; best other: {best}"
                + (f" (document: {paper[2]})" if paper else "")
            )
            if paper is None:
                note += "; the document's value is absent from its text, which gives DRIFT best"
            elif margin > 0:
                note += (f"; margin {margin:.4g} = claims.gap_share {share:g} x the document's "
                         f"gap {paper[0] - paper[1]:.4g}")  # fmt: skip
            else:
                note += "; margin 0: the substitute network's scale is not the document's"
            if ds == "synthetic DRIFT":  # not the Enron-like network of the smoke run
                note += "; " + REVERSAL
            elif dk == "substitute":
                note += "; " + ENRON_NOTE
            out.append(
                Sides(
                    a,
                    b,
                    paper_a=paper[0] if paper else None,
                    paper_b=paper[1] if paper else None,
                    labels=("DRIFT", "best other"),
                    margin=margin,
                    dataset=ds,
                    data_kind=dk,
                    unit=_UNIT[key],
                    statement=f"DRIFT has the best {what} {metric.upper()}: above the best "
                    "other method",
                    note=note,
                    claim_id=f"{cid}-{metric}",
                )
            )
    return _rows_or_missing(ctx, out, "synth_scores")


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
    return Measured(
        [float(x) for x in per.values],
        paper_value=thr,
        unit="data sets",
        note=f"min feature corr per data set ({len(per)}): {np.round(per.values, 3).tolist()}; "
        f"{int((per >= thr).sum())} of {len(per)} at or above {thr:g}; " + REVERSAL,
    )


def one_short(bar: float, n: int) -> float:
    """The largest share of ``n`` data sets below ``bar``: one data set short of it (the
    nearest outcome a share rule must refuse; ``bar`` 0.8 of 10 data sets: 0.7)."""
    return (math.ceil(bar * n - 1e-9) - 1) / n


def true_positives(labels: np.ndarray, scores: np.ndarray, k: int) -> int:
    """Table 2.2: edges among the ``k`` held-out entries with the highest scores (ties kept
    in the entries' order, as the table step ranks them)."""
    order = np.argsort(-np.asarray(scores), kind="stable")[:k]
    return int(np.asarray(labels)[order].sum())


def split_true_positives(z, k: int, methods=("DRIFT", "Baseline")) -> dict[str, list[int]]:
    """Per method, Table 2.2's true positives at ``k`` in every held-out split of the
    missing-data fits (``monthly_matrices``: split 0 unsuffixed, split r ``_s<r>``); splits
    with fewer than ``k`` held-out entries are left out."""
    out: dict[str, list[int]] = {m: [] for m in methods}
    r = 0
    while f"labels{'' if r == 0 else f'_s{r}'}" in z:
        sfx = "" if r == 0 else f"_s{r}"
        y = z[f"labels{sfx}"]
        if len(y) >= k:
            for m in methods:
                out[m].append(true_positives(y, z[f"score_{m}{sfx}"], k))
        r += 1
    return out


@STUDY.claim("C2.4")
def _(ctx):
    z = np.load(ctx.input("monthly_matrices"))
    ds, kind = _monthly_dataset(ctx), _monthly_kind(ctx)
    rows = []
    for k in [k for k in ctx.settings.topk if k >= 50]:
        tp = split_true_positives(z, k)
        if not tp["DRIFT"]:
            continue
        doc = PAPER_2_2.loc[k] if k in PAPER_2_2.index else None
        rows.append(
            Sides(
                tp["DRIFT"],
                tp["Baseline"],
                paper_a=int(doc.DRIFT) if doc is not None else None,
                paper_b=int(doc.Baseline) if doc is not None else None,
                labels=(f"DRIFT TP@{k}", f"baseline TP@{k}"),
                claim_id=f"C2.4-k{k}",
                unit="held-out splits",
                dataset=ds,
                data_kind=kind,
                statement=f"DRIFT wins at k = {k}: more true positives than the baseline among "
                f"the {k} held-out entries ranked most likely (Table 2.2; per held-out split)",
                note=f"{len(z['labels'])} held-out entries in split 0",
            )
        )
    if not rows:
        return NotRun("fewer than 50 held-out entries in this run", dataset=ds, data_kind=kind)
    return rows


@STUDY.claim("C2.4-tie")
def _(ctx):
    z = np.load(ctx.input("monthly_matrices"))
    ds, kind = _monthly_dataset(ctx), _monthly_kind(ctx)
    tp = split_true_positives(z, 10)
    if not tp["DRIFT"]:
        return NotRun("fewer than 10 held-out entries in this run", dataset=ds, data_kind=kind)
    gap = [abs(a - b) for a, b in zip(tp["DRIFT"], tp["Baseline"], strict=True)]
    return Measured(
        [float(g) for g in gap],
        dataset=ds,
        data_kind=kind,
        unit="held-out splits",
        note=f"TP@10 per split: DRIFT {tp['DRIFT']}, baseline {tp['Baseline']}",
    )


# Table 2.2 of the document: true positives among the k missing entries predicted most likely
PAPER_2_2 = pd.DataFrame(
    {
        "k": [10, 20, 50, 100, 500, 1000],
        "Baseline": [10, 19, 36, 60, 192, 285],
        "LFRM_current": [5, 6, 12, 22, 78, 142],
        "LFRM_all": [10, 19, 36, 62, 197, 290],
        "DRIFT": [10, 20, 48, 90, 301, 361],
    }
).set_index("k")


def _verdict(ok: bool) -> str:
    return "reproduced" if ok else "not_reproduced"


@STUDY.claim("C2.5")
def _(ctx):
    f = ctx.csv("forecast")
    T = int(f.t.max())
    late = f[f.t > T - 4].assign(err=lambda d: (d.pred_density - d.true_density).abs())
    err = {m: float(late[late.method == m].err.mean()) for m in ("DRIFT", "LFRM_all", "Baseline")}
    best = min(("LFRM_all", "Baseline"), key=lambda m: (not np.isnan(err[m]), err[m]))
    a, b, months = paired_by(late, "t", "err", "DRIFT", best)
    note = f"months {months[0] if months else T - 3}..{T}: mean |pred - true density| " + ", ".join(
        f"{m}={v:.4f}" for m, v in err.items()
    )
    return Sides(
        a,
        b,
        labels=("DRIFT |pred - true density|", f"{best} (closer of LFRM(all), baseline)"),
        dataset=_monthly_dataset(ctx),
        data_kind=_monthly_kind(ctx),
        unit="months",
        note=note + "; the document shows Fig 2.5 only, no numbers (margin 0)",
    )


def _trace_fits(ctx):
    """(dataset, data_kind, burn-ins, per-fit stats, α z) of the synthetic and the monthly
    DRIFT traces."""
    h = ctx.settings.hyper
    out = []
    for name, by, ds, kind in (
        ("synth_trace", ["dataset", "task"], "synthetic DRIFT", "synthetic"),
        ("monthly_trace", ["task", "t"], None, None),
    ):
        if not _built(ctx, name):
            continue
        if ds is None:
            ds, kind = _monthly_dataset(ctx), _monthly_kind(ctx)
        tr = ctx.csv(name)
        st, z = trace_stats(tr, by, h.alpha_a, h.alpha_b)
        burn = sorted(tr.groupby(by).burnin.first().unique().tolist())
        out.append((ds, kind, burn, st, z))
    return out


def traces_stationary(st: pd.DataFrame, rhat: float) -> tuple[bool, pd.Series]:
    """C2.6 on per-fit stats (:func:`trace_stats`): a fit is stationary when the split-R̂ of
    K⁺ and of α are both at most ``rhat``. Returns whether every fit is, and the per-fit
    flags."""
    ok = (st.rhat_K <= rhat) & (st.rhat_alpha <= rhat)
    return bool(ok.all()), ok


def synthetic_traces(trend: float, fits: int = 5, chains: int = 3, burnin: int = 100, seed=0):
    """A trace frame like ``synth_trace`` (columns of :func:`trace_stats`): per fit, chains
    of K⁺ ~ Poisson(5 + trend x iteration / burn-in) and α from its conditional given K⁺
    (N = 10 actors, T = 100 steps), 2 x burn-in iterations. ``trend`` 0: stationary
    chains (the document's burn-in of 100 sufficient); ``trend`` > 0: K⁺ still climbing."""
    rng = np.random.default_rng(seed)
    it = np.arange(2 * burnin)
    rate = float(np.sum(1.0 / np.arange(1, 10 * 100 + 1))) + 1.0
    rows = []
    for f in range(fits):
        for ch in range(chains):
            K = rng.poisson(5.0 + trend * it / burnin)
            alpha = rng.gamma(K + 3.0, 1.0 / rate)
            cols = dict(dataset=f, task="forecast", chain=ch, iteration=it, K=K, alpha=alpha)
            rows.append(pd.DataFrame(dict(cols, burnin=burnin, N=10, T=100)))
    return pd.concat(rows, ignore_index=True)


def fit_rhats(st: pd.DataFrame, cap: float = RHAT_CAP) -> list[float]:
    """C2.6's replicates: per fit, the larger of the split-R̂ of K⁺ and of α
    (:func:`trace_stats`), an infinite one (halves constant, different) as ``cap``."""
    r = np.maximum(st.rhat_K.to_numpy(float), st.rhat_alpha.to_numpy(float))
    return [float(x) for x in np.where(np.isfinite(r), r, cap)]


@STUDY.claim("C2.6")
def _(ctx):
    c = ctx.settings.claims
    out = []
    for ds, kind, burn, st, _ in _trace_fits(ctx):
        if st.empty:
            out.append(NotRun(f"fewer than 4 iterations >= burn-in/2 ({burn})", ds, kind))
            continue
        _, ok = traces_stationary(st, c.trace_rhat)
        out.append(
            Measured(
                fit_rhats(st),
                dataset=ds,
                data_kind=kind,
                paper_value=c.trace_rhat,
                unit="fits",
                note=f"burn-in {burn} (document 100; 300 for missing data); "
                f"{int(ok.sum())}/{len(ok)} fits with split-R̂(K⁺), split-R̂(α) <= "
                f"{c.trace_rhat}; median split-R̂ K⁺ "
                f"{st.rhat_K.median():.3f}, max {st.rhat_K.max():.3f}; α "
                f"{st.rhat_alpha.median():.3f}, max {st.rhat_alpha.max():.3f}; mean K⁺ at "
                f"the last iteration {st.K_end.mean():.2f}; "
                f"{int(st.chains.median())} chains x {int(st.window.median())} iterations",
            )
        )
    return _rows_or_missing(ctx, out, "synth_trace")


@STUDY.claim("C2.6b")
def _(ctx):
    c = ctx.settings.claims
    out = []
    for ds, kind, burn, st, z in _trace_fits(ctx):
        if st.empty:
            out.append(NotRun(f"fewer than 4 iterations >= burn-in/2 ({burn})", ds, kind))
            continue
        out.append(
            Measured(
                bool(abs(z) < c.alpha_z),
                dataset=ds,
                # the sampler draws α from exactly this conditional: a fact of our code
                data_kind="identity",
                note=f"z = {z:.2f}; posterior mean α {st.alpha_mean.mean():.3f}, mean K⁺ "
                f"{st.K_end.mean():.2f} over {len(st)} fits",
            )
        )
    return _rows_or_missing(ctx, out, "synth_trace")


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
            lambda g: associations_recovered(g, c.text_acc, c.text_l1_ratio),
            include_groups=False,
        )
        refused = one_short(c.text_share, len(ok))
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
                [float(x) for x in ok.values],
                dataset=name,
                data_kind="synthetic",
                paper_value=c.text_share,
                reject=[refused],
                unit="data sets",
                note=note + f"; refused: {refused:g}, one of the {len(ok)} data sets short of "
                "the bar",
            )
        )
    return out


def associations_recovered(g: pd.DataFrame, acc: float, l1_ratio: float) -> bool:
    """C2.7 on one data set's recovery rows (one per planted feature): every planted topic
    sits on the model feature matched to its actors, that feature's Z accuracy is >=
    ``acc`` and the topic's L1 distance is below ``l1_ratio`` x the distance to the nearest
    other planted topic."""
    return bool(
        (g.model_feature == g.z_matched_feature).all()
        and (g.acc_topic >= acc).all()
        and (g.l1_ratio < l1_ratio).all()
    )


# C2.13's alternatives in the document's own protocol (Sec 2.7.2: 20 topics, 100 recorded
# samples after burn-in): a single swapped sample, a single topic without its match
SWAP_SAMPLE = 1 - 1 / 100
SWAP_TOPIC = 1 - 1 / 20


def topic_matches(share: float, K: int) -> list[float]:
    """C2.13 on Enron: one replicate per topic of the first chain, 1 when every independent
    chain has its match (``share``, the enron_text_fit summary's, is their mean)."""
    n = int(round(share * K))
    if abs(n - share * K) > 1e-6:
        raise ValueError(f"chain_match_share {share!r} is not a share of {K} topics")
    return [1.0] * n + [0.0] * (K - n)


@STUDY.claim("C2.13")
def _(ctx):
    out = []
    for kind, name in TEXT_KINDS.items():
        rec = ctx.csv(f"recovery_{kind}")
        per = rec.groupby("dataset").swap_share.first()
        out.append(
            Measured(
                [float(1.0 - x) for x in per.values],
                dataset=name,
                data_kind="synthetic",
                reject=[SWAP_SAMPLE],
                unit="data sets",
                note="share of recorded samples with another topic matching, per data set: "
                + ", ".join(f"{v:.2f}" for v in per.values)
                + f"; refused: {SWAP_SAMPLE:g}, one of the document's 100 recorded samples "
                "swapped",
            )
        )
    if "enron_summary" in ctx.inputs:
        s = ctx.json("enron_summary")
        if s.get("chain_match_share") is None:
            out.append(NotRun(
                "needs independent chains: the Enron fit recorded one chain (its samples "
                "matched to their own mean cannot show swapping); rerun enron_text_fit with "
                "drift.enron_text.chains >= 2 (config/real.yaml)",
                dataset=ENRON_TEXT, data_kind="substitute"))  # fmt: skip
        else:
            out.append(
                Measured(
                    topic_matches(float(s["chain_match_share"]), int(s["K"])),
                    dataset=ENRON_TEXT,
                    data_kind="substitute",
                    reject=[SWAP_TOPIC],
                    unit="topics",
                    note=f"share of the {s['K']} topics of the first chain matched (Hungarian "
                    f"on L1) by a topic of each of {s['chains'] - 1} independent chain(s) "
                    f"closer than {s['chain_match_ratio']:g} x the distance to its nearest "
                    f"other topic, after {s['burnin']} burn-in iterations; within the first "
                    f"chain, {1 - s['swap_share']:.2f} of its {s['samples']} samples match "
                    f"its own mean; refused: {SWAP_TOPIC:g}, one of the document's 20 topics "
                    "unmatched",
                )
            )
    return out


@STUDY.claim("C2.11")
def _(ctx):
    if "enron_topics" not in ctx.inputs:
        return NotRun(
            "needs the Enron network of the data mirror (subject lines as the substitute for "
            "the email bodies); config/real.yaml runs it (drift.enron_text.enabled)",
            dataset=ENRON_TEXT,
            data_kind="substitute",
        )
    c = ctx.settings.claims
    top = ctx.csv("enron_topics")
    s = ctx.json("enron_summary")
    ours = [w.split() for w in top.ten_most_probable_words]
    # one chain's topics (enron_text_fit records chain 0's): the rows are inconclusive until
    # the topics of >= 3 independent chains give them replicates
    one = "one fit: the topics of >= 3 independent chains of enron_text_fit would decide it"
    rng = np.random.default_rng(ctx.seed(77))
    out, matched = [], {}
    for name, words in PAPER_2_3.items():
        k, shared, bar, q = topic_match(words, ours, c.enron_topic_words, c.enron_shuffles, rng)
        matched[name] = (k, len(shared), bar)
        out.append(
            Sides(
                len(shared),
                bar,
                labels=("shared words", "bar"),
                dataset=f"{ENRON_TEXT}: topic '{name}'",
                statement=f"a topic like the document's '{name}': at least "
                f"claims.enron_topic_words of its ten words among one of our topics' ten most "
                "probable, and more than shuffled topics share (their 95th percentile)",
                paper_a=10,
                paper_b=bar,
                note=f"closest: feature {int(top.feature[k])}: "
                f"{top.ten_most_probable_words[k]} (shared: {' '.join(shared) or 'none'}); "
                f"bar = max(claims.enron_topic_words - 1, shuffled-topic q95 {q:g}) over "
                f"{c.enron_shuffles} shuffles of our topics' words; {one}",
            )
        )
    m = s["mean_active_features_per_person"]
    rel = ctx.settings.claims.enron_features_rel
    out.append(
        Sides(
            rel,
            abs(m / 4.5 - 1),
            labels=("claims.enron_features_rel", "|ours / 4.5 - 1|"),
            dataset=f"{ENRON_TEXT}: features per person",
            statement="mean number of active features per person within "
            "claims.enron_features_rel (relative) of the document's 4.5",
            paper_a=rel,
            paper_b=0.0,
            note=f"ours {m:.2f} of K = {s['K']} ({s['actors']} actors); {one}",
        )
    )
    # the 'meetings' feature: the feature matched to the document's Meetings topic (when it
    # clears the bar) must be held by a majority of the actors (81/140 in the document)
    k, n, bar = matched["Meetings"]
    share = float(top.share_of_actors[k]) if n > bar else 0.0
    out.append(
        Sides(
            share,
            0.5,
            labels=("share of actors", "half"),
            dataset=f"{ENRON_TEXT}: 'meetings' feature",
            statement="the feature matched to the document's 'Meetings' topic is held by a "
            "majority of the actors (0 when no feature matches 'Meetings')",
            paper_a=81 / 140,
            paper_b=0.5,
            note=f"feature {int(top.feature[k])}: {int(top.actors_with_feature[k])}/"
            f"{s['actors']} actors, {n} words shared with 'Meetings' (bar {bar:g}); words: "
            f"{top.ten_most_probable_words[k]}; {one}",
        )
    )
    return out


def topic_match(paper_words: str, ours: list[list[str]], min_words: int, shuffles: int, rng):
    """Our topic sharing most of the document's ten words, the shared words, the bar it must
    beat and the shuffled-topic 95th percentile: the words of all our topics are shuffled
    among the topics (keeping their frequencies) and the best overlap recorded."""
    paper = set(paper_words.lower().split())
    k = int(np.argmax([len(paper & set(w)) for w in ours]))
    shared = sorted(paper & set(ours[k]))
    pool = np.array([w for t in ours for w in t])
    sizes = np.cumsum([len(t) for t in ours])[:-1]
    best = np.empty(shuffles)
    for i in range(shuffles):
        parts = np.split(rng.permutation(pool), sizes)
        best[i] = max(len(paper & set(p)) for p in parts)
    q = float(np.quantile(best, 0.95))
    return k, shared, max(min_words - 1.0, q), q


FIG24_MODELS = ("Naive", "LFRM_last", "LFRM_all", "DRIFT")  # Fig 2.4's series


def early_months(f: pd.DataFrame, method: str, early: int):
    """The baseline's and ``method``'s forecast LL at the months t < ``early`` that both
    forecast (paired by month): (baseline, method, months)."""
    base = f[f.method == "Baseline"].set_index("t").ll
    o = f[f.method == method].set_index("t").ll
    t = sorted(set(base.index[base.index < early]) & set(o.index))
    return [float(base[x]) for x in t], [float(o[x]) for x in t], [int(x) for x in t]


@STUDY.claim("C2.8")
def _(ctx):
    f = ctx.csv("forecast")
    c = ctx.settings.claims
    ds, kind = _monthly_dataset(ctx), _monthly_kind(ctx)
    out = []
    for m in FIG24_MODELS:
        a, b, t = early_months(f, m, c.early_t)
        cid = f"C2.8-{m}"
        if len(t) < 2:
            out.append(NotRun(f"the run forecasts {len(t)} month(s) t < {c.early_t}; a paired "
                              "t-test needs 2 (config/real.yaml forecasts the Enron months "
                              "3..37)", dataset=ds, data_kind=kind, claim_id=cid))  # fmt: skip
            continue
        above = int(np.sum(np.array(b) > np.array(a)))
        out.append(
            Sides(
                a,
                b,
                labels=("baseline LL", f"{LABEL.get(m, m)} LL"),
                test=f"t{c.order_alpha:g}",
                unit="months",
                dataset=ds,
                data_kind=kind,
                claim_id=cid,
                statement=f"for t < {c.early_t} the baseline has a higher forecast "
                f"log-likelihood than {LABEL.get(m, m)} (Fig 2.4; one-sided paired t-test over "
                f"the months at claims.order_alpha = {c.order_alpha:g})",
                note=f"months {t[0]}..{t[-1]}: {LABEL.get(m, m)} above the baseline in {above} "
                f"of {len(t)}",
            )
        )
    return out


@STUDY.claim("C2.9")
def _(ctx):
    """DRIFT against the baseline per month t >= early_t, as C2.9b against the others."""
    return late_order(ctx, "Baseline", "baseline", "DRIFT above the baseline in {above} of {n}")


@STUDY.claim("C2.10")
def _(ctx):
    f = ctx.csv("forecast")
    T = int(f.t.max())
    last = f[f.t == T].set_index("method").ll
    best = min(("LFRM_all", "Baseline"), key=lambda m: (not np.isnan(last[m]), -last[m]))
    return Sides(
        [float(last["LFRM_last"])],
        [float(last[best])],
        labels=("LFRM(last) LL", "max(LFRM(all), baseline)"),
        dataset=_monthly_dataset(ctx),
        data_kind=_monthly_kind(ctx),
        unit="runs",
        note="LL at t=T: "
        + ", ".join(f"{m}={v:.4g}" for m, v in last.items())
        + "; one month, one fit per method: the last month's fits over >= 3 seeds would "
        "decide it",
    )


# ------------------------------------------------------------ Fig 2.4 against the others
FIG24_OTHERS = ("Naive", "LFRM_last", "LFRM_all")  # Fig 2.4's series besides DRIFT
LABEL = {"LFRM_last": "LFRM (last)", "LFRM_all": "LFRM (all)", "LFRM_current": "LFRM (current)"}


def late_months(f: pd.DataFrame, method: str, early: int):
    """DRIFT's and ``method``'s forecast LL at the months t >= ``early`` that both forecast
    (paired by month): (DRIFT, method, months)."""
    d = f[f.method == "DRIFT"].set_index("t").ll
    o = f[f.method == method].set_index("t").ll
    t = sorted(set(d.index[d.index >= early]) & set(o.index))
    return [float(d[x]) for x in t], [float(o[x]) for x in t], [int(x) for x in t]


def late_order(ctx, method: str, label: str, above_note: str, **row):
    """DRIFT's forecast LL above ``method``'s over the months t >= claims.early_t (Fig 2.4):
    the paired per-month sides and a one-sided t-test. ``above_note`` is the note's wording
    with ``{above}`` and ``{n}``; ``row`` names the row (C2.9b)."""
    f = ctx.csv("forecast")
    kind = _monthly_kind(ctx)
    ds = _monthly_dataset(ctx)
    c = ctx.settings.claims
    a, b, t = late_months(f, method, c.early_t)
    if len(t) < 2:
        return NotRun(f"the run forecasts {len(t)} month(s) t >= {c.early_t}; a paired t-test "
                      "needs 2 (config/real.yaml forecasts the Enron months 3..37)",
                      dataset=ds, data_kind=kind, claim_id=row.get("claim_id"))  # fmt: skip
    above = int(np.sum(np.array(a) > np.array(b)))
    return Sides(a, b, labels=("DRIFT LL", f"{label} LL"), test=f"t{c.order_alpha:g}",
                 unit="months", dataset=ds, data_kind=kind,
                 note=f"months {t[0]}..{t[-1]}: " + above_note.format(above=above, n=len(t)),
                 **row)  # fmt: skip


@STUDY.claim("C2.9b")
def _(ctx):
    c = ctx.settings.claims
    return [
        late_order(
            ctx,
            m,
            m,
            "DRIFT above in {above} of {n}; margin 0: Fig 2.4 gives no values",
            claim_id=f"C2.9b-{m}",
            statement=f"for t >= {c.early_t} DRIFT has a higher forecast log-likelihood "
            f"than {LABEL.get(m, m)} (Fig 2.4; one-sided paired t-test over the months at "
            f"claims.order_alpha = {c.order_alpha:g})",
        )
        for m in FIG24_OTHERS
    ]


# ------------------------------------------------------------ Fig 2.3: one forecast task
def best_other(scores: pd.DataFrame, metric: str):
    """DRIFT's ``metric`` and the best other method's (name, value); NaN scores (the naive
    method's AUC) are left out."""
    v = scores.set_index("method")[metric].astype(float)
    others = v.drop("DRIFT").dropna()
    name = str(others.idxmax())
    return float(v["DRIFT"]), name, float(others[name])


def task_noise(scores: pd.DataFrame, metric: str) -> Noise | None:
    """The spread of DRIFT minus the best other method (each data set's own best) on one
    synthetic forecasting task, over the run's data sets (Table 2.1's tasks, C2.1): Fig
    2.3's one task has no replicates of its own. It holds the data sets' differences as well
    as the chains' noise, so it is wider than a rerun of the one task would be. None with
    fewer than 3 data sets."""
    d = [best_other(g, metric) for _, g in scores.groupby("dataset")]
    diff = [a - o for a, _, o in d]
    if len(diff) < 3:
        return None
    return Noise(float(np.std(diff, ddof=1)), len(diff),
                 f"synth_scores.csv: DRIFT - best other forecast {metric.upper()} over the "
                 f"{len(diff)} synthetic data sets (C2.1)")  # fmt: skip


@STUDY.claim("C2.14")
def _(ctx):
    sc = ctx.csv("synth_scores")
    fc = sc[sc.task == "forecast"]
    task = fc[fc.dataset == 0]
    out = []
    for metric, lab in (("ll", "LL"), ("auc", "AUC")):
        drift, name, other = best_other(task, metric)
        allv = ", ".join(f"{m}={v:.4g}" for m, v in task.set_index("method")[metric].items())
        out.append(
            Sides(
                [drift],
                [other],
                labels=(f"DRIFT {lab}", f"best other ({name}) {lab}"),
                claim_id=f"C2.14-{lab}",
                unit="runs",
                noise=task_noise(fc, metric),
                statement=f"on Fig 2.3's forecasting task (synthetic data set 0, t = T + 1) "
                f"DRIFT's forecast {lab} is above every other method's",
                note=f"{lab}: {allv}; {REVERSAL}",
            )
        )
    return out


# ------------------------------------------------------------ Fig 2.6: edge probabilities
def pair_traces(Y: np.ndarray, P: np.ndarray, n: int):
    """Fig 2.6's pool: DRIFT's edge probability and the edges over the months (months,
    pairs) of the ``n`` most frequent pairs (:func:`~.networks.frequent_pairs`)."""
    i, j = frequent_pairs(Y, n)
    return P[:, i, j].astype(float), Y[:, i, j].astype(bool)


def tracks_edges(p: np.ndarray, y: np.ndarray):
    """Per pair with months of both kinds: mean probability over the months with an edge
    and over the months without. Returns (with, without) lists."""
    both = y.any(0) & (~y).any(0)
    on = [float(p[y[:, k], k].mean()) for k in np.flatnonzero(both)]
    off = [float(p[~y[:, k], k].mean()) for k in np.flatnonzero(both)]
    return on, off


def underfit_share(p: np.ndarray, y: np.ndarray, low: float):
    """Share of the pairs with an edge whose probability stays below ``low`` at every
    month (the document's "consistently predicting low edge probabilities for all
    timesteps"); and the number of such pairs."""
    has = y.any(0)
    under = (p.max(0) < low) & has
    return float(under.sum() / max(1, has.sum())), int(has.sum())


def underfit_flags(p: np.ndarray, y: np.ndarray, low: float) -> list[float]:
    """C2.15b's replicates: one per pair with an edge, 1 when it is underfit
    (:func:`underfit_share` is their mean)."""
    has = y.any(0)
    return [float(x) for x in (p.max(0) < low)[has]]


def _traces(ctx):
    z = np.load(ctx.input("monthly_matrices"))
    c = ctx.settings.claims
    return pair_traces(z["Y"], z["P_DRIFT_all"], c.fig26_pairs)


@STUDY.claim("C2.15")
def _(ctx):
    c = ctx.settings.claims
    p, y = _traces(ctx)
    on, off = tracks_edges(p, y)
    ds, kind = _monthly_dataset(ctx), _monthly_kind(ctx)
    if len(on) < 2:
        return NotRun(f"{len(on)} of the {p.shape[1]} most frequent pairs have months with "
                      "and without an edge; the paired t-test needs 2 (config/real.yaml runs "
                      "the Enron network)", dataset=ds, data_kind=kind)  # fmt: skip
    return Sides(
        on,
        off,
        labels=("mean Pr(edge) | edge", "mean Pr(edge) | no edge"),
        test=f"t{c.order_alpha:g}",
        unit="pairs",
        dataset=ds,
        data_kind=kind,
        note=f"{len(on)} of the {p.shape[1]} most frequent pairs have months of both kinds; "
        f"edge months per pair {int(y.sum(0).min())}..{int(y.sum(0).max())} of {y.shape[0]}; "
        "margin 0: Fig 2.6 gives no values",
    )


@STUDY.claim("C2.15b")
def _(ctx):
    c = ctx.settings.claims
    p, y = _traces(ctx)
    share, n = underfit_share(p, y, c.underfit_p)
    return Measured(
        underfit_flags(p, y, c.underfit_p),
        dataset=_monthly_dataset(ctx),
        data_kind=_monthly_kind(ctx),
        unit="pairs",
        note=f"{round(share * n)} of {n} pairs (of the {p.shape[1]} most frequent) below "
        f"{c.underfit_p:g} at every month; max Pr(edge) per pair: median "
        f"{float(np.median(p.max(0))):.3f}, min {float(p.max(0).min()):.3f}",
    )


# ------------------------------------------------------------ Fig 2.7: ROC curves
FIG27_OTHERS = ("Baseline", "LFRM_current", "LFRM_all")  # Fig 2.7's series besides DRIFT


@STUDY.claim("C2.16")
def _(ctx):
    miss = ctx.csv("missing")
    if "split" not in miss:  # a run before missing_splits: one held-out split
        miss = miss.assign(split=0)
    ds, kind = _monthly_dataset(ctx), _monthly_kind(ctx)
    out = []
    for m in FIG27_OTHERS:
        a, b, splits = paired_by(miss, "split", "auc", "DRIFT", m)
        out.append(
            Sides(
                a,
                b,
                labels=("DRIFT AUC", f"{m} AUC"),
                claim_id=f"C2.16-{m}",
                unit="held-out splits",
                dataset=ds,
                data_kind=kind,
                statement=f"DRIFT's ROC curve on the Enron missing entries (Fig 2.7) has a larger "
                f"area than {LABEL.get(m, m)}'s (AUC of the held-out scores the figure draws, "
                "per held-out split)",
                note=f"{len(splits)} held-out split(s); margin 0: the document gives no AUC for "
                "this task",
            )
        )
    return out


from .causes import CAUSES  # noqa: E402

STUDY.causes(CAUSES)
