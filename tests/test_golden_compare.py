"""scripts/golden_compare.py: exact by default, a file's own rtol/atol when volatile.yaml
gives one; text cells and verdicts always exact."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pandas as pd

_spec = importlib.util.spec_from_file_location(
    "golden_compare", Path(__file__).resolve().parents[1] / "scripts" / "golden_compare.py"
)
gc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gc)


def _write(path, loglik, verdict="reproduced"):
    pd.DataFrame({"loglik": [loglik], "verdict": [verdict]}).to_csv(path, index=False)
    return path


def test_rtol_rule_admits_rounding_but_not_a_change(tmp_path):
    g = _write(tmp_path / "g.csv", -0.6858309246953563)
    near = _write(tmp_path / "near.csv", -0.685843886596843)  # 1.9e-5 relative
    far = _write(tmp_path / "far.csv", -0.6868309246953563)  # 1.5e-3 relative
    flipped = _write(tmp_path / "flip.csv", -0.6858309246953563, "not_reproduced")
    assert gc.compare_file(g, near, None)  # exact by default: a difference
    assert gc.compare_file(g, near, {"rtol": 1e-4}) == []
    assert gc.compare_file(g, far, {"rtol": 1e-4})
    assert gc.compare_file(g, flipped, {"rtol": 1e-4})  # text stays exact


def test_numbers_inside_text_cells_follow_the_files_tolerance(tmp_path):
    """A rule's JSON and an order row's "A 1.23 vs B 4.56": the words exact, the numbers
    within the file's rtol (exact by default)."""

    def w(name, rule):
        p = tmp_path / name
        pd.DataFrame({"rule": [rule], "verdict": ["reproduced"]}).to_csv(p, index=False)
        return p

    g = w("g.csv", '{"how":"order","a":[-0.6858309246953563],"b":[-0.7]}')
    near = w("n.csv", '{"how":"order","a":[-0.685843886596843],"b":[-0.7]}')
    other = w("o.csv", '{"how":"order","a":[-0.685843886596843],"c":[-0.7]}')
    assert gc.compare_file(g, near, None)  # exact by default
    assert gc.compare_file(g, near, {"rtol": 1e-4}) == []
    assert gc.compare_file(g, other, {"rtol": 1e-4})  # a word changed


def test_blas_dependent_files_are_compared_with_their_kernels_set(tmp_path):
    """tests/golden/blas.yaml: a file that depends on the BLAS kernel is compared with the
    golden copy made with the machine's kernel; a kernel without one is reported."""
    golden, results = tmp_path / "golden" / "smoke", tmp_path / "results"
    for root in (golden, results):
        (root / "tir").mkdir(parents=True)
    _write(golden / "tir" / "fig3_4.csv", 1.0)  # primary kernel: Haswell
    (tmp_path / "golden" / "blas" / "SkylakeX" / "tir").mkdir(parents=True)
    _write(tmp_path / "golden" / "blas" / "SkylakeX" / "tir" / "fig3_4.csv", 2.0)
    _write(results / "tir" / "fig3_4.csv", 2.0)
    blas = {"primary": "Haswell", "files": ["tir/*"]}
    assert gc.compare_trees(golden, results, {}, blas=blas, kernel="SkylakeX") == 0
    assert gc.compare_trees(golden, results, {}, blas=blas, kernel="Haswell") == 1
    assert gc.compare_trees(golden, results, {}, blas=blas, kernel="Zen") == 1  # no set
    _write(results / "tir" / "fig3_4.csv", 1.0)
    assert gc.compare_trees(golden, results, {}, blas=blas, kernel="Haswell") == 0
    assert gc.compare_trees(golden, results, {}, blas={"primary": None, "files": []}) == 0


def test_blas_kernel_is_named():
    assert gc.blas_kernel() not in ("", "?")


def test_update_from_a_run_of_some_studies_keeps_the_others(tmp_path, monkeypatch):
    """--update from a run of tir alone (e.g. the other kernel's tir run) refreshes tir and
    leaves every other study's golden copies as they were."""
    golden, results = tmp_path / "golden" / "smoke", tmp_path / "results"
    for study in ("tir", "drift"):
        (golden / study).mkdir(parents=True)
        _write(golden / study / "claims.csv", 1.0)
    (results / "tir").mkdir(parents=True)
    _write(results / "tir" / "claims.csv", 2.0)
    monkeypatch.setattr(gc, "blas_kernel", lambda: "Haswell")
    blas = tmp_path / "blas.yaml"
    blas.write_text("primary: Haswell\nfiles: ['tir/*']\n")
    argv = ["--results", str(results), "--golden", str(golden), "--blas", str(blas)]
    assert gc.main([*argv, "--update"]) == 0
    assert pd.read_csv(golden / "tir" / "claims.csv").loglik[0] == 2.0
    assert pd.read_csv(golden / "drift" / "claims.csv").loglik[0] == 1.0
