"""Refill the ``cause`` / ``evidence`` columns of a published ledger from its study's
``causes.py`` (issue 24), without re-running the study: the same rule as the claims step
(``Ledger.assign_causes``: the first matching cause for every ``not_reproduced`` row, none
on other rows). Verdicts and numbers are left as they are.

    PYTHONPATH=src python scripts/reapply_causes.py nonconjugate_vi [--run-dir published/real]
"""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

from latentlab.claims.ledger import cause_of, read_claims


def reapply(study: str, run_dir: Path) -> tuple[int, dict[str, int]]:
    """Rewrite ``run_dir/<study>/claims.csv``; returns (rows changed, misses per cause)."""
    path = run_dir / study / "claims.csv"
    causes = importlib.import_module(f"latentlab.studies.{study}.causes").CAUSES
    df = read_claims(path)
    changed, counts = 0, {}
    for i, r in df.iterrows():
        cause, evidence = cause_of(causes, r.verdict, r.claim_id, r.dataset)
        if cause:
            counts[cause] = counts.get(cause, 0) + 1
        if (r.cause, r.evidence) != (cause, evidence):
            df.loc[i, ["cause", "evidence"]] = [cause, evidence]
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
