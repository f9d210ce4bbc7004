"""Shared by the study tests: the shell commands of a dry run of the workflow."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _dry_run_commands(tmp_path, overrides: list[str], target: str) -> list[set[str]]:
    """Shell commands of every job of ``target`` (dry run of a copy of the workflow, all jobs
    forced) with the smoke config plus each override file; the dry runs run side by side."""
    wf = tmp_path / "wf"
    wf.mkdir()
    shutil.copy(ROOT / "Snakefile", wf)
    for sub in ("rules", "config", "report"):
        shutil.copytree(ROOT / sub, wf / sub)
    procs = []
    for i, text in enumerate(overrides):
        extra = tmp_path / f"override{i}.yaml"
        extra.write_text(text)
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "snakemake", "-n", "-p", "--forceall", "--cores", "1",
             "--nolock", "--configfile", "config/config.yaml", str(extra), "--", target],
            cwd=wf, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        ))  # fmt: skip
    out = []
    for p in procs:
        text = p.communicate(timeout=600)[0]
        assert p.returncode == 0, text[-3000:]
        cmds = [ln.split("Shell command:", 1)[-1].strip() for ln in text.splitlines()]
        out.append({c for c in cmds if c.startswith("python -m latentlab")})
    return out


@pytest.fixture
def dry_run_commands():
    """``fn(tmp_path, [override yaml texts], target) -> [set of shell commands]``: a test that
    a setting reaches only the steps that read it (Snakemake reruns a job when its params
    change)."""
    return _dry_run_commands
