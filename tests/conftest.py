"""Fixtures shared by every test folder."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _copy_workflow(dest: Path) -> Path:
    """The workflow's own files (Snakefile, rules/, config/, report/) copied into ``dest``,
    so that a test runs Snakemake there and never writes into the checkout."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "Snakefile", dest)
    for sub in ("rules", "config", "report"):
        shutil.copytree(ROOT / sub, dest / sub)
    return dest


@pytest.fixture(scope="session")
def copy_workflow():
    """``copy_workflow(dest) -> dest``: a copy of the workflow to run Snakemake in."""
    return _copy_workflow


@pytest.fixture(scope="module")
def clean_copy(tmp_path_factory):
    """The checkout's files as a fresh clone has them (tracked or new, never ignored: no
    results/), in a temporary folder; one copy per test module."""
    files = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard", "-z"],
        capture_output=True,
        check=False,
    )
    if files.returncode != 0:
        pytest.skip("not a git checkout")
    dest = tmp_path_factory.mktemp("clone")
    for rel in filter(None, files.stdout.decode().split("\0")):
        if (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / rel, dest / rel)
    assert not (dest / "results" / "smoke").exists() and not (dest / "results" / "real").exists()
    return dest
