"""Compare a run's ledgers and figure/table CSVs with the committed golden copies.

    python scripts/golden_compare.py                      # results/smoke vs tests/golden/smoke
    python scripts/golden_compare.py --update             # refresh the golden copies
    python scripts/golden_compare.py --results DIR --golden DIR

A refactor must leave every deterministic number where it was: numeric cells equal to
1e-9 relative, text cells identical, same rows, same columns. Numbers that depend on the
wall clock (timings, curves against seconds, verdicts of speed claims) are listed in
``tests/golden/volatile.yaml`` with the reason; they are compared by shape only (same
rows and columns). A file whose numbers depend on the CPU's float rounding (an optimiser
that stops at a tolerance) may carry its own ``rtol`` / ``atol`` there, with the measured
spread. Exit code 1 lists every difference.
"""

from __future__ import annotations

import argparse
import fnmatch
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[1]
PATTERNS = ("*/claims.csv", "*/fig*.csv", "*/table*.csv")
RTOL, ATOL = 1e-9, 1e-12


def _load_volatile(path: Path) -> dict:
    return yaml.safe_load(path.read_text()) if path.exists() else {}


def _golden_files(root: Path) -> list[Path]:
    files = set()
    for pat in PATTERNS:
        files.update(p.relative_to(root) for p in root.glob(pat))
    return sorted(files)


def _rule_for(rel: str, volatile: dict) -> dict | None:
    for pat, rule in volatile.items():
        if fnmatch.fnmatch(rel, pat):
            return rule or {}
    return None


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _text_close(a: str, b: str, rtol: float, atol: float) -> bool:
    """Text cells with numbers inside (a rule's JSON, "A 1.23 vs B 4.56"): the same text
    around the numbers, and the numbers within the file's tolerance."""
    if a == b:
        return True
    if _NUMBER.split(a) != _NUMBER.split(b):
        return False
    na = [float(x) for x in _NUMBER.findall(a)]
    nb = [float(x) for x in _NUMBER.findall(b)]
    return len(na) == len(nb) and bool(np.allclose(na, nb, rtol=rtol, atol=atol))


def _cells_equal(a: pd.Series, b: pd.Series, rtol=RTOL, atol=ATOL) -> np.ndarray:
    an = pd.to_numeric(a, errors="coerce")
    bn = pd.to_numeric(b, errors="coerce")
    both_num = an.notna() & bn.notna()
    eq = np.array([_text_close(x, y, rtol, atol) for x, y in zip(a.astype(str), b.astype(str),
                                                                    strict=True)])  # fmt: skip
    num = np.isclose(an.to_numpy(float), bn.to_numpy(float), rtol=rtol, atol=atol)
    return np.where(both_num.to_numpy(), num, eq)


def compare_file(golden: Path, ours: Path, rule: dict | None) -> list[str]:
    g = pd.read_csv(golden, dtype=str, keep_default_na=False)
    o = pd.read_csv(ours, dtype=str, keep_default_na=False)
    if list(g.columns) != list(o.columns):
        return [f"columns differ: golden {list(g.columns)} vs ours {list(o.columns)}"]
    if len(g) != len(o):
        return [f"{len(g)} golden rows vs {len(o)} ours"]
    rule = rule or {}
    if rule.get("shape_only"):
        return []
    skip_cols = set(rule.get("columns", []))
    skip_rows = np.zeros(len(g), bool)
    if "rows" in rule:  # {column: [values]} rows whose non-key cells vary with timing
        for col, values in rule["rows"].items():
            skip_rows |= g[col].isin([str(v) for v in values]).to_numpy()
    problems = []
    for col in g.columns:
        if col in skip_cols:
            continue
        ok = _cells_equal(g[col], o[col], rule.get("rtol", RTOL), rule.get("atol", ATOL))
        ok |= skip_rows
        for i in np.flatnonzero(~ok)[:5]:
            problems.append(f"row {i} column {col}: golden {g[col][i]!r} vs ours {o[col][i]!r}")
        if (~ok).sum() > 5:
            problems.append(f"column {col}: {(~ok).sum()} cells differ in all")
    return problems


def compare_trees(golden: Path, results: Path, volatile: dict, only: str | None = None) -> int:
    """Print every difference between two results trees (``only``: one study's folder);
    return the number of files that differ or are missing."""
    keep = (lambda rel: rel.parts[0] == only) if only else (lambda rel: True)
    gfiles = {r for r in _golden_files(golden) if keep(r)}
    ofiles = {r for r in _golden_files(results) if keep(r)}
    failed = 0
    for rel in sorted(gfiles - ofiles):
        print(f"MISSING {rel}: golden has it, the run does not")
        failed += 1
    for rel in sorted(ofiles - gfiles):
        print(f"NEW     {rel}: not in the golden set (run with --update once it is right)")
    for rel in sorted(gfiles & ofiles):
        problems = compare_file(golden / rel, results / rel, _rule_for(str(rel), volatile))
        if problems:
            failed += 1
            print(f"DIFF    {rel}")
            for p in problems:
                print(f"        {p}")
    n = len(gfiles & ofiles)
    print(f"golden: {max(n - failed, 0)}/{len(gfiles)} files equal")
    return failed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", type=Path, default=ROOT / "results" / "smoke")
    ap.add_argument("--golden", type=Path, default=ROOT / "tests" / "golden" / "smoke")
    ap.add_argument("--volatile", type=Path, default=ROOT / "tests" / "golden" / "volatile.yaml")
    ap.add_argument("--update", action="store_true", help="copy the run's files as golden")
    a = ap.parse_args(argv)
    if a.update:
        if a.golden.exists():
            shutil.rmtree(a.golden)
        for rel in _golden_files(a.results):
            (a.golden / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(a.results / rel, a.golden / rel)
        print(f"golden copies refreshed from {a.results}")
        return 0
    failed = compare_trees(a.golden, a.results, _load_volatile(a.volatile))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
