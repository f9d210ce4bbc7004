"""Start-up CPU of every study step: what a Snakemake job pays before its step runs.

    python scripts/step_import_cost.py                          # -> benchmarks/step_import_cost.csv
    python scripts/step_import_cost.py --src ../base/src --out /tmp/before.csv
    python scripts/step_import_cost.py --before /tmp/before.csv  # adds the before column

Each job runs ``python -m latentlab <study> <step> ...``, and ``latentlab.cli.build_parser``
imports only the modules that register that step (``shape.step_modules``). For every
registered (study, step) this runs ``build_parser([study, step, "--params", "{}"])`` in a
fresh interpreter and records its CPU seconds (user + sys, ``getrusage(RUSAGE_CHILDREN)``
deltas; the least of ``--repeat`` runs) and which heavy packages the step imported (numba,
scipy and its optimize / stats, matplotlib, sklearn, any ``latentlab.models`` module).

``light`` marks the table, figure and claims steps: each draws from files that earlier
jobs wrote, so most of its start-up is import cost. A figure needs matplotlib, and a claims
step that re-runs an exact check imports the model code when that claim runs (not counted
here). Run it on an idle machine, one process at a time (``nice -n 19`` is fine: CPU time,
not wall time, is measured).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numba", "scipy", "scipy.optimize", "scipy.stats", "matplotlib", "sklearn")
LIGHT_KINDS = ("table", "figure", "claims")

# the child: build the parser of one step, then report what it imported
CHILD = """
import json, sys
from latentlab.cli import build_parser
build_parser([sys.argv[1], sys.argv[2], "--params", "{}"])
heavy = json.loads(sys.argv[3])
mods = sys.modules
print(json.dumps({
    "imported": {h: h in mods for h in heavy},
    "models": any(m.startswith("latentlab.models.") for m in mods),
    "n_modules": len(mods),
}))
"""


def study_steps(src: Path, studies: list[str] | None) -> list[tuple[str, str, str]]:
    """``(study, step, kind)`` of every registered step, read in a child interpreter with
    ``src`` first on its path (so a checkout other than this one can be measured)."""
    code = (
        "import json, pkgutil, sys\n"
        "import latentlab\n"
        "import latentlab.studies as S\n"
        "from latentlab.studies.shape import load_study\n"
        "want = json.loads(sys.argv[1])\n"
        "names = [m.name for m in pkgutil.iter_modules(S.__path__) if m.ispkg]\n"
        "out = [(n, s, st.kind) for n in sorted(names) if not want or n in want\n"
        "       for s, st in sorted(load_study(n).steps.items())]\n"
        "print(json.dumps({'file': latentlab.__file__, 'steps': out}))\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code, json.dumps(studies or [])],
        env=_env(src),
        capture_output=True,
        text=True,
        check=True,
    )
    got = json.loads(r.stdout.strip().splitlines()[-1])
    if not Path(got["file"]).resolve().is_relative_to(src):
        raise SystemExit(f"latentlab comes from {got['file']}, not {src}")
    return [tuple(x) for x in got["steps"]]


def _env(src: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(src), *filter(None, [env.get("PYTHONPATH")])])
    return env


def measure(src: Path, study: str, step: str) -> tuple[float, dict]:
    """CPU seconds (user + sys) of one child building the parser of ``study step``, and
    what it imported."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(
        [sys.executable, "-c", CHILD, study, step, json.dumps(HEAVY)],
        env=_env(src),
        capture_output=True,
        text=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise RuntimeError(f"{study} {step}: {r.stderr.strip()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, json.loads(r.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="the latentlab tree measured")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "step_import_cost.csv")
    ap.add_argument("--repeat", type=int, default=3, help="runs per step (the least is kept)")
    ap.add_argument("--study", action="append", help="only these studies (repeatable)")
    ap.add_argument("--before", type=Path, help="an earlier CSV of this script: adds cpu_s_before")
    args = ap.parse_args(argv)

    before = {}
    if args.before:
        with open(args.before, newline="") as f:
            before = {(r["study"], r["step"]): float(r["cpu_s"]) for r in csv.DictReader(f)}
    rows = []
    for study, step, kind in study_steps(args.src.resolve(), args.study):
        runs, info = [], {}
        for _ in range(max(1, args.repeat)):
            cpu, info = measure(args.src.resolve(), study, step)
            runs.append(cpu)
        row = {
            "study": study,
            "step": step,
            "kind": kind,
            "light": kind in LIGHT_KINDS,
            "cpu_s": round(min(runs), 3),
        }
        if before:
            b = before.get((study, step))
            row["cpu_s_before"] = "" if b is None else round(b, 3)
        row.update({h: info["imported"][h] for h in HEAVY})
        row["latentlab_models"] = info["models"]
        row["n_modules"] = info["n_modules"]
        rows.append(row)
        print(
            f"{study:16s} {step:22s} {kind:7s} {row['cpu_s']:6.2f} s  "
            + " ".join(h for h in HEAVY if info["imported"][h]),
            flush=True,
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    _summary(rows, before)
    print(f"wrote {args.out}")
    return 0


def _summary(rows: list[dict], before: dict) -> None:
    """CPU seconds per study of its light steps (before, where given) and of all its steps."""
    head = f"\n{'study':16s} {'light steps':>11s} {'light CPU s':>11s}"
    print(head + (f" {'before':>8s}" if before else "") + f" {'all steps CPU s':>16s}")
    for s in [*sorted({r["study"] for r in rows}), "total"]:
        sel = [r for r in rows if s in ("total", r["study"])]
        light = [r for r in sel if r["light"]]
        line = f"{s:16s} {len(light):11d} {sum(r['cpu_s'] for r in light):11.2f}"
        if before:
            line += f" {sum(float(r.get('cpu_s_before') or 0) for r in light):8.2f}"
        print(line + f" {sum(r['cpu_s'] for r in sel):16.2f}")


if __name__ == "__main__":
    raise SystemExit(main())
