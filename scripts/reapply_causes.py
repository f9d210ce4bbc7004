"""Refill the ``cause`` / ``evidence`` / ``reading`` columns of a published ledger from its
study's ``causes.py`` (issue 24) and its published readings sweeps (issue 37,
``<run-dir>/<study>/readings/*.csv``), without re-running the study: the same rules as the
claims step (``Ledger.assign_causes``: the first matching cause for every
``not_reproduced`` row, none on other rows; then ``latentlab.claims.readings.apply``: the
cause ``reading`` for a miss another option of a sweep reproduces). Verdicts and numbers
are left as they are.

    PYTHONPATH=src python scripts/reapply_causes.py nonconjugate_vi [--run-dir published/real]
"""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

from latentlab.claims.ledger import read_claims
from latentlab.claims.readings import refill
from latentlab.studies.shape import readings_of


def reapply(study: str, run_dir: Path) -> tuple[int, dict[str, int]]:
    """Rewrite ``run_dir/<study>/claims.csv``; returns (rows changed, misses per cause)."""
    path = run_dir / study / "claims.csv"
    causes = importlib.import_module(f"latentlab.studies.{study}.causes").CAUSES
    df = read_claims(path)
    cells = refill(df, causes, readings_of(study), run_dir / study / "readings")
    changed, counts = 0, {}
    for i, new in zip(df.index, cells, strict=True):
        if new[0]:
            counts[new[0]] = counts.get(new[0], 0) + 1
        if (df.at[i, "cause"], df.at[i, "evidence"], df.at[i, "reading"]) != new:
            df.loc[i, ["cause", "evidence", "reading"]] = list(new)
            changed += 1
    df.to_csv(path, index=False)
    return changed, counts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("study")
    ap.add_argument("--run-dir", type=Path, default=Path("published/real"))
    args = ap.parse_args(argv)
    changed, counts = reapply(args.study, args.run_dir)
    print(f"{args.study}: {changed} rows changed; misses by cause {counts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
