"""Claims of chapter 2 (C2.x, our numbering of the chapter's checkable statements, and the
text's statements about Figs 2.4/2.5)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from latentlab.claims.prove import counter_example, direction_passes
from latentlab.claims.spec import Claim, Measured, NotRun, Sides

from .networks import frequent_pairs
from .study import STUDY, ClaimsSettings
from .tables import PAPER_2_3

ENRON_NOTE = (
    "Enron: Perry & Wolfe coding (156 employees, 21,635 messages) instead of the document's "
    "151 people / 34,182 emails; absolute numbers differ"
)

ENRON_TEXT = "enron subject lines (top 50)"

# issue 22, case 2: the synthetic rows of C2.1 / C2.3 point at the sampler's known-truth check
REVERSAL = (
    "sampler checked on persistent DRIFT networks with known Z: "
    "tests/models/drift/test_drift_known_truth.py; published/real/REVERSALS.md (case 2)"
)

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
        statement="with K = 3 the posterior mean Z recovers the true Z",
        paper_value="share of data sets with every feature corr > claims.recovery_corr",
        how="ge",
        tolerance=0.0,
        dataset="synthetic DRIFT (K=3)",
        note="threshold and share are ours, the document shows images only",
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
        how="order",
        direction="<",
        note=ENRON_NOTE,
    ),
    Claim(
        "C2.6",
        where="Sec 2.5 / 2.6.2",
        statement="the DRIFT sampler's K⁺ and α traces are stationary after the burn-in "
        "(share of fits with split-R̂ < claims.trace_rhat over iterations >= burn-in/2 "
        ">= claims.trace_share)",
        paper_value="burn-in 100 'found to be sufficient' (3 chains, Enron)",
        how="true",
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
        "(with an edge) whose DRIFT edge probability stays below claims.underfit_p at every "
        "month",
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
        "row per other method of Fig 2.7)",
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


def auc_margin_bound() -> float:
    """Half the smallest AUC gap of Table 2.1 between DRIFT and the best other method (Enron
    forecast: (0.910 - 0.891) / 2): the most ``claims.auc_margin`` may be."""
    return min((a - b) / 2 for (_, _, m), (a, b, _) in PAPER_2_1.items() if m == "auc")


def _drift_best(ctx, task, kind):
    """DRIFT best in LL and AUC on the synthetic data and the monthly network: per data set
    and metric, an order row of DRIFT's mean against the best other method's mean (the
    document's statistic: scores averaged over data sets, or over months t = 3..37)."""
    out = []
    cid = {"forecast": "C2.1", "missing": "C2.2"}[task]
    what = "forecast" if task == "forecast" else "missing-data"
    sc = ctx.csv("synth_scores")
    monthly = ctx.csv("forecast") if task == "forecast" else ctx.csv("missing")
    mkind = ctx.json("network_summary").get("data_kind", "real")
    margin = ctx.settings.claims.auc_margin
    if margin > auc_margin_bound():
        raise ValueError(
            f"claims.auc_margin {margin:g} is wider than half the document's smallest AUC gap "
            f"({auc_margin_bound():.4g}, Table 2.1)"
        )
    for df, ds, dk, doc in (
        (sc[sc.task == task], "synthetic DRIFT", "synthetic", "synthetic"),
        (monthly, "enron monthly" if mkind == "real" else "Enron-like", mkind, "enron"),
    ):
        ll = _best(df, "ll", df.method.unique())
        auc = _best(df, "auc", [m for m in df.method.unique() if m != "Naive"])
        head = f"means over {df.dataset.nunique()} data sets; " if "dataset" in df else ""
        for metric, v in (("ll", ll), ("auc", auc)):
            others = {m: x for m, x in v.items() if m != "DRIFT"}
            # a method without a mean (NaN) is the best other: the row cannot pass on it
            best = max(others, key=lambda m: (bool(np.isnan(others[m])), others[m]))
            paper = PAPER_2_1.get((task, doc, metric))
            note = (
                head
                + metric.upper()
                + " "
                + ", ".join(f"{m}={x:{'.4g' if metric == 'll' else '.3f'}}" for m, x in v.items())
                + f"; best other: {best}"
                + (f" (document: {paper[2]})" if paper else "")
            )
            if paper is None:
                note += "; the document's value is absent from its text, which gives DRIFT best"
            if ds == "synthetic DRIFT":  # not the Enron-like network of the smoke run
                note += "; " + REVERSAL
            out.append(
                Sides(
                    v["DRIFT"],
                    others[best],
                    paper_a=paper[0] if paper else None,
                    paper_b=paper[1] if paper else None,
                    labels=("DRIFT", "best other"),
                    margin="claims.auc_margin" if metric == "auc" else 0.0,
                    dataset=ds,
                    data_kind=dk,
                    statement=f"DRIFT has the best {what} {metric.upper()}: above the best "
                    "other method",
                    note=note,
                    claim_id=f"{cid}-{metric}",
                )
            )
    return out


# the Enron missing-data AUC (absent from the document's text) can pass on a constructed A
counter_example("drift", "C2.2-auc")(direction_passes)


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
    bar = ctx.settings.claims.recovery_share
    refused = one_short(bar, 10)
    return Measured(
        share,
        paper_value=bar,
        reject=[refused],
        note=f"min feature corr per data set ({len(per)}): {np.round(per.values, 3).tolist()}; "
        f"refused: {refused:g}, one of the document's ten data sets short of the bar; " + REVERSAL,
    )


def one_short(bar: float, n: int) -> float:
    """The largest share of ``n`` data sets below ``bar``: one data set short of it (the
    nearest outcome a share rule must refuse; ``bar`` 0.8 of 10 data sets: 0.7)."""
    return (math.ceil(bar * n - 1e-9) - 1) / n


@STUDY.claim("C2.4")
def _(ctx):
    t = ctx.csv("table2_2").set_index("k")
    kind = ctx.json("network_summary").get("data_kind", "real")
    if 10 not in t.index or not (t.index >= 50).any():
        return NotRun("fewer than 50 held-out entries in this run")
    note = "; ".join(f"k={k}: DRIFT {r.DRIFT} vs Baseline {r.Baseline}" for k, r in t.iterrows())
    ok = ties_then_wins(t.DRIFT, t.Baseline)
    return Measured(ok, dataset=_monthly_dataset(ctx), data_kind=kind, note=note)


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


def ties_then_wins(a: pd.Series, base: pd.Series, tie: int = 1) -> bool:
    """C2.4 on true positives per k (index k): ``a`` within ``tie`` of the baseline at
    k = 10 (the document's small-k difference: 20 vs 19 at k = 20) and above it at every
    k >= 50."""
    late = a.index >= 50
    return bool(abs(int(a[10]) - int(base[10])) <= tie and (a[late] > base[late]).all())


@counter_example("drift", "C2.4")
def _(row):
    """Passes on Table 2.2's DRIFT and baseline columns (10 vs 10 at k = 10, 48 vs 36 ...
    361 vs 285 for k >= 50); fails on its LFRM(all) column, which ties the baseline at
    k = 10 but also at k = 50 (36 vs 36)."""
    t = PAPER_2_2
    return {
        "fails": _verdict(ties_then_wins(t.LFRM_all, t.Baseline)),
        "passes": _verdict(ties_then_wins(t.DRIFT, t.Baseline)),
    }


def _verdict(ok: bool) -> str:
    return "reproduced" if ok else "not_reproduced"


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
    best = min(("LFRM_all", "Baseline"), key=lambda m: (not np.isnan(err[m]), err[m]))
    note = f"months {T - 3}..{T}: |pred - true density| " + ", ".join(
        f"{m}={v:.4f}" for m, v in err.items()
    )
    return Sides(
        err["DRIFT"],
        err[best],
        labels=("DRIFT |pred - true density|", "min(LFRM(all), baseline)"),
        dataset=_monthly_dataset(ctx),
        data_kind=kind,
        note=note + f" (closer: {best}); the document shows Fig 2.5 only, no numbers",
    )


# Fig 2.5 gives a direction only: the row can pass on a constructed A (DRIFT's error lower)
counter_example("drift", "C2.5")(direction_passes)


def split_rhat(x) -> float:
    """Split-R̂ (Gelman et al., BDA3 §11.4) of draws ``x`` (chains, iterations): each chain
    cut in halves, so a trend inside a chain counts like a disagreement between chains.
    Every half constant: 1 when they agree, inf when they differ."""
    x = np.asarray(x, float)
    n = x.shape[1] // 2
    if n < 2:
        raise ValueError(f"split-R̂ needs >= 4 iterations per chain, got {x.shape[1]}")
    h = np.concatenate([x[:, :n], x[:, x.shape[1] - n :]])
    W = h.var(axis=1, ddof=1).mean()
    B = n * h.mean(axis=1).var(ddof=1)
    if W == 0:
        return 1.0 if B == 0 else float("inf")
    return float(np.sqrt(((n - 1) / n * W + B / n) / W))


def trace_stats(tr, by, alpha_a, alpha_b):
    """Per fit (``by`` columns): split-R̂ of K⁺ and α over iterations >= burn-in/2, and the
    pooled α check: α_i − E[α_i | K⁺_i] are martingale differences with variance
    (K⁺_i + α_a)/(H_M + α_b)², M = N·T, so z = Σ(α − mean)/√Σvar is N(0, 1)."""
    rows, e, v = [], 0.0, 0.0
    for key, g in tr.groupby(by):
        w = g[g.iteration >= int(g.burnin.iloc[0]) // 2]
        K = w.pivot(index="chain", columns="iteration", values="K").to_numpy()
        A = w.pivot(index="chain", columns="iteration", values="alpha").to_numpy()
        if K.shape[1] < 4:
            continue
        rate = np.sum(1.0 / np.arange(1, int(g["N"].iloc[0] * g["T"].iloc[0]) + 1)) + alpha_b
        e += float(np.sum(w.alpha - (w.K + alpha_a) / rate))
        v += float(np.sum((w.K + alpha_a) / rate**2))
        rows.append(
            {
                "fit": key,
                "rhat_K": split_rhat(K),
                "rhat_alpha": split_rhat(A),
                "K_end": float(K[:, -1].mean()),
                "alpha_mean": float(A.mean()),
                "chains": K.shape[0],
                "window": K.shape[1],
            }
        )
    return pd.DataFrame(rows), (e / np.sqrt(v) if v > 0 else float("nan"))


def _trace_fits(ctx):
    """(dataset, data_kind, burn-ins, per-fit stats, α z) of the synthetic and the monthly
    DRIFT traces."""
    h = ctx.settings.hyper
    out = []
    for name, by, ds, kind in (
        ("synth_trace", ["dataset", "task"], "synthetic DRIFT", "synthetic"),
        (
            "monthly_trace",
            ["task", "t"],
            _monthly_dataset(ctx),
            ctx.json("network_summary").get("data_kind", "real"),
        ),
    ):
        tr = ctx.csv(name)
        st, z = trace_stats(tr, by, h.alpha_a, h.alpha_b)
        burn = sorted(tr.groupby(by).burnin.first().unique().tolist())
        out.append((ds, kind, burn, st, z))
    return out


def traces_stationary(st: pd.DataFrame, rhat: float, share: float) -> tuple[bool, pd.Series]:
    """C2.6 on per-fit stats (:func:`trace_stats`): a fit is stationary when the split-R̂ of
    K⁺ and of α are both below ``rhat``; the claim holds when a share >= ``share`` of the
    fits are. Returns the verdict and the per-fit flags."""
    ok = (st.rhat_K < rhat) & (st.rhat_alpha < rhat)
    return bool(ok.mean() >= share), ok


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


@counter_example("drift", "C2.6")
def _(row):
    """Passes on stationary traces (the document: a burn-in of 100 'found to be
    sufficient': K⁺ and α draws around a fixed level after it); fails on traces whose K⁺
    is still climbing (by 10 features over the burn-in) after the burn-in."""
    c, h = ClaimsSettings().claims, ClaimsSettings().hyper

    def verdict(tr):
        st, _ = trace_stats(tr, ["dataset", "task"], h.alpha_a, h.alpha_b)
        return _verdict(traces_stationary(st, c.trace_rhat, c.trace_share)[0])

    return {"fails": verdict(synthetic_traces(10.0)), "passes": verdict(synthetic_traces(0.0))}


@STUDY.claim("C2.6")
def _(ctx):
    c = ctx.settings.claims
    out = []
    for ds, kind, burn, st, _ in _trace_fits(ctx):
        if st.empty:
            out.append(NotRun(f"fewer than 4 iterations >= burn-in/2 ({burn})", ds, kind))
            continue
        stationary, ok = traces_stationary(st, c.trace_rhat, c.trace_share)
        share = float(ok.mean())
        out.append(
            Measured(
                stationary,
                dataset=ds,
                data_kind=kind,
                note=f"burn-in {burn} (document 100; 300 for missing data); "
                f"{int(ok.sum())}/{len(ok)} fits with split-R̂(K⁺), split-R̂(α) < "
                f"{c.trace_rhat} (share {share:.2f}); median split-R̂ K⁺ "
                f"{st.rhat_K.median():.3f}, max {st.rhat_K.max():.3f}; α "
                f"{st.rhat_alpha.median():.3f}, max {st.rhat_alpha.max():.3f}; mean K⁺ at "
                f"the last iteration {st.K_end.mean():.2f}; "
                f"{int(st.chains.median())} chains x {int(st.window.median())} iterations",
            )
        )
    return out


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
    return out


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
                float(ok.mean()),
                dataset=name,
                data_kind="synthetic",
                paper_value=c.text_share,
                reject=[refused],
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


def planted_recovery(swapped: bool, datasets: int = 5, K: int = 3) -> pd.DataFrame:
    """Recovery rows of ``datasets`` fits of ``K`` planted features, each recovered exactly
    (Z accuracy 1, L1 ratio 0.1); ``swapped``: the topics of planted features 0 and 1 land
    on each other's features (their associations are lost, each alone looks recovered)."""
    rows = []
    for d in range(datasets):
        for k in range(K):
            topic = {0: 1, 1: 0}.get(k, k) if swapped else k
            rows.append(dict(dataset=d, feature=k, model_feature=topic, z_matched_feature=k,
                             acc_topic=1.0, l1_ratio=0.1))  # fmt: skip
    return pd.DataFrame(rows)


@counter_example("drift", "C2.7")
def _(row):
    """Passes when every planted feature's topic and actors are recovered on the same model
    feature (the associations of Sec 2.7 / Tables 2.3-2.4); fails when two planted topics
    are recovered on each other's features in every data set."""
    from latentlab.claims.ledger import judge

    c = ClaimsSettings().claims

    def verdict(rec):
        ok = rec.groupby("dataset").apply(
            lambda g: associations_recovered(g, c.text_acc, c.text_l1_ratio),
            include_groups=False,
        )
        return judge(c.text_share, float(ok.mean()), "ge", 0.0)[0]  # the row's rule

    return {"fails": verdict(planted_recovery(True)), "passes": verdict(planted_recovery(False))}


# C2.13's alternatives in the document's own protocol (Sec 2.7.2: 20 topics, 100 recorded
# samples after burn-in): a single swapped sample, a single topic without its match
SWAP_SAMPLE = 1 - 1 / 100
SWAP_TOPIC = 1 - 1 / 20


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
                reject=[SWAP_SAMPLE],
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
                    float(s["chain_match_share"]),
                    dataset=ENRON_TEXT,
                    data_kind="substitute",
                    reject=[SWAP_TOPIC],
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
                f"{c.enron_shuffles} shuffles of our topics' words",
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
            note=f"ours {m:.2f} of K = {s['K']} ({s['actors']} actors)",
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
            f"{top.ten_most_probable_words[k]}",
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


def _vs_baseline(ctx):
    f = ctx.csv("forecast")
    base = f[f.method == "Baseline"].set_index("t").ll
    return f, {
        m: f[f.method == m].set_index("t").ll - base
        for m in ("Naive", "LFRM_last", "LFRM_all", "DRIFT")
    }


def baseline_unbeaten_early(d: dict, early: int, share: float) -> tuple[bool, dict]:
    """C2.8 on each model's test LL minus the baseline's per month (``d``: model -> Series
    indexed by t): every model is above the baseline in fewer than a share ``share`` of the
    months t < ``early``. Returns the verdict and the shares."""
    shares = {m: float((s[s.index < early] > 0).mean()) for m, s in d.items()}
    return all(v < share for v in shares.values()), shares


def fig2_4_shape(early_lead: float) -> dict:
    """LL minus the baseline's per month t = 3..37, Fig 2.4's shape: every model 5 nats
    below the baseline for t < 12, DRIFT 5 nats above it later; ``early_lead``: DRIFT's
    difference for t < 12 instead."""
    t = np.arange(3, 38)
    drift = np.where(t < 12, early_lead, 5.0)
    d = {m: pd.Series(np.full(len(t), -5.0), index=t) for m in ("Naive", "LFRM_last", "LFRM_all")}
    return {**d, "DRIFT": pd.Series(drift, index=t)}


@counter_example("drift", "C2.8")
def _(row):
    """Passes on Fig 2.4's shape (no model above the baseline for t < 12); fails when DRIFT
    is above the baseline in every month t < 12 (by 5 nats)."""
    c = ClaimsSettings().claims
    return {
        "fails": _verdict(baseline_unbeaten_early(fig2_4_shape(5.0), c.early_t, c.early_share)[0]),
        "passes": _verdict(
            baseline_unbeaten_early(fig2_4_shape(-5.0), c.early_t, c.early_share)[0]
        ),
    }


# Fig 2.4 gives C2.10 a direction only: the row can pass on a constructed A (LFRM(last)'s LL
# higher at the last month)
counter_example("drift", "C2.10")(direction_passes)


@STUDY.claim("C2.8")
def _(ctx):
    f, d = _vs_baseline(ctx)
    kind = ctx.json("network_summary").get("data_kind", "real")
    early = ctx.settings.claims.early_t
    ok, shares = baseline_unbeaten_early(d, early, ctx.settings.claims.early_share)
    note = f"share of months t < {early} above the baseline: " + ", ".join(
        f"{m}={v:.2f}" for m, v in shares.items()
    )
    return Measured(bool(ok), dataset=_monthly_dataset(ctx), data_kind=kind, note=note)


@STUDY.claim("C2.9")
def _(ctx):
    """DRIFT against the baseline per month t >= early_t, as C2.9b against the others."""
    return late_order(ctx, "Baseline", "baseline", "DRIFT above the baseline in {above} of {n}")


counter_example("drift", "C2.9")(direction_passes)  # Fig 2.4 gives a direction, no values


@STUDY.claim("C2.10")
def _(ctx):
    f = ctx.csv("forecast")
    kind = ctx.json("network_summary").get("data_kind", "real")
    T = int(f.t.max())
    last = f[f.t == T].set_index("method").ll
    best = min(("LFRM_all", "Baseline"), key=lambda m: (not np.isnan(last[m]), -last[m]))
    return Sides(
        last["LFRM_last"],
        last[best],
        labels=("LFRM(last) LL", "max(LFRM(all), baseline)"),
        dataset=_monthly_dataset(ctx),
        data_kind=kind,
        note="LL at t=T: " + ", ".join(f"{m}={v:.4g}" for m, v in last.items()),
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
    kind = ctx.json("network_summary").get("data_kind", "real")
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


@STUDY.claim("C2.14")
def _(ctx):
    sc = ctx.csv("synth_scores")
    task = sc[(sc.task == "forecast") & (sc.dataset == 0)]
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


def _traces(ctx):
    z = np.load(ctx.input("monthly_matrices"))
    c = ctx.settings.claims
    return pair_traces(z["Y"], z["P_DRIFT_all"], c.fig26_pairs)


@STUDY.claim("C2.15")
def _(ctx):
    c = ctx.settings.claims
    p, y = _traces(ctx)
    on, off = tracks_edges(p, y)
    ds, kind = _monthly_dataset(ctx), ctx.json("network_summary").get("data_kind", "real")
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
        share,
        dataset=_monthly_dataset(ctx),
        data_kind=ctx.json("network_summary").get("data_kind", "real"),
        note=f"{round(share * n)} of {n} pairs (of the {p.shape[1]} most frequent) below "
        f"{c.underfit_p:g} at every month; max Pr(edge) per pair: median "
        f"{float(np.median(p.max(0))):.3f}, min {float(p.max(0).min()):.3f}",
    )


# ------------------------------------------------------------ Fig 2.7: ROC curves
FIG27_OTHERS = ("Baseline", "LFRM_current", "LFRM_all")  # Fig 2.7's series besides DRIFT


@STUDY.claim("C2.16")
def _(ctx):
    auc = ctx.csv("missing").set_index("method").auc
    ds, kind = _monthly_dataset(ctx), ctx.json("network_summary").get("data_kind", "real")
    return [
        Sides(
            [float(auc["DRIFT"])],
            [float(auc[m])],
            labels=("DRIFT AUC", f"{m} AUC"),
            claim_id=f"C2.16-{m}",
            unit="runs",
            dataset=ds,
            data_kind=kind,
            statement=f"DRIFT's ROC curve on the Enron missing entries (Fig 2.7) has a larger "
            f"area than {LABEL.get(m, m)}'s (AUC of the held-out scores the figure draws)",
        )
        for m in FIG27_OTHERS
    ]


# ------------------------------------------------------------ counter-examples
# order rows whose document gives a direction but no values: a constructed can-pass
for _cid in (
    *(f"C2.9b-{m}" for m in FIG24_OTHERS),
    "C2.14-LL",
    "C2.14-AUC",
    "C2.15",
    *(f"C2.16-{m}" for m in FIG27_OTHERS),
):
    counter_example("drift", _cid)(direction_passes)


from .causes import CAUSES  # noqa: E402

STUDY.causes(CAUSES)
