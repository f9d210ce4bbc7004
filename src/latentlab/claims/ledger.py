"""The replication ledger: one row per checkable claim of a document.

A study declares each claim with the document's value, our measured value and a
comparison; the verdict is computed here, never typed by hand::

    ledger = Ledger("scvb0", document="Foulds 2014 (seed 004)")
    ledger.compare("C4.10", where="Sec 4.4", statement="SCVB0 == online EM for MAP_LDA_U",
                   paper_value=0.0, our_value=max_abs_diff, tolerance=1e-10, how="abs",
                   dataset="synthetic_lda", data_kind="synthetic")
    ledger.not_testable("T4.4-human", where="Table 4.4", statement="...",
                        paper_value="...", reason="human study")
    ledger.write("results/smoke/scvb0/claims.csv")

Comparisons (``how``)
---------------------
``abs``   |ours - paper| <= tolerance
``rel``   |ours - paper| <= tolerance * |paper|
``ge``    ours >= paper - tolerance   (a lower bound the document claims, e.g. a speed-up)
``le``    ours <= paper + tolerance
``true``  ours is a boolean outcome of a check (ordering, inequality, identity); paper_value
          states what the document asserts, e.g. "PCVB0 < PCVB". Only a real boolean
          (``bool`` or ``numpy.bool_``) is accepted: a string, a number or NaN is
          ``not_reproduced`` with the reason in the note.
A non-finite ``our_value`` is always ``not_reproduced`` (and says so in the note).

Verdicts: ``reproduced``, ``not_reproduced``, ``not_testable`` (public data cannot test
it: private corpora, human studies), ``not_run`` (public data this run's config leaves
out; the note names the config that runs it). Data kinds: ``real``, ``substitute``,
``synthetic``, ``identity`` (an exact mathematical check, counted apart from empirical
claims) and ``none`` (nothing was run).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

COLUMNS = [
    "claim_id",
    "document",
    "where",
    "statement",
    "paper_value",
    "our_value",
    "tolerance",
    "dataset",
    "data_kind",
    "verdict",
    "note",
]
VERDICTS = ("reproduced", "not_reproduced", "not_testable", "not_run")
DATA_KINDS = ("real", "substitute", "synthetic", "identity", "none")
HOWS = ("abs", "rel", "ge", "le", "true")


@dataclass
class ClaimRow:
    claim_id: str
    document: str
    where: str
    statement: str
    paper_value: str
    our_value: str
    tolerance: str
    dataset: str
    data_kind: str
    verdict: str
    note: str


def _fmt(x) -> str:
    if x is None:
        return ""
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    if isinstance(x, float):
        return f"{x:.6g}"
    return str(x)


def judge(paper_value, our_value, how: str, tolerance: float = 0.0) -> tuple[str, str]:
    """Verdict and a short explanation for one comparison."""
    if how not in HOWS:
        raise ValueError(f"unknown comparison {how!r}; use one of {HOWS}")
    if how == "true":
        if our_value is None:
            return "not_reproduced", "no value measured"
        if not isinstance(our_value, (bool, np.bool_)):
            return "not_reproduced", f"check gave {our_value!r}, not a boolean"
        return ("reproduced" if bool(our_value) else "not_reproduced"), ""
    try:
        ours = float(our_value)
    except (TypeError, ValueError):
        return "not_reproduced", f"our value {our_value!r} is not a number"
    if not math.isfinite(ours):
        return "not_reproduced", f"our value is {ours} (non-finite)"
    paper = float(paper_value)
    tol = float(tolerance)
    if not (math.isfinite(paper) and math.isfinite(tol)):
        # a claim must state a finite target; a negative tolerance makes ge/le strict
        raise ValueError(f"paper value {paper_value!r} and tolerance {tolerance!r}: not finite")
    if how == "abs":
        ok = abs(ours - paper) <= tol
    elif how == "rel":
        ok = abs(ours - paper) <= tol * abs(paper)
    elif how == "ge":
        ok = ours >= paper - tol
    else:
        ok = ours <= paper + tol
    return ("reproduced" if ok else "not_reproduced"), ""


class Ledger:
    """Collects a study's claims and writes ``claims.csv`` (columns of DESIGN.md)."""

    def __init__(self, study: str, document: str):
        self.study = study
        self.document = document
        self.rows: list[ClaimRow] = []

    def _add(self, row: ClaimRow) -> ClaimRow:
        if any(r.claim_id == row.claim_id and r.dataset == row.dataset for r in self.rows):
            raise ValueError(f"claim {row.claim_id} on {row.dataset} declared twice")
        if row.data_kind not in DATA_KINDS:
            raise ValueError(f"data_kind {row.data_kind!r} not in {DATA_KINDS}")
        self.rows.append(row)
        return row

    def compare(
        self,
        claim_id: str,
        *,
        where: str,
        statement: str,
        paper_value,
        our_value,
        how: str,
        tolerance: float = 0.0,
        dataset: str,
        data_kind: str,
        note: str = "",
    ) -> ClaimRow:
        """Declare a claim and compute its verdict from ``how`` and ``tolerance``."""
        verdict, why = judge(paper_value, our_value, how, tolerance)
        tol = "check" if how == "true" else f"{how} {_fmt(float(tolerance))}"
        return self._add(
            ClaimRow(
                claim_id,
                self.document,
                where,
                statement,
                _fmt(paper_value),
                _fmt(our_value),
                tol,
                dataset,
                data_kind,
                verdict,
                "; ".join(x for x in (note, why) if x),
            )
        )

    def _unjudged(self, claim_id, verdict, where, statement, paper_value, reason, dataset,
                  data_kind) -> ClaimRow:  # fmt: skip
        """A row with no value of ours: ``reason`` says why (required)."""
        if not reason:
            hint = " (which config runs it)" if verdict == "not_run" else ""
            raise ValueError(f"claim {claim_id}: {verdict} needs a reason{hint}")
        return self._add(
            ClaimRow(
                claim_id,
                self.document,
                where,
                statement,
                _fmt(paper_value),
                "",
                "",
                dataset,
                data_kind,
                verdict,
                reason,
            )
        )

    def not_testable(
        self,
        claim_id: str,
        *,
        where: str,
        statement: str,
        paper_value,
        reason: str,
        dataset: str = "",
    ) -> ClaimRow:
        """A claim we cannot test here; ``reason`` is required (data private, human study...)."""
        return self._unjudged(
            claim_id, "not_testable", where, statement, paper_value, reason, dataset, "none"
        )

    def not_run(
        self,
        claim_id: str,
        *,
        where: str,
        statement: str,
        paper_value,
        reason: str,
        dataset: str = "",
        data_kind: str = "none",
    ) -> ClaimRow:
        """Public data this run leaves out; ``reason`` names the config that runs it."""
        return self._unjudged(
            claim_id, "not_run", where, statement, paper_value, reason, dataset, data_kind
        )

    def extend(self, rows: Iterable[ClaimRow]) -> None:
        for r in rows:
            self._add(r)

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame([asdict(r) for r in self.rows], columns=COLUMNS)

    def write(self, path: str | Path) -> pd.DataFrame:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        df = self.frame()
        tmp = path.with_name(path.name + ".tmp")
        df.to_csv(tmp, index=False)
        tmp.replace(path)
        return df


def read_claims(path: str | Path) -> pd.DataFrame:
    """Read a claims.csv and check its columns and verdicts."""
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{path}: claims file lacks columns {missing}")
    bad = sorted(set(df["verdict"]) - set(VERDICTS))
    if bad:
        raise ValueError(f"{path}: unknown verdicts {bad}")
    for v in ("not_testable", "not_run"):
        nt = df[(df["verdict"] == v) & (df["note"].str.strip() == "")]
        if len(nt):
            raise ValueError(f"{path}: {v} claims without a reason: {list(nt['claim_id'])}")
    return df[COLUMNS]
