"""CPU seconds of a run's jobs per study, from the Snakemake benchmark files.

    python scripts/smoke_cost.py                              # benchmarks/smoke
    python scripts/smoke_cost.py benchmarks/smoke --before ../base/benchmarks/smoke

Sums the ``cpu_time`` (CPU seconds) and ``s`` (wall seconds) columns of every job's
benchmark file (``benchmark:`` of the rules: ``benchmarks/{run}/<study>/<job>.tsv``) per
study (``data`` = the shared dataset jobs). Issue 23's budget for the default smoke run:
at most 450 CPU seconds in all. Job wall seconds overlap (2 jobs at a time) and stretch
under load; CPU seconds are the load-robust number. The wall time of the whole run is
``time snakemake --cores 2``'s.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from latentlab.bench_targets import by_study  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bench", nargs="?", default=str(ROOT / "benchmarks" / "smoke"))
    ap.add_argument("--before", help="another run's benchmarks/{run} folder to compare")
    ap.add_argument("--budget", type=float, default=450.0, help="CPU seconds (issue 23)")
    a = ap.parse_args(argv)
    df = by_study(a.bench)
    if a.before:
        old = by_study(a.before).set_index("study")
        df["cpu_before"] = df.study.map(old.cpu_seconds)
        df["jobs_before"] = df.study.map(old.jobs)
    print(df.to_string(index=False, float_format=lambda v: f"{v:.1f}"))
    total = float(df.cpu_seconds.iloc[-1])
    print(f"\ntotal CPU seconds {total:.1f} (budget {a.budget:g}): "
          f"{'within' if total <= a.budget else 'OVER'}")  # fmt: skip
    return 0 if total <= a.budget else 1


if __name__ == "__main__":
    raise SystemExit(main())
