"""hdp_pcvb0's evidence steps (issue 37: the files its causes and REVERSALS.md case 1 cite
are built by the study's rules, no longer by scripts): the runs file reproduces a fabricated
run directory's numbers, the T ladder's and the traces' fits are the perplexity step's own
fits, and the real config's settings are those of the published files."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from latentlab.errors import DataError

ROOT = Path(__file__).resolve().parents[2]

# the columns of the published files (published/real/hdp_pcvb0/evidence/runs.csv,
# keff_ladder.csv, traces.csv; first written by one-off scripts with the same columns)
RUNS_COLUMNS = [
    "dataset", "config", "T", "run", "n_docs", "n_train_tokens", "tokens_per_doc", "n_vocab",
    "unigram_perplexity", "final_perplexity", "final_over_unigram", "perplexity_it1",
    "perplexity_it5_50_min", "perplexity_it5_50_max", "alpha0", "beta0", "gamma0",
    "effective_topics", "effective_topics_0p1pct", "max_alpha_pi_E",
]  # fmt: skip
KEFF_COLUMNS = [
    "dataset", "config", "T", "run", "iterations", "unigram_perplexity", "final_perplexity",
    "effective_topics", "effective_topics_0p1pct", "alpha0", "beta0", "gamma0",
    "max_alpha_pi_E", "cpu_seconds",
]  # fmt: skip
TRACE_COLUMNS = [
    "dataset", "config", "T", "beta_init", "iteration", "perplexity", "alpha0", "gamma0",
    "beta0", "tau_perplexity", "tau_max", "effective_topics", "max_nk_share", "max_alpha_pi",
    "seconds",
    *[f"fp_{n}_{k}" for n in ("alpha0", "beta0")
      for k in ("num", "lo", "hi", "n_iter", "converged")],
]  # fmt: skip
EVIDENCE = ROOT / "published/real/hdp_pcvb0/evidence"  # the steps' outputs of the real run


@pytest.fixture(scope="module")
def section():
    return {
        "configs": ["cvb0_AA", "pcvb0_AS", "pcvb0_AA"],
        "options": {"fp_max_iter": 50},
        "datasets": {
            "toy": {
                "source": "synthetic",
                "generator": "hdp",
                "N": 40,
                "V": 60,
                "T_true": 8,
                "mean_len": 30,
                "seed": 1,
            },
        },  # fmt: skip
        "perplexity": {"datasets": ["toy"], "T": [3, 5], "trace_T": 5, "runs": 2, "iterations": 6},
        "evidence": {
            "keff_ladder": {
                "T": {"toy": [5, 8]},
                "configs": ["pcvb0_AS", "pcvb0_AA"],
                "runs": 2,
                "iterations": 6,
            },
            "traces": {
                "dataset": "toy",
                "T": 5,
                "fits": [
                    {"config": "cvb0_AA", "iterations": 6},
                    {"config": "pcvb0_AA", "iterations": 6},
                    {"config": "pcvb0_AA", "beta_init": "per_V", "iterations": 3},
                ],
            },
        },  # fmt: skip
    }


def _step(section, step, inputs=None, outputs=None, **wildcards):
    """Run one step as the rule would: only the keys its settings declare."""
    from latentlab.studies.shape import load_study

    study = load_study("hdp_pcvb0")
    keys = study.config_keys(step)
    params = {"run": "test", "base_seed": 5, "threads": 1,
              **{k: v for k, v in section.items() if k in keys}}  # fmt: skip
    inputs = {k: v if isinstance(v, list) else [v] for k, v in (inputs or {}).items()}
    return study.execute(step, params, inputs=inputs, outputs=outputs, wildcards=wildcards)


@pytest.fixture(scope="module")
def toy(tmp_path_factory, section):
    """The toy corpus and the perplexity step's fits of it (cvb0_AA, pcvb0_AS, pcvb0_AA)."""
    d = tmp_path_factory.mktemp("hdp_evidence")
    _step(section, "prepare", outputs={"data": d / "toy.npz"}, dataset="toy")
    for c in section["configs"]:
        _step(section, "perplexity", {"data": d / "toy.npz"}, {"json": d / f"{c}.json"},
              dataset="toy", config=c)  # fmt: skip
    return d


def _split(section, path):
    from latentlab.data.corpus import BowCorpus
    from latentlab.data.splits import split_within_documents

    # the perplexity step's split: base_seed 5 + split_seed 1
    return split_within_documents(BowCorpus.load(path), frac=0.8, seed=5 + 1,
                                  short_docs="drop", oov_rule="drop", source=str(path))  # fmt: skip


def test_unigram_perplexity_is_the_mean_surprise_of_the_test_tokens(toy, section):
    """exp of the mean -log p(w) over the test tokens, p the training word frequencies,
    counted token by token."""
    from latentlab.studies.hdp_pcvb0.evidence import unigram_perplexity

    sp = _split(section, toy / "toy.npz")
    train = np.bincount(np.asarray(sp.train.words), minlength=sp.train.V)
    test = np.repeat(np.asarray(sp.test.word), np.asarray(sp.test.count))
    want = math.exp(-np.mean(np.log(train[test] / train.sum())))
    assert unigram_perplexity(sp.train, sp.test) == pytest.approx(want, rel=1e-12)


def _fabricated_run(sp, config, runs):
    return {"dataset": "toy", "config": config, "split": dict(sp.info), "runs": [
        {"T": T, "run": r, "final_perplexity": f, "trace": tr, "alpha0": 1.5, "beta0": 20.0,
         "gamma0": 3.0, "effective_topics": T, "effective_topics_0p1pct": T - 1,
         "max_alpha_pi_E": 0.25}
        for T, r, f, tr in runs]}  # fmt: skip


def test_runs_evidence_reproduces_the_run_files(toy, section, tmp_path):
    """A fabricated run directory: each (T, run) of each configuration's JSON is a row, the
    configurations by name, its numbers to the published file's 6 significant digits, the
    iteration-1 perplexity and the 5-50 range read from the trace (NaN without one)."""
    from latentlab.studies.hdp_pcvb0.evidence import unigram_perplexity

    sp = _split(section, toy / "toy.npz")
    uni = unigram_perplexity(sp.train, sp.test)
    trace = [100.0 + i for i in range(60)][::-1]  # 159 ... 100
    files = []
    for config, runs in (("pcvb0_AA", [(5, 0, 42.123456789, trace)]),
                         ("cvb_AS", [(3, 0, 50.0, []), (3, 1, 51.0, [])])):  # fmt: skip
        files.append(tmp_path / f"{config}.json")
        files[-1].write_text(json.dumps(_fabricated_run(sp, config, runs)))
    out = tmp_path / "evidence" / "runs.csv"
    out.parent.mkdir()
    _step(section, "evidence_runs", {"runs": files, "data": toy / "toy.npz"}, {"csv": out})
    df = pd.read_csv(out)
    assert list(df.columns) == RUNS_COLUMNS
    keys = list(df[["config", "T", "run"]].itertuples(index=False, name=None))
    assert keys == [("cvb_AS", 3, 0), ("cvb_AS", 3, 1), ("pcvb0_AA", 5, 0)]
    last = df.iloc[-1]
    assert last.final_perplexity == 42.1235  # %.6g
    assert last.unigram_perplexity == pytest.approx(uni, rel=1e-5)
    assert last.final_over_unigram == pytest.approx(42.123456789 / uni, rel=1e-5)
    assert (last.perplexity_it1, last.perplexity_it5_50_min, last.perplexity_it5_50_max) == (
        159.0,
        110.0,
        155.0,
    )  # trace[0], min and max of trace[4:50]
    assert (last.effective_topics, last.effective_topics_0p1pct) == (5, 4)
    assert df.iloc[0][["perplexity_it1", "perplexity_it5_50_min"]].isna().all()
    info = sp.info
    assert set(df.n_docs) == {info["n_docs_in"] - info["n_docs_dropped_short"]}
    assert set(df.n_train_tokens) == {info["n_train_tokens"]}
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert meta["step"] == "evidence_runs" and "perplexity" in meta["settings"]
    assert meta["splits"]["toy"]["unigram_perplexity"] == pytest.approx(uni)
    # a run whose split is not the settings' is refused, naming the file
    bad = json.loads(files[0].read_text())
    bad["split"]["n_train_tokens"] += 1
    files[0].write_text(json.dumps(bad))
    with pytest.raises(DataError, match="split differs"):
        _step(section, "evidence_runs", {"runs": files, "data": toy / "toy.npz"}, {"csv": out})


def test_runs_evidence_of_the_perplexity_steps_own_fits(toy, section, tmp_path):
    """On the step's real JSONs: one row per fit, the final perplexities the fits'."""
    files = [toy / f"{c}.json" for c in section["configs"]]
    out = tmp_path / "runs.csv"
    _step(section, "evidence_runs", {"runs": files, "data": toy / "toy.npz"}, {"csv": out})
    df = pd.read_csv(out)
    n = sum(len(json.loads(f.read_text())["runs"]) for f in files)
    assert len(df) == n and list(df.columns) == RUNS_COLUMNS
    fits = json.loads((toy / "pcvb0_AA.json").read_text())["runs"]
    got = df[df.config == "pcvb0_AA"]
    for r, row in zip(fits, got.itertuples(), strict=True):
        assert row.final_perplexity == pytest.approx(r["final_perplexity"], rel=1e-5)
        if r["trace"]:
            assert row.perplexity_it1 == pytest.approx(r["trace"][0], rel=1e-5)


def test_keff_ladder_repeats_the_perplexity_steps_fits(toy, section, tmp_path):
    """Its fits are the perplexity step's at the same T (same split, options and seeds: the
    published ladder's T = 50 rows repeat the run's fits); topics in use <= T."""
    out = tmp_path / "keff_ladder.csv"
    _step(section, "evidence_keff_ladder", {"data": toy / "toy.npz"}, {"csv": out})
    df = pd.read_csv(out)
    assert list(df.columns) == KEFF_COLUMNS
    assert list(df[["T", "config", "run"]].itertuples(index=False, name=None)) == [
        (T, c, r) for T in (5, 8) for c in ("pcvb0_AS", "pcvb0_AA") for r in (0, 1)]  # fmt: skip
    assert (df.iterations == 6).all() and (df.dataset == "toy").all()
    assert np.isfinite(df.final_perplexity).all() and (df.final_perplexity > 1).all()
    assert (df.effective_topics <= df["T"]).all()
    assert (df.effective_topics_0p1pct <= df.effective_topics).all()
    assert (df.cpu_seconds >= 0).all() and df.unigram_perplexity.nunique() == 1
    for c in ("pcvb0_AS", "pcvb0_AA"):
        fits = {r["run"]: r for r in json.loads((toy / f"{c}.json").read_text())["runs"]
                if r["T"] == 5}  # fmt: skip
        for row in df[(df.config == c) & (df["T"] == 5)].itertuples():
            f = fits[row.run]
            assert row.final_perplexity == pytest.approx(f["final_perplexity"], abs=5e-4)
            assert row.alpha0 == pytest.approx(f["alpha0"], rel=1e-12)
            assert row.effective_topics == f["effective_topics"]
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert meta["settings"]["evidence"]["keff_ladder"]["T"] == {"toy": [5, 8]}
    assert meta["cpu_seconds_total"] == pytest.approx(df.cpu_seconds.sum())


def test_traces_are_the_perplexity_steps_trace(toy, section, tmp_path):
    """One row per iteration of each fit; the literal start's perplexities are the
    perplexity step's trace at trace_T (same fit); the fixed-point columns are empty for
    CVB0 (Gamma posteriors) and bracket their root for PCVB0."""
    out = tmp_path / "traces.csv"
    _step(section, "evidence_traces", {"data": toy / "toy.npz"}, {"csv": out})
    df = pd.read_csv(out, keep_default_na=False, na_values=[""])
    assert list(df.columns) == TRACE_COLUMNS
    groups = [(c, b, len(g)) for (c, b), g in df.groupby(["config", "beta_init"], sort=False)]
    assert groups == [("cvb0_AA", "literal", 6), ("pcvb0_AA", "literal", 6),
                      ("pcvb0_AA", "per_V", 3)]  # fmt: skip
    for _, g in df.groupby(["config", "beta_init"]):
        assert list(g.iteration) == list(range(1, len(g) + 1))
    assert (df["T"] == 5).all() and np.isfinite(df.perplexity).all()
    assert (df.effective_topics <= 5).all() and (df.max_nk_share <= 1).all()
    for c in ("cvb0_AA", "pcvb0_AA"):
        run = json.loads((toy / f"{c}.json").read_text())
        tr = next(r["trace"] for r in run["runs"] if r["T"] == 5 and r["run"] == 0)
        got = df[(df.config == c) & (df.beta_init == "literal")].perplexity
        np.testing.assert_allclose(got, tr, rtol=1e-12)
    fp = [f"fp_{n}_{k}" for n in ("alpha0", "beta0") for k in ("num", "lo", "hi", "n_iter")]
    cvb0 = df[df.config == "cvb0_AA"]
    assert cvb0[fp].isna().all().all()
    assert (cvb0.fp_alpha0_converged.isna()).all()
    p = df[df.config == "pcvb0_AA"]
    assert p[fp].notna().all().all()
    assert set(p.fp_alpha0_converged.astype(str)) <= {"True", "False"}
    assert (p.fp_alpha0_lo < p.fp_alpha0_num).all() and (p.fp_alpha0_num < p.fp_alpha0_hi).all()
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert meta["unigram_perplexity_same_split"] > 1 and meta["step"] == "evidence_traces"


def _published(name: str) -> Path:
    """The published evidence file ``name`` (the step's output of the real run)."""
    return EVIDENCE / f"{name}.csv"


def test_real_config_states_the_published_files_settings():
    """config/real.yaml's evidence settings are those the published files were made with
    (their (corpus, T) grid, and their traced fits in the files' order), and the steps' columns
    are the published files'."""
    from latentlab.studies.shape import load_study

    for name, cols in (("runs", RUNS_COLUMNS), ("keff_ladder", KEFF_COLUMNS),
                       ("traces", TRACE_COLUMNS)):  # fmt: skip
        assert list(pd.read_csv(_published(name), nrows=1).columns) == cols, name
    sec = yaml.safe_load((ROOT / "config/real.yaml").read_text())["hdp_pcvb0"]
    ev = load_study("hdp_pcvb0").settings("evidence_traces", sec).evidence
    keff = pd.read_csv(_published("keff_ladder"))
    grid = {}
    for r in keff.drop_duplicates(["dataset", "T"]).itertuples():
        grid.setdefault(r.dataset, []).append(int(r.T))
    assert ev.keff_ladder.T == grid  # the (corpus, T) grid; rows come in the step's order
    assert ev.keff_ladder.configs == list(dict.fromkeys(keff.config))
    assert set(keff.iterations) == {ev.keff_ladder.iterations}
    assert set(keff.run) == set(range(ev.keff_ladder.runs))
    tr = pd.read_csv(_published("traces"))
    fits = [(c, b, len(g)) for (c, b), g in tr.groupby(["config", "beta_init"], sort=False)]
    assert [(f.config, f.beta_init, f.iterations) for f in ev.traces.fits] == fits
    assert set(tr["T"]) == {ev.traces.T} and set(tr.dataset) == {ev.traces.dataset}
    # the defaults are the published settings too (paper.yaml takes them)
    default = load_study("hdp_pcvb0").settings("evidence_traces", {}).evidence
    assert default == ev


def test_evidence_settings_reach_only_the_evidence_steps(tmp_path, rules_changed):
    """The evidence target resolves on the smoke config, and its settings rerun no fit of
    the study."""
    changed = rules_changed(
        "hdp_pcvb0_evidence", {"hdp_pcvb0": {"evidence": {"traces": {"T": 20}}}}, tmp_path
    )
    assert "hdp_pcvb0_evidence_traces" in changed
    assert changed <= {"hdp_pcvb0_evidence_traces", "hdp_pcvb0_evidence_keff_ladder"}
