"""Fixtures shared by every test folder."""

from __future__ import annotations

import shutil
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
