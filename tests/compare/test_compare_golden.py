"""Golden outputs of `compare` (issue 25 item 6): `snakemake --cores 2 compare` with the smoke
config (docs/config.md: the bundled 42-document corpus, six methods, K = 4) gives the
committed `tests/golden/smoke/compare/compare_tiny/*.csv`, numbers to 1e-9 relative apart
from the wall-clock columns of `tests/golden/volatile.yaml`; and the comparison fails when
a deterministic number moves."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "smoke"
VOLATILE = ROOT / "tests" / "golden" / "volatile.yaml"
DATASET = "compare_tiny"

_spec = importlib.util.spec_from_file_location(
    "golden_compare", ROOT / "scripts" / "golden_compare.py"
)
gc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gc)


def test_compare_golden_files_are_there():
    names = {p.name for p in (GOLDEN / "compare" / DATASET).glob("*.csv")}
    assert names == {"table.csv", "topwords.csv", "heldout_time.csv", "time_memory.csv"}


def test_a_moved_number_fails_the_compare_golden(tmp_path):
    """Perturb one deterministic number (a held-out log-likelihood) in a copy of the golden
    tree: the comparison reports that file; the wall-clock column alone does not."""
    res = tmp_path / "results"
    shutil.copytree(GOLDEN / "compare", res / "compare")
    volatile = gc._load_volatile(VOLATILE)
    assert gc.compare_trees(GOLDEN, res, volatile, only="compare") == 0
    table = res / "compare" / DATASET / "table.csv"
    df = pd.read_csv(table)
    df.loc[0, "train_seconds"] = df.loc[0, "train_seconds"] * 3 + 1  # volatile
    df.to_csv(table, index=False)
    assert gc.compare_trees(GOLDEN, res, volatile, only="compare") == 0
    df.loc[0, "heldout_ll"] = df.loc[0, "heldout_ll"] * (1 + 1e-6)
    df.to_csv(table, index=False)
    assert gc.compare_trees(GOLDEN, res, volatile, only="compare") == 1


@pytest.mark.slow
def test_compare_run_equals_its_golden_outputs(tmp_path, copy_workflow):
    """The docs/config.md command on the bundled corpus, in a copy of the workflow."""
    wd = copy_workflow(tmp_path / "wf")
    (wd / "tests" / "compare").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "compare" / "tiny_corpus.txt", wd / "tests" / "compare")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), MPLBACKEND="Agg")
    r = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", "compare"],
        cwd=wd,
        capture_output=True,
        text=True,
        timeout=1800,
        env=env,
    )
    assert r.returncode == 0, (r.stdout + r.stderr)[-4000:]
    failed = gc.compare_trees(
        GOLDEN, wd / "results" / "smoke", gc._load_volatile(VOLATILE), only="compare"
    )
    assert failed == 0
