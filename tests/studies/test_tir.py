"""Study tir (Foulds 2014 ch. 3): every step on a tiny synthetic corpus, and the
claims-tolerance rule of the study shape."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from latentlab.bench import bench_wide
from latentlab.claims.ledger import read_claims
from latentlab.errors import ConfigError, DataError
from latentlab.studies.shape import load_study
from latentlab.studies.tir.claims import majority_p

ROOT = Path(__file__).resolve().parents[2]
ST = load_study("tir")
SYN = {
    "synth_tir": {
        "n_docs": 60,
        "n_vocab": 50,
        "K": 3,
        "doc_length": 30,
        "max_cites": 3,
        "rate": 0.5,
    },
    "synth_self": {
        "n_docs": 60,
        "n_vocab": 50,
        "K": 3,
        "doc_length": 30,
        "max_cites": 3,
        "rate": 0.5,
        "kind": "tire",
        "self_frac": 0.3,
        "self_boost": 3.0,
    },
}
FIT = {"K": 3, "burn_in": 5, "n_iter": 20, "sample_every": 10, "interval": 5}
REPS = 3  # runs of every fit: the claims' replicates
CORP = {"predict": "synth_tir", "explore": "synth_tir", "recovery": "synth_tir",
        "selfcite": "synth_self"}  # fmt: skip


def P(**kw):
    return {"run": "t", "base_seed": 1, "threads": 1, **kw}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    d = tmp_path_factory.mktemp("tir")
    x = lambda step, params, inputs=None, outputs=None, wc=None: ST.execute(  # noqa: E731
        step,
        params,
        {k: [v] if not isinstance(v, list) else v for k, v in (inputs or {}).items()},
        outputs,
        wc,
    )
    for c in SYN:
        x(
            "synth",
            P(synthetic=SYN),
            outputs={"corpus": d / f"{c}.npz", "truth": d / f"{c}_t.npz"},
            wc={"corpus": c},
        )
        x(
            "prepare",
            P(),
            {"corpus": d / f"{c}.npz"},
            {
                k: d / f"{c}_{k}.{'json' if k == 'summary' else 'npz'}"
                for k in ("full", "train", "split", "summary")
            },
        )
    fp = P(fit=FIT, ais={"n_temps": 5, "S": 2}, predict={"reps": REPS})
    for m in ("lda", "tir", "tire", "dmr"):
        x(
            "fit",
            fp,
            {"train": d / "synth_tir_train.npz", "split": d / "synth_tir_split.npz"},
            {"scores": d / f"{m}.csv", "info": d / f"{m}.json"},
            {"model": m},
        )
    ep = P(fit=FIT, explore={"burn_in": 10, "reps": REPS})
    for c, m in (("synth_tir", "tir"), ("synth_tir", "tire"), ("synth_self", "tire")):
        x(
            "explore",
            ep,
            {"full": d / f"{c}_full.npz"},
            {"docs": d / f"{c}_{m}_docs.csv", "edges": d / f"{c}_{m}_edges.csv"},
            {"model": m},
        )
    x(
        "recovery",
        P(fit=FIT, recovery={"n_iter": 10, "reps": REPS}),
        {"full": d / "synth_tir_full.npz", "truth": d / "synth_tir_t.npz"},
        {"csv": d / "rec.csv", "docs": d / "rec_docs.csv"},
    )
    x(
        "evidence_recovery_by_citers",
        P(corpora=CORP, synthetic=SYN),
        {"docs": d / "rec_docs.csv", "full": d / "synth_tir_full.npz",
         "truth": d / "synth_tir_t.npz"},
        {"csv": d / "by_citers.csv", "md": d / "by_citers.md"},
    )  # fmt: skip
    x(
        "table3_1",
        P(),
        {"scores": [d / f"{m}.csv" for m in ("lda", "tir", "tire", "dmr")]},
        {"csv": d / "table3_1.csv"},
    )
    x(
        "table3_2",
        P(),
        {"docs": d / "synth_tir_tir_docs.csv", "edges": d / "synth_tir_tir_edges.csv"},
        {"csv": d / "table3_2.csv"},
    )
    x(
        "table3_4",
        P(),
        {"docs": d / "synth_tir_tire_docs.csv", "edges": d / "synth_tir_tire_edges.csv"},
        {"csv": d / "table3_4.csv"},
    )
    x("fig3_3_signtest", P(), {}, {"csv": d / "sign.csv"})
    x(
        "fig3_4",
        P(),
        {"edges": d / "synth_self_tire_edges.csv", "truth": d / "synth_self_t.npz"},
        {"png": d / "fig3_4.png"},
    )
    x("fig_l_recovery", P(), {"recovery": d / "rec.csv"}, {"png": d / "fig_rec.png"})
    x(
        "bench",
        P(fit=FIT, bench={"sweeps": 1, "repeats": REPS, "tomotopy": True}),
        {"train": d / "synth_tir_train.npz"},
        {"csv": d / "bench.csv"},
    )
    x(
        "claims",
        P(corpora=CORP),
        {
            "table3_1": d / "table3_1.csv",
            "recovery": d / "rec.csv",
            "self_edges": d / "synth_self_tire_edges.csv",
            "self_truth": d / "synth_self_t.npz",
            "signtest": d / "sign.csv",
            "docs": d / "synth_tir_tir_docs.csv",
            "tire_docs": d / "synth_tir_tire_docs.csv",
            "tire_edges": d / "synth_tir_tire_edges.csv",
            "full": d / "synth_tir_full.npz",
            "bench": d / "bench.csv",
            "prep_summary": d / "synth_tir_summary.json",
        },
        {"csv": d / "claims.csv"},
    )
    return d


def test_split_and_table3_1(built):
    t = pd.read_csv(built / "table3_1.csv")
    s = json.loads((built / "synth_tir_summary.json").read_text())
    assert list(t.model) == [m for m in ("TIR", "TIRE", "DMR") for _ in range(REPS)]
    assert list(t.rep) == list(range(REPS)) * 3
    assert (t.wins + t.losses + t.ties == s["n_test_docs"]).all()
    # the runs are replicates: different seeds, different numbers
    assert t[t.model == "TIR"].mean_improvement_nats.nunique() == REPS
    sp = np.load(built / "synth_tir_split.npz")
    assert sp["held_ptr"][-1] == s["n_heldout_tokens"]
    # held-out tokens left the training corpus, nothing else did
    from latentlab.data.corpus import BowCorpus

    full = BowCorpus.load(built / "synth_tir_full.npz")
    train = BowCorpus.load(built / "synth_tir_train.npz")
    assert full.n_tokens - train.n_tokens == s["n_heldout_tokens"]


def test_fits_are_deterministic_and_run_r_is_its_own_seed(built, tmp_path):
    """Run r of a fit depends on its seed only: the first run of a 1-run fit is the first
    run of the 3-run one, bit for bit."""
    for reps in (REPS, 1):
        ST.execute(
            "fit",
            P(fit=FIT, ais={"n_temps": 5, "S": 2}, predict={"reps": reps}),
            {"train": [built / "synth_tir_train.npz"], "split": [built / "synth_tir_split.npz"]},
            {"scores": tmp_path / f"tir{reps}.csv", "info": tmp_path / "i.json"},
            {"model": "tir"},
        )
    a = pd.read_csv(tmp_path / f"tir{REPS}.csv")
    b = pd.read_csv(built / "tir.csv")
    np.testing.assert_array_equal(a.to_numpy(), b.to_numpy())
    one = pd.read_csv(tmp_path / "tir1.csv")
    np.testing.assert_array_equal(one.to_numpy(), b[b.rep == 0].to_numpy())


def test_claims_ledger(built):
    df = read_claims(built / "claims.csv")
    # per-row ids: C3.1c per model, C3.10 per edge role
    ids = {i.removesuffix("-TIRE").removesuffix("-TIR") for i in df.claim_id}
    ids = {i.removesuffix("-references").removesuffix("-citers") for i in ids}
    assert {c.id for c in ST.claim_specs} == ids
    assert df.loc[df.claim_id == "C3.8", "verdict"].item() == "not_testable"
    assert (df.loc[df.dataset.isin(["aan", "nips_cite"]), "verdict"] == "not_run").all()
    assert {"aan", "nips_cite"} <= set(df.dataset)
    # the data-kind rule: nips_cite is the document's own corpus, AAN (our tokenisation) and
    # Cora stand in
    kinds = df[df.verdict == "not_run"].groupby("dataset").data_kind.unique()
    assert list(kinds["nips_cite"]) == ["real"] and list(kinds["aan"]) == ["substitute"]
    c34 = df[df.claim_id == "C3.4"].iloc[0]
    assert c34.verdict == "not_reproduced" and float(c34.our_value) == pytest.approx(
        0.0024589, rel=1e-3
    )
    assert df.loc[df.claim_id == "C3.2c", "verdict"].item() == "reproduced"
    # every judged empirical row carries its replicates
    emp = df[df.verdict.isin(["reproduced", "not_reproduced", "inconclusive"])
             & (df.data_kind != "identity")]  # fmt: skip
    assert len(emp) and (emp.n_rep.astype(int) >= REPS).all(), emp[["claim_id", "n_rep"]]
    # the sampler alternatives of Sec 3.4 are measured, and judged as ratios to ML, run by run
    rec = pd.read_csv(built / "rec.csv")
    ml = rec[rec.method == "ML (stochastic EM)"].sort_values("rep").l1.to_numpy()
    for cid, key in (("C3.3c", "MH on l (posterior mean)"),
                     ("C3.3d", "slice sampling on l (posterior mean)")):  # fmt: skip
        row = df[df.claim_id == cid].iloc[0]
        v = ml / rec[rec.method == key].sort_values("rep").l1.to_numpy()
        assert json.loads(row.rule)["ours"] == pytest.approx(list(v))
        assert float(row.our_value) == pytest.approx(v.mean(), rel=1e-5)
        if (v <= 1.0).all():
            assert row.verdict == "reproduced"
        elif (v > 1.0).all():
            assert row.verdict == "not_reproduced"
    # "most documents" is judged as a majority beyond chance in every run of the fits
    t = pd.read_csv(built / "table3_1.csv")
    for cid, model in (("C3.1a", "TIR"), ("C3.1b", "TIRE"), ("C3.2a", "DMR")):
        row = df[(df.claim_id == cid) & (df.verdict != "not_run")].iloc[0]
        r = t[t.model == model].sort_values("rep")
        ps = [majority_p(w, n) for w, n in zip(r.wins, r.losses, strict=True)]
        assert json.loads(row.rule)["ours"] == pytest.approx(ps)
        if all(p <= 0.05 for p in ps):
            assert row.verdict == "reproduced"
        assert row.n_rep == str(REPS)


def test_majority_p_is_a_one_sided_sign_test():
    assert majority_p(0, 0) == 1.0
    assert majority_p(5, 5) > 0.5
    assert majority_p(10, 0) == pytest.approx(0.5**10)
    # 33 of 45: the document's Fig 3.3 counts, one-sided
    assert majority_p(33, 12) == pytest.approx(0.0012294, rel=1e-3)


@pytest.mark.parametrize(
    "step, section, msg",
    [
        # checked inside the recovery and fit jobs before issue 25
        ("recovery", {"recovery": {"average_frac": 1.0}},
         r"tir\.recovery\.average_frac: must be >= 0, < 1, got 1\.0"),
        ("fit", {"fit": dict(FIT, sample_every=30)},
         r"tir\.fit\.sample_every: 30 > n_iter 20: Table 3\.1 would score no posterior"),
        ("synth", {"synthetic": {"synth_self": dict(SYN["synth_self"], self_frac=1.5)}},
         r"tir\.synthetic\.synth_self\.self_frac: must be >= 0, <= 1, got 1\.5"),
        ("prepare", {"split": {"heldout_frac": 0}},
         r"tir\.split\.heldout_frac: must be > 0, < 1, got 0"),
        ("fig3_3_signtest", {"more_cited": 46}, r"tir\.more_cited: 46 > untied 45"),
    ],
)  # fmt: skip
def test_a_bad_setting_is_refused_when_parsed_naming_the_key(step, section, msg):
    """Ranges and cross-field checks of the settings: refused when the settings are parsed
    (at start-up by the workflow, tests/test_config_errors.py), before any computation."""
    with pytest.raises(ConfigError, match=msg):
        ST.settings(step, section)


def test_bench_rows(built):
    b = bench_wide(built / "bench.csv")
    assert {"LDA CGS (dense)", "TIR Gibbs (approximate)"} <= set(b.method)
    # tomotopy is the optional `bench` extra: its row is there exactly when it is installed
    has_tp = importlib.util.find_spec("tomotopy") is not None
    assert ("tomotopy DMRModel" in set(b.method)) == has_tp
    assert (b.dropna(subset=["tokens_per_s"]).tokens_per_s > 0).all()


def test_prepare_refuses_a_cycle_when_asked(built, tmp_path):
    from latentlab.data.corpus import BowCorpus

    c = BowCorpus.load(built / "synth_tir.npz")
    a, b = c.links[0]
    c.links = np.vstack([c.links, [[b, a]]])
    c.save(tmp_path / "cyc.npz")
    outs = {k: tmp_path / f"{k}.npz" for k in ("full", "train", "split")}
    outs["summary"] = tmp_path / "s.json"
    with pytest.raises(DataError, match="cycle"):
        ST.execute(
            "prepare", P(graph={"on_cycle": "error"}), {"corpus": [tmp_path / "cyc.npz"]}, outs
        )
    ST.execute("prepare", P(), {"corpus": [tmp_path / "cyc.npz"]}, outs)
    assert json.loads((tmp_path / "s.json").read_text())["cycles_broken"] == 1


def _dry_cmds(workdir, cfg):
    """step -> set of shell commands of the tir jobs a dry run schedules."""
    r = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "-p", "--cores", "1", f"--configfile={cfg}",
         "tir"], cwd=workdir, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    out: dict[str, set] = {}
    for line in (r.stdout + r.stderr).splitlines():
        m = re.search(r"python -m latentlab tir (\w+) .*", line)
        if m:
            out.setdefault(m.group(1), set()).add(m.group(0))
    return out, r.stdout + r.stderr


def test_claims_tolerance_change_leaves_fit_jobs_alone(tmp_path, copy_workflow):
    """Snakemake reruns a job when its params change: a claims tolerance appears in the
    claims job's --params only, so the fit, explore and recovery commands are unchanged."""
    import yaml

    copy_workflow(tmp_path)
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    cfg["studies"] = ["tir"]
    (tmp_path / "a.yaml").write_text(yaml.safe_dump(cfg))
    cfg["tir"].setdefault("claims", {})["approx_rel"] = 0.123
    (tmp_path / "b.yaml").write_text(yaml.safe_dump(cfg))
    a, out_a = _dry_cmds(tmp_path, tmp_path / "a.yaml")
    b, _ = _dry_cmds(tmp_path, tmp_path / "b.yaml")
    assert {"fit", "explore", "recovery", "bench", "claims"} <= set(a)
    for step in ("fit", "explore", "recovery", "bench"):
        assert a[step] == b[step]
    assert a["claims"] != b["claims"] and any("0.123" in c for c in b["claims"])


# The published real recovery (published/real/tir/fig_l_recovery.csv, 3 reps) as L1 means
PUBLISHED_L1 = {
    "no regression (l = 0)": 2.033,
    "constant l = true mean": 1.472,
    "ML (stochastic EM)": 1.770,
    "MAP (Exp prior)": 1.459,
    "ML, exact sampler (Eq 3.4)": 2.835,
    "MH on l (posterior mean)": 1.139,
    "slice sampling on l (posterior mean)": 1.122,
}
BASELINES = ("no regression (l = 0)", "constant l = true mean")


def _claims_on(built, tmp_path, l1, jitter=0.01):
    """The claims on a recovery CSV with these mean L1 errors: the baselines once (they
    have no seed), every fitted variant in REPS runs spread by +-jitter."""
    rows = []
    for m, v in l1.items():
        reps = [0] if m in BASELINES else range(REPS)
        for r in reps:
            rows.append(
                {
                    "method": m,
                    "rep": r,
                    "n_cited": 9,
                    "l1": v if m in BASELINES else v + jitter * (r - (REPS - 1) / 2),
                }
            )
    pd.DataFrame(rows).to_csv(tmp_path / "rec.csv", index=False)  # fmt: skip
    d = built
    ST.execute(
        "claims",
        P(corpora=CORP),
        {k: [v] for k, v in {
            "table3_1": d / "table3_1.csv", "recovery": tmp_path / "rec.csv",
            "self_edges": d / "synth_self_tire_edges.csv", "self_truth": d / "synth_self_t.npz",
            "signtest": d / "sign.csv",
            "docs": d / "synth_tir_tir_docs.csv", "bench": d / "bench.csv",
            "tire_docs": d / "synth_tir_tire_docs.csv",
            "tire_edges": d / "synth_tir_tire_edges.csv", "full": d / "synth_tir_full.npz",
            "prep_summary": d / "synth_tir_summary.json"}.items()},
        {"csv": tmp_path / "claims.csv"},
    )  # fmt: skip
    return read_claims(tmp_path / "claims.csv").set_index("claim_id")


def test_recovery_rows_use_the_best_baseline_and_a_working_exact_comparator(built, tmp_path):
    """Issue 21/22: C3.3 compares ML with the best simple alternative (here the constant
    l = true mean, not l = 0), and C3.6 cannot pass while the exact sampler it compares
    with is worse than no regression; with a working comparator it can. Issue 38: the runs
    are the replicates, and a difference within their noise is inconclusive."""
    df = _claims_on(built, tmp_path, PUBLISHED_L1)
    c33 = df.loc["C3.3"]
    assert c33.verdict == "not_reproduced" and c33.n_rep == str(REPS)
    assert float(c33.our_value) == pytest.approx(1.770 / 1.472, rel=1e-3)
    assert "comparator: constant l = true mean" in c33.note
    c36 = df.loc["C3.6"]
    assert c36.verdict == "not_reproduced" and "VOID" in c36.note
    ok = {**PUBLISHED_L1, "ML, exact sampler (Eq 3.4)": 1.60, "ML (stochastic EM)": 1.40}
    df = _claims_on(built, tmp_path, ok)
    assert df.loc["C3.6"].verdict == "reproduced" and "VOID" not in df.loc["C3.6"].note
    assert df.loc["C3.3"].verdict == "reproduced"  # 1.40 < 1.472 in every run
    worse = {**ok, "ML (stochastic EM)": 1.60 * 1.26}  # beyond 1 + approx_rel
    assert _claims_on(built, tmp_path, worse).loc["C3.6"].verdict == "not_reproduced"
    # ML at the constant's level, runs spread across it: the noise decides nothing
    tie = {**ok, "ML (stochastic EM)": 1.472}
    assert _claims_on(built, tmp_path, tie, jitter=0.05).loc["C3.3"].verdict == "inconclusive"


def test_speed_row_charges_the_regression_step(built):
    """Issue 21: C3.9 ("about as fast as LDA's sampler", the regression "not a bottleneck")
    is LDA's seconds per sweep over TIR's sweep plus one regression per fit.interval sweeps,
    one value per timing (bench.repeats)."""
    df = read_claims(built / "claims.csv").set_index("claim_id")
    b = bench_wide(built / "bench.csv")
    b = b[b.repeat > 0]
    every = ST.settings("claims", {}).fit.interval

    def secs(m):
        return b[b.method == m].sort_values("repeat").seconds.to_numpy()

    want = secs("LDA CGS (dense)") / (
        secs("TIR Gibbs (approximate)") + secs("TIR regression step") / every
    )
    assert len(want) == REPS
    assert json.loads(df.loc["C3.9", "rule"])["ours"] == pytest.approx(list(want))
    assert f"/ {every} (fit.interval)" in df.loc["C3.9", "note"]


def test_bench_keeps_every_timing_and_the_fastest(built):
    b = bench_wide(built / "bench.csv")
    for m, g in b.groupby("method"):
        if m.startswith("tomotopy"):
            continue
        assert sorted(g.repeat) == list(range(REPS + 1)), m
        best = g[g.repeat == 0].seconds.item()
        assert best == pytest.approx(g[g.repeat > 0].seconds.min())


def test_table_3_1_rows_are_proven_within_their_noise(built):
    """Issue 38: the Table 3.1 rows carry one value per run of the fits, and claims prove
    finds each a counter-example within its noise or calls it robust (none is flagged)."""
    from latentlab.claims.prove import prove_ledger

    proofs = {(p.claim_id, p.dataset): p for p in prove_ledger(built / "claims.csv", "tir")}
    for cid in ("C3.1a", "C3.1b", "C3.2a", "C3.1c-TIR", "C3.1c-TIRE", "C3.2b",
                "C3.10-references", "C3.10-citers", "C3.7a", "C3.3", "C3.9"):  # fmt: skip
        p = proofs[(cid, "synth_tir")]
        assert p.proven and not p.flag and p.n_rep >= REPS, (cid, p)


def test_self_citation_row_is_a_sanity_check_counted_apart(built):
    """Issue 38: the synthetic corpus plants the self-citation gap, so its row is an identity
    (counted apart from the empirical claims), never a reproduced finding; the document's
    finding stays not_run on its corpora."""
    df = read_claims(built / "claims.csv")
    c35 = df[df.claim_id == "C3.5"].set_index("dataset")
    assert c35.loc["synth_self", "data_kind"] == "identity"
    assert "true by construction" in c35.loc["synth_self", "note"]
    assert set(c35.loc[["aan", "nips_cite"], "verdict"]) == {"not_run"}


def test_top_l_row_has_its_base_rate(built):
    """Issue 38 (C3.7a): the share of one-citer documents at the top of the l ranking is
    compared with their share among all cited documents, run by run."""
    df = read_claims(built / "claims.csv")
    row = df[(df.claim_id == "C3.7a") & (df.dataset == "synth_tir")].iloc[0]
    d = pd.read_csv(built / "synth_tir_tir_docs.csv")
    cited = d[(d.rep == 0) & (d.citations >= 1)]
    base = (cited.citations == 1).mean()
    rule = json.loads(row.rule)
    assert rule["b"] == pytest.approx([base] * REPS)
    order = dict(by=["l", "doc"], ascending=[False, True])
    top = [g.sort_values(**order).head(5) for _, g in d.groupby("rep")]
    assert rule["a"] == pytest.approx([(t.citations == 1).mean() for t in top])


def test_evidence_by_citers(built):
    """The evidence REVERSALS.md case 3 cites: per estimator and class of citers, the L1
    and bias of l-hat; the baselines' rows equal the recovery CSV's."""
    e = pd.read_csv(built / "by_citers.csv")
    rec = pd.read_csv(built / "rec.csv")
    allrows = e[e.citers == "all"].set_index("estimator")
    for m in ("no regression (l = 0)", "constant l = true mean", "ML (stochastic EM)"):
        assert allrows.loc[m, "l1"] == pytest.approx(rec[rec.method == m].l1.mean(), rel=1e-9)
    assert {"ML given the true z"} <= set(allrows.index)
    # the classes partition the cited documents
    n = e[e.estimator == "no regression (l = 0)"].set_index("citers").n_docs
    assert n["all"] == n["1"] + n["2-3"] + n[">= 4"]
    # l = 0: the bias is minus the mean true l of the class
    assert (e[e.estimator == "no regression (l = 0)"].bias <= 0).all()


def test_table_3_4_relevance_pairs_most_against_least_weight():
    """C3.10 (Table 3.4): per document, the text similarity of the partner on its heaviest
    edge against the one on its lightest (Table 3.4's two picks); a document whose edges all
    weigh the same is left out. A model that weights the unrelated documents higher fails
    the row; one that weights the related ones higher passes it."""
    from latentlab.claims.ledger import judge_order
    from latentlab.data.corpus import BowCorpus
    from latentlab.studies.tir.claims import doc_cosine, edge_relevance

    # docs 0-2 share words (a topic), 3-5 share other words; 0 cites 1 and 3, 4 cites 5 and 2
    dense = np.array([[3, 2, 0, 0], [2, 3, 0, 0], [3, 3, 0, 0], [0, 0, 3, 2], [0, 1, 2, 3],
                      [0, 0, 3, 3]])  # fmt: skip
    cos = doc_cosine(BowCorpus.from_dense(dense))
    assert cos(0, 1) == pytest.approx(12 / 13) and cos(0, 3) == 0.0

    def edges(w_related, w_other):
        return pd.DataFrame({"citing": [0, 0, 4, 4, 2], "cited": [1, 3, 5, 2, 1],
                             "l_edge": [w_related, w_other, w_related, w_other, 1.0]})  # fmt: skip

    most, least, used = edge_relevance(edges(2.0, 0.1), cos, "reference")
    assert used == [0, 4]  # document 2 has a single reference
    assert judge_order(most, least, ">", 0.0, "t0.05")[0] == "reproduced"
    most, least, _ = edge_relevance(edges(0.1, 2.0), cos, "reference")
    assert judge_order(most, least, ">", 0.0, "t0.05")[0] == "not_reproduced"
    assert edge_relevance(edges(1.0, 1.0), cos, "reference")[2] == []  # all of equal weight
    # citers: document 1 is cited by 0 (related) and 2 (related): both picks are related
    most, least, used = edge_relevance(edges(2.0, 0.1), cos, "citer", docs=[1])
    assert used == [1] and min(most + least) > 0.5
