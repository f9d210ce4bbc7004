"""End-to-end: every nonconjugate_vi step on tiny synthetic inputs, claims.csv validated."""

import numpy as np
import pandas as pd
import pytest

from latentlab.claims.ledger import read_claims
from latentlab.errors import DataError

TINY = {
    "run": "test",
    "base_seed": 3,
    "threads": 1,
    "ctm": {
        "corpora": [
            {
                "name": "a",
                "kind": "synthetic",
                "n_docs": 40,
                "n_vocab": 60,
                "K_true": 3,
                "mean_len": 30,
            },
        ],
        "max_test_docs": 8,
        "K_grid": [2, 3, 4],
        "seeds": 1,
        "methods": ["laplace", "delta", "bl"],
        "em_max_iter": 2,
    },
    "fig2": {"corpus": "a", "K": 3, "em_iters": 1, "n_check_docs": 5},
    "fig6": {"corpus": "a", "K": 3, "em_max_iter": 2},
    "bench": {"corpus": "a", "K": [3], "n_docs": 10, "em_iters": 1, "blr_problems": 1},
    "blr": {
        "methods": ["jj", "laplace", "delta", "jj_seq"],
        "jj_tol": 1e-6,
        "table1": [
            {
                "name": "yeast",
                "kind": "synthetic",
                "n_train": 60,
                "n_test": 40,
                "d": 6,
                "n_labels": 3,
            },
            {
                "name": "scene",
                "kind": "synthetic",
                "n_train": 60,
                "n_test": 40,
                "d": 5,
                "n_labels": 2,
            },
        ],
        "hier_max_iter": 3,
    },
    "school": {"kind": "synthetic", "n_schools": 4, "d": 4, "mean_students": 20, "n_splits": 2},
}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    from latentlab.outputs import write_table
    from latentlab.studies.nonconjugate_vi import blr_runs, claims, ctm_runs

    o = tmp_path_factory.mktemp("ncvi")
    f = {
        k: str(o / k)
        for k in (
            "sweep.csv",
            "f5a.png",
            "f5a.csv",
            "f5b.png",
            "f5b.csv",
            "f2.png",
            "f2.csv",
            "f2m.csv",
            "f6a.png",
            "f6a.csv",
            "f6b.png",
            "f6b.csv",
            "t1.csv",
            "t1.md",
            "t1p.csv",
            "t2.csv",
            "t2.md",
            "t2s.csv",
            "t2t.csv",
            "bench.csv",
            "claims.csv",
        )
    }
    ctm_runs.ctm_sweep(TINY, "a", f["sweep.csv"])
    ctm_runs.fig5(
        TINY,
        [f["sweep.csv"]],
        {
            "png_a": f["f5a.png"],
            "csv_a": f["f5a.csv"],
            "png_b": f["f5b.png"],
            "csv_b": f["f5b.csv"],
        },
    )
    ctm_runs.fig2(TINY, {"png": f["f2.png"], "csv": f["f2.csv"], "monotone": f["f2m.csv"]})
    ctm_runs.fig6(
        TINY,
        {
            "png_a": f["f6a.png"],
            "csv_a": f["f6a.csv"],
            "png_b": f["f6b.png"],
            "csv_b": f["f6b.csv"],
        },
    )
    blr_runs.table1(TINY, {"csv": f["t1.csv"], "md": f["t1.md"], "problems": f["t1p.csv"]})
    blr_runs.table2(
        TINY, {"csv": f["t2.csv"], "md": f["t2.md"], "splits": f["t2s.csv"], "tests": f["t2t.csv"]}
    )
    write_table(pd.DataFrame(ctm_runs.bench_ctm(TINY) + blr_runs.bench_blr(TINY)), f["bench.csv"])
    claims.build_claims(
        TINY,
        {
            "fig2_monotone": f["f2m.csv"],
            "sweeps": [f["sweep.csv"]],
            "fig6a": f["f6a.csv"],
            "fig6b": f["f6b.csv"],
            "bench": f["bench.csv"],
            "table1": f["t1.csv"],
            "table2": f["t2.csv"],
            "table2_tests": f["t2t.csv"],
        },
        f["claims.csv"],
    )
    return f


def test_sweep_is_complete_and_finite(outputs):
    df = pd.read_csv(outputs["sweep.csv"])
    assert len(df) == 3 * 3
    assert np.isfinite(df[["bound_per_word", "heldout_per_word"]].to_numpy()).all()


def test_tables_have_paper_columns(outputs):
    t1 = pd.read_csv(outputs["t1.csv"])
    assert set(t1.method) == {"jj", "laplace", "delta", "jj_seq"}
    assert {"paper_accuracy_pct", "paper_loglik", "p_accuracy_vs_jj"} <= set(t1.columns)
    t2 = pd.read_csv(outputs["t2.csv"])
    assert len(t2) == 3 * 4 and set(t2.setting) == {"separate", "pooled", "hierarchical"}


def test_claims_valid_and_exact_checks_reproduced(outputs):
    df = read_claims(outputs["claims.csv"])
    exact = df[df.claim_id.isin(["C1", "C2", "C3", "C4", "C5", "C6", "C17"])]
    assert len(exact) == 7
    assert (exact.verdict == "reproduced").all(), exact[["claim_id", "our_value"]]


def test_real_spec_without_data_is_clear_error(tmp_path):
    from latentlab.studies.nonconjugate_vi.data import load_ctm_corpus

    with pytest.raises((DataError, FileNotFoundError)):
        load_ctm_corpus({"name": "x", "kind": "real", "path": str(tmp_path / "none.npz")}, 0)
