"""Print nonconjugate_vi's deterministic EM budget (``ctm.em_iter_budget``) from a run's sweeps.

The CTM sweep (Wang & Blei 2013, Sec. 5.1, Fig. 5) of config/real.yaml cuts EM after 40 s
(``ctm.em_time_budget_s``), so which fits converge depends on the machine. The budget in EM
iterations that replaces it gives each (corpus, K, method) floor(S / t) + 1 iterations, with
S the run's time budget and t its measured seconds per EM iteration (the fits' summed
``fit_time_s`` over their summed ``em_iters``; latentlab.studies.nonconjugate_vi.em_budget).
Prints the table, then the YAML block for config/real.yaml's nonconjugate_vi.ctm.

    PYTHONPATH=src python scripts/ncvi_em_iter_budget.py          # the timed sweeps
    PYTHONPATH=src python scripts/ncvi_em_iter_budget.py \\
        --sweeps results/real/nonconjugate_vi/ctm_sweep_*.csv

S comes from each sweep's ``.meta.json`` (settings.ctm.em_time_budget_s) unless ``--seconds``
gives it. The published run timed its fits on an idle 2-core machine, one single-threaded
worker per core, so t is CPU seconds there: the script prints each sweep's summed fit times
beside its job's CPU seconds (``bench_targets.csv``, which also counts loading the corpus and
scoring the held-out documents) as a check.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from latentlab.studies.nonconjugate_vi.em_budget import budget_mapping, budget_table, budget_yaml

ROOT = Path(__file__).resolve().parents[1]
# the sweeps the budget was measured on: the real run of 5f88eb8 (2026-11-27, idle 2-core
# machine, 40 s per fit), kept here since the published run uses the budget itself
TIMED = ROOT / "published" / "real" / "causes"  # ncvi_timed_ctm_sweep_*.csv


def _seconds(sweeps: list[Path]) -> float:
    """The time budget the sweeps ran with (their meta.json), one value for all."""
    found = {}
    for p in sweeps:
        meta = p.with_suffix(".meta.json")
        if meta.exists():
            found[p.name] = json.loads(meta.read_text())["settings"]["ctm"]["em_time_budget_s"]
    values = set(found.values())
    if len(values) != 1 or None in values:
        raise SystemExit(f"cannot read one time budget from the sweeps' meta.json {found}; "
                         "give --seconds")  # fmt: skip
    return float(values.pop())


def _cpu_check(sweep: pd.DataFrame, bench_targets: Path) -> pd.DataFrame | None:
    if not bench_targets.exists():
        return None
    bt = pd.read_csv(bench_targets).set_index("target")
    rows = []
    for corpus, g in sweep.groupby("corpus", sort=False):
        target = f"sweep_{corpus}"
        if target in bt.index:
            rows.append({"corpus": corpus, "sum_fit_time_s": round(g.fit_time_s.sum(), 1),
                         "job_cpu_seconds": bt.loc[target, "cpu_seconds"],
                         "job_wall_seconds": bt.loc[target, "seconds"]})  # fmt: skip
    return pd.DataFrame(rows) if rows else None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sweeps", type=Path, nargs="+",
                    default=sorted(TIMED.glob("ncvi_timed_ctm_sweep_*.csv")))  # fmt: skip
    ap.add_argument("--seconds", type=float, default=None, help="time budget S per fit")
    ap.add_argument("--bench-targets", type=Path, default=TIMED / "ncvi_timed_bench_targets.csv")
    ap.add_argument("--yaml-only", action="store_true", help="print only the YAML block")
    a = ap.parse_args(argv)
    if not a.sweeps:
        raise SystemExit("no sweep CSVs (--sweeps)")
    seconds = a.seconds if a.seconds is not None else _seconds(a.sweeps)
    sweep = pd.concat([pd.read_csv(p) for p in a.sweeps], ignore_index=True)
    table = budget_table(sweep, seconds)
    block = budget_yaml(budget_mapping(table))
    if not a.yaml_only:
        print(f"# em_iter_budget = floor({seconds:g} / t) + 1, t = seconds per EM iteration "
              f"(sum fit_time_s / sum em_iters over seeds); sweeps: "
              f"{', '.join(str(p) for p in a.sweeps)}")  # fmt: skip
        print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
        check = _cpu_check(sweep, a.bench_targets)
        if check is not None:
            print("\n# timing check: the fits' summed seconds vs the sweep job's CPU seconds")
            print(check.to_string(index=False))
        print()
    print(block)
    return 0


if __name__ == "__main__":
    sys.exit(main())
