"""End-to-end check of the ais_eval study on a tiny synthetic corpus (every step, every
table/figure writer, the ledger), plus the perturbation and symmetric-alpha helpers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from latentlab.claims.ledger import Ledger, read_claims
from latentlab.studies.ais_eval import claims, core, report
from latentlab.studies.ais_eval.synth import lda_corpus, true_alpha

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
}


@pytest.fixture(scope="module")
def models():
    corpus, truth = lda_corpus(
        {"n_docs": 60, "n_vocab": 40, "n_topics": 4, "doc_length": 20, "alpha_decay": 0.5}, 1
    )
    assert np.allclose(truth["alpha"], true_alpha(4, 1.0, 0.5))
    return core.train(corpus, P, seed=5)


def test_train_outputs(models):
    assert models["phi"].shape == models["phi_perturbed"].shape == models["phi_sym"].shape
    np.testing.assert_allclose(models["phi"].sum(axis=0), 1.0)
    np.testing.assert_allclose(models["phi_perturbed"].sum(axis=0), 1.0)
    assert np.ptp(models["alpha_sym"]) == 0.0  # flat alpha, learned concentration
    assert models["snap_phi"].shape[0] == 3 and list(models["snap_iter"]) == [10, 20, 30]
    st = models["stats"]
    assert list(st[st[:, 5] == 1, 0]) == [15, 20, 25, 30]  # MALLET schedule: it > 10, % 5


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
    import io
    import json

    buf = io.BytesIO()
    np.savez(buf, **models)
    buf.seek(0)
    path = tmp_path / "m.npz"
    path.write_bytes(buf.read())
    m = core.load_models(path)
    assert json.loads(json.dumps(m["info"]))["K"] == 4
    pert = core.perturbed(m, P, 1, 1)
    sym = core.symasym(m, P, 2, 1)
    it = core.iteration(m, P, 3, 1)
    nt = core.ntemps(m, P, 4, 1)
    assert set(pert.method) == set(core.METHODS)
    assert np.isfinite(pert.logratio).all() and np.isfinite(it.loglik).all()
    assert set(it.method) == {"iteration_ais", "std_ais", "lr"}
    assert (sym.regime == "lr_long").sum() == 6
    raws = {("nips", "tiny"): pert, ("acl", "tiny2"): pert}
    report.table5_1(raws, tmp_path / "t1.csv", tmp_path / "t1.md", {})
    report.table5_2(raws, tmp_path / "t2.csv", tmp_path / "t2.md", {})
    report.table5_3({("nips", "tiny"): sym}, tmp_path / "t3.csv", tmp_path / "t3.md", {})
    report.fig_scatter(pert, "t", tmp_path / "f4.png", tmp_path / "f4.csv", {})
    report.fig5_6(nt, tmp_path / "f6.png", tmp_path / "f6.csv", {})
    report.fig_iteration(it, "ll", "t", tmp_path / "f7.png", tmp_path / "f7.csv", {})
    report.fig_iteration(it, "var", "t", tmp_path / "f9.png", tmp_path / "f9.csv", {})
    report.fig5_11(m["stats"], "t", tmp_path / "f11.png", tmp_path / "f11.csv", {})
    t1 = pd.read_csv(tmp_path / "t1.csv")
    assert t1.shape == (4, 8) and t1.iloc[:, 2:].apply(lambda c: c.between(0, 100)).all().all()
    exact = claims.exact_checks(7, n_temps=200, S=3)
    stats = pd.DataFrame(m["stats"], columns=["iteration", "entropy", "log_prior", "a", "b", "o"])
    ledger = claims.build(
        Ledger("ais_eval", "doc"),
        exact,
        {"tiny": pert},
        {"tiny": sym},
        nt,
        {"tiny": it},
        {"tiny": stats},
        {"tiny": "synthetic"},
        15,
    )
    ledger.write(tmp_path / "claims.csv")
    df = read_claims(tmp_path / "claims.csv")
    ids = set(df.claim_id)
    for c in ["C5.2", "C5.3", "C5.4", "C5.5a", "C5.5b", "C5.6", "C5.7a", "C5.7b", "C5.7c"]:
        assert c in ids
    for c in ["C5.8a", "C5.8b", "C5.9", "C5.10", "C5.11", "C5.12", "C5.13", "C5.1-lr"]:
        assert c in ids
