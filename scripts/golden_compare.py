"""Compare a run's ledgers and figure/table CSVs with the committed golden copies.

    python scripts/golden_compare.py                      # results/smoke vs tests/golden/smoke
    python scripts/golden_compare.py --update             # refresh the golden copies
    python scripts/golden_compare.py --results DIR --golden DIR

The ``compare`` study runs only on request (``snakemake --cores 2 compare``: the bundled
42-document corpus of the smoke config, docs/config.md); its CSVs
(``compare/<dataset>/*.csv``) are compared when the run has a ``compare`` folder and
reported as not run otherwise (``tests/compare/test_compare_golden.py`` runs it and
compares). ``--update`` keeps the golden copies of a study folder the run does not have.

A refactor must leave every deterministic number where it was: numeric cells equal to
1e-9 relative, text cells identical, same rows, same columns. Numbers that depend on the
wall clock (timings, curves against seconds, verdicts of speed claims) are listed in
``tests/golden/volatile.yaml`` with the reason; they are compared by shape only (same
rows and columns). A file whose numbers depend on the CPU's float rounding (an optimiser
that stops at a tolerance) may carry its own ``rtol`` / ``atol`` there, with the measured
spread. Exit code 1 lists every difference.

Some files depend on the OpenBLAS kernel the machine selects (``tests/golden/blas.yaml``:
tir's L-BFGS-B steps run on BLAS, and its Gibbs chains carry a one-ulp difference into
other draws): ``tests/golden/smoke/`` holds them as computed with the kernel ``blas.yaml``
names ``primary``, and ``tests/golden/blas/<kernel>/`` as computed with another (each set
made by ``--update`` on such a machine, or with ``OPENBLAS_CORETYPE=<kernel>`` set for the
run). A run is compared with the set of its own kernel; a kernel without a set is reported.
"""

from __future__ import annotations

import argparse
import fnmatch
import shutil
import sys
from pathlib import Path

import yaml

from latentlab.claims import diff

ROOT = Path(__file__).resolve().parents[1]
PATTERNS = ("*/claims.csv", "*/fig*.csv", "*/table*.csv", "*/readings/*.csv", "compare/*/*.csv")
ON_REQUEST = ("compare",)  # study folders a default run does not build
RTOL, ATOL = diff.RTOL, diff.ATOL
_load_volatile = diff.load_volatile
BLAS_YAML = ROOT / "tests" / "golden" / "blas.yaml"


def blas_kernel() -> str:
    """The OpenBLAS kernel numpy and scipy run on (threadpoolctl), e.g. ``SkylakeX``."""
    import numpy  # noqa: F401  (loads numpy's OpenBLAS)
    import scipy.linalg  # noqa: F401  (and scipy's)
    from threadpoolctl import threadpool_info

    kinds = sorted({i.get("architecture") or "?" for i in threadpool_info()
                    if i.get("internal_api") == "openblas"})  # fmt: skip
    return "+".join(kinds) or "none"


def _load_blas(path: Path) -> dict:
    if not path.exists():
        return {"primary": None, "files": []}
    d = yaml.safe_load(path.read_text()) or {}
    return {"primary": d.get("primary"), "files": list(d.get("files") or [])}


def _blas_dependent(rel, blas: dict) -> bool:
    return any(fnmatch.fnmatch(str(rel), pat) for pat in blas["files"])


def _golden_path(golden: Path, rel, blas: dict, kernel: str) -> Path:
    """Where the golden copy of ``rel`` for this machine's kernel lives."""
    if not _blas_dependent(rel, blas) or kernel == blas["primary"]:
        return golden / rel
    return golden.parent / "blas" / kernel / rel


def _golden_files(root: Path) -> list[Path]:
    files = set()
    for pat in PATTERNS:
        files.update(p.relative_to(root) for p in root.glob(pat))
    return sorted(files)


def _rule_for(rel: str, volatile: dict) -> dict | None:
    return diff.rule_for(rel, volatile)


def compare_file(golden: Path, ours: Path, rule: dict | None) -> list[str]:
    """Every difference of one file (latentlab.claims.diff), golden vs ours."""
    return diff.compare_file(golden, ours, rule, names=("golden", "ours"))


def compare_trees(golden: Path, results: Path, volatile: dict, only: str | None = None,
                  blas: dict | None = None, kernel: str = "") -> int:  # fmt: skip
    """Print every difference between two results trees (``only``: one study's folder);
    return the number of files that differ or are missing. Files that depend on the BLAS
    kernel (``blas``) are compared with the golden set of ``kernel``."""
    blas = blas or {"primary": None, "files": []}
    keep = (lambda rel: rel.parts[0] == only) if only else (lambda rel: True)
    gfiles = {r for r in _golden_files(golden) if keep(r)}
    ofiles = {r for r in _golden_files(results) if keep(r)}
    for study in ON_REQUEST:
        if only != study and not (results / study).is_dir():
            skipped = {r for r in gfiles if r.parts[0] == study}
            if skipped:
                print(f"NOT RUN {study}/: {len(skipped)} golden files not compared (the run has "
                      f"no {study} folder: snakemake --cores 2 {study})")  # fmt: skip
            gfiles -= skipped
    failed = 0
    for rel in sorted(gfiles - ofiles):
        print(f"MISSING {rel}: golden has it, the run does not")
        failed += 1
    for rel in sorted(ofiles - gfiles):
        print(f"NEW     {rel}: not in the golden set (run with --update once it is right)")
    for rel in sorted(gfiles & ofiles):
        gpath = _golden_path(golden, rel, blas, kernel)
        if not gpath.exists():
            failed += 1
            print(f"NO GOLDEN {rel} for the BLAS kernel {kernel} (tests/golden/blas.yaml: "
                  f"make it with --update on such a machine)")  # fmt: skip
            continue
        problems = compare_file(gpath, results / rel, _rule_for(str(rel), volatile))
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
    ap.add_argument("--blas", type=Path, default=BLAS_YAML)
    ap.add_argument("--update", action="store_true", help="copy the run's files as golden")
    a = ap.parse_args(argv)
    blas, kernel = _load_blas(a.blas), blas_kernel()
    print(f"BLAS kernel: {kernel} (golden primary: {blas['primary']})")
    if a.update:
        keep = {}  # the primary kernel's copies of BLAS-dependent files survive another's update
        if a.golden.exists():
            if kernel != blas["primary"]:
                keep = {rel: (a.golden / rel).read_bytes() for rel in _golden_files(a.golden)
                        if _blas_dependent(rel, blas)}  # fmt: skip
            for d in a.golden.iterdir():
                if d.is_dir() and not (a.results / d.name).is_dir():
                    # a run of some studies (or one kernel's tir run) refreshes only theirs
                    print(f"kept {d.name}/: the run has no {d.name} folder")
                    continue
                shutil.rmtree(d) if d.is_dir() else d.unlink()
        for rel, data in keep.items():
            (a.golden / rel).parent.mkdir(parents=True, exist_ok=True)
            (a.golden / rel).write_bytes(data)
        for rel in _golden_files(a.results):
            out = _golden_path(a.golden, rel, blas, kernel)
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(a.results / rel, out)
        print(f"golden copies refreshed from {a.results} (BLAS kernel {kernel})")
        return 0
    failed = compare_trees(a.golden, a.results, _load_volatile(a.volatile), blas=blas,
                           kernel=kernel)  # fmt: skip
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
