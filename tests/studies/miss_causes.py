"""Checks of a study's declared causes (issue 24) against its published ledger, shared by the
``test_<study>_causes.py`` files (this directory is on sys.path for the tests below it).

A miss is explained when a declared :class:`~latentlab.claims.spec.Cause` matches it the way
:meth:`~latentlab.claims.ledger.Ledger.assign_causes` matches (first pattern over claim id
and data set); an ``open`` entry counts, the default ``open`` of an unmatched row does not.
Evidence names repository files by their path from the root (``published/...``,
``tests/...``, ``src/...``, ``scripts/...``, ``config/...``), optionally followed by an
``#anchor``, a ``::test`` or a ``: key``. An ``open`` entry's evidence carries the plan that
would settle it in a ``settle: ...`` clause (appended as ``; settle: ...`` to what is known),
so a reviewer reading the ledger sees it.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from latentlab.claims.ledger import match_cause, read_claims

ROOT = Path(__file__).resolve().parents[2]
_PATH = re.compile(r"\b(?:published|tests|src|scripts|config)/[\w./-]*\w")
_CASE = re.compile(r"REVERSALS\.md#case-(\d+)")
_SETTLE = re.compile(r"\bsettle: \S")


# the entry Ledger.assign_causes gives a not_reproduced row, or None
first_cause = match_cause


def misses(study: str):
    """(claim_id, dataset) of every not_reproduced row of the published ledger."""
    df = read_claims(ROOT / "published" / "real" / study / "claims.csv")
    return [(r.claim_id, r.dataset) for r in df.itertuples() if r.verdict == "not_reproduced"]


def unexplained(study: str, causes) -> list[tuple[str, str]]:
    return [m for m in misses(study) if first_cause(causes, *m) is None]


def counts(study: str, causes) -> Counter:
    return Counter(first_cause(causes, *m).cause for m in misses(study))


def evidence_paths(evidence: str) -> list[str]:
    """The repository paths an evidence string names (anchors, ``::`` and ``: key`` cut)."""
    return _PATH.findall(evidence)


def evidence_problems(causes) -> list[str]:
    """Named files that do not exist, REVERSALS cases the page lacks, explained causes (not
    ``open``) that name no file, and ``open`` causes whose evidence has no ``settle:`` clause
    (the run or check that would settle them)."""
    out = []
    reversals = (ROOT / "published" / "real" / "REVERSALS.md").read_text()
    for c in causes:
        paths = evidence_paths(c.evidence)
        if c.cause != "open" and not paths:
            out.append(f"{c.claim} ({c.cause}): evidence names no file: {c.evidence!r}")
        if c.cause == "open" and not _SETTLE.search(c.evidence):
            out.append(f"{c.claim} (open): evidence has no 'settle: ...' plan: {c.evidence!r}")
        out += [f"{c.claim}: {p} does not exist" for p in paths if not (ROOT / p).exists()]
        out += [f"{c.claim}: REVERSALS.md has no case {n}" for n in _CASE.findall(c.evidence)
                if f"case {n}" not in reversals.lower()]  # fmt: skip
    return out
