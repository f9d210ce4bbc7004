"""The published `real` run (published/real, latentlab.claims.publish): its ledgers parse,
their claim ids are the ones the code emits, every output records its provenance,
published/real/README.md is the current overview and the README shows the current verdict
counts."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from latentlab.claims import publish
from latentlab.claims.ledger import read_claims
from latentlab.errors import DataError
from latentlab.studies.shape import load_study

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "published" / "real"
PUBLISHED = [d.name for d in publish.study_dirs(RUN)] if RUN.is_dir() else []


def test_the_four_studies_of_issue_14_are_published():
    assert {"scvb0", "ais_eval", "hdp_pcvb0", "nonconjugate_vi"} <= set(PUBLISHED)
    assert (RUN / "REPORT.md").exists()


@pytest.mark.parametrize("study", PUBLISHED)
def test_published_ledger_has_the_claims_the_code_emits(study):
    df = read_claims(RUN / study / "claims.csv")
    emitted = {c.id for c in load_study(study).claim_specs}
    # a per-row id (Measured/Sides/NotRun.claim_id: hdp_pcvb0's "C5-T300", drift's
    # "C2.9b-Naive") belongs to its claim, the longest claim id it extends with "-"
    longest_first = sorted(emitted, key=len, reverse=True)
    ids = {
        i if i in emitted else next((e for e in longest_first if i.startswith(e + "-")), i)
        for i in df.claim_id
    }
    assert ids == emitted, (
        f"{study}: ledger and code differ (rerun and publish: scripts/run_real.sh {study}); "
        f"only in ledger {sorted(ids - emitted)}, only in code {sorted(emitted - ids)}"
    )


def test_published_run_is_complete():
    assert publish.check_published(RUN) == []


def test_run_readme_is_the_current_overview():
    """published/real/README.md is what scripts/publish_run.py generates from the ledgers
    and run_times.tsv, and its links resolve."""
    text = (RUN / "README.md").read_text()
    assert text == publish.run_readme(RUN, docs="../../docs")
    links = [m.split("](", 1)[1].split(")", 1)[0] for m in text.split() if "](" in m]
    assert any(rel.startswith("REPORT.md") for rel in links)
    for rel in links:
        assert (RUN / rel.split("#", 1)[0]).exists(), rel


def test_readme_shows_the_current_verdict_counts():
    text = (ROOT / "README.md").read_text()
    assert publish.readme_summary(RUN) in text
    assert "(published/real/README.md)" in text  # where the rest of the overview is


def test_report_links_resolve():
    text = (RUN / "REPORT.md").read_text()
    links = [m.split("](", 1)[1].rstrip(")") for m in text.split() if "](" in m]
    assert links
    for rel in links:
        assert (RUN / rel).exists(), rel


# --- the publishing functions on a small made-up run -------------------------------------


def _ledger_row(**kw):
    row = {
        "claim_id": "C1",
        "document": "doc",
        "where": "Fig 1",
        "statement": "s",
        "paper_value": "1",
        "our_value": "1",
        "tolerance": "0",
        "dataset": "d",
        "data_kind": "synthetic",
        "verdict": "reproduced",
        "note": "",
    }
    row.update(kw)
    return row


@pytest.fixture
def run(tmp_path):
    d = tmp_path / "real" / "toy"
    (d / "runs").mkdir(parents=True)
    pd.DataFrame([_ledger_row(), _ledger_row(claim_id="C2", data_kind="identity")]).to_csv(
        d / "claims.csv", index=False
    )
    (d / "fig1.csv").write_text("x,y\n1,2\n")
    (d / "fig1.png").write_bytes(b"png")
    (d / "fig1.meta.json").write_text(json.dumps({"step": "fig1"}))
    (d / "timing.json").write_text("{}")
    (d / "runs" / "model.npz").write_bytes(b"npz")
    (tmp_path / "real" / "run_times.tsv").write_text(
        "study\tstart\tend\twall_seconds\tcores\tcommand\tnote\n"
        "toy\t2026-01-01T00:00:00Z\t2026-01-01T00:10:00Z\t600\t2\tsnakemake toy\tidle\n"
    )
    return tmp_path / "real"


def test_published_files_are_the_top_level_outputs(run):
    names = [p.name for p in publish.published_files(run / "toy")]
    assert names == ["claims.csv", "fig1.csv", "fig1.meta.json", "fig1.png"]


def test_check_finds_missing_provenance_and_stamp_fixes_it(run):
    problems = publish.check_published(run)
    assert len(problems) == 1 and "fig1.meta.json" in problems[0]
    assert publish.stamp_provenance(run, "abc123", "f00") == 1
    assert publish.stamp_provenance(run, "zzz", "zzz") == 0  # never overwrites
    meta = json.loads((run / "toy" / "fig1.meta.json").read_text())
    assert meta["provenance"]["commit"] == "abc123" and "stamped_by" in meta["provenance"]
    assert publish.check_published(run) == []


def test_check_names_a_study_without_a_time(run):
    publish.stamp_provenance(run, "abc123", "f00")
    shutil.copytree(run / "toy", run / "other")
    assert publish.check_published(run) == ["other: no row in run_times.tsv"]


def test_run_readme_counts_verdicts_and_gives_times(run):
    page = publish.run_readme(run)
    assert page.startswith("# The published `real` run\n")
    assert "| toy | synthetic | 1 |" in page and "| toy | identity | 1 |" in page
    assert "10.0 min" in page and "idle" in page
    assert "[REPORT.md](REPORT.md)" in page and "../../docs/runs.md" in page
    assert publish.README_START not in page  # the whole file is generated


def test_readme_block_counts_verdicts_per_study_and_replaces_between_markers(run):
    block = publish.readme_summary(run)
    lines = block.splitlines()
    assert lines[0] == publish.README_START and lines[-1] == publish.README_END
    # the identity row is an exact check, counted apart from the synthetic claim
    assert "| toy | 1 | 0 | 0 | 0 | 0 | - | - | 1/1 |" in lines
    assert len(lines) == 2 + 2 + 1  # markers, header, one row per study
    text = f"intro\n{publish.README_START}\nold\n{publish.README_END}\nrest\n"
    new = publish.replace_block(text, block)
    assert new.startswith("intro\n") and new.endswith("\nrest\n") and "old" not in new
    with pytest.raises(DataError, match="markers"):
        publish.replace_block("no markers", block)


def test_readme_block_counts_misses_by_cause(run):
    rows = [
        _ledger_row(),
        _ledger_row(claim_id="C3", verdict="not_reproduced", cause="genuine", evidence="e"),
        _ledger_row(claim_id="C4", verdict="not_reproduced", cause="open"),
        _ledger_row(claim_id="C5", verdict="not_reproduced", cause=""),  # before the column
        _ledger_row(claim_id="C6", verdict="not_reproduced", cause="reduction", evidence="e"),
        _ledger_row(claim_id="C7", verdict="not_reproduced", data_kind="identity"),  # exact
    ]
    pd.DataFrame(rows).to_csv(run / "toy" / "claims.csv", index=False)
    lines = publish.readme_summary(run).splitlines()
    assert "| toy | 1 | 4 | 0 | 0 | 0 | 1 reduction, 1 genuine, 2 open | - | 0/1 |" in lines


def test_missing_times_is_a_clear_error(run):
    (run / "run_times.tsv").unlink()
    with pytest.raises(DataError, match="run_times.tsv"):
        publish.read_times(run)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_gitignore_publishes_exactly_the_published_files():
    """.gitignore's whitelist for published/real and published_files() agree; nothing the
    workflow writes under results/ is committed, the `real` run included."""
    probe = {
        "published/real/REPORT.md": True,
        "published/real/README.md": True,
        "published/real/run_times.tsv": True,
        "published/real/PUBLISHED.json": True,
        "published/real/data/kos/summary.json": True,
        "published/real/data/kos/dataset.npz": False,
        "published/real/toy/claims.csv": True,
        "published/real/toy/fig1.png": True,
        "published/real/toy/table1.md": True,
        "published/real/toy/fig1.meta.json": True,
        "published/real/toy/timing.json": False,
        "published/real/toy/text_enron_trace.csv": False,
        "published/real/toy/model.npz": False,
        "published/real/toy/runs/a.csv": False,
        "results/real/toy/claims.csv": False,
        "results/real/REPORT.md": False,
        "results/real/data/kos/summary.json": False,
        "results/smoke/toy/claims.csv": False,
    }
    for path, published in probe.items():
        r = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", path], check=False)
        if r.returncode == 128:
            pytest.skip("not a git checkout")
        assert (r.returncode == 1) == published, path
        name = Path(path).name
        if path.startswith("published/real/") and path.count("/") == 3 and "/data/" not in path:
            published_by_rule = name.endswith(publish.PUBLISHED_SUFFIXES) and not name.endswith(
                publish.UNPUBLISHED_SUFFIXES
            )
            assert published_by_rule == published, path


def test_copy_study_replaces_the_published_files_and_copies_summaries(run, tmp_path):
    """Publishing copies a study's top-level outputs from the workflow's run folder and
    drops a published file the study no longer writes; model files stay behind."""
    dest = tmp_path / "published" / "real"
    (dest / "toy").mkdir(parents=True)
    (dest / "toy" / "fig_gone.csv").write_text("x\n1\n")
    (run / "data" / "kos").mkdir(parents=True)
    (run / "data" / "kos" / "summary.json").write_text("{}")
    (run / "data" / "kos" / "dataset.npz").write_bytes(b"npz")
    copied = publish.copy_study(run, dest, "toy")
    assert sorted(p.name for p in copied) == [
        "claims.csv",
        "fig1.csv",
        "fig1.meta.json",
        "fig1.png",
    ]
    assert not (dest / "toy" / "fig_gone.csv").exists()
    assert not (dest / "toy" / "runs").exists() and not (dest / "toy" / "timing.json").exists()
    assert publish.copy_summaries(run, dest) == [dest / "data" / "kos" / "summary.json"]
    assert not (dest / "data" / "kos" / "dataset.npz").exists()
    with pytest.raises(DataError, match="claims.csv"):
        publish.copy_study(run, dest, "absent")


def test_copy_study_publishes_a_readings_sweep_run_alone(run, tmp_path):
    """A run that built only a study's readings sweeps (``<study>_readings``) publishes its
    readings/ folder and leaves the published ledger and figures as they are (the
    documented command of docs/runs.md, Readings, failed on it before)."""
    dest = tmp_path / "published" / "real"
    (dest / "toy" / "readings").mkdir(parents=True)
    (dest / "toy" / "claims.csv").write_text("published ledger\n")
    (dest / "toy" / "readings" / "old.csv").write_text("x\n")
    sweep_only = tmp_path / "results" / "real"
    (sweep_only / "toy" / "readings").mkdir(parents=True)
    (sweep_only / "toy" / "readings" / "start.csv").write_text("reading,option\n")
    (sweep_only / "toy" / "readings" / "start.png").write_bytes(b"png")
    copied = publish.copy_study(sweep_only, dest, "toy")
    assert sorted(p.name for p in copied) == ["start.csv", "start.png"]
    assert (dest / "toy" / "claims.csv").read_text() == "published ledger\n"
    assert not (dest / "toy" / "readings" / "old.csv").exists()
