"""Time each Snakemake target of a study took: ``bench_targets.csv`` from the rule
``benchmark:`` files (``benchmarks/{run}/<study>/*.tsv``, one per job).

A study's ``bench.csv`` holds its kernel measurements and is an input of its claims, so
the per-target times (known only once every other target is built) go to a file beside it.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from latentlab.errors import DataError
from latentlab.outputs import write_table
from latentlab.provenance import provenance

# the benchmark file of the rule that writes bench_targets.csv (rules/<study>.smk)
OWN = "bench_targets"
COLUMNS = {
    "s": "seconds",
    "max_rss": "max_rss_mb",
    "cpu_time": "cpu_seconds",
    "mean_load": "mean_load",
}


def collect(bench_dir: str | Path) -> pd.DataFrame:
    """One row per benchmark file (target = file stem), slowest first, then a ``total`` row
    (sum of seconds and CPU seconds; the jobs may have run in parallel). The collecting
    job's own file (``bench_targets.tsv``, from an earlier build) is not a target."""
    bench_dir = Path(bench_dir)
    rows = []
    for f in sorted(bench_dir.glob("*.tsv")):
        if f.stem == OWN:
            continue
        t = pd.read_csv(f, sep="\t")
        missing = [c for c in ("s", "max_rss") if c not in t.columns]
        if missing or not len(t):
            raise DataError(f, f"not a Snakemake benchmark file (lacks {missing or 'rows'})")
        r = {"target": f.stem}
        for src, dst in COLUMNS.items():
            v = pd.to_numeric(t[src], errors="coerce") if src in t.columns else pd.Series([0.0])
            r[dst] = float(v.fillna(0.0).iloc[-1])
        rows.append(r)
    if not rows:
        raise DataError(bench_dir, "no Snakemake benchmark files (*.tsv)")
    df = pd.DataFrame(rows).sort_values("seconds", ascending=False, kind="stable")
    total = {"target": "total", "seconds": df.seconds.sum(), "max_rss_mb": df.max_rss_mb.max(),
             "cpu_seconds": df.cpu_seconds.sum(), "mean_load": df.mean_load.mean()}  # fmt: skip
    return pd.concat([df, pd.DataFrame([total])], ignore_index=True)


def write(bench_dir: str | Path, out: str | Path, **meta) -> pd.DataFrame:
    df = collect(bench_dir)
    write_table(df, out, meta={"source": str(bench_dir), "provenance": provenance(), **meta})
    return df


def by_study(run_dir: str | Path) -> pd.DataFrame:
    """Cost of a whole run per study from ``benchmarks/{run}/<study>/*.tsv`` (``run_dir``
    is ``benchmarks/{run}``): jobs, summed CPU seconds and summed job wall seconds, one row
    per sub-folder, then a ``total`` row. CPU seconds are the load-robust measure (the job
    wall seconds of parallel jobs overlap and stretch under load)."""
    run_dir = Path(run_dir)
    rows = []
    for d in sorted(p for p in run_dir.iterdir() if p.is_dir()) if run_dir.is_dir() else []:
        if not any(d.glob("*.tsv")):
            continue
        t = collect(d)
        jobs = t[t.target != "total"]
        rows.append({"study": d.name, "jobs": len(jobs), "cpu_seconds": jobs.cpu_seconds.sum(),
                     "job_seconds": jobs.seconds.sum()})  # fmt: skip
    if not rows:
        raise DataError(run_dir, "no study folders with Snakemake benchmark files (*.tsv)")
    df = pd.DataFrame(rows)
    total = {"study": "total", "jobs": int(df.jobs.sum()), "cpu_seconds": df.cpu_seconds.sum(),
             "job_seconds": df.job_seconds.sum()}  # fmt: skip
    return pd.concat([df, pd.DataFrame([total])], ignore_index=True)
