"""Every drift row carries its replicates and can go both ways (issue 38): on constructed run
outputs where each claim holds (or fails) in every replicate, every judged row is reproduced
(or not_reproduced) and ``claims prove`` finds each row's counter-example within its noise
or reports it robust; no row is a bare boolean, a legacy rule or a refused tolerance."""

from __future__ import annotations

import json
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import yaml

from latentlab.claims import prove as pv
from latentlab.claims.spec import evaluate_claims
from latentlab.studies.drift import claims as C
from latentlab.studies.drift.study import STUDY, ClaimsSettings, ClaimTolerances
from latentlab.studies.shape import StepContext

SPECS = {c.id: c for c in C.CLAIMS}
# the claims judged from the DRIFT / LFRM fits and the synthetic text fits (C2.11 needs the
# Enron subject lines, C2.12 is not testable)
LISTED = ["C2.1", "C2.2", "C2.14", "C2.3", "C2.4", "C2.4-tie", "C2.5", "C2.6", "C2.7", "C2.13",
          "C2.8", "C2.9", "C2.9b", "C2.10", "C2.15", "C2.15b", "C2.16"]  # fmt: skip
EMPIRICAL_BOOLEANS_ALLOWED = {"C2.6b"}  # an identity check (our sampler's α conditional)


def test_no_empirical_claim_is_a_bare_boolean():
    bare = {c.id for c in C.CLAIMS if c.how == "true" and not c.not_testable}
    assert bare == EMPIRICAL_BOOLEANS_ALLOWED


def test_gap_margin_is_a_share_of_the_documents_gap():
    paper = C.PAPER_2_1[("forecast", "synthetic", "ll")]
    assert C.gap_margin(paper, 0.5) == pytest.approx(16.8 / 2)
    assert C.gap_margin(C.PAPER_2_1[("missing", "synthetic", "ll")], 0.5) == pytest.approx(129.5)
    assert C.gap_margin(None, 0.5) == 0.0
    with pytest.raises(ValueError, match="half the gap"):
        C.gap_margin(paper, 0.6)
    for name in ("config", "paper", "real"):
        cfg = yaml.safe_load(open(f"config/{name}.yaml"))
        assert cfg["drift"]["claims"].get("gap_share", ClaimTolerances().gap_share) <= 0.5


def test_monthly_kind_follows_the_data_kind_rule():
    """The mirror's Enron network (Perry & Wolfe coding) is not the document's cleaning."""
    assert C.monthly_kind("real") == "substitute"
    assert C.monthly_kind("synthetic") == "synthetic"


def test_share_one_short_of_the_bar():
    assert C.one_short(0.8, 10) == pytest.approx(0.7)
    assert C.one_short(0.8, 5) == pytest.approx(0.6)
    assert C.one_short(0.5, 3) == pytest.approx(1 / 3)


def test_true_positives_and_splits():
    y = np.array([1, 0, 1, 0, 0, 1])
    s = np.array([0.9, 0.8, 0.7, 0.1, 0.2, 0.05])
    assert C.true_positives(y, s, 1) == 1
    assert C.true_positives(y, s, 3) == 2
    assert C.true_positives(y, s, 6) == 3
    z = {"labels": y, "score_DRIFT": s, "score_Baseline": -s,
         "labels_s1": y[:2], "score_DRIFT_s1": s[:2], "score_Baseline_s1": s[:2]}  # fmt: skip
    assert C.split_true_positives(z, 3) == {"DRIFT": [2], "Baseline": [1]}  # split 1 too small
    assert C.split_true_positives(z, 2) == {"DRIFT": [1, 1], "Baseline": [1, 1]}


def test_topic_matches_and_underfit_flags():
    assert C.topic_matches(0.7, 20) == [1.0] * 14 + [0.0] * 6
    with pytest.raises(ValueError, match="share of 20"):
        C.topic_matches(0.71, 20)
    p = np.array([[0.1, 0.9, 0.2], [0.2, 0.1, 0.3]])  # months x pairs
    y = np.array([[1, 0, 0], [0, 1, 0]], bool)  # pair 2 has no edge: left out
    assert C.underfit_flags(p, y, 0.5) == [1.0, 0.0]
    assert C.underfit_share(p, y, 0.5) == (0.5, 2)


def test_fit_rhats_caps_an_infinite_rhat():
    st = pd.DataFrame({"rhat_K": [1.05, np.inf], "rhat_alpha": [1.2, 1.0]})
    assert C.fit_rhats(st) == [1.2, C.RHAT_CAP]


def planted_recovery(swapped: bool, datasets: int = 5, K: int = 3) -> pd.DataFrame:
    """Recovery rows of ``datasets`` text fits of ``K`` planted features, each recovered
    exactly; ``swapped``: the topics of planted features 0 and 1 land on each other's
    features (their associations lost, each alone looks recovered)."""
    rows = []
    for d in range(datasets):
        for k in range(K):
            topic = {0: 1, 1: 0}.get(k, k) if swapped else k
            rows.append(dict(dataset=d, feature=k, model_feature=topic, z_matched_feature=k,
                             acc_topic=1.0, l1_ratio=0.1))  # fmt: skip
    return pd.DataFrame(rows)


def _scores(good: bool) -> pd.DataFrame:
    """Synthetic Table 2.1 scores of 3 data sets: DRIFT ahead of every method by more than
    the document's gap (good) or behind them (not good), in every data set."""
    s = 1.0 if good else -1.0
    rows = []
    for d in range(3):
        for task, others, lead in (
            ("forecast", ("Naive", "Baseline", "LFRM_last", "LFRM_all"), 20.0),
            ("missing", ("Naive", "Baseline", "LFRM_all", "LFRM_current"), 300.0),
        ):
            for m in (*others, "DRIFT"):
                drift = m == "DRIFT"
                auc = np.nan if m == "Naive" else 0.6 + (0.25 * s if drift else 0.0)
                rows.append(dict(dataset=d, task=task, method=m, auc=auc + 0.01 * d,
                                 ll=-500.0 + (lead * s if drift else 0.0) + 0.5 * d,
                                 pred_density=0.3, true_density=0.3, n_heldout=20))  # fmt: skip
    return pd.DataFrame(rows)


def _forecast(good: bool) -> pd.DataFrame:
    """Monthly forecasts t = 3..37 with Fig 2.4's shape (good): every model below the
    baseline for t < 12, DRIFT above every method later, LFRM(last) best at the last month,
    DRIFT closest to the sparse last months' density; or the reverse."""
    rows = []
    for t in range(3, 38):
        late = t > 33
        for m in ("Naive", "Baseline", "LFRM_last", "LFRM_all", "DRIFT"):
            ll = -100.0 if m == "Baseline" else (-110.0 if good else -90.0) - (t % 3)
            if t >= 12 and m == "DRIFT":
                ll = (-80.0 if good else -130.0) + (t % 2)
            if m == "LFRM_last" and t == 37:
                ll = -50.0 if good else -150.0
            dens = 0.012 if (m == "DRIFT") == good else 0.05
            auc = np.nan if m == "Naive" else 0.7 + (0.1 if good else -0.1) * (m == "DRIFT")
            rows.append(dict(t=t, method=m, ll=ll, auc=auc + 0.001 * (t % 4),
                             pred_density=dens if late else 0.1,
                             true_density=0.01 if late else 0.1))  # fmt: skip
    return pd.DataFrame(rows)


def _missing_and_matrices(good: bool) -> tuple[pd.DataFrame, dict]:
    """Three held-out splits: scores per method, and the matrices of Table 2.2 and Fig 2.6
    (DRIFT ranks the held-out edges first and the baseline ties it at k = 10, or the
    reverse; DRIFT's edge probabilities follow a pair's edges, or stay low)."""
    rng = np.random.default_rng(0)
    s = 1.0 if good else -1.0
    rows, z = [], {}
    for r in range(3):
        for m in ("Naive", "Baseline", "DRIFT", "LFRM_all", "LFRM_current"):
            rows.append(dict(split=r, method=m,
                             ll=-1000.0 + (300 * s if m == "DRIFT" else 0) + r,
                             auc=np.nan if m == "Naive" else 0.8 + (0.1 * s if m == "DRIFT" else 0)
                             + 0.01 * r))  # fmt: skip
        y = np.zeros(300)
        y[rng.choice(300, 120, replace=False)] = 1
        edges = np.flatnonzero(y)
        drift = y + 0.01 * rng.random(300) if good else 1 - y + 0.01 * rng.random(300)
        base = 0.5 * rng.random(300)
        base[edges[:12]] = 1.0  # the baseline's first 12 picks are edges: ties DRIFT at k = 10
        sfx = "" if r == 0 else f"_s{r}"
        z[f"labels{sfx}"] = y
        z[f"score_DRIFT{sfx}"] = drift
        z[f"score_Baseline{sfx}"] = base
    T, N = 10, 12
    Y = (rng.random((T, N, N)) < 0.5).astype(np.int8)
    Y = np.triu(Y, 1) | np.triu(Y, 1).transpose(0, 2, 1)
    P = np.where(Y == 1, 0.9, 0.2) if good else np.where(Y == 1, 0.1, 0.3)
    z.update(Y=Y, P_DRIFT_all=P)
    return pd.DataFrame(rows), z


def _frames(tmp_path, good: bool) -> dict:
    """Tiny run outputs for every listed claim: the claims hold (good) or not."""
    trend = 0.0 if good else 10.0
    rec = pd.DataFrame([dict(dataset=d, feature=k, corr=(0.95 if good else 0.5) + 0.001 * d,
                             accuracy=0.9) for d in range(10) for k in range(3)])  # fmt: skip
    missing, mats = _missing_and_matrices(good)
    frames = dict(synth_scores=_scores(good), forecast=_forecast(good), missing=missing,
                  recovery=rec, synth_trace=C.synthetic_traces(trend),
                  monthly_trace=C.synthetic_traces(trend, seed=1).rename(
                      columns={"dataset": "t"}))  # fmt: skip
    for kind in C.TEXT_KINDS:
        frames[f"recovery_{kind}"] = planted_recovery(not good).assign(
            swap_share=0.0 if good else 0.2, association=1.0 if good else 0.3
        )
    out = {}
    for name, df in frames.items():
        out[name] = [tmp_path / f"{name}.csv"]
        df.to_csv(out[name][0], index=False)
    out["monthly_matrices"] = [tmp_path / "monthly_matrices.npz"]
    np.savez(out["monthly_matrices"][0], **mats)
    summaries = dict(
        network_summary={"data_kind": "real"},
        enron_summary=dict(chain_match_share=1.0 if good else 0.7, K=20, chains=2,
                           chain_match_ratio=0.5, burnin=3000, swap_share=0.0, samples=100),
    )  # fmt: skip
    for name, obj in summaries.items():
        out[name] = [tmp_path / f"{name}.json"]
        out[name][0].write_text(json.dumps(obj))
    return out


def _ledger(tmp_path, good: bool, settings=None):
    study = SimpleNamespace(name="drift", document=STUDY.document, claim_fns=STUDY.claim_fns,
                            claim_specs=[SPECS[i] for i in LISTED])  # fmt: skip
    ctx = StepContext("drift", "claims", settings or ClaimsSettings(), "test", 0, 1,
                      _frames(tmp_path, good), {})  # fmt: skip
    path = tmp_path / "drift" / "claims.csv"
    evaluate_claims(study, ctx).write(path)
    return path


@pytest.mark.parametrize("good", [True, False])
def test_listed_rows_are_judged_with_replicates_and_proven(tmp_path, good):
    path = _ledger(tmp_path, good)
    df = pd.read_csv(path, keep_default_na=False)
    # C2.10 compares one month's fits: one replicate, no spread, so it cannot decide
    one = df[df.claim_id == "C2.10"]
    assert (one.verdict == "inconclusive").all() and "1 replicate" in one.note.iloc[0]
    judged = df[df.claim_id != "C2.10"]
    want = "reproduced" if good else "not_reproduced"
    bad = judged[judged.verdict != want]
    assert bad.empty, bad[["claim_id", "dataset", "verdict", "our_value", "note"]].to_string()
    # every row has its replicates; the Enron rows are the substitute network's
    assert (judged.n_rep.astype(int) >= 3).all() or set(
        judged[judged.n_rep.astype(int) < 3].claim_id
    ) <= {"C2.14-LL", "C2.14-AUC"}
    monthly = judged[judged.dataset.str.startswith("enron monthly")]
    assert len(monthly) >= 18 and (monthly.data_kind == "substitute").all()
    proofs = [p for p in pv.prove_ledger(path) if p.kind == "judged"]
    flagged = [(p.claim_id, p.dataset, p.flag, p.problems) for p in proofs if p.flag]
    assert flagged == []
    assert {p.category for p in proofs} <= {"realistic", "robust", "inconclusive"}


def test_c2_14_takes_its_noise_from_the_data_sets(tmp_path):
    """Fig 2.3's one task has no replicates: its rows carry the spread of DRIFT minus the
    best other over the run's synthetic data sets (a Noise named in the rule)."""
    df = pd.read_csv(_ledger(tmp_path, True), keep_default_na=False)
    rows = df[df.claim_id.str.startswith("C2.14")]
    assert len(rows) == 2 and rows.note.str.contains("spread measured elsewhere").all()
    assert (rows.verdict == "reproduced").all()


def test_synthetic_ll_rows_use_half_the_documents_gap(tmp_path):
    """C2.1-ll / C2.2-ll (synthetic): DRIFT ahead in every data set by less than half the
    document's gap (issue 38: ours 2.2 / 52 against 16.8 / 259) is not reproduced."""
    sc = _scores(True)
    drift = sc.method == "DRIFT"
    sc.loc[drift & (sc.task == "forecast"), "ll"] -= 20.0 - 2.2
    sc.loc[drift & (sc.task == "missing"), "ll"] -= 300.0 - 52.0
    files = _frames(tmp_path, True)
    sc.to_csv(files["synth_scores"][0], index=False)
    study = SimpleNamespace(name="drift", document=STUDY.document, claim_fns=STUDY.claim_fns,
                            claim_specs=[SPECS["C2.1"], SPECS["C2.2"]])  # fmt: skip
    ctx = StepContext("drift", "claims", ClaimsSettings(), "test", 0, 1, files, {})
    led = evaluate_claims(study, ctx)
    got = {(r.claim_id, r.dataset): r.verdict for r in led.rows}
    assert got[("C2.1-ll", "synthetic DRIFT")] == "not_reproduced"
    assert got[("C2.2-ll", "synthetic DRIFT")] == "not_reproduced"
    half = ClaimsSettings(claims=replace(ClaimTolerances(), gap_share=0.0))
    ctx = StepContext("drift", "claims", half, "test", 0, 1, files, {})
    got = {(r.claim_id, r.dataset): r.verdict for r in evaluate_claims(study, ctx).rows}
    assert got[("C2.1-ll", "synthetic DRIFT")] == "reproduced"


def test_a_partial_run_judges_what_it_built(tmp_path):
    """A readings sweep of the synthetic fits only (synth_ab) gives the synthetic rows of
    C2.1 / C2.2 / C2.6 and leaves out the monthly ones; a claim with nothing built is a
    not_run row."""
    files = _frames(tmp_path, True)
    keep = {k: v for k, v in files.items() if k in ("synth_scores", "synth_trace", "recovery")}
    study = SimpleNamespace(name="drift", document=STUDY.document, claim_fns=STUDY.claim_fns,
                            claim_specs=[SPECS[i] for i in ("C2.1", "C2.6", "C2.8")])  # fmt: skip
    ctx = StepContext("drift", "claims", ClaimsSettings(), "test", 0, 1, keep, {}, partial=True)
    led = evaluate_claims(study, ctx)
    got = {(r.claim_id, r.dataset): r.verdict for r in led.rows}
    assert set(got) == {("C2.1-ll", "synthetic DRIFT"), ("C2.1-auc", "synthetic DRIFT"),
                        ("C2.6", "synthetic DRIFT"), ("C2.8", "")}  # fmt: skip
    assert got[("C2.8", "")] == "not_run"


def test_c2_11_rows_from_one_chain_are_inconclusive(tmp_path):
    """Table 2.3 on the Enron subject lines comes from one chain's topics: no spread, so each
    row is inconclusive and says which replicates would decide it."""
    words = list(C.PAPER_2_3.values())
    top = pd.DataFrame({"feature": range(6), "ten_most_probable_words": words + ["a b c"],
                        "share_of_actors": [0.6] * 6, "actors_with_feature": [30] * 6})  # fmt: skip
    files = {"enron_topics": [tmp_path / "t.csv"], "enron_summary": [tmp_path / "s.json"]}
    top.to_csv(files["enron_topics"][0], index=False)
    files["enron_summary"][0].write_text(json.dumps(
        {"mean_active_features_per_person": 4.4, "K": 6, "actors": 50}))  # fmt: skip
    study = SimpleNamespace(name="drift", document=STUDY.document, claim_fns=STUDY.claim_fns,
                            claim_specs=[SPECS["C2.11"]])  # fmt: skip
    settings = ClaimsSettings(claims=replace(ClaimTolerances(), enron_shuffles=20))
    ctx = StepContext("drift", "claims", settings, "test", 0, 1, files, {})
    rows = evaluate_claims(study, ctx).rows
    assert len(rows) == 7 and {r.verdict for r in rows} == {"inconclusive"}
    assert all(r.n_rep == "1" and "independent chains" in r.note for r in rows)
