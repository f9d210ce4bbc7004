"""claims.csv for chapter 4 (C4.1-C4.13, our numbering of the chapter's checkable
statements; ``where`` gives the thesis's section, figure or table): the claims as data, one small
function per claim that measures our value from the study's outputs (or re-runs an
exact check on a toy corpus)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from latentlab.claims.noise import noise_floor
from latentlab.claims.prove import counter_example, direction_passes
from latentlab.claims.spec import Claim, Measured, NotRun, NotTestable, Sides

from .study import STUDY, ClaimsSettings, data_kind, method_names

BETA = "Beta(0.1,0.1) draws"
TOY = "toy LDA corpus"
CURVE_FIGS = ("fig4_3", "fig4_4", "fig4_5")

CLAIMS = [
    Claim(
        "C4.1",
        where="Fig. 4.8",
        statement=(
            "Var[n_i] < E[n_i] for every i (gamma ~ Beta(0.1, 0.1)): E - Var = sum gamma^2"
            " > 0, true term by term (gamma(1 - gamma) < gamma); an identity, not an "
            "empirical result"
        ),
        paper_value="Var < E",
        how="true",
        dataset=BETA,
        data_kind="identity",
    ),
    Claim(
        "C4.2",
        where="Fig. 4.9",
        statement=(
            "Chebyshev bound Var/(0.1 E)^2 decays to 0 as i grows: log-log slope of the "
            "bound (mean over repeats) over the upper half of i, <= -1 + tolerance (the "
            "rate 1/i of Lemma 4.4.1's argument; any slope < 0 held to the end means -> 0)"
        ),
        paper_value=-1.0,
        how="le",
        tolerance="claims.decay_slope_tol",
        dataset=BETA,
        data_kind="identity",
    ),
    Claim(
        "C4.3",
        where="Fig. 4.10",
        statement=(
            "both approximations have mean L1 error < 0.01 for more than ~10 words "
            "(vs exact expectation)"
        ),
        paper_value=0.01,
        how="le",
        dataset=BETA,
        note="threshold 0.01 is ours (the document gives none)",
    ),
    Claim(
        "C4.3b",
        where="Fig. 4.10",
        statement="with few words (<= 5) CVB0 is more accurate than CVB (absolute error of "
        "the expected count, every word count)",
        paper_value="CVB0 < CVB",
        how="order",
        direction="<",
        dataset=BETA,
    ),
    Claim(
        "C4.3c",
        where="Fig. 4.10",
        statement=(
            "with many words CVB is more accurate than CVB0 (log-log panel; every word "
            "count in the upper half of the panel)"
        ),
        paper_value="CVB < CVB0",
        how="order",
        direction="<",
        dataset=BETA,
    ),
    Claim(
        "C4.4",
        where="Fig. 4.3-4.5",
        statement=(
            "SCVB0 has higher held-out per-token LL than every SVB variant early in "
            "training: at claims.early_fraction of the common training time, curves "
            "interpolated in log time; SCVB0 minus best SVB, per seed (nats/token)"
        ),
        paper_value=0.0,
        how="ge",
        group="curves",
        data_kind="real",  # of the not_run rows on the document's corpora
    ),
    Claim(
        "C4.4b",
        where="Fig. 4.4-4.5",
        statement=(
            "SCVB0 outperforms SVB throughout the run (NYT, Wikipedia): min over the "
            "common time range (log grid, interpolated) of SCVB0 minus best SVB, per seed"
        ),
        paper_value=0.0,
        how="ge",
        group="curves",
        data_kind="real",
    ),
    Claim(
        "C4.6",
        where="Fig. 4.4-4.5",
        statement=(
            "SCVB0's final held-out LL >= every SVB setting's, 'a better solution' (NYT, "
            "Wikipedia; same number of documents processed); SCVB0 minus best SVB, per "
            "seed (nats/token)"
        ),
        paper_value=0.0,
        how="ge",
        group="curves",
        data_kind="substitute",
    ),
    Claim(
        "C4.6-similar",
        where="Fig. 4.3",
        statement=(
            "PubMed: 'all algorithms perform similarly after about an hour': at the end of "
            "the run SCVB0 minus best SVB within the tolerance, per seed (nats/token)"
        ),
        paper_value=0.0,
        how="abs",
        tolerance="claims.similar_ll_tol",
        group="curves",
        data_kind="substitute",
        note="the thesis gives no number: the tolerance is half the early SCVB0 advantage "
        "of the same curves (capped at claims.similar_ll_tol), which the row must refuse",
    ),
    Claim(
        "C4.6b",
        where="Sec. 4.3.1 (Figs 4.4/4.5)",
        statement=(
            "SCVB0's benefit grows with corpus size: final SCVB0 - best SVB gap on the "
            "larger synthetic corpus (Fig 4.5's) minus on the smaller (Fig 4.4's), the two "
            "equal in document length, vocabulary and K; paired by seed (nats/token)"
        ),
        paper_value=0.0,
        how="ge",
    ),
    Claim(
        "C4.5",
        where="Fig. 4.6",
        statement=(
            "per documents processed, SCVB0 and SVB perform similarly (max over SVB"
            " variants of mean |LL gap| over the second half of the run, per seed, "
            "nats/token)"
        ),
        paper_value=0.0,
        how="le",
        tolerance="claims.similar_ll_tol",
        note="tolerance is ours: the thesis gives no number",
    ),
    Claim(
        "C4.7",
        where="Fig. 4.7",
        statement=(
            "batch VB on a subset plateaus lower than SCVB0 on the full corpus "
            "(SCVB0 final minus best subset-VB, nats/token)"
        ),
        paper_value=0.0,
        how="ge",
    ),
    Claim(
        "C4.7b",
        where="Fig. 4.7",
        statement=(
            "batch VB on the smallest subset converges faster (time to 95% of its "
            "own improvement) than SCVB0 (seconds)"
        ),
        paper_value="VB < SCVB0",
        how="order",
        direction="<",
    ),
    Claim(
        "C4.8",
        where="Sec. 4.3.2 / Table 4.4",
        statement=(
            "in a fixed short budget SCVB0 processes ~5.5x more documents than SVB "
            "(3300 vs ~600 in 5 s); ratio of documents processed"
        ),
        paper_value=5.5,
        how="ge",
        tolerance="claims.speedup_abs",
        data_kind="real",  # of the not_run row on NIPS
    ),
    Claim(
        "C4.9",
        where="Table 4.4",
        statement="human intruder-word errors per topic, SCVB0 vs SVB (NIPS)",
        paper_value="0.76 (SD 1.1) vs 1.6 (SD 1.2) errors/topic",
        dataset="NIPS",
        not_testable="human-subject study; not replicable",
    ),
    Claim(
        "C4.9-proxy-4_4",
        where="Table 4.4",
        statement=(
            "proxy: after the same short budget SCVB0's topics are more coherent "
            "(mean UMass, SCVB0 minus SVB)"
        ),
        paper_value="SCVB0 > SVB (the thesis: a human study)",
        note=("automatic coherence proxy for the human study, not the thesis's measure"),
    ),
    Claim(
        "C4.9",
        where="Table 4.5",
        statement="human intruder-word errors per topic, SCVB0 vs SVB (NYT)",
        paper_value="2.1 (SD 1.0) vs 4.4 (SD 2.4) errors/topic",
        dataset="NYT",
        not_testable="human-subject study; not replicable",
    ),
    Claim(
        "C4.9-proxy-4_5",
        where="Table 4.5",
        statement=(
            "proxy: after the same short budget SCVB0's topics are more coherent "
            "(mean UMass, SCVB0 minus SVB)"
        ),
        paper_value="SCVB0 > SVB (the thesis: a human study)",
        note=("automatic coherence proxy for the human study, not the thesis's measure"),
    ),
    Claim(
        "C4.10",
        where="Eqs. 4.66-4.68",
        statement=(
            "SCVB0 with one-token minibatches and (alpha, beta) equals online EM "
            "for MAP_LDA_U with (alpha+1, beta+1) (max abs difference of the "
            "iterates)"
        ),
        paper_value=0.0,
        how="le",
        tolerance="claims.em_equal_abs",
        dataset=TOY,
        data_kind="identity",
    ),
    Claim(
        "C4.11",
        where="Thm 4.6.1 proof",
        statement=("statistics stay >= 0 and sum to C (relative error of sum N^Phi)"),
        paper_value=0.0,
        how="le",
        tolerance="claims.mass_rel",
        dataset=TOY,
        data_kind="identity",
    ),
    Claim(
        "C4.12",
        where="Eq. 4.49",
        statement=(
            "clumped N^Theta update equals m repeated single updates with gamma "
            "fixed (max abs difference)"
        ),
        paper_value=0.0,
        how="le",
        tolerance="claims.clumped_equal_abs",
        dataset="random statistics",
        data_kind="identity",
    ),
    Claim(
        "C4.13",
        where="App. B",
        statement=(
            "batch MAP_LDA_U (alpha, beta > 1) never decreases its objective Eq. "
            "B.1 (min relative step)"
        ),
        paper_value=0.0,
        how="ge",
        tolerance="claims.monotone_rel",
        dataset=TOY,
        data_kind="identity",
    ),
    Claim(
        "F4.1",
        where="Fig. 4.1",
        statement="Robbins-Monro on sin(w) + noise finds the root pi",
        paper_value=float(np.pi),
        how="abs",
        tolerance="claims.root_abs",
        reject=[0.0, float(2 * np.pi)],  # the neighbouring roots of sin
        dataset="N(0,1) noise",
    ),
    Claim(
        "F4.2",
        where="Fig. 4.2",
        statement="stochastic gradient ascent on sin(w) finds the maximum pi/2",
        paper_value=float(np.pi / 2),
        how="abs",
        tolerance="claims.root_abs",
        reject=[float(-np.pi / 2), float(3 * np.pi / 2)],  # the minima of sin either side
        dataset="N(0,1) noise",
    ),
]
STUDY.claims(CLAIMS, settings=ClaimsSettings)


# ------------------------------------------------------------------ Figs 4.8-4.10
@STUDY.claim("C4.1")
def _(ctx):
    f8 = ctx.csv("fig4_8")
    # E - Var = sum gamma^2 > 0: computed directly, since in floating point 1 - gamma
    # rounds to 1 for the tiny gammas Beta(0.1, 0.1) produces and Var == E to the last bit
    return bool((f8["mean_minus_variance"] > 0).all())


@STUDY.claim("C4.2")
def _(ctx):
    f9 = ctx.csv("fig4_9")
    up = f9[f9.n_words >= f9.n_words.max() / 2]
    slope = float(np.polyfit(np.log(up.n_words), np.log(up.chebyshev_bound_avg), 1)[0])
    return Measured(
        slope,
        note=f"bound at i={int(f9.n_words.max())}: {f9.chebyshev_bound_avg.iloc[-1]:.4g}",
    )


@STUDY.claim("C4.3")
def _(ctx):
    f10 = ctx.csv("fig4_10")
    big = f10[f10.n_words > 10]
    return float(max(big.cvb0_err_exact.max(), big.cvb_err_exact.max()))


@STUDY.claim("C4.3b")
def _(ctx):
    small = ctx.csv("fig4_10").query("n_words <= 5")
    return Sides(
        small.cvb0_err_exact.to_numpy(),
        small.cvb_err_exact.to_numpy(),
        labels=("CVB0 error", "CVB error"),
        unit="word counts",
    )


@STUDY.claim("C4.3c")
def _(ctx):
    f10 = ctx.csv("fig4_10")
    large = f10[f10.n_words >= f10.n_words.max() / 2]
    vs_mc = bool((large.cvb_err_mc < large.cvb0_err_mc).all())
    return Sides(
        large.cvb_err_exact.to_numpy(),
        large.cvb0_err_exact.to_numpy(),
        labels=("CVB error", "CVB0 error"),
        unit="word counts",
        note=f"against the exact Poisson-binomial expectation (our DP); vs the MC truth: {vs_mc}",
    )


# Fig 4.10 and Fig 4.7 give directions, no values: the can-pass is a constructed direction
for _cid in ("C4.3b", "C4.3c", "C4.7b"):
    counter_example("scvb0", _cid)(direction_passes)


# ------------------------------------------------------------------ Figs 4.3-4.7
# the document's corpora of Figs 4.3-4.5 that config/paper.yaml runs (download targets)
DOC_CORPORA = {"fig4_3": "uci_pubmed", "fig4_4": "uci_nytimes", "fig4_5": "uci_nytimes"}


def _curve_datasets(ctx, figs=CURVE_FIGS, extras=True):
    """(where, dataset, input name): one per dataset of ``figs`` (+ the extra corpora)."""
    c = ctx.settings.curves
    items = [(f, getattr(c, f), f"curves_{f}") for f in figs]
    if extras:
        items += [(f"fig4_3 ({d})", d, f"curves_extra_{d}") for d in c.extra_datasets]
    if ctx.partial:  # a ladder rung (rules/ladder.smk) builds only some of the curves
        items = [i for i in items if ctx.has_input(i[2])]
    seen, out = set(), []
    for fig, ds, key in items:
        if ds not in seen:  # one row per dataset; the figures share the curves
            seen.add(ds)
            out.append((f"Fig. {fig[3:].replace('_', '.', 1)}", ds, key))
    return out


def _doc_not_run(ctx, figs=CURVE_FIGS) -> list:
    """not_run rows for the corpora of ``figs`` this run leaves out: the UCI bag-of-words
    re-releases of NYTimes and PubMed stand in for the thesis's own corpora
    (``substitute``)."""
    used = {getattr(ctx.settings.curves, f) for f in CURVE_FIGS} | set(
        ctx.settings.curves.extra_datasets
    )
    names = sorted({DOC_CORPORA[f] for f in figs} - used)
    return [
        NotRun(
            f"public ({n}, download target, not in the mirror) but not in this run; "
            "config/paper.yaml runs it (scvb0.curves); the UCI bag-of-words re-release "
            "stands in for the thesis's corpus (substitute)",
            dataset=n,
            data_kind="substitute",
        )
        for n in names
    ]


def _svbs(ctx):
    return [m for m in method_names(ctx.settings) if m != "SCVB0"]


def _by_seed(df):
    return df.groupby("seed") if "seed" in df else [(0, df)]


def _ll_interp(s, t: float) -> float:
    """Held-out LL of one curve at training time t, linear in log time between
    checkpoints; NaN before the first checkpoint (the curve does not exist yet)."""
    x = np.log(s.train_seconds.to_numpy())
    if t < s.train_seconds.iloc[0] or t <= 0:
        return float("nan")
    return float(np.interp(np.log(t), x, s.heldout_ll.to_numpy()))


def _gap_at(g, svbs, t: float) -> float:
    """SCVB0 minus the best SVB at time t (one seed's curves)."""
    cur = {m: s.sort_values("train_seconds") for m, s in g.groupby("method")}
    return _ll_interp(cur["SCVB0"], t) - max(_ll_interp(cur[m], t) for m in svbs)


def _common_time(g) -> tuple[float, float]:
    """The time range every method's curve covers: (latest first, earliest last point)."""
    by = g.groupby("method").train_seconds
    return float(by.min().max()), float(by.max().min())


def _early_time(g, f: float) -> tuple[float, bool]:
    """When C4.4 judges one seed's curves: at ``f`` x the common training time, or, when
    some curve has no point yet then (a run on a small corpus is that short), at the
    first time every curve exists; the flag says the time was moved."""
    start, end = _common_time(g)
    return max(f * end, start), bool(start > f * end)


def _spread(vals) -> str:
    v = np.asarray(vals, float)
    per = ", ".join(f"{x:.3g}" for x in v)
    if len(v) == 1:
        return f"1 seed ({per}): no spread"
    return f"{len(v)} seeds: {per} (mean {v.mean():.3g}, sd {v.std(ddof=1):.2g})"


@STUDY.claim("C4.4")
def _(ctx):
    f = ctx.settings.claims.early_fraction
    rows = []
    for where, ds, key in _curve_datasets(ctx):
        gaps, ts = [], []
        late = 0
        for _, g in _by_seed(ctx.csv(key)):
            t, moved = _early_time(g, f)
            late += moved
            ts.append(t)
            gaps.append(_gap_at(g, _svbs(ctx), t))
        when = f"at {f:g} x common training time (t = {np.mean(ts):.3g} s)"
        if late:
            when += f"; in {late} seed(s) at the first time every curve has a point (later)"
        rows.append(
            Measured(
                gaps,  # one replicate per seed (issue 38)
                dataset=ds,
                data_kind=data_kind(ctx.settings.datasets, ds),
                where=where,
                note=f"{when}; " + _spread(gaps),
            )
        )
    return rows + _doc_not_run(ctx)


@STUDY.claim("C4.4b")
def _(ctx):
    n = ctx.settings.claims.throughout_points
    rows = []
    for where, ds, key in _curve_datasets(ctx, ("fig4_4", "fig4_5"), extras=False):
        worst = []
        for _, g in _by_seed(ctx.csv(key)):
            lo, hi = _common_time(g)
            worst.append(min(_gap_at(g, _svbs(ctx), t) for t in np.geomspace(lo, hi, n)))
        rows.append(
            Measured(
                worst,  # one replicate per seed (issue 38)
                dataset=ds,
                data_kind=data_kind(ctx.settings.datasets, ds),
                where=where,
                note=f"worst gap over {n} log-spaced times of the common range, per seed: "
                + _spread(worst),
            )
        )
    return rows + _doc_not_run(ctx, ("fig4_4", "fig4_5"))


def _final_gaps(ctx, key) -> list[float]:
    out = []
    for _, g in _by_seed(ctx.csv(key)):
        last = g.sort_values("docs_seen").groupby("method").heldout_ll.last()
        out.append(float(last["SCVB0"] - max(last[m] for m in _svbs(ctx))))
    return out


def _final_rows(ctx, figs, extras, docs):
    """One row per dataset: the final gap SCVB0 minus the best SVB, one replicate per seed."""
    rows = []
    for where, ds, key in _curve_datasets(ctx, figs, extras=extras):
        gaps = _final_gaps(ctx, key)
        rows.append(
            Measured(
                gaps,
                dataset=ds,
                data_kind=data_kind(ctx.settings.datasets, ds),
                where=where,
                note=_spread(gaps),
            )
        )
    return rows + _doc_not_run(ctx, docs)


@STUDY.claim("C4.6")
def _(ctx):
    """Superiority on the NYT / Wikipedia figures (4.4, 4.5) only."""
    figs = ("fig4_4", "fig4_5")
    return _final_rows(ctx, figs, False, figs)


def early_gap(curves: pd.DataFrame, svbs: list[str]) -> float:
    """Fig 4.3's other half ("before that SCVB0 is better"): the largest seed-mean gap
    SCVB0 minus best SVB over the first half of the checkpoints (by documents seen)."""
    per = []
    for _, g in _by_seed(curves):
        p = g.pivot_table(index="docs_seen", columns="method", values="heldout_ll")
        per.append(p["SCVB0"] - p[svbs].max(axis=1))
    gap = pd.concat(per, axis=1).mean(axis=1).sort_index()
    return float(gap.iloc[: max(1, len(gap) // 2)].max())


def similar_rule(early: float, cap: float) -> tuple[float, list[float] | None, str]:
    """Tolerance of "similar at the end": at most half the early SCVB0 advantage the same
    figure shows (capped at ``cap``), and the rule must refuse that early gap. Without an
    early advantage there is no contrast: ``cap`` and no rejected value."""
    if not early > 0:
        return cap, None, f"tolerance {cap:g} (ours): SCVB0 is not ahead early ({early:+.3g})"
    return (min(cap, 0.5 * early), [early],
            f"tolerance min({cap:g}, half the early SCVB0 advantage {early:.3g})")  # fmt: skip


@STUDY.claim("C4.6-similar")
def _(ctx):
    """Similarity on the Fig 4.3 corpora (PubMed's stand-ins): the gap at the end, per seed,
    within half the early gap of the same curves."""
    rows = _final_rows(ctx, ("fig4_3",), True, ("fig4_3",))
    keys = {ds: key for _, ds, key in _curve_datasets(ctx, ("fig4_3",), extras=True)}
    for r in rows:
        if isinstance(r, Measured) and r.dataset in keys:
            early = early_gap(ctx.csv(keys[r.dataset]), _svbs(ctx))
            r.tolerance, r.reject, why = similar_rule(early, ctx.settings.claims.similar_ll_tol)
            sd = float(np.std(r.value, ddof=1)) if len(r.value) > 1 else 0.0
            r.tolerance, raised = noise_floor(r.tolerance, sd, "the seeds' sd")
            if raised:
                why += f"; {raised}"
                if r.reject and any(abs(x) <= r.tolerance for x in r.reject):
                    r.reject = None
                    why += ", which no longer refuses the early gap"
            r.note = f"{r.note}; {why}"
    return rows


@STUDY.claim("C4.6b")
def _(ctx):
    c, dsets = ctx.settings.curves, ctx.settings.datasets
    small, large = dsets[c.fig4_4], dsets[c.fig4_5]
    if not (small.kind == large.kind == "synthetic" and (large.D or 0) > (small.D or 0)):
        return NotRun(
            f"Figs 4.4/4.5 use {c.fig4_4} and {c.fig4_5}, not two synthetic corpora of "
            "growing size; config/real.yaml compares synth_50k with synth_200k"
        )
    differ = [f"{k} {getattr(small, k)} vs {getattr(large, k)}" for k in ("doc_len", "W", "K")
              if getattr(small, k) != getattr(large, k)]  # fmt: skip
    if differ:
        return NotRun(
            f"{c.fig4_4} and {c.fig4_5} differ in more than size ({', '.join(differ)}): a "
            "corpus-size effect needs them equal in document length, vocabulary and K "
            "(config/real.yaml: synth_50k and synth_200k with doc_len 100)",
            dataset=f"{c.fig4_4} vs {c.fig4_5}",
            data_kind="synthetic",
        )
    gs, gl = _final_gaps(ctx, "curves_fig4_4"), _final_gaps(ctx, "curves_fig4_5")
    return Measured(
        [b - a for a, b in zip(gs, gl, strict=True)],  # paired by seed (issue 38)
        dataset=f"{c.fig4_4} (D={small.D}) vs {c.fig4_5} (D={large.D})",
        note=f"final gaps {c.fig4_4}: {_spread(gs)}; {c.fig4_5}: {_spread(gl)}",
    )


@STUDY.claim("C4.5")
def _(ctx):
    df = ctx.csv("curves_fig4_6")
    ds = ctx.settings.curves.fig4_6
    gaps = []  # one replicate per seed (issue 38)
    for _, g in _by_seed(df):
        piv = g.pivot_table(index="docs_seen", columns="method", values="heldout_ll")
        late = piv.iloc[len(piv) // 2 :]
        gaps.append(float(max((late["SCVB0"] - late[m]).abs().mean() for m in _svbs(ctx))))
    return Measured(gaps, dataset=ds, data_kind=data_kind(ctx.settings.datasets, ds),
                    note=_spread(gaps))  # fmt: skip


def _fig4_7(ctx):
    f7 = ctx.csv("fig4_7")
    ds = ctx.settings.fig4_7.dataset
    sc = f7[f7.method.str.startswith("SCVB0")]
    vbs = [m for m in f7.method.unique() if m.startswith("batch VB")]
    return f7, sc, vbs, dict(dataset=ds, data_kind=data_kind(ctx.settings.datasets, ds))


@STUDY.claim("C4.7")
def _(ctx):
    f7, sc, vbs, where = _fig4_7(ctx)
    best_vb = max(f7[f7.method == m].heldout_ll.max() for m in vbs)
    return Measured(float(sc.heldout_ll.iloc[-1] - best_vb), **where)


@STUDY.claim("C4.7b")
def _(ctx):
    f7, sc, vbs, where = _fig4_7(ctx)

    def t_conv(s):
        ll = s.heldout_ll.to_numpy()
        tgt = ll[0] + 0.95 * (ll.max() - ll[0])
        return float(s.train_seconds.to_numpy()[np.argmax(ll >= tgt)])

    smallest = min(vbs, key=lambda m: int(f7[f7.method == m].N.iloc[0]))
    return Sides(
        [t_conv(f7[f7.method == smallest])],
        [t_conv(sc)],
        labels=(smallest, "SCVB0"),
        note="one run",
        **where,
    )


# ------------------------------------------------------------------ Tables 4.4 / 4.5
def _runs(ctx, table):
    g = ctx.csv(f"{table}_runs").groupby("method").mean(numeric_only=True)
    sv = [m for m in g.index if m != "SCVB0"][0]
    ds = getattr(ctx.settings, table).dataset
    return g, sv, dict(dataset=ds, data_kind=data_kind(ctx.settings.datasets, ds))


@STUDY.claim("C4.8")
def _(ctx):
    g, sv, where = _runs(ctx, "table4_4")
    q = ctx.settings.table4_4
    ratio = float(g.loc["SCVB0", "docs_processed"] / g.loc[sv, "docs_processed"])
    rows = [Measured(ratio, note=f"{q.seconds} s budget, K={q.K}, vs {sv}", **where)]
    if q.dataset != "uci_nips":
        rows.append(
            NotRun(
                "public (uci_nips, download target, not in the mirror) but not in this run; "
                "config/paper.yaml runs it (scvb0.table4_4.dataset: uci_nips)",
                dataset="uci_nips",
            )
        )
    return rows


def _coherence_gap(ctx, table):
    """The proxy is shown, not judged: an automatic measure standing in for a human study
    stays out of the reproduced count (a not_testable row with our number in its reason)."""
    g, sv, where = _runs(ctx, table)
    gap = float(g.loc["SCVB0", "umass_mean"] - g.loc[sv, "umass_mean"])
    return NotTestable(
        f"the thesis's measure is a human intruder-word study; our automatic proxy (mean "
        f"UMass coherence, SCVB0 minus {sv}) is {gap:.4g} on {where['dataset']} "
        f"({where['data_kind']}), shown for information and not judged",
        dataset=where["dataset"],
    )


@STUDY.claim("C4.9-proxy-4_4")
def _(ctx):
    return _coherence_gap(ctx, "table4_4")


@STUDY.claim("C4.9-proxy-4_5")
def _(ctx):
    return _coherence_gap(ctx, "table4_5")


# ------------------------------------------------------------------ exact checks
def _toy(*args):
    from latentlab.data.synthetic import lda_corpus_vectorised

    return lda_corpus_vectorised(*args)[0]


def _em_setup(seed: int):
    """Toy corpus, shuffled token stream and random statistics of C4.10; the generator
    goes on to draw C4.12's statistics."""
    c = _toy(6, 8, 3, 6, 0.5, 0.5, seed)
    K, W = 3, c.n_vocab
    ptr, w = c.to_tokens()
    dids = np.repeat(np.arange(c.n_docs), np.diff(ptr))
    rng = np.random.default_rng(seed)
    perm = rng.permutation(len(w))
    dids, wids = dids[perm].astype(np.int64), w[perm]
    doclen = c.doc_lengths().astype(float)
    nphi0 = float(c.n_tokens) * rng.dirichlet(np.ones(W * K)).reshape(W, K)
    nth0 = doclen[:, None] * rng.dirichlet(np.ones(K), size=c.n_docs)
    return c, K, W, dids, wids, doclen, nphi0, nth0, rng


@STUDY.claim("C4.10")
def _(ctx):
    """Re-run the exact check of the test-suite: SCVB0's token stream vs online EM."""
    from latentlab.models.lda import StepSize, kernels, reference

    c, K, W, dids, wids, doclen, nphi0, nth0, _ = _em_setup(ctx.seed())
    C = float(c.n_tokens)
    sch = StepSize(1.0, 10.0, 0.9)
    rho = sch(np.arange(1, len(wids) + 1))
    nth, nphi, nz = nth0.copy(), nphi0.copy(), nphi0.sum(0)
    kernels.scvb0_token_stream(
        dids, wids, doclen, nth, nphi, nz, np.full(K, 0.1), 0.01, W * 0.01, C, rho,
        sch.s, sch.tau, sch.kappa, np.zeros(c.n_docs, dtype=np.int64),
    )  # fmt: skip
    em = reference.online_em_map_lda_u(
        dids, wids, doclen, nth0, nphi0, nphi0.sum(0), 1.1, 1.01, C, rho, sch
    )
    return max(float(np.max(np.abs(a - b))) for a, b in zip((nth, nphi, nz), em, strict=True))


def _big(ctx):
    return _toy(60, 40, 4, 30, 0.3, 0.1, ctx.seed(1))


@STUDY.claim("C4.11")
def _(ctx):
    from latentlab.models.lda import SCVB0

    big = _big(ctx)
    m = SCVB0(4, minibatch=7, seed=ctx.seed()).fit(big, n_iter=3)
    min_stat = float(min(m.n_phi.min(), m.n_z.min()))
    rel = float(abs(m.n_phi.sum() - big.n_tokens) / big.n_tokens)
    return Measured(rel if min_stat >= 0 else np.inf, note=f"min statistic {min_stat:.3g}")


@STUDY.claim("C4.12")
def _(ctx):
    from latentlab.models.lda import reference

    rng = _em_setup(ctx.seed())[-1]
    errs = []
    for mm in (2, 5, 17):
        nt = 30 * rng.dirichlet(np.ones(5))
        g = rng.dirichlet(np.ones(5))
        rep = nt.copy()
        for _ in range(mm):
            rep = reference.theta_update(rep, g, 30.0, 0.137)
        errs.append(np.max(np.abs(reference.theta_update_clumped(nt, g, 30.0, 0.137, mm) - rep)))
    return float(max(errs))


@STUDY.claim("C4.13")
def _(ctx):
    from latentlab.models.lda import MapLdaU

    mp = MapLdaU(4, alpha=1.1, beta=1.01, seed=ctx.seed()).initialize(_big(ctx))
    obj = [mp.objective()]
    for _ in range(50):
        mp.step()
        obj.append(mp.objective())
    return float(np.min(np.diff(obj)) / abs(obj[-1]))


# ------------------------------------------------------------------ demos
@STUDY.claim("F4.1")
def _(ctx):
    return float(ctx.csv("fig4_1").w.iloc[-1])


@STUDY.claim("F4.2")
def _(ctx):
    return float(ctx.csv("fig4_2").w.iloc[-1])


from .causes import CAUSES  # noqa: E402

STUDY.causes(CAUSES)
