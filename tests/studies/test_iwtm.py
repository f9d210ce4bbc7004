"""Study iwtm: settings parse, the dense SIFT grid, the pool split, HIK, claims tolerance
changes leave the fit jobs alone."""

from __future__ import annotations

import numpy as np
import pytest

from latentlab.data.parsers.scene15 import dense_sift
from latentlab.errors import ConfigError, DataError
from latentlab.studies.iwtm import parts
from latentlab.studies.iwtm import pipeline as P
from latentlab.studies.shape import load_study


def test_config_sections_parse():
    import yaml

    st = load_study("iwtm")
    for f in ("config/config.yaml", "config/real.yaml", "config/paper.yaml"):
        st.check_config(yaml.safe_load(open(f))["iwtm"])
    with pytest.raises(ConfigError, match=r"iwtm\.cavi\.CC"):
        st.check_config({"cavi": {"CC": 1}})


def test_dense_sift_grid_and_small_image():
    img = np.random.default_rng(0).random((64, 96))
    d, pos = dense_sift(img, step=10, patch=16)
    assert d.shape == (len(np.arange(8, 57, 10)) * len(np.arange(8, 89, 10)), 128)
    assert pos[:, 0].min() == 8 and pos[:, 1].max() <= 56
    with pytest.raises(DataError, match="smaller than one"):
        dense_sift(np.zeros((10, 10)), 10, 16)


def test_hik_is_sum_of_minima():
    A = np.array([[0.2, 0.8], [0.5, 0.5]])
    K = P.hik(A, A)
    assert K[0, 1] == pytest.approx(0.7) and np.allclose(np.diag(K), 1.0)


def test_claims_tolerance_only_reruns_claims(tmp_path):
    st = load_study("iwtm")
    assert "claims" not in st.config_keys("ch4") and "claims" not in st.config_keys("ch5")
    # the claims also read the descriptors' preprocessing: it decides a row's data kind
    assert st.config_keys("claims") == ["datasets", "claims", "scene", "desc_per_doc"]


def test_desc_per_doc_subsample_is_a_seeded_subset(tmp_path):
    import json

    from latentlab.studies.iwtm.runs import _load

    X = np.arange(20, dtype=np.float32)[:, None] * np.ones((1, 3), np.float32)
    ip = np.array([0, 2, 9, 20])
    np.savez(tmp_path / "d.npz", X=X, indptr=ip, labels=np.zeros(3, int), rank=-np.ones(3, int))
    (tmp_path / "d.json").write_text(json.dumps({"dataset": "d"}))
    z, _ = _load(tmp_path / "d.npz", 4, seed=3)
    np.testing.assert_array_equal(z["indptr"], [0, 2, 6, 10])
    rows = z["X"][:, 0].astype(int)
    for d in range(3):  # each document keeps only its own rows, in order, without repeats
        r = rows[z["indptr"][d] : z["indptr"][d + 1]]
        assert np.all((r >= ip[d]) & (r < ip[d + 1])) and np.all(np.diff(r) > 0)
    np.testing.assert_array_equal(z["X"], _load(tmp_path / "d.npz", 4, seed=3)[0]["X"])
    with pytest.raises(ConfigError, match=r"iwtm\.desc_per_doc: must be >= 1, got 0"):
        load_study("iwtm").settings("ch4", {"desc_per_doc": 0})  # at start-up, not in _load


# ---------------------------------------------------------------- chapters 6-7 steps
TINY = {
    "syn_iwtm": {"n_classes": 3, "docs_per_class": 12, "dim": 4, "n_clusters": 12,
                 "n_topics": 4, "signature": 2, "mean_len": 15.0, "min_len": 8},
    "split": {"train_pool": 8},
    "cavi": {"C": 20, "K": 40, "max_local": 10},
    "svi": {"T": 3, "n_train": 8, "rho": [0.5, 1.0], "passes": 3, "seeds": 1},
    "ivi": {"T": 3, "seed_per_class": 2, "grow_per_class": 3, "max_per_class": 8,
            "seed_iter": 4, "new_iter": 3, "round_iter": 2, "scratch_iter": 4, "n_corr": 10,
            "elbo_every": 2},
}  # fmt: skip


def _step(name, inputs=None, outputs=None, section=TINY, **wc):
    st = load_study("iwtm")
    params = {"run": "test", "base_seed": 0, "threads": 1}
    params.update({k: v for k, v in section.items() if k in st.config_keys(name)})
    inputs = {k: v if isinstance(v, list) else [v] for k, v in (inputs or {}).items()}
    if name in parts.NAMES:  # a fanned-out step: its parts, then the step (issue 39)
        return parts.execute_all(st, name, params, inputs, outputs, wc)
    return st.execute(name, params, inputs, outputs, wc)


@pytest.fixture(scope="module")
def incr(tmp_path_factory):
    d = tmp_path_factory.mktemp("iwtm67")
    _step("data", outputs={"npz": d / "syn_iwtm.npz", "meta": d / "syn_iwtm.json"},
          dataset="syn_iwtm")  # fmt: skip
    _step("svi", {"data": d / "syn_iwtm.npz"}, {"csv": d / "svi_syn_iwtm.csv"})
    _step("ivi", {"data": d / "syn_iwtm.npz"},
          {"csv": d / "ivi_syn_iwtm.csv", "trace": d / "ivi_syn_iwtm.trace.csv"})  # fmt: skip
    return d


def test_svi_step_sees_equal_documents_and_snapshots_the_elbo(incr):
    import pandas as pd

    df = pd.read_csv(incr / "svi_syn_iwtm.csv")
    assert set(df.rho) == {0.5, 1.0}
    last = df.sort_values("iteration").groupby("rho").tail(1).set_index("rho")
    assert last.docs_seen.loc[0.5] == last.docs_seen.loc[1.0] == 3 * 24  # 3 passes x N_doc
    assert (df[df.rho == 0.5].batch == 12).all() and (df[df.rho == 1.0].batch == 24).all()
    assert np.isfinite(df.dropna(subset=["elbo"]).elbo).all()
    assert df.groupby("rho").seconds.apply(lambda s: (np.diff(s) > 0).all()).all()


def test_ivi_step_grows_the_set_and_every_method_has_an_elbo(incr):
    import pandas as pd

    t = pd.read_csv(incr / "ivi_syn_iwtm.csv")
    assert list(t.n_docs) == [6, 15, 24]
    assert np.isfinite(t[["ivi_elbo", "noext_elbo", "scratch_elbo"]].values).all()
    assert (t.ivi_extend_clusters.iloc[1:] >= t.ivi_before_clusters.iloc[1:]).all()
    tr = pd.read_csv(incr / "ivi_syn_iwtm.trace.csv")
    # both methods: 4 seed iterations + 2 rounds x 2, N_doc follows the grown set
    for _, g in tr.groupby("method"):
        assert len(g) == 8 and list(g.n_doc.unique()) == [6, 15, 24]


def test_fig6_1_fig7_3_table7_1_build(incr, tmp_path):
    _step("fig6_1", {"svi": incr / "svi_syn_iwtm.csv"},
          {"png": tmp_path / "f61.png", "csv": tmp_path / "f61.csv"})  # fmt: skip
    _step("fig7_3", {"ivi_trace": incr / "ivi_syn_iwtm.trace.csv"},
          {"png": tmp_path / "f73.png", "csv": tmp_path / "f73.csv"})  # fmt: skip
    _step("table7_1", {"ivi": incr / "ivi_syn_iwtm.csv"}, {"csv": tmp_path / "t71.csv"})
    assert (tmp_path / "f61.png").stat().st_size > 0 and (tmp_path / "f73.png").exists()
    import pandas as pd

    t = pd.read_csv(tmp_path / "t71.csv")
    assert np.isnan(t.ivi_elbo.iloc[0]) and np.isfinite(t.scratch_over_ivi_time.iloc[1:]).all()


def test_ivi_bad_settings_name_the_key(incr):
    bad = {**TINY, "ivi": {**TINY["ivi"], "max_per_class": 50}}
    with pytest.raises(ConfigError, match="max_per_class"):
        _step("ivi", {"data": incr / "syn_iwtm.npz"},
              {"csv": incr / "x.csv", "trace": incr / "y.csv"}, section=bad)  # fmt: skip
    bad = {**TINY, "svi": {**TINY["svi"], "rho": [1.5]}}
    with pytest.raises(ConfigError, match="rho"):
        _step("svi", {"data": incr / "syn_iwtm.npz"}, {"csv": incr / "x.csv"}, section=bad)


def test_scene8_step_and_fig4_3(incr, tmp_path):
    import pandas as pd

    s8 = {"dataset": "syn_iwtm", "T": 3, "n_train": 5, "test_per_class": 2}
    g = {"T": [3], "n_iter": 4, "burn_in": 2, "hyper_every": 2, "test_iter": 2, "dish_cap": 200}
    sec = {**TINY, "scene8": s8, "gibbs": g}
    out = {"csv": tmp_path / "s8.csv", "confusion": tmp_path / "s8.npz"}
    _step("scene8", {"data": incr / "syn_iwtm.npz"}, out, section=sec)
    df = pd.read_csv(out["csv"])
    assert list(df[["T", "n_train", "n_test"]].iloc[0]) == [3, 5, 6] and 0 <= df.acc[0] <= 1
    M = np.load(out["confusion"])["confusion"]
    assert M.shape == (3, 3) and np.allclose(M.sum(1), 1.0)
    _step("fig4_3", {"scene8": out["csv"], "confusion": out["confusion"]},
          {"png": tmp_path / "f43.png", "csv": tmp_path / "f43.csv"})  # fmt: skip
    f = pd.read_csv(tmp_path / "f43.csv")
    assert len(f) == 9 and np.isclose(f.acc_mean[0], 100 * df.acc.mean())
    bad = {**sec, "scene8": {**sec["scene8"], "n_train": 9}}
    with pytest.raises(ConfigError, match=r"scene8\.n_train"):
        _step("scene8", {"data": incr / "syn_iwtm.npz"}, out, section=bad)


def test_pareback_counts_and_lower_bound_never_decreases():
    from latentlab.studies.iwtm.pareback import clusters_per_iteration

    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(m, 0.3, size=(60, 2)) for m in (-3.0, 0.0, 3.0)])
    rows = clusters_per_iteration(X, C=12, gamma=1.0, n_iter=15, seed=0)
    c = np.array([r["clusters"] for r in rows])
    lb = np.array([r["lower_bound"] for r in rows])
    assert len(rows) == 15 and np.all((c >= 1) & (c <= 12))
    assert np.all(np.diff(lb) >= -1e-6 * np.abs(lb[1:]))  # VB: the bound never decreases
    assert c[-1] < c[0]  # three blobs: the truncation of 12 is pared back
    again = clusters_per_iteration(X, C=12, gamma=1.0, n_iter=15, seed=0)
    assert [r["clusters"] for r in again] == list(c)  # seeded: the same counts


def test_fig6_2_divides_lda_kmeans_by_svi_time(incr, tmp_path):
    import pandas as pd

    svi = pd.read_csv(incr / "svi_syn_iwtm.csv")
    n, T = int(svi.n_train.iloc[0]), int(svi["T"].iloc[0])
    ch5 = pd.DataFrame(dict(dataset="syn_iwtm", model="LDA_KMEANS", T=T, n_train=n,
                            K=[10, 40], seconds=[2.0, 4.0]))  # fmt: skip
    ch5.to_csv(tmp_path / "ch5.csv", index=False)
    _step("fig6_2", {"svi": incr / "svi_syn_iwtm.csv", "ch5": tmp_path / "ch5.csv"},
          {"png": tmp_path / "f62.png", "csv": tmp_path / "f62.csv"})  # fmt: skip
    f = pd.read_csv(tmp_path / "f62.csv")
    last = svi[svi.rho == svi.rho.min()].dropna(subset=["elbo"]).sort_values("iteration")
    np.testing.assert_allclose(f.ratio, [2.0 / last.seconds.iloc[-1], 4.0 / last.seconds.iloc[-1]])


def test_ch5_lda_gdpmm_uses_the_iwtm_mixture_and_records_the_engine(incr, tmp_path):
    """Issue 22 case 7: LDA+GDPMM's words come from models/iwtm/gdpmm.py (engine ``iwtm``,
    the default), its cluster trace is in the CSV, the engine in the CSV's .meta.json and
    in fig5_2's; a wrong engine is refused by the config check."""
    import json

    import pandas as pd

    sec = {**TINY, "n_train": [6], "cavi": {"T": [3], "C": 20, "K": 40, "max_local": 10,
                                             "n_iter": 5},
           "kmeans_lda": {"K": [8], "n_iter": 5}, "gdpmm": {"C": 20, "max_iter": 30},
           "svm": {"C_grid": [1.0], "folds": 2}}  # fmt: skip
    out = {"csv": tmp_path / "ch5_syn_iwtm.csv", "beta": tmp_path / "beta.npz"}
    _step("ch5", {"data": incr / "syn_iwtm.npz"}, out, section=sec)
    df = pd.read_csv(out["csv"])
    g = df[df.model == "LDA_GDPMM"].iloc[0]
    assert g.gdpmm_engine == "iwtm"
    trace = json.loads(g.clusters_trace)
    assert len(trace) == 30 and trace[-1] < 20  # the truncation is pared back
    # the same base measure as IWTM's: the vocabularies are close (E9's "near")
    k_iwtm = df[df.model == "IWTM_CAVI"].K.iloc[0]
    assert abs(g.K - k_iwtm) <= 0.5 * k_iwtm, (g.K, k_iwtm)
    meta = json.loads(out["csv"].with_suffix(".meta.json").read_text())
    assert meta["settings"]["gdpmm"]["engine"] == "iwtm"
    _step("fig5_2", {"ch5": out["csv"]}, {"png": tmp_path / "fig5_2.png"}, section=sec)
    fm = json.loads((tmp_path / "fig5_2.meta.json").read_text())
    assert fm["lda_gdpmm_engine"] == ["iwtm"]
    with pytest.raises(ConfigError, match="engine"):
        load_study("iwtm").check_config({"gdpmm": {"engine": "kmeans"}})


def test_evidence_gdpmm_vocab_repeats_the_ch5_mixture_and_keeps_the_clock_out(incr, tmp_path):
    """REVERSALS case 7's evidence step (issue 37): its ``iwtm`` rows are the words of the
    ch5 step's LDA+GDPMM (run 0: the same vocabulary and accuracy); ``iwtm_all`` fits every
    training descriptor; the CSV holds no clock reading (the CPU seconds are in its
    .meta.json), so a rebuild compares it exactly; a training size beyond the pool is
    refused naming the key."""
    import json

    import pandas as pd

    sec = {**TINY, "n_train": [6], "cavi": {"T": [3], "C": 20, "K": 40, "max_local": 10,
                                             "n_iter": 5},
           "kmeans_lda": {"K": [8], "n_iter": 5},
           "gdpmm": {"C": 20, "max_iter": 30, "max_points": 150},
           "svm": {"C_grid": [1.0], "folds": 2},
           "evidence": {"gdpmm_vocab": {"dataset": "syn_iwtm", "n_train": [6]}}}  # fmt: skip
    ch5 = {"csv": tmp_path / "ch5_syn_iwtm.csv", "beta": tmp_path / "beta.npz"}
    _step("ch5", {"data": incr / "syn_iwtm.npz"}, ch5, section=sec)
    out = tmp_path / "evidence" / "gdpmm_vocab.csv"
    out.parent.mkdir()
    _step("evidence_gdpmm_vocab", {"data": incr / "syn_iwtm.npz"}, {"csv": out}, section=sec)
    ev = pd.read_csv(out).set_index("engine")
    assert list(ev.index) == ["sklearn", "iwtm", "iwtm_all"]
    g = pd.read_csv(ch5["csv"]).query("model == 'LDA_GDPMM'").iloc[0]
    assert ev.loc["iwtm", "vocab_train"] == g.K and ev.loc["iwtm", "acc"] == g.acc
    assert ev.loc["iwtm", "clusters_trace"] == g.clusters_trace
    assert ev.loc["iwtm", "fit_points"] == min(150, ev.loc["iwtm", "train_desc"])
    assert ev.loc["iwtm_all", "fit_points"] == ev.loc["iwtm_all", "train_desc"]
    assert not [c for c in ev.columns if "second" in c]
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert len(meta["cpu_seconds"]) == 3 and meta["step"] == "evidence_gdpmm_vocab"
    bad = {**sec, "evidence": {"gdpmm_vocab": {"dataset": "syn_iwtm", "n_train": [99]}}}
    with pytest.raises(ConfigError, match=r"iwtm\.evidence\.gdpmm_vocab\.n_train"):
        _step("evidence_gdpmm_vocab", {"data": incr / "syn_iwtm.npz"}, {"csv": out}, section=bad)
