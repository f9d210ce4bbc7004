"""The ais_eval ledger rules (issues 21, 38): each passes on the document's own numbers, fails
on ties, swapped sides or a negated effect, and knows its noise (a bootstrap over the test
documents; Fig 5.6's importance samples; Fig 5.11's windows before the optimisation): a clear
effect is reproduced, a reversal not_reproduced, a difference inside the noise inconclusive."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from latentlab.claims.ledger import decide_order, decide_value, judge, judge_order
from latentlab.studies.ais_eval.claims import (
    PAPER,
    RATIO,
    DocStats,
    IterStats,
    Sample,
    agreement_row,
    bias_sides,
    boot_weights,
    corpus_ratio_sides,
    correlation_sides,
    dip_rank_sides,
    dip_sides,
    direction_sides,
    forward_no_advantage,
    jump_ratio,
    late_gap,
    late_variance_sides,
    ntemps_gaps,
    path_variance_sides,
    pct_sides,
    similar_bound,
    variance_gain,
    variance_sides,
)
from latentlab.studies.ais_eval.runs import METHODS
from latentlab.studies.ais_eval.tables import corpus_ratio, doc_variance, pct_prefer

SCENARIOS = [("nips", "cheap"), ("nips", "expensive"), ("acl", "cheap"), ("acl", "expensive")]


# ------------------------------------------------------------------ constructed raw results
def raw_frame(per_method: dict, N: int = 100, regime: str = "cheap") -> pd.DataFrame:
    """Raw rows of one regime from per-method perplexity ratios, (docs, runs) each."""
    parts = []
    for m, pr in per_method.items():
        pr = np.atleast_2d(np.asarray(pr, dtype=float))
        doc, run = np.indices(pr.shape)
        parts.append(pd.DataFrame(dict(regime=regime, doc=doc.ravel(), N=N, run=run.ravel(),
                                       method=m, perp_ratio=pr.ravel(),
                                       logratio=-N * np.log(pr.ravel()))))  # fmt: skip
    return pd.concat(parts, ignore_index=True)


def pct_arrays(pcts, D=1000, runs=2, seed=0) -> dict:
    """Per method, a (D, runs) perplexity ratio below 1 on exactly pct % of the documents
    (a method-specific set of documents), the same in every run."""
    rng = np.random.default_rng(seed)
    out = {}
    for m, p in zip(METHODS, pcts, strict=True):
        pref = np.zeros(D, bool)
        pref[rng.permutation(D)[: int(round(p * D / 100))]] = True
        out[m] = np.repeat(np.where(pref, 0.99, 1.01)[:, None], runs, axis=1)
    return out


def var_arrays(variances, D=400, centre=0.99) -> dict:
    """Per method, two runs per document whose sample variance is the given one exactly."""
    return {m: np.stack([np.full(D, centre + np.sqrt(v / 2)), np.full(D, centre - np.sqrt(v / 2))],
                        axis=1) for m, v in zip(METHODS, variances, strict=True)}  # fmt: skip


def ratio_arrays(ratios, D=200, N=100, jitter=0.01, seed=0) -> dict:
    """Per method, two runs per document whose corpus ratio is the given one, each document
    moved by a zero-mean pattern of +-``jitter`` nats."""
    rng = np.random.default_rng(seed)
    out = {}
    for m, c in zip(METHODS, ratios, strict=True):
        lr = -N * np.log(c) + jitter * rng.standard_normal((D, 2))
        lr -= lr.mean() - (-N * np.log(c))
        out[m] = np.exp(-lr / N)
    return out


def sample_of(cheap: dict, expensive: dict | None = None, N=100, seed=1, ref=None) -> Sample:
    df = pd.concat([raw_frame(cheap, N, "cheap"), raw_frame(expensive or cheap, N, "expensive")])
    if ref is not None:
        df = pd.concat([df, pd.DataFrame(dict(regime="lr_long", doc=np.arange(len(ref)), N=N,
                                              run=0, method="lr", perp_ratio=ref,
                                              logratio=-N * np.log(ref)))])  # fmt: skip
    return Sample(df, seed)


def verdict(s) -> str:
    """The ledger's decision on a row (Sides or Measured with a value rule)."""
    if hasattr(s, "a"):
        return decide_order(s.a, s.b, _dir(s), s.margin, s.test, s.noise).verdict
    raise TypeError(s)


def _dir(s) -> str:
    return s.direction if hasattr(s, "direction") else ">"


def order(s, direction) -> str:
    return decide_order(s.a, s.b, direction, s.margin, s.test, s.noise).verdict


# ------------------------------------------------------------------ the tables' statistics
def test_doc_stats_are_the_tables_numbers():
    """At unit weights the per-document aggregates give Tables 5.1-5.3's own numbers."""
    rng = np.random.default_rng(3)
    arrays = {m: np.exp(rng.normal(0, 0.02, (30, 2))) for m in METHODS}
    g = raw_frame(arrays)
    st, ones = DocStats(g), np.ones(30)
    for fn, ours in ((pct_prefer, st.pct(ones)), (doc_variance, st.variance(ones)),
                     (corpus_ratio, st.ratio(ones))):  # fmt: skip
        ref = fn(g)
        for m in METHODS:
            assert float(ours[m]) == pytest.approx(float(ref[m]), rel=1e-12)


def test_bootstrap_weights_resample_the_documents():
    w = boot_weights(7, 50, seed=2)
    assert w.shape == (50, 7) and (w.sum(axis=1) == 7).all() and (w >= 0).all()
    np.testing.assert_array_equal(w, boot_weights(7, 50, seed=2))
    assert not np.array_equal(w, boot_weights(7, 50, seed=3))


def test_variance_gain_on_the_documents_table_5_3():
    for key in SCENARIOS:
        gain = variance_gain(dict(zip(METHODS, PAPER["t53v"][key], strict=True)))
        assert 10 <= gain <= 13.3
    # published KOS cheap (ours): the ordering holds but the gain is 1.4x, not 10x
    ours = dict(zip(METHODS, [3.4e-4, 5.4e-3, 1.5e-4, 2.5e-4, 1.3e-4, 1.5e-4], strict=True))
    assert variance_gain(ours) == pytest.approx(3.4e-4 / 2.5e-4)


# ------------------------------------------------------------------ Table 5.1
def test_percentage_order_passes_on_the_document_and_knows_its_noise():
    for role, regime in SCENARIOS:
        doc = PAPER["t51"][(role, regime)]
        s = pct_sides(role, regime, sample_of(pct_arrays(doc), pct_arrays(doc)))
        assert judge_order(s.paper_a, s.paper_b, ">", s.margin)[0] == "reproduced"
        assert s.a[0] == pytest.approx(min(doc[2:]), abs=0.05)  # the binding pair
        # 1000 documents: the bootstrap sd of a % difference is ~1-2 points
        assert 0.3 < s.noise.sd < 3
        if (role, regime) != ("nips", "expensive"):  # margin 1.15 on a 2.3 gap: in the noise
            assert verdict(s) == "reproduced", (role, regime)
    doc = PAPER["t51"][("nips", "expensive")]
    s = pct_sides("nips", "expensive", sample_of(pct_arrays(doc)))
    assert s.margin == pytest.approx((86.9 - 84.6) / 2) and verdict(s) == "inconclusive"
    # a tie with Std AIS (published Cora expensive: 62.5 vs 62.5) fails beyond the noise
    tie = [66.9, 62.5, 62.5, 63.7, 63.1, 62.5]
    s = pct_sides("acl", "expensive", sample_of(pct_arrays(tie), pct_arrays(tie)))
    assert verdict(s) == "not_reproduced"
    # LR above every ratio-AIS path (published KOS expensive) fails
    s = pct_sides("nips", "expensive", sample_of(pct_arrays([68.8, 51.2, 63.7, 63.1, 63.7, 62.5])))
    assert verdict(s) == "not_reproduced"


def test_similar_to_lr_is_half_the_documents_smallest_lead():
    """T5.1-exp-lr: 'similar' is under half the 2.3-point lead (NIPS expensive); the
    document's 0.4 passes, that lead and LR's distance to Std AIS fail; our 3.9 fails as a
    point and is inconclusive when its spread is 2 points."""
    lead, bound = similar_bound()
    assert (lead, bound) == pytest.approx((86.9 - 84.6, (86.9 - 84.6) / 2))
    tol = bound - 0.4
    assert judge(0.4, 0.4, "le", tol)[0] == "reproduced"
    assert judge(0.4, lead, "le", tol)[0] == judge(0.4, 15.5, "le", tol)[0] == "not_reproduced"
    assert judge(0.4, 3.9, "le", tol)[0] == "not_reproduced"
    from latentlab.claims.noise import Noise

    assert decide_value(0.4, 3.9, "le", tol, noise_=Noise(2.0, 400, "x")).verdict == "inconclusive"
    assert decide_value(0.4, 0.2, "le", tol, noise_=Noise(0.3, 400, "x")).verdict == "reproduced"


# ------------------------------------------------------------------ Table 5.2 / 5.3 ratios
def test_corpus_ratio_and_direction_orders_pass_on_the_document():
    for role, regime in SCENARIOS:
        doc = PAPER["t52r"][(role, regime)]
        if doc is not None:  # Table 5.2 bottom, ACL expensive: missing in the text
            s = corpus_ratio_sides(role, regime, sample_of(ratio_arrays(doc)))
            assert order(s, "<") == "reproduced", (role, regime)
            assert judge_order(s.paper_a, s.paper_b, "<", s.margin)[0] == "reproduced"
            flat = sample_of(ratio_arrays([doc[0]] * 6))  # every method equal
            assert order(corpus_ratio_sides(role, regime, flat), "<") == "not_reproduced"
        doc = PAPER["t53r"][(role, regime)]
        s = direction_sides(role, regime, sample_of(ratio_arrays(doc)))
        assert order(s, ">") == "reproduced", (role, regime)
        s = direction_sides(role, regime, sample_of(ratio_arrays([doc[2]] * 6)))
        assert order(s, ">") == "not_reproduced"
    # the same document rows, each document moved by 1 nat: the gaps drown in the noise
    doc = PAPER["t53r"][("nips", "expensive")]
    s = direction_sides("nips", "expensive", sample_of(ratio_arrays(doc, D=20, jitter=1.0)))
    assert order(s, ">") == "inconclusive"


def test_bias_and_agreement_rows():
    """C5.4a: the document's cheap rows (forward above reverse) pass, forward = reverse
    fails; C5.4b: its expensive rows (0.9897 in all four) pass, its cheap ones fail."""
    for role in ("nips", "acl"):
        cheap = PAPER["t52r"][(role, "cheap")]
        s = bias_sides(role, sample_of(ratio_arrays(cheap)))
        assert order(s, ">") == "reproduced"
        same = list(cheap)
        same[METHODS.index("geo_rev")] = same[METHODS.index("geo")]
        assert order(bias_sides(role, sample_of(ratio_arrays(same))), ">") == "not_reproduced"
        exp = [0.991, 0.993, 0.9897, 0.9897, 0.9897, 0.9897]
        m = agreement_row(role, sample_of(ratio_arrays(cheap), ratio_arrays(exp)))
        assert decide_value(0.0, m.value, "le", m.tolerance, noise_=m.noise).verdict == "reproduced"
        assert all(judge(0.0, r, "le", m.tolerance)[0] == "not_reproduced" for r in m.reject)
        m = agreement_row(role, sample_of(ratio_arrays(cheap), ratio_arrays(cheap)))
        v = decide_value(0.0, m.value, "le", m.tolerance, noise_=m.noise).verdict
        assert v == "not_reproduced"


def test_forward_no_advantage_passes_on_table_5_3_and_refuses_the_reverse():
    """C5.7d: the document's cheap rows (forward 1.01 / 1.00) pass; a forward direction that
    detects the reverse direction's advantage fails; the tolerance is half of 1 - 0.994
    (NIPS), so the rule refuses every ratio the document's other estimators gave."""
    for role in ("nips", "acl"):
        doc = PAPER["t53r"][(role, "cheap")]
        m = forward_no_advantage(role, sample_of(ratio_arrays(doc)))
        assert decide_value(1.0, m.value, "ge", m.tolerance, noise_=m.noise).verdict == (
            "reproduced"
        )
        assert all(judge(1.0, r, "ge", m.tolerance)[0] == "not_reproduced" for r in m.reject)
        rev = list(doc)
        rev[METHODS.index("geo")], rev[METHODS.index("convex")] = doc[3], doc[5]
        m = forward_no_advantage(role, sample_of(ratio_arrays(rev)))
        assert decide_value(1.0, m.value, "ge", m.tolerance, noise_=m.noise).verdict == (
            "not_reproduced"
        )
    m = forward_no_advantage("nips", sample_of(ratio_arrays(PAPER["t53r"][("nips", "cheap")])))
    assert m.tolerance == pytest.approx((1 - 0.994) / 2)


# ------------------------------------------------------------------ variances, correlations
@pytest.mark.parametrize("role", ["nips", "acl"])
def test_path_variance_orders_pass_on_the_documents_tables(role):
    """T5.2v-geo (Table 5.2 top, geometric below convex) and T5.3v-convex (Table 5.3 top,
    convex below geometric): the document's rows pass; the paths' columns swapped fail."""
    for table, low, high in (("t52v", "geo", "convex"), ("t53v", "convex", "geo")):
        rows = {r: PAPER[table][(role, r)] for r in ("cheap", "expensive")}
        s = path_variance_sides(
            role,
            sample_of(var_arrays(rows["cheap"]), var_arrays(rows["expensive"])),
            table,
            low,
            high,
        )
        assert order(s, "<") == "reproduced"
        assert judge_order(s.paper_a, s.paper_b, "<", s.margin)[0] == "reproduced"
        swap = {r: [v[0], v[1], v[4], v[5], v[2], v[3]] for r, v in rows.items()}
        s = path_variance_sides(
            role,
            sample_of(var_arrays(swap["cheap"]), var_arrays(swap["expensive"])),
            table,
            low,
            high,
        )
        assert order(s, "<") == "not_reproduced"


def test_correlation_orders_pass_on_the_document():
    rng = np.random.default_rng(5)
    D = 2000
    ref = np.exp(rng.normal(0, 0.01, D))

    def corr_arrays(cs):
        out = {}
        for m, c in zip(METHODS, cs, strict=True):
            s = np.std(ref) * np.sqrt(1 / c**2 - 1)
            x = ref + s * rng.standard_normal(D)
            out[m] = np.stack([x, x], axis=1)
        return out

    for role, regime in SCENARIOS:
        doc = PAPER["t53c"][(role, regime)]
        arr = corr_arrays(doc)
        s = correlation_sides(role, regime, sample_of(arr, arr, ref=ref))
        assert order(s, ">") == "reproduced", (role, regime)
    # expensive: LR tied with the best ratio-AIS path fails (the document: LR above)
    doc = list(PAPER["t53c"][("nips", "expensive")])
    doc[0] = max(doc[2:])
    arr = corr_arrays(doc)
    s = correlation_sides("nips", "expensive", sample_of(arr, arr, ref=ref))
    assert order(s, ">") != "reproduced"


# ------------------------------------------------------------------ Figs 5.7-5.10
def _iteration_frame(var_early, var_late, dip_n, dip_10n, iters=(10, 20, 30, 40), docs=6,
                     it_ais_level=0.0):  # fmt: skip
    """Per-iteration log likelihoods, 2 runs x ``docs`` docs, for the three methods at
    n = 10 and 100: run-to-run variance ``var_early`` / ``var_late`` in the first / second
    half of the snapshots; the baselines' mean curve rises then falls by ``dip_n`` (n) and
    ``dip_10n`` (10n) at the last snapshot, iteration-AIS keeps rising (shifted by
    ``it_ais_level``); each document's level moved by a fixed pattern."""
    rows = []
    for m in ("iteration_ais", "std_ais", "lr"):
        for n, dip in ((10, dip_n), (100, dip_10n)):
            for i, it in enumerate(iters):
                level = -100.0 + i - (dip + 1.0 if m != "iteration_ais" and i == len(iters) - 1
                                      else 0.0)  # fmt: skip
                level += it_ais_level if m == "iteration_ais" else 0.0
                sd = np.sqrt(2 * (var_early if it <= iters[-1] / 2 else var_late)) / 2
                for doc in range(docs):
                    for run, sign in ((0, 1), (1, -1)):
                        ll = level + 0.01 * doc + sign * sd
                        rows.append(dict(iteration=it, doc=doc, N=50, n_temps=n, run=run,
                                         method=m, loglik=ll))  # fmt: skip
    return pd.DataFrame(rows)


def test_late_variance_and_dip_orders():
    """C5.8c passes when every method's variance grows over the snapshots and fails when it
    shrinks; C5.9b passes when the baselines' dip shrinks with 10n and fails when it grows;
    C5.9 passes when only the baselines dip."""
    ok = IterStats(_iteration_frame(var_early=0.1, var_late=1.0, dip_n=2.0, dip_10n=0.5), 1)
    bad = IterStats(_iteration_frame(var_early=1.0, var_late=0.1, dip_n=0.5, dip_10n=2.0), 1)
    s = late_variance_sides(ok)
    assert s.a == pytest.approx([0.0], abs=1e-9) and s.b == pytest.approx([-1.0])  # log10 1, 0.1
    assert order(s, ">") == "reproduced"
    assert order(late_variance_sides(bad), ">") == "not_reproduced"
    s = dip_sides(ok)
    assert s.a == pytest.approx([0.5]) and s.b == pytest.approx([2.0])
    assert order(s, "<") == "reproduced"
    assert order(dip_sides(bad), "<") == "not_reproduced"
    assert order(dip_rank_sides(ok), "<") == "reproduced"  # iteration-AIS does not dip


def test_iteration_variance_and_late_gap():
    """C5.8b: iteration-AIS with a tenth of the baselines' run-to-run variance passes, with
    ten times fails; C5.8a: the late-half gap is the level difference."""
    f = _iteration_frame(1.0, 1.0, 0.0, 0.0)
    low = f.copy()
    it = low.method == "iteration_ais"
    mean = low[it].groupby(["method", "n_temps", "iteration", "doc"]).loglik.transform("mean")
    low.loc[it, "loglik"] = mean + (low.loc[it, "loglik"] - mean) * np.sqrt(0.1)
    assert order(variance_sides(IterStats(low, 1)), "<") == "reproduced"
    high = f.copy()
    high.loc[it, "loglik"] = mean + (high.loc[it, "loglik"] - mean) * np.sqrt(10)
    assert order(variance_sides(IterStats(high, 1)), "<") == "not_reproduced"
    st = IterStats(_iteration_frame(1.0, 1.0, 0.0, 0.0, it_ais_level=2.0), 1)
    # late half: iterations 30, 40; the baselines' last snapshot 1 lower: gaps 2, 3
    assert late_gap(st)(st.ones) == pytest.approx(2.5)
    assert late_gap(st)(st.W).std() < 1e-9  # every document has the same gap


# ------------------------------------------------------------------ Fig 5.6, Fig 5.11
def _ntemps_frame(gap_low, sd, S=20, spread_hi=0.05, effect=1.0):
    rows = []
    for n, gap in ((10, gap_low), (1000, 0.0)):
        base = -effect
        means = {"geo": base, "geo_rev": base, "std_ais": base - gap}
        if n == 1000:
            means = {"geo": base, "geo_rev": base + spread_hi, "std_ais": base}
        rows += [dict(n_temps=n, method=m, mean=v, sd=sd, S=S, doc=0, N=100)
                 for m, v in means.items()]  # fmt: skip
    return pd.DataFrame(rows)


def test_fig_5_6_rows_take_the_importance_samples_noise():
    """C5.5b at the document's S and n (issue 38): a spread inside the tolerance whose 2 SE
    is 5x the tolerance is inconclusive, not a miss; with a small SE it is reproduced."""
    t, effect = ntemps_gaps(_ntemps_frame(0.5, sd=2.5, S=100, spread_hi=0.05))
    hi = t.iloc[-1]
    tol = 0.1 * effect
    assert hi.spread == pytest.approx(0.05) and effect == pytest.approx(0.975)  # mean of both
    assert 2 * hi.spread_se == pytest.approx(2 * np.sqrt(3 * 2.5**2 / 100))
    from latentlab.claims.noise import Noise

    nz = Noise(float(hi.spread_se), 100, "Fig 5.6")
    assert 2 * hi.spread_se > 5 * tol
    assert decide_value(0.0, hi.spread, "le", tol, noise_=nz).verdict == "inconclusive"
    small = Noise(0.01, 100, "Fig 5.6")
    assert decide_value(0.0, hi.spread, "le", tol, noise_=small).verdict == "reproduced"
    t, _ = ntemps_gaps(_ntemps_frame(0.5, sd=0.1))
    low = t.iloc[0]
    assert low.gap == pytest.approx(0.5) and low.ratio - low.std_ais == pytest.approx(0.5)


def test_jump_ratio_sees_a_move_after_the_optimisation_only():
    it = np.arange(1, 401)
    rng = np.random.default_rng(1)
    flat = 100 + np.cumsum(rng.normal(0, 0.05, it.size))
    jump = flat + np.where(it > 300, np.minimum(it - 300, 10) * 0.3, 0.0)
    st = pd.DataFrame({"iteration": it, "x": flat})
    j = jump_ratio(st, "x", 300)
    assert j["ratio"] < 5 and j["n_before"] == 41 and 0 < j["null_sd"] < 2
    st["x"] = jump
    j = jump_ratio(st, "x", 300)
    assert j["ratio"] > 5
    from latentlab.claims.noise import Noise

    nz = Noise(j["null_sd"], j["n_before"], "before")
    assert decide_value(5.0, j["ratio"], "ge", 0.0, noise_=nz).verdict == "reproduced"


def test_ratio_paths_are_the_documents_columns():
    assert RATIO == ("geo", "geo_rev", "convex", "convex_rev")
