"""End-to-end check of the ais_eval study on a tiny synthetic corpus (every step, every
table/figure writer, the ledger), plus the perturbation and symmetric-alpha helpers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from latentlab.claims.ledger import read_claims
from latentlab.data.synthetic import decaying_alpha, lda_corpus_decaying_alpha
from latentlab.errors import ConfigError
from latentlab.settings import parse_settings
from latentlab.studies.ais_eval import runs as core
from latentlab.studies.ais_eval.study import Iteration, Train
from latentlab.studies.shape import load_study

P = {
    "run": "test",
    "base_seed": 3,
    "threads": 1,
    "train": {
        "K": 4,
        "n_iter": 30,
        "alpha_sum": 2.0,
        "beta": 0.05,
        "optimize_interval": 5,
        "optimize_burn_in": 10,
        "snapshot_every": 10,
        "stats_every": 1,
        "test_frac": 0.15,
        "max_test_docs": 6,
        "perturb_frac": 0.05,
        "perturb_mode": "topic",
    },
    "perturbed": {
        "n_docs": 6,
        "cheap_temps": 5,
        "expensive_temps": 30,
        "runs": 2,
        "burn": 5,
        "S": 1,
    },
    "symasym": {
        "n_docs": 6,
        "cheap_temps": 5,
        "expensive_temps": 30,
        "lr_long_temps": 60,
        "runs": 2,
        "burn": 5,
        "S": 1,
    },
    "iteration": {"n_docs": 3, "n_temps": 3, "factor": 3, "extra": 5, "runs": 2},
    "ntemps": {"grid": [2, 8], "S": 3, "burn": 5, "max_len": 40},
    "corpora": {
        "nips": {"kind": "synthetic", "dataset": "tiny"},
        "acl": {"kind": "synthetic", "dataset": "tiny2"},
    },
    "exact": {"n_temps": 200, "S": 3},
}
COMMON = ("run", "base_seed", "threads")


def step(name, inputs=None, outputs=None, **wildcards):
    """One step as its rule runs it: only the config keys the step reads, named paths."""
    st = load_study("ais_eval")
    params = {k: v for k, v in P.items() if k in COMMON or k in st.config_keys(name)}
    inputs = {k: v if isinstance(v, list) else [v] for k, v in (inputs or {}).items()}
    return st.execute(name, params, inputs, outputs, wildcards)


@pytest.fixture(scope="module")
def models():
    corpus, truth = lda_corpus_decaying_alpha(60, 40, 4, 20, 10, 1.0, 0.5, 0.05, 1)
    assert np.allclose(truth["alpha"], decaying_alpha(4, 1.0, 0.5))
    return core.train_models(corpus, parse_settings(Train, P["train"], "ais_eval.train"), seed=5)


def test_train_outputs(models):
    assert models["phi"].shape == models["phi_perturbed"].shape == models["phi_sym"].shape
    np.testing.assert_allclose(models["phi"].sum(axis=0), 1.0)
    np.testing.assert_allclose(models["phi_perturbed"].sum(axis=0), 1.0)
    assert np.ptp(models["alpha_sym"]) == 0.0  # flat alpha, learned concentration
    # train.first_snapshot 1 (the default): the document's Phi(1), then every 10th
    assert models["snap_phi"].shape[0] == 4 and list(models["snap_iter"]) == [1, 10, 20, 30]
    assert list(models["snap_grid"]) == [False, True, True, True]
    st = models["stats"]
    assert list(st[st[:, 5] == 1, 0]) == [15, 20, 25, 30]  # MALLET schedule: it > 10, % 5


@pytest.mark.parametrize(
    "first, every, n_iter, kept",
    [(1, 10, 30, [1, 10, 20, 30]), (10, 10, 30, [10, 20, 30]), (15, 10, 40, [15, 20, 30, 40]),
     (1, 1, 3, [1, 2, 3]), (25, 10, 30, [25, 30])],
)  # fmt: skip
def test_snapshots_kept(first, every, n_iter, kept):
    assert [i for i in range(1, n_iter + 1) if core.snapshot_kept(i, first, every)] == kept


def test_snapshot_streams_keep_the_grid_numbering():
    """The grid snapshots keep the stream numbers of a run without the first snapshot (so
    their baselines are the same bits); an off-grid first snapshot gets the next one."""
    np.testing.assert_array_equal(core.snapshot_streams([False, True, True, True]), [3, 0, 1, 2])
    np.testing.assert_array_equal(core.snapshot_streams([True, True, True]), [0, 1, 2])


def test_first_snapshot_does_not_move_the_chain(models):
    """Keeping the iteration-1 snapshot draws nothing: the learned, perturbed and symmetric
    models, the stats and the grid snapshots equal those of train.first_snapshot 10."""
    corpus, _ = lda_corpus_decaying_alpha(60, 40, 4, 20, 10, 1.0, 0.5, 0.05, 1)
    tp = parse_settings(Train, dict(P["train"], first_snapshot=10), "ais_eval.train")
    old = core.train_models(corpus, tp, seed=5)
    assert list(old["snap_iter"]) == [10, 20, 30] and old["snap_grid"].all()
    for k in ("phi", "alpha", "phi_perturbed", "phi_sym", "stats", "test_words"):
        np.testing.assert_array_equal(old[k], models[k])
    np.testing.assert_array_equal(old["snap_phi"], models["snap_phi"][1:])
    # the iteration-1 topics are much flatter than the iteration-10 ones (Sec. 5.2.2)
    ent = [float(-(p * np.log(p)).sum()) for p in models["snap_phi"][:2]]
    assert ent[0] > ent[1]


def test_iteration_path_starts_at_the_first_snapshot(models, tmp_path):
    """Only iteration-AIS (its path) and the first snapshot's budget change with the first
    snapshot: the baselines at every later grid snapshot are the same bits."""
    e = parse_settings(Iteration, P["iteration"], "ais_eval.iteration")
    np.savez(tmp_path / "m.npz", **models)
    models = core.load_models(tmp_path / "m.npz")
    new = core.iteration_runs(models, e, seed=4, threads=1)
    old_models = dict(models)
    for k in ("snap_phi", "snap_alpha", "snap_iter", "snap_grid"):
        old_models[k] = models[k][1:]
    old = core.iteration_runs(old_models, e, seed=4, threads=1)
    assert sorted(new.iteration.unique()) == [1, 10, 20, 30]
    assert sorted(old.iteration.unique()) == [10, 20, 30]
    key = ["method", "n_temps", "run", "iteration", "doc"]
    a, b = (x.set_index(key).loglik for x in (new, old))
    late = [(m, it) for m in ("std_ais", "lr") for it in (20, 30)]
    for m, it in late:
        pd.testing.assert_series_equal(a.xs((m, it), level=["method", "iteration"]),
                                       b.xs((m, it), level=["method", "iteration"]))  # fmt: skip
    # the first snapshot of each path has the extra temperatures: iteration 1 here, 10 there
    upd = new.set_index(key).updates
    n0 = P["iteration"]["n_temps"]
    first = upd.xs(("std_ais", n0, 0, 1), level=["method", "n_temps", "run", "iteration"])
    later = upd.xs(("std_ais", n0, 0, 10), level=["method", "n_temps", "run", "iteration"])
    assert (first > later).all()
    it_new = a.xs(("iteration_ais", 30), level=["method", "iteration"])
    it_old = b.xs(("iteration_ais", 30), level=["method", "iteration"])
    assert not np.allclose(it_new, it_old)


def test_perturbation_keeps_counts():
    rng = np.random.default_rng(0)
    z = rng.integers(0, 3, 200)
    w = rng.integers(0, 10, 200)
    nwk = np.zeros((10, 3), int)
    np.add.at(nwk, (w, z), 1)
    for mode in ("topic", "cell"):
        out = core.perturb_counts(z, w, nwk, 3, 0.05, mode, np.random.default_rng(1))
        assert out.sum() == 200 and (out >= 0).all()
        if mode == "topic":
            np.testing.assert_array_equal(out.sum(axis=1), nwk.sum(axis=1))
        assert np.abs(out - nwk).sum() <= 2 * 10


def test_every_step_and_writer(models, tmp_path):
    import json

    path = tmp_path / "m.npz"
    np.savez(path, **models)
    m = core.load_models(path)
    assert json.loads(json.dumps(m["info"]))["K"] == 4
    raw = {}
    for name in ("perturbed", "symasym", "iteration", "ntemps"):
        raw[name] = tmp_path / f"{name}.csv"
        step(name, {"models": path}, {"csv": raw[name]}, role="nips")
    pert, sym, it = (pd.read_csv(raw[k]) for k in ("perturbed", "symasym", "iteration"))
    assert set(pert.method) == set(core.METHODS)
    assert np.isfinite(pert.logratio).all() and np.isfinite(it.loglik).all()
    assert set(it.method) == {"iteration_ais", "std_ais", "lr"}
    assert (sym.regime == "lr_long").sum() == 6
    both = {"nips": raw["perturbed"], "acl": raw["perturbed"]}
    step("table5_1", both, {"csv": tmp_path / "t1.csv"})
    step("table5_2", both, {"csv": tmp_path / "t2.csv"})
    step("table5_3", {"nips": raw["symasym"], "acl": raw["symasym"]}, {"csv": tmp_path / "t3.csv"})
    for fig, inp in (
        ("fig5_4", {"raw": raw["perturbed"]}),
        ("fig5_6", {"raw": raw["ntemps"]}),
        ("fig5_7", {"raw": raw["iteration"]}),
        ("fig5_9", {"raw": raw["iteration"]}),
        ("fig5_11", {"models": path}),
    ):
        step(fig, inp, {"png": tmp_path / f"{fig}.png"})
        assert (tmp_path / f"{fig}.png").stat().st_size > 0
    t1 = pd.read_csv(tmp_path / "t1.csv")
    assert t1.shape == (4, 8) and t1.iloc[:, 2:].apply(lambda c: c.between(0, 100)).all().all()
    inputs = {
        f"{k}_{r}": raw[k] for k in ("perturbed", "symasym", "iteration") for r in ("nips", "acl")
    }
    inputs |= {"ntemps": raw["ntemps"], "models_nips": path, "models_acl": path}
    step("claims", inputs, {"csv": tmp_path / "claims.csv"})
    df = read_claims(tmp_path / "claims.csv")
    ids = set(df.claim_id)
    for c in ["C5.2", "C5.3", "C5.4a", "C5.4b", "C5.5a", "C5.5b", "C5.6", "C5.7a", "C5.7b"]:
        assert c in ids
    for c in ["C5.7c", "C5.8a", "C5.8b", "C5.9", "C5.10", "C5.10b", "C5.11", "C5.12", "C5.13"]:
        assert c in ids
    for c in ["C5.1-lr", "C5.14", "T5.1-exp", "T5.2v-exp", "T5.2r-cheap", "T5.2r-exp"]:
        assert c in ids
    for c in ["T5.3v-exp", "T5.3r-exp", "T5.3c-exp", "T5.2v-geo", "C5.7d", "C5.8c", "C5.9b"]:
        assert c in ids
    assert "T5.3v-convex" in ids
    # the document's numbers beside ours
    t51 = df[(df.claim_id == "T5.1-exp") & (df.dataset == "tiny")].iloc[0]
    assert t51.paper_value == "min ratio-AIS % 86.9 > LR/Std % 84.6"  # the binding pair
    assert "document NIPS expensive: LR 84.6" in t51.note and "; ours: LR " in t51.note
    # issue 38: every empirical row knows its noise (replicates or a spread measured
    # elsewhere: the documents' bootstrap, Fig 5.6's samples, Fig 5.11's windows)
    judged = df[df.verdict.isin(["reproduced", "not_reproduced", "inconclusive"])]
    assert (judged.n_rep != "").all() and (judged.spread != "").all()
    exact = judged[judged.claim_id.str.fullmatch(r"C5\.1-.*|C5\.1[123]")]
    assert len(exact) == 8
    assert (exact.n_rep == "3").all()  # exact.replicates problems
    boot = judged[judged.claim_id == "C5.3"].iloc[0]
    assert "bootstrap over the 6 test documents" in boot.note
    # issue 37: the reading column names the option of each row the readings touch
    reading = dict(zip(zip(df.claim_id, df.dataset, strict=True), df.reading, strict=True))
    assert reading[("C5.8a", "tiny")] == "first_snapshot=iteration1"
    assert reading[("C5.3", "tiny")] == "perturbation=topic"
    assert reading[("C5.5b", "tiny")] == "perturbation=topic"
    assert reading[("C5.10", "tiny")] == ""
    assert "T5.1-exp-lr" in ids  # ACL: ratio-AIS similar to LR, its own row
    # NIPS itself (UCI NIPS) is public: not_run with the config that runs it
    nr = df[df.verdict == "not_run"]
    assert set(nr.claim_id) == {"C5.2", "C5.3", "C5.7a", "C5.8a"}
    assert (nr.dataset == "uci_nips").all() and nr.note.str.contains("config/paper.yaml").all()
    # rows of a group are written dataset by dataset
    four = ["C5.2", "C5.3", "C5.4a", "C5.6"]
    pert_rows = df[df.claim_id.isin(four) & (df.verdict != "not_run")]
    assert list(pert_rows.claim_id) == four * 2
    assert list(pert_rows.dataset) == ["tiny2"] * 4 + ["tiny"] * 4


def test_misspelt_key_is_refused_naming_it():
    st = load_study("ais_eval")
    cfg = {k: v for k, v in P.items() if k not in COMMON}
    st.check_config(cfg)
    with pytest.raises(ConfigError, match=r"ais_eval\.train\.n_iters"):
        st.check_config(dict(cfg, train=dict(cfg["train"], n_iters=3)))
    with pytest.raises(ConfigError, match=r"ais_eval\.clams"):
        st.check_config(dict(cfg, clams={}))
    load_study("ais_eval").check_claims()


@pytest.mark.parametrize(
    "key, value, msg",
    [
        ("train.test_frac", 1.0, r"ais_eval\.train\.test_frac: must be > 0, < 1, got 1\.0"),
        ("train.snapshot_every", 40, r"ais_eval\.train\.snapshot_every: 40 > n_iter 30"),
        ("train.first_snapshot", 31, r"ais_eval\.train\.first_snapshot: 31 > n_iter 30"),
        ("train.first_snapshot", 0, r"ais_eval\.train\.first_snapshot: must be >= 1, got 0"),
        ("ntemps.grid", [2, 0], r"ais_eval\.ntemps\.grid\[1\]: must be >= 1, got 0"),
        ("perturbed.burn", -1, r"ais_eval\.perturbed\.burn: must be >= 0, got -1"),
        # checked inside the symasym job before issue 25
        ("symasym.lr_long_temps", None,
         r"ais_eval\.symasym\.lr_long_temps: required \(Table 5\.3's long LR reference\)"),
        ("symasym.reference", "longest", r"ais_eval\.symasym\.reference: .*longest"),
    ],
)  # fmt: skip
def test_a_bad_value_is_refused_naming_it(key, value, msg):
    section, name = key.split(".")
    cfg = {k: v for k, v in P.items() if k not in COMMON}
    with pytest.raises(ConfigError, match=msg):
        load_study("ais_eval").check_config(dict(cfg, **{section: {**cfg[section], name: value}}))


def test_the_expensive_reference_is_the_expensive_regimes_second_lr_run(models, tmp_path):
    """The reading lr_reference=expensive (Table 5.3's caption): the lr_long rows are the
    expensive regime's second left-to-right run, no separate run; it needs two runs."""
    path = tmp_path / "m.npz"
    np.savez(path, **models)
    out = {r: tmp_path / f"sym_{r}.csv" for r in ("long", "expensive")}
    for r in out:
        P_r = {**P, "symasym": {**P["symasym"], "reference": r}}
        st = load_study("ais_eval")
        params = {k: v for k, v in P_r.items() if k in COMMON or k in st.config_keys("symasym")}
        st.execute("symasym", params, {"models": [path]}, {"csv": out[r]}, {"role": "nips"})
    long, exp = (pd.read_csv(out[r]) for r in ("long", "expensive"))
    body = ["regime", "doc", "run", "method", "logratio"]
    pd.testing.assert_frame_equal(long[long.regime != "lr_long"][body],
                                  exp[exp.regime != "lr_long"][body])  # fmt: skip
    ref = exp[exp.regime == "lr_long"].reset_index(drop=True)
    second = exp[(exp.regime == "expensive") & (exp.method == "lr") & (exp.run == 1)]
    np.testing.assert_array_equal(ref.logratio, second.logratio)
    assert (ref.n_temps == P["symasym"]["expensive_temps"]).all() and len(ref) == 6
    assert not np.array_equal(ref.logratio, long[long.regime == "lr_long"].logratio)
    cfg = {k: v for k, v in P.items() if k not in COMMON}
    one = {**cfg["symasym"], "reference": "expensive", "runs": 1}
    with pytest.raises(ConfigError, match=r"symasym\.runs: the expensive reference"):
        load_study("ais_eval").check_config(dict(cfg, symasym=one))


def test_tolerance_change_reruns_only_the_claims(tmp_path):
    """A claims tolerance changes the command of the claims job only: every training,
    estimator, figure and table job keeps its --params, so `snakemake -n` leaves it alone."""
    from shape_dryrun import rules_changed

    override = {"ais_eval": {"claims": {"exact_abs": 0.2}}}
    changed = rules_changed("ais_eval", override, tmp_path)
    # the study's claims, and those of every option of its smoke readings sweeps
    sweeps = {f"readings_ais_eval_{r}_ais_eval_claims" for r in ("first_snapshot_iteration1",
              "first_snapshot_iteration10", "perturbation_topic", "perturbation_cell")}  # fmt: skip
    assert changed == {"ais_eval_claims"} | sweeps


def test_readings_are_declared_and_consistent():
    """The readings parse as overrides of the study's settings, touch existing claims, and
    the configs' settings implement the published (literal) options."""
    import yaml

    from latentlab import readings, runconfig
    from latentlab.readings import labels
    from latentlab.studies.ais_eval.readings import READINGS

    # readings.check parses each option as a partial section (keys it leaves out may be
    # missing); every option is also checked over each config's whole section below
    readings.check("ais_eval")
    ids = {c.id for c in load_study("ais_eval").claim_specs}
    from fnmatch import fnmatchcase

    for r in READINGS:
        assert all(any(fnmatchcase(i, p) for i in ids) for p in r.rows), r.name
    assert {r.name: r.published for r in READINGS} == {
        "first_snapshot": "iteration1",
        "perturbation": "topic",
        "lr_reference": "long",
    }
    root = Path(__file__).resolve().parents[2]
    st = load_study("ais_eval")
    for name in ("config", "real", "paper"):
        section = yaml.safe_load((root / f"config/{name}.yaml").read_text())["ais_eval"]
        assert labels("ais_eval", section) == {
            "first_snapshot": "iteration1",
            "perturbation": "topic",
            "lr_reference": "long",
        }, name
        for r in READINGS:
            for label, over in r.options.items():
                merged = runconfig.merge(section, over)
                st.check_config(merged)  # the option parses over the run's settings
                assert labels("ais_eval", merged)[r.name] == label
    section = {**P, "train": {**P["train"], "first_snapshot": 10, "perturb_mode": "cell"}}
    section = {k: v for k, v in section.items() if k not in COMMON}
    assert labels("ais_eval", section) == {
        "first_snapshot": "iteration10",
        "perturbation": "cell",
        "lr_reference": "long",
    }
    section["train"]["first_snapshot"] = 5
    assert labels("ais_eval", section)["first_snapshot"] == "custom"


def test_doc_length_evidence_repeats_the_tables(models, tmp_path):
    """evidence/doc_length.csv: its rows over all documents are the Table 5.1/5.2 values;
    the halves split at the median length."""
    from latentlab.studies.ais_eval.evidence import doc_length_table
    from latentlab.studies.ais_eval.tables import doc_variance, pct_prefer

    path = tmp_path / "m.npz"
    np.savez(path, **models)
    raw = {}
    for name in ("perturbed", "symasym"):
        raw[name] = tmp_path / f"{name}.csv"
        step(name, {"models": path}, {"csv": raw[name]}, role="nips")
    frames = {("tiny", k): pd.read_csv(v) for k, v in raw.items()}
    t = doc_length_table(frames)
    assert len(t) == 2 * 2 * 3  # experiments x regimes x parts
    for r in t[t.part == "all"].itertuples():
        g = frames[("tiny", r.experiment)]
        g = g[g.regime == r.regime]
        assert r.pct_lr == pytest.approx(pct_prefer(g)["lr"])
        assert r.var_geo == pytest.approx(doc_variance(g)["geo"])
        assert r.n_docs == g.doc.nunique()
    halves = t[(t.experiment == "perturbed") & (t.regime == "cheap")].set_index("part")
    assert halves.loc["shorter half", "N_max"] <= halves.loc["longer half", "N_min"]
    assert halves.loc["shorter half", "n_docs"] + halves.loc["longer half", "n_docs"] == 6


def test_jensen_evidence_paths_and_documents(models, tmp_path):
    """evidence/iteration_jensen.csv: both paths the models hold (from iteration 1 and from
    the grid's 10), the first and the longest documents; logmeanexp over chains >= the mean
    log-weight (Jensen); chain 0 of S chains is the S = 1 estimate with the same stream."""
    from latentlab.evaluation import ais
    from latentlab.studies.ais_eval.evidence import _docs_of, _paths, jensen_table

    np.savez(tmp_path / "m.npz", **models)
    m = core.load_models(tmp_path / "m.npz")
    paths = _paths(m)
    assert list(paths) == ["from_1", "from_10"]
    np.testing.assert_array_equal(paths["from_10"], [1, 2, 3])
    lens = np.array([len(d) for d in m["docs"]])
    _, idx = _docs_of(m, "longest", 2)
    assert sorted(lens[idx]) == sorted(lens)[-2:]
    _, idx = _docs_of(m, "first", 2)
    np.testing.assert_array_equal(idx, [0, 1])
    t = jensen_table(m, n=3, factor=3, extra=5, chains=4, n_docs=2,
                     doc_sets=["first", "longest"], seed=1, threads=1)  # fmt: skip
    assert set(t.docs) == {"first", "longest"} and set(t.path) == {"from_1", "from_10"}
    assert len(t) == 2 * (4 + 3)  # doc sets x (snapshots of each path)
    assert (t.gap >= -1e-12).all() and (t.var_log_w >= 0).all()
    np.testing.assert_allclose(t.deficit_n, t.mean_log_w - t.lr_n)
    # the from_1 path with S chains: chain 0 is what the S = 1 estimator gives
    docs, _ = _docs_of(m, "first", 2)
    phis = m["snap_phi"]
    full = np.concatenate([phis, np.maximum(1 - phis.sum(axis=1, keepdims=True), 0)], 1)
    one = ais.iteration_ais(full, m["snap_alpha"], docs, 3, 5, 1, 7, 1000)
    four = ais.iteration_ais(full, m["snap_alpha"], docs, 3, 5, 4, 7, 1000)
    np.testing.assert_allclose(four.log_weights[:, 0, :], one.log_weights[:, 0, :])


def test_synthetic_first_snapshot_evidence():
    """evidence/first_snapshot_synthetic.csv on a tiny corpus: both paths, every snapshot of
    each, the runs' mean and variance, the deficit against LR."""
    from latentlab.settings import parse_settings as ps
    from latentlab.studies.ais_eval.evidence import synthetic_paths
    from latentlab.studies.ais_eval.study import SyntheticPathEvidence

    corpus = {"n_docs": 40, "n_vocab": 30, "n_topics": 3, "doc_length": 30, "min_length": 20,
              "alpha_sum": 1.0, "alpha_decay": 1.0, "beta": 0.05}  # fmt: skip
    cfg = ps(SyntheticPathEvidence, {
        "corpus": corpus, "K": 3, "n_iter": 20, "snapshot_every": 10, "test_frac": 0.1,
        "n_test": 2, "n_temps": 5, "extra": 5, "runs": 3, "lr_particles": 4,
    }, "ais_eval.evidence.synthetic")  # fmt: skip
    df = synthetic_paths(cfg, seed=4, threads=1)
    assert set(df.path) == {"from_1", "from_10"}
    assert sorted(df[df.path == "from_1"].iteration.unique()) == [1, 10, 20]
    assert sorted(df[df.path == "from_10"].iteration.unique()) == [10, 20]
    assert (df.runs == 3).all() and df.doc.nunique() == 2 and np.isfinite(df.deficit).all()
    np.testing.assert_allclose(df.deficit, df.mean_log_w - df.lr)
    # the LR reference is the same for both paths at a shared snapshot
    a = df[(df.path == "from_1") & (df.iteration == 20)].set_index("doc").lr
    b = df[(df.path == "from_10") & (df.iteration == 20)].set_index("doc").lr
    pd.testing.assert_series_equal(a, b)
