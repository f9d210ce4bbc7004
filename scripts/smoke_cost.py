"""CPU seconds of a run's jobs per study, from the Snakemake benchmark files.

    python scripts/smoke_cost.py                              # benchmarks/smoke
    python scripts/smoke_cost.py benchmarks/smoke --before ../base/benchmarks/smoke

Sums the ``cpu_time`` (CPU seconds) and ``s`` (wall seconds) columns of every job's
benchmark file (``benchmark:`` of the rules: ``benchmarks/{run}/<study>/<job>.tsv``) per
study (``data`` = the shared dataset jobs). Issue 23's budget for the default smoke run:
at most 450 CPU seconds in all. Job wall seconds overlap (2 jobs at a time) and stretch
under load; CPU seconds are the load-robust number. The wall time of the whole run is
``time snakemake --cores 2``'s.

``cpu_time`` is sampled (snakemake 9 ``benchmark.py``: psutil at start, every 0.5 s for 30
readings, then every 30 s; the last reading is kept), so it undercounts: a job shorter than
half a second records about 0, every job loses the CPU after its last reading (up to 30 s
of a long job's tail), and a child process that ends between two readings is missed.
``--rusage FILE`` adds the exact figure per study (``getrusage`` of each job, self +
waited-for children) from the log written by
``scripts/cpu_hook/sitecustomize.py`` (``LATENTLAB_CPU_LOG=FILE``,
``PYTHONPATH=scripts/cpu_hook:src``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from latentlab.bench_targets import by_study  # noqa: E402


def rusage_by_study(path: str | Path, cwd: str | None = None) -> dict[str, tuple[int, float]]:
    """``{study: (jobs, exact CPU seconds)}`` from a ``LATENTLAB_CPU_LOG`` file (one JSON
    line per job: ``argv`` = group, step, ...; ``cpu_self`` + ``cpu_children``). ``cwd``:
    only the jobs run from that folder (a log shared with a test suite, whose workflows run
    in temporary copies)."""
    want = str(Path(cwd).resolve()) if cwd else None
    out: dict[str, tuple[int, float]] = {}
    last: dict[tuple, dict] = {}  # one record per command line: the last one written (a
    # spawned worker of an older hook wrote its parent's argv before the parent exited)
    for line in Path(path).read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            if want is None or r.get("cwd", want) == want:
                last[tuple(r["argv"])] = r
    for r in last.values():
        group = r["argv"][0] if r["argv"] else "?"
        if group == "claims" and len(r["argv"]) > 1 and r["argv"][1] == "report":
            group = "report"
        n, c = out.get(group, (0, 0.0))
        out[group] = (n + 1, c + float(r["cpu_self"]) + float(r["cpu_children"]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bench", nargs="?", default=str(ROOT / "benchmarks" / "smoke"))
    ap.add_argument("--before", help="another run's benchmarks/{run} folder to compare")
    ap.add_argument("--budget", type=float, default=450.0, help="CPU seconds (issue 23)")
    ap.add_argument("--rusage", help="LATENTLAB_CPU_LOG file of the same run (exact CPU)")
    ap.add_argument("--cwd", help="with --rusage: only the jobs run from this folder")
    a = ap.parse_args(argv)
    df = by_study(a.bench)
    if a.rusage:
        ru = rusage_by_study(a.rusage, a.cwd)
        df["rusage_jobs"] = df.study.map(lambda s: ru.get(s, (0, 0.0))[0])
        df["rusage_cpu"] = df.study.map(lambda s: ru.get(s, (0, 0.0))[1])
        df.loc[df.study == "total", "rusage_jobs"] = sum(n for n, _ in ru.values())
        df.loc[df.study == "total", "rusage_cpu"] = sum(c for _, c in ru.values())
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
