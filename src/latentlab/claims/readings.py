"""The ledger side of the documents' readings (issue 37; the sweeps: :mod:`latentlab.readings`).

Every row a reading touches names the option of the reading its number uses (the
``reading`` column), and a ``not_reproduced`` row that another option of a readings sweep
reproduces gets the cause ``reading``, with the option, its value and the sweep's file as
evidence. The row's verdict stays the one of the reading its run uses: a published number
never switches reading silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from fnmatch import fnmatchcase
from pathlib import Path
from types import SimpleNamespace

import pandas as pd


def touched(reading, claim_id: str) -> bool:
    """Whether ``reading`` (a :class:`~latentlab.claims.spec.Reading`) touches the row."""
    return any(fnmatchcase(claim_id, p) for p in reading.rows)


def read_sweep(path) -> pd.DataFrame:
    """A readings sweep's CSV, every cell as written (a value is quoted as the sweep has it)."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def apply(ledger, readings: list, used: Mapping[str, str], sweep_paths=(), root=None) -> None:
    """The ``reading`` column of every row a reading touches, and the cause ``reading`` of a
    ``not_reproduced`` row that another option of a sweep reproduces (evidence: the option,
    its value and the sweep's file, named relative to ``root`` when given). Other causes
    stay: the measured one comes first.

    The row's own option must miss in the same sweep: a sweep run at another scale than the
    ledger's (more seeds, a ``set``) whose row the run's option reproduces too says the miss
    comes from that scale, not from the reading, and gives no cause."""
    tables = [
        (str(Path(p).relative_to(root)) if root is not None else str(p), read_sweep(p))
        for p in sweep_paths
    ]
    for row in ledger.rows:
        hits = [r for r in readings if touched(r, row.claim_id)]
        if not hits:
            continue
        row.reading = "; ".join(f"{r.name}={used.get(r.name, r.published)}" for r in hits)
        if row.verdict != "not_reproduced":
            continue
        for r in hits:
            opt = used.get(r.name, r.published)
            found = _reproduced_by_another(row, r.name, opt, tables)
            if found:  # not row.cause: a declared cause may already say `reading`
                row.cause, row.evidence = "reading", found
                break


def _reproduced_by_another(row, reading: str, opt: str, tables) -> str:
    """The evidence of the first sweep in which option ``opt`` of ``reading`` misses the row
    (``not_reproduced``) and another option reproduces it; "" when none does."""
    for path, t in tables:
        same = t[(t.reading == reading) & (t.claim_id == row.claim_id) & (t.dataset == row.dataset)]
        lit, others = same[same.option == opt], same[same.option != opt]
        best = others[others.verdict == "reproduced"]
        if best.empty or lit.empty or lit.iloc[0].verdict != "not_reproduced":
            continue
        b, l0 = best.iloc[0], lit.iloc[0]
        return (
            f"reproduced under reading {reading}={b.option}: {b.our_value}; under "
            f"{reading}={opt} in the same sweep: {l0.our_value} ({l0.verdict}); {path}"
        )
    return ""


def refill(df: pd.DataFrame, causes, readings: list, sweep_dir, root=None) -> list[tuple]:
    """The ``(cause, evidence, reading)`` cells a written ledger ``df`` should have: the
    claims step's rules (``Ledger.assign_causes``, then :func:`apply` with the readings
    sweeps of ``sweep_dir``, named relative to ``root``, the published option of every
    reading), without re-running the study. Verdicts and numbers are not touched."""
    from latentlab.claims.ledger import cause_of

    rows = []
    for r in df.itertuples():
        cause, evidence = cause_of(causes, r.verdict, r.claim_id, r.dataset)
        rows.append(SimpleNamespace(claim_id=r.claim_id, dataset=r.dataset, verdict=r.verdict,
                                    cause=cause, evidence=evidence, reading=""))  # fmt: skip
    sweeps = sorted(Path(sweep_dir).glob("*.csv"))
    apply(SimpleNamespace(rows=rows), readings, {}, sweeps, root)
    return [(r.cause, r.evidence, r.reading) for r in rows]
