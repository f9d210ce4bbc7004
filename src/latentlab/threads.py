"""How many threads a step may use: the job's allocation, as the scheduler exports it."""

from __future__ import annotations

import os


def job_threads(configured: int) -> int:
    """The config's ``threads``, capped by what the scheduler gave the job: Snakemake
    exports a shell job's (capped) ``threads`` as ``OMP_NUM_THREADS``, so a run with
    ``--cores 1`` or a cluster slot of one CPU is not oversubscribed by worker pools."""
    given = os.environ.get("OMP_NUM_THREADS", "")
    return max(1, min(configured, int(given))) if given.isdigit() else max(1, configured)
