"""`latentlab rebuild` (latentlab.rebuild, latentlab.claims.diff): a published file resolves
to the workflow output that rebuilds it, the comparison finds equal files, tolerated
differences, changed cells, missing rows and flipped verdicts, and on a clean copy of the
checkout the real configuration schedules jobs for one output of every study."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from latentlab import rebuild
from latentlab.claims import diff
from latentlab.errors import DataError

ROOT = Path(__file__).resolve().parents[1]
# one published output per study (and one dataset summary)
ONE_PER_STUDY = {
    "ais_eval": "fig5_4.png",
    "drift": "table2_1.md",
    "hdp_pcvb0": "fig2.png",
    "iwtm": "fig4_1.png",
    "nonconjugate_vi": "table1.md",
    "scvb0": "fig4_3_cora.png",
    "tir": "table3_1.md",
}


def _frame(rows, columns=("claim_id", "dataset", "our_value", "verdict")):
    return pd.DataFrame(rows, columns=list(columns)).astype(str)


LEDGER = [
    ["C1", "kos", "0.5", "reproduced"],
    ["C2", "kos", "1.25", "not_reproduced"],
    ["C2", "cora", "3.0", "reproduced"],
]


# --- the comparison on small CSVs ---------------------------------------------------------


def test_equal_files_have_no_differences():
    assert diff.compare_frames(_frame(LEDGER), _frame(LEDGER)) == []


def test_row_order_does_not_matter_when_rows_have_a_key():
    assert diff.row_key(_frame(LEDGER), _frame(LEDGER)) == ["claim_id", "dataset"]
    assert diff.compare_frames(_frame(LEDGER), _frame(LEDGER[::-1])) == []


def test_a_number_within_the_files_tolerance_passes_and_beyond_it_fails():
    near = [r[:] for r in LEDGER]
    near[1][2] = "1.2500625"  # 5e-5 relative
    assert diff.compare_frames(_frame(LEDGER), _frame(near))  # default 1e-9: a difference
    assert diff.compare_frames(_frame(LEDGER), _frame(near), {"rtol": 1e-4}) == []
    far = [r[:] for r in LEDGER]
    far[1][2] = "1.3"
    assert diff.compare_frames(_frame(LEDGER), _frame(far), {"rtol": 1e-4})


def test_a_changed_cell_names_its_row_and_both_values():
    changed = [r[:] for r in LEDGER]
    changed[2][2] = "2.5"
    (line,) = diff.compare_frames(_frame(LEDGER), _frame(changed), names=("published", "new"))
    assert line == "row claim_id=C2, dataset=cora: our_value: published '3.0' vs new '2.5'"


def test_a_missing_row_and_a_new_row_are_shown_whole():
    problems = diff.compare_frames(_frame(LEDGER), _frame(LEDGER[:2] + [["C3", "ap", "1", "x"]]))
    assert problems == [
        "missing row (in golden, not in ours): claim_id=C2, dataset=cora, our_value=3.0, "
        "verdict=reproduced",
        "new row (in ours, not in golden): claim_id=C3, dataset=ap, our_value=1, verdict=x",
    ]


def test_rows_without_a_key_are_matched_by_position():
    ref = _frame([["1", "2.0"], ["2", "3.0"]], columns=("x", "y"))
    new = _frame([["1", "2.0"], ["2", "3.5"], ["3", "4.0"]], columns=("x", "y"))
    assert diff.row_key(ref, new) == []
    assert diff.compare_frames(ref, new) == [
        "new row (in ours, not in golden): x=3, y=4.0",
        "row 1: y: golden '3.0' vs ours '3.5'",
    ]


def test_a_flipped_verdict_fails_even_where_sampler_numbers_may_move():
    rule = {"machine_sensitive": "Gibbs chains"}
    moved = [r[:] for r in LEDGER]
    moved[0][2] = "0.55"
    problems, moved_rows = diff.diff_frames(_frame(LEDGER), _frame(moved), rule, lenient=True)
    assert problems == [] and moved_rows == [
        "row claim_id=C1, dataset=kos: our_value: golden '0.5' vs ours '0.55'"
    ]
    assert diff.diff_frames(_frame(LEDGER), _frame(moved), rule, lenient=False)[0]  # --strict
    flipped = [r[:] for r in moved]
    flipped[0][3] = "not_reproduced"
    problems, _ = diff.diff_frames(_frame(LEDGER), _frame(flipped), rule, lenient=True)
    assert problems == [
        "row claim_id=C1, dataset=kos: our_value: golden '0.5' vs ours '0.55'; "
        "verdict: golden 'reproduced' vs ours 'not_reproduced'"
    ]


def test_skipped_columns_and_rows_and_shape_only():
    changed = [r[:] for r in LEDGER]
    changed[0][2] = "9"
    assert diff.compare_frames(_frame(LEDGER), _frame(changed), {"columns": ["our_value"]}) == []
    assert (
        diff.compare_frames(_frame(LEDGER), _frame(changed), {"rows": {"claim_id": ["C1"]}}) == []
    )
    assert diff.compare_frames(_frame(LEDGER), _frame(changed), {"rows": {"claim_id": ["C2"]}})
    assert diff.compare_frames(_frame(LEDGER), _frame(changed), {"shape_only": True}) == []
    assert diff.compare_frames(_frame(LEDGER), _frame(LEDGER[:2]), {"shape_only": True})


def test_rules_of_two_volatile_files_merge_the_first_winning():
    published = {"scvb0/*.csv": {"machine_sensitive": "x", "rtol": 1e-3}}
    golden = {"scvb0/fig4_3.csv": {"columns": ["train_seconds"], "rtol": 1e-6}}
    assert diff.rule_for("scvb0/fig4_3.csv", published, golden) == {
        "columns": ["train_seconds"],
        "machine_sensitive": "x",
        "rtol": 1e-3,
    }
    assert diff.rule_for("tir/claims.csv", published, golden) is None


def test_the_published_volatile_list_parses_and_covers_timings():
    vol = diff.load_volatile(ROOT / rebuild.PUBLISHED_VOLATILE)
    assert diff.rule_for("scvb0/fig4_3_cora.csv", vol)["columns"] == ["train_seconds"]
    assert diff.rule_for("tir/claims.csv", vol)["machine_sensitive"]
    assert diff.rule_for("hdp_pcvb0/fig2.csv", vol) is None  # deterministic: exact


# --- resolution: published file -> workflow output ---------------------------------------


@pytest.mark.parametrize(("study", "name"), sorted(ONE_PER_STUDY.items()))
def test_a_published_output_of_each_study_resolves(study, name):
    t = rebuild.resolve(f"published/real/{study}/{name}", ROOT)
    assert t.run == "real" and t.study == study
    assert t.build == f"results/real/{study}/{name}"
    assert t.compare == f"{study}/{Path(name).stem}.csv"
    assert (ROOT / "published" / "real" / t.compare).exists()


def test_a_dataset_summary_and_a_csv_resolve_to_themselves():
    t = rebuild.resolve(ROOT / "published/real/data/kos/summary.json", ROOT)
    assert (t.build, t.compare) == ("results/real/data/kos/summary.json", "data/kos/summary.json")
    t = rebuild.resolve("published/real/scvb0/claims.csv", ROOT)
    assert t.compare == "scvb0/claims.csv"


def test_bad_paths_are_refused_with_the_reason(tmp_path):
    with pytest.raises(DataError, match="no such published file"):
        rebuild.resolve("published/real/scvb0/fig9_9.png", ROOT)
    with pytest.raises(DataError, match="not a published file"):
        rebuild.resolve(ROOT / "README.md", ROOT)
    with pytest.raises(DataError, match="name one file"):
        rebuild.resolve("published/real/scvb0", ROOT)
    with pytest.raises(DataError, match="not inside a latentlab checkout"):
        rebuild.find_root(tmp_path)


def test_the_run_config_and_the_snakemake_call():
    cfg = rebuild.config_for("real", ROOT)
    assert cfg == ROOT / "config" / "real.yaml"
    with pytest.raises(DataError, match="no config file with run: nope"):
        rebuild.config_for("nope", ROOT)
    cmd = rebuild.snakemake_command(cfg, ["results/real/x.png"], 2, False, False, ROOT)
    assert cmd[1:3] == ["-m", "snakemake"] and "--forceall" in cmd and "--force" not in cmd
    assert "--configfile=config/real.yaml" in cmd and cmd[-1] == "results/real/x.png"
    cmd = rebuild.snakemake_command(cfg, ["results/real/x.png"], 1, True, True, ROOT)
    assert "--force" in cmd and "--forceall" not in cmd and "--dry-run" in cmd


# --- the command end to end on a made-up checkout (snakemake replaced) --------------------


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A workflow folder with a published run of one study, and a fake snakemake that
    writes results/real/ from what the test puts in ``built``."""
    root = tmp_path / "wf"
    (root / "config").mkdir(parents=True)
    (root / "Snakefile").write_text("")
    (root / "config" / "real.yaml").write_text("run: real\n")
    pub = root / "published" / "real" / "toy"
    pub.mkdir(parents=True)
    _frame(LEDGER).to_csv(pub / "claims.csv", index=False)
    pd.DataFrame({"x": [1, 2], "y": [0.5, 0.25], "seconds": [1.0, 2.0]}).to_csv(
        pub / "fig1.csv", index=False
    )
    (pub / "fig1.png").write_bytes(b"png")
    (pub / "fig1.meta.json").write_text(json.dumps({"provenance": {"commit": "abc"}}))
    (root / "published" / "volatile.yaml").write_text("toy/fig1.csv:\n  columns: [seconds]\n")
    built = {}

    def fake_snakemake(cmd, cwd):
        out = Path(cwd) / "results" / "real" / "toy"
        out.mkdir(parents=True, exist_ok=True)
        for name, frame in built.items():
            frame.to_csv(out / name, index=False)
        return 0

    monkeypatch.setattr(rebuild, "run_snakemake", fake_snakemake)
    monkeypatch.chdir(root)
    return root, built


def _args(*paths, **kw):
    base = {"cores": 1, "reuse": False, "dry_run": False, "strict": False, "root": None}
    return SimpleNamespace(paths=list(paths), **{**base, **kw})


def test_command_passes_when_only_timings_moved(checkout, capsys):
    root, built = checkout
    built["fig1.csv"] = pd.DataFrame({"x": [1, 2], "y": [0.5, 0.25], "seconds": [9.0, 8.0]})
    assert rebuild.run(_args("published/real/toy/fig1.png")) == 0
    out = capsys.readouterr().out
    assert "SAME    toy/fig1.csv" in out and "not compared: seconds" in out
    assert "1/1 files agree" in out


def test_command_fails_on_a_changed_number_and_compares_other_rebuilt_csvs(checkout, capsys):
    root, built = checkout
    built["fig1.csv"] = pd.DataFrame({"x": [1, 2], "y": [0.5, 0.3], "seconds": [1.0, 2.0]})
    flipped = [r[:] for r in LEDGER]
    flipped[0][3] = "not_reproduced"
    built["claims.csv"] = _frame(flipped)  # rewritten by this rebuild: compared too
    assert rebuild.run(_args("published/real/toy/fig1.png")) == 1
    out = capsys.readouterr().out
    assert "DIFF    toy/fig1.csv" in out
    assert "row x=2: y: published '0.25' vs rebuilt '0.3'" in out or "row 1: y:" in out
    assert "DIFF    toy/claims.csv" in out and "verdict: published 'reproduced'" in out
    assert "0/2 files agree" in out


def test_command_reports_a_missing_output(checkout, capsys):
    assert rebuild.run(_args("published/real/toy/fig1.png")) == 1
    assert "MISSING toy/fig1.csv" in capsys.readouterr().out


# --- a clean copy of the checkout: the real configuration schedules the jobs --------------


def _mirror() -> str | None:
    for m in (
        os.environ.get("LATENTLAB_MIRROR"),
        ROOT.parent / "shared" / "data",
        ROOT.parents[1] / "shared" / "data",
    ):
        if m and Path(m).is_dir():
            # absolute: the clean copy runs in another folder, where a relative mirror
            # (.ci/run's ../shared/data) would point nowhere
            return str(Path(m).resolve())
    return None


def _scheduled_outputs(text: str) -> set[str]:
    outs = set()
    for line in text.splitlines():
        if line.strip().startswith("output:"):
            outs.update(s.strip() for s in line.split(":", 1)[1].split(","))
    return outs


def test_fresh_clone_schedules_one_output_of_every_study(clean_copy):
    """On a fresh clone the workflow output of a published file (what `latentlab rebuild`
    asks Snakemake for, with --forceall) is scheduled even without forcing: no "Nothing to
    be done" because a committed copy sits where the run writes."""
    mirror = _mirror()
    if mirror is None:
        pytest.skip("needs the data mirror (LATENTLAB_MIRROR or ../shared/data)")
    env = {**os.environ, "LATENTLAB_MIRROR": mirror, "PYTHONPATH": str(clean_copy / "src")}
    found = [
        rebuild.resolve(f"published/real/{s}/{n}", clean_copy)
        for s, n in sorted(ONE_PER_STUDY.items())
    ]
    targets = [t.build for t in found]
    cfg = rebuild.config_for("real", clean_copy)
    cmd = rebuild.snakemake_command(cfg, targets, 2, False, True, clean_copy)
    cmd.remove("--forceall")  # what a fresh clone gives without forcing anything
    dry = subprocess.run(cmd, cwd=clean_copy, env=env, capture_output=True, text=True, check=False)
    assert dry.returncode == 0, dry.stderr[-2000:]
    assert "Nothing to be done" not in dry.stdout + dry.stderr
    assert set(targets) <= _scheduled_outputs(dry.stdout)


@pytest.mark.realdata
def test_rebuild_of_one_published_figure_agrees(clean_copy):
    """The command for real on the cheapest study output of the real data (scvb0's Cora
    curves, Fig 4.3 analogue: fetch + parse Cora, 3 seeds x 5 methods, the figure), on a
    clean copy: it rebuilds from the data and agrees with the published CSV."""
    mirror = _mirror()
    if mirror is None:
        pytest.skip("needs the data mirror (LATENTLAB_MIRROR or ../shared/data)")
    env = {**os.environ, "LATENTLAB_MIRROR": mirror, "PYTHONPATH": str(clean_copy / "src")}
    r = subprocess.run(
        [sys.executable, "-m", "latentlab", "rebuild", "published/real/scvb0/fig4_3_cora.png"],
        cwd=clean_copy,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "SAME    scvb0/fig4_3_cora.csv" in r.stdout
    assert "1/1 files agree with the published run" in r.stdout


def test_a_value_or_skipped_column_never_keys_the_rows():
    """A ledger's our_value (numbers and booleans) and a column the rule skips are values,
    not labels: a change in them is a changed cell (or nothing), not a missing row."""
    ref = _frame([["C1", "true", "a b"], ["C1", "0.5", "c d"]], ("claim_id", "our_value", "words"))
    new = _frame([["C1", "false", "x y"], ["C1", "0.5", "z w"]], ("claim_id", "our_value", "words"))
    assert diff.row_key(ref[["claim_id", "our_value"]], new[["claim_id", "our_value"]]) == []
    problems = diff.compare_frames(ref, new, {"columns": ["words"]})
    assert problems == ["row 0: our_value: golden 'true' vs ours 'false'"]
