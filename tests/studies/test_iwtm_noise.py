"""iwtm ledger, issue 38: every empirical row carries its replicates and is judged by the
noise rule (latentlab.claims.noise). Constructed run outputs with a clear effect, a clear
reversal and a noise-level difference give reproduced, not_reproduced and inconclusive; a
single seed decides only with the ladder's measured spread; E6 and E10 are judged on what
the model does not imply (the growth factor, the fitted curve's peak); the spreads of
claims.ladder are recomputed from the published ladder rung."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from latentlab.claims import prove as pv
from latentlab.claims.ledger import load_rule
from latentlab.claims.spec import evaluate_claims
from latentlab.studies.iwtm import claims as C
from latentlab.studies.iwtm.study import STUDY, ClaimsSettings, LadderNoise, SceneCfg
from latentlab.studies.shape import StepContext

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
SPECS = {c.id: c for c in C.CLAIMS}
NS = (25, 50, 100)


def _ledger(tmp_path, ids, frames, settings=None, partial=False, readings=None):
    """Judge the claims ``ids`` on constructed frames ({input name: DataFrame})."""
    inputs = {}
    for name, df in frames.items():
        p = tmp_path / f"{name}.csv"
        df.to_csv(p, index=False)
        inputs[name] = [p]
    study = SimpleNamespace(name="iwtm", document=STUDY.document, claim_fns=STUDY.claim_fns,
                            claim_specs=[SPECS[i] for i in ids],
                            reading_specs=STUDY.reading_specs)  # fmt: skip
    ctx = StepContext("iwtm", "claims", settings or ClaimsSettings(), "test", 0, 1, inputs, {},
                      partial=partial, readings=readings or {})  # fmt: skip
    path = tmp_path / "iwtm" / "claims.csv"
    evaluate_claims(study, ctx).write(path)
    return pd.read_csv(path, keep_default_na=False), path


def _ch4(seeds, gap, jitter=0.0):
    """Gibbs IWTM ``gap`` points above LDA on its own clusters in every (n_train, seed),
    plus ``jitter`` x (+1, -1, ...) per row; sLDA at three K."""
    rows, sign = [], 1.0
    for s in range(seeds):
        for i, n in enumerate(NS):
            base = 0.40 + 0.04 * i
            sign = -sign
            rows += [
                dict(
                    dataset="scene13",
                    model="IWTM",
                    T=25,
                    n_train=n,
                    K=100 + 30 * i + s,
                    seed=s,
                    acc=base + (gap + jitter * sign) / 100,
                    seconds=10.0,
                    sweeps=20,
                ),
                dict(
                    dataset="scene13",
                    model="LDA_on_IWTM_clusters",
                    T=25,
                    n_train=n,
                    K=100,
                    seed=s,
                    acc=base,
                    seconds=1.0,
                    sweeps=20,
                ),
            ]
            rows += [dict(dataset="scene13", model="sLDA_BOW", T=25, n_train=n, K=K, seed=s,
                          acc=base - d, seconds=1.0, sweeps=20)
                     for K, d in ((25, 0.03), (100, 0.01), (400, 0.02))]  # fmt: skip
    return pd.DataFrame(rows)


@pytest.mark.parametrize(
    "gap,jitter,want",
    [(3.0, 0.5, "reproduced"), (-3.0, 0.5, "not_reproduced"), (0.0, 1.0, "inconclusive")],
)
def test_order_row_decides_by_its_replicates(tmp_path, gap, jitter, want):
    """E5 on 3 settings x 3 seeds: a clear lead, a clear reversal, a noise-level tie."""
    df, path = _ledger(tmp_path, ["E5"], {"ch4": _ch4(3, gap, jitter)})
    row = df.set_index("claim_id").loc["E5"]
    assert row.verdict == want and int(row.n_rep) == 9 and float(row.spread) > 0
    assert [p.flag for p in pv.prove_ledger(path) if p.kind == "judged"] == [""]


def test_one_seed_decides_only_with_the_ladders_spread(tmp_path):
    """E11 with one seed per side takes claims.ladder.e11 (named in the rule and the note);
    with three seeds, its own spread."""
    ch5 = pd.DataFrame([dict(dataset="scene13", model="IWTM_CAVI", T=25, n_train=100, seed=s,
                             acc=0.55 + 0.002 * s, K=300) for s in range(3)])  # fmt: skip
    df, _ = _ledger(tmp_path, ["E11"], {"ch4": _ch4(1, 0.0), "ch5": ch5.iloc[:1]})
    rule = load_rule(df.rule.iloc[0])
    assert rule["noise"]["sd"] == LadderNoise().e11 and "d60" in rule["noise"]["from"]
    assert df.verdict.iloc[0] == "reproduced"  # 55.0 vs 48.0: 7 points, > 2 x 1.6
    assert "spread measured elsewhere" in df.note.iloc[0]
    df, _ = _ledger(tmp_path, ["E11"], {"ch4": _ch4(3, 0.0), "ch5": ch5})
    assert "noise" not in load_rule(df.rule.iloc[0]) and int(df.n_rep.iloc[0]) == 3


def test_a_single_seed_without_a_spread_is_inconclusive(tmp_path):
    df, _ = _ledger(tmp_path, ["E2", "E6"], {"ch4": _ch4(1, 3.0)})
    assert set(df.verdict) == {"inconclusive"}
    assert all("at least 3 replicates" in n for n in df.note)


def test_e6_judges_the_growth_factor_not_the_direction(tmp_path):
    """A DP vocabulary grows with the data: the row asks for the document's factor 1.44
    (+- claims.e6_ratio_tol), and refuses no growth; a growth at the model's prior rate only
    passes when it is near the document's."""

    def frame(ratio):
        f = _ch4(3, 2.0).astype({"K": float})
        iw = f.model == "IWTM"
        f.loc[iw, "K"] = f.loc[iw].n_train.map({25: 200, 50: 200 * (1 + ratio) / 2,
                                                100: 200 * ratio})  # fmt: skip
        return f

    for ratio, want in ((1.45, "reproduced"), (1.0, "not_reproduced"), (2.5, "not_reproduced")):
        df, path = _ledger(tmp_path, ["E6"], {"ch4": frame(ratio)})
        assert df.verdict.iloc[0] == want, (ratio, df.note.iloc[0])
    assert load_rule(df.rule.iloc[0])["reject"] == [1.0]


def _ch5(curve, seeds=3, noise=0.0):
    """LDA+KMEANS accuracy over K = 125 ... 1000 following ``curve`` (points), per setting
    and seed; CAVI and GDPMM rows beside it."""
    rows, ks = [], (125, 250, 500, 1000)
    rng = np.random.default_rng(0)
    for s in range(seeds):
        for n in NS:
            rows += [
                dict(
                    dataset="scene13",
                    model="LDA_KMEANS",
                    T=25,
                    n_train=n,
                    K=k,
                    seed=s,
                    acc=(40 + c + noise * rng.normal()) / 100,
                    seconds=2.0,
                    kmeans_s=1.0,
                    lda_s=1.0,
                )
                for k, c in zip(ks, curve, strict=True)
            ]
            rows += [dict(dataset="scene13", model="IWTM_CAVI", T=25, n_train=n, K=300, seed=s,
                          acc=0.5, seconds=20.0, onehot_frac=0.95, clusters_trace="[1, 2]"),
                     dict(dataset="scene13", model="LDA_GDPMM", T=25, n_train=n, K=350, seed=s,
                          acc=0.47, seconds=5.0)]  # fmt: skip
    return pd.DataFrame(rows)


def test_e10_judges_the_fitted_peak(tmp_path):
    """An inverted U passes; a rising curve (its best K the largest) fails: the interior
    maximum of a noisy grid alone no longer counts."""
    df, _ = _ledger(tmp_path, ["E10"], {"ch5": _ch5((0.0, 3.0, 4.0, 1.0), noise=0.2)})
    assert df.verdict.iloc[0] == "reproduced"
    df, _ = _ledger(tmp_path, ["E10"], {"ch5": _ch5((0.0, 1.0, 2.0, 3.0), noise=0.2)})
    assert df.verdict.iloc[0] == "not_reproduced"


def test_fitted_peak_exact_cases():
    x = np.arange(1.0, 6.0)
    assert C.fitted_peak(x, 10 - (x - 3) ** 2) == pytest.approx((10.0, 6.0))
    assert C.fitted_peak(x, x) == pytest.approx((5.0, 5.0))  # monotone: the peak is an end
    assert C.fitted_peak(x, (x - 3) ** 2) == pytest.approx((4.0, 4.0))  # a U: ends only
    with pytest.raises(ValueError, match="at least 3"):
        C.fitted_peak([1.0, 2.0], [3.0, 4.0])


def test_e9_vocabulary_and_accuracy_rows(tmp_path):
    """E9 splits into the vocabulary ratio (the document's 3445 / 2784 = 1.24 +- vocab_rel,
    the collapsed 4-word mixture rejected) and the accuracy order (E9-acc)."""
    df, path = _ledger(tmp_path, ["E9", "E9-acc"], {"ch5": _ch5((0.0, 3.0, 4.0, 1.0))})
    r = df.set_index("claim_id")
    assert r.loc["E9", "verdict"] == "reproduced"  # 350 / 300 = 1.17, per (setting, seed)
    assert r.loc["E9-acc", "verdict"] == "reproduced" and int(r.loc["E9-acc", "n_rep"]) == 9
    assert load_rule(r.loc["E9", "rule"])["reject"] == [pytest.approx(4 / 2784)]
    assert all(p.flag == "" for p in pv.prove_ledger(path) if p.kind == "judged")


def _active(seeds, lda_gap):
    """Active learning: LDA active - random = ``lda_gap[k]`` points at each of three K."""
    rows = []
    for s in range(seeds):
        for i, n in enumerate((65, 130, 195, 260)):
            for m in ("active", "random"):
                acc = 0.4 + 0.03 * i + 0.01 * (m == "active")
                rows.append(dict(dataset="scene13", model="IWTM", method=m, seed=s,
                                 n_labelled=n, acc=acc))  # fmt: skip
            for j, K in enumerate((62, 250, 1000)):
                for m in ("active", "random"):
                    g = lda_gap[j] * (m == "active") * (i > 0) + 0.2 * ((s + i + j) % 2)
                    rows.append(dict(dataset="scene13", model="LDA_KMEANS", method=m, seed=s,
                                     n_labelled=n, K=K, acc=0.35 + 0.02 * i + g / 100))  # fmt: skip
    return pd.DataFrame(rows)


def test_e29_one_seed_at_half_a_point_is_noise(tmp_path):
    """Issue 38's E29: +0.5 points at 2 of 3 K with one seed is inconclusive; +2 points at
    every K over three seeds is reproduced."""
    df, _ = _ledger(tmp_path, ["E29"], {"active": _active(1, (-0.1, 0.5, 0.5))})
    assert df.verdict.iloc[0] == "inconclusive" and int(df.n_rep.iloc[0]) == 3
    df, _ = _ledger(tmp_path, ["E29"], {"active": _active(3, (2.0, 2.0, 2.0))})
    assert df.verdict.iloc[0] == "reproduced" and int(df.n_rep.iloc[0]) == 9


def _sun(gap):
    cls = pd.DataFrame([dict(seed=0, class_id=k, class_name=f"c{k}", n_test=50,
                             acc_vw=0.3 + 0.02 * (k % 5), acc_topic=0.3 + 0.02 * (k % 5) - gap
                             + 0.03 * ((-1) ** k), dataset="scene15", data_kind="substitute")
                        for k in range(15)])  # fmt: skip
    met = pd.DataFrame([dict(seed=0, method=m, acc=0.3, labels_used=10, coherence_lift=0.1,
                             dataset="scene15", data_kind="substitute")
                        for m in ("visual_words", "iwtm_topics")])  # fmt: skip
    return {"sun": met, "sun_class": cls}


@pytest.mark.parametrize("gap,want", [(0.05, "reproduced"), (0.0, "inconclusive"),
                                      (-0.05, "not_reproduced")])  # fmt: skip
def test_e19_classes_are_its_replicates(tmp_path, gap, want):
    """Issue 38's E19 (one run, margin 0, no spread): the document compares per class (219 /
    87 / 91); one seed's 15 classes decide it, or leave it inconclusive at a tie."""
    df, _ = _ledger(tmp_path, ["E19"], _sun(gap))
    row = df[df.dataset == "scene15"].iloc[0]
    assert row.verdict == want and int(row.n_rep) == 15
    assert df[df.dataset == "sun397"].verdict.iloc[0] == "not_run"


def test_partial_run_gives_not_run_rows_for_unbuilt_inputs(tmp_path):
    """A readings sweep builds some outputs only: a claim whose input is absent is not_run."""
    df, _ = _ledger(tmp_path, ["E5", "E10"], {"ch5": _ch5((0.0, 3.0, 4.0, 1.0))}, partial=True)
    r = df.set_index("claim_id")
    assert r.loc["E5", "verdict"] == "not_run" and "'ch4'" in r.loc["E5", "note"]
    assert r.loc["E10", "verdict"] == "reproduced"


def test_data_kind_rule():
    """docs/design.md "Data kinds": 13-scene is real only with the document's preprocessing."""
    assert C.data_kind("scene13", SceneCfg(), None) == ("real", "")
    kind, why = C.data_kind("scene13", SceneCfg(size=128, max_desc=30), 20)
    assert kind == "substitute" and "128 px" in why and "20 dense-SIFT" in why
    assert C.data_kind("syn_iwtm", SceneCfg(size=128), 20)[0] == "synthetic"
    assert C.data_kind("scene15", SceneCfg(), None)[0] == "substitute"


def test_no_empirical_bare_boolean_remains():
    """Issue 38: the empirical rows are order or value rows (E22 and the C rows are
    identities of our code, C5 a simulation check of a formula)."""
    bare = [c.id for c in C.CLAIMS if c.how == "true" and c.data_kind != "identity"
            and not c.not_testable]  # fmt: skip
    assert bare == []


def test_small_helpers_exact():
    assert C.settings_beaten_all_but_one([50, 52, 49], [48, 50, 51], 1.0) == 0
    assert C.settings_beaten_all_but_one([45, 52, 49], [48, 50, 51], 1.0) == -1
    assert C.largest_rise([5, 4, 4, 3]) == 0.0 and C.largest_rise([5, 4, 6, 3]) == 2.0


@pytest.mark.parametrize("rung,fields", [("d60", ("e11", "e4_3", "ff65", "e30")),
                                         ("d60_g100_C4000", ("e8",))])  # fmt: skip
def test_ladder_spreads_are_the_published_rungs(rung, fields):
    """claims.ladder holds the sd over the rung's 3 seeds of each row's quantity, as
    ladder_sds computes it from the published CSVs (a refreshed rung must refresh them)."""
    d = ROOT / "published" / "ladder" / "iwtm" / rung / "iwtm"
    got = C.ladder_sds(pd.read_csv(d / "ch4_scene13.csv"), pd.read_csv(d / "ch5_scene13.csv"),
                       pd.read_csv(d / "scene8_scene8.csv"))  # fmt: skip
    lad = LadderNoise()
    assert got["n"] == lad.n == 3
    for f in fields:
        assert getattr(lad, f) == pytest.approx(got[f], rel=1e-3), f
    assert rung in (lad.e8_source if fields == ("e8",) else lad.source)
