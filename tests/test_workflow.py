"""A tiny end-to-end Snakemake run in a temporary copy of the workflow."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = [sys.executable, "-m", "snakemake"]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory, copy_workflow):
    return copy_workflow(tmp_path_factory.mktemp("wf"))


def run(workdir, *args):
    return subprocess.run(
        [*SNAKEMAKE, "--cores", "1", "--config", "run=e2e", "studies=[]", *args],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_dry_run_lists_data_and_report_targets(workdir):
    r = run(workdir, "-n")
    assert r.returncode == 0, r.stderr[-3000:]
    out = r.stdout + r.stderr
    assert "data_synth_lda" in out and "report" in out


def test_end_to_end_builds_summaries_and_report_then_is_idempotent(workdir):
    r = run(workdir)
    assert r.returncode == 0, r.stderr[-3000:]
    res = workdir / "results" / "e2e"
    assert (res / "REPORT.md").read_text().startswith("# latentlab report: run `e2e`")
    for name in ("synth_lda", "synth_hdp"):
        assert (res / "data" / name / "summary.json").exists()
    again = run(workdir)
    assert again.returncode == 0
    assert "Nothing to be done" in again.stdout + again.stderr


def test_bad_config_stops_before_any_job(workdir):
    r = run(workdir, "-n", "base_seed=not-a-number")
    assert r.returncode != 0
    assert "base_seed" in r.stdout + r.stderr
