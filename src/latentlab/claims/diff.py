"""Compare a CSV output with a reference copy, cell by cell, within stated tolerances.

Used by ``scripts/golden_compare.py`` (the smoke run against ``tests/golden/``) and by
``latentlab rebuild`` (a fresh rebuild against the published run). Numbers are equal to
``rtol``/``atol`` (default 1e-9 relative), text cells (verdicts, ids) exactly. A *rule*
(one entry of a ``volatile.yaml``) relaxes one file:

* ``shape_only: true``              same rows and columns, no cell compared;
* ``columns: [...]``                columns not compared (wall-clock numbers);
* ``rows: {column: [values]}``      rows not compared (a ledger's timing claims);
* ``rtol`` / ``atol``               the file's own tolerance (CPU float rounding);
* ``machine_sensitive: reason``     numbers a sampler chain's float rounding moves across
                                    machines: with ``lenient``, rows whose numbers alone
                                    differ are reported as *moved*, not as differences;
                                    text cells (verdicts) still must match.

Rows are matched by their key: the shortest run of leading text columns that is unique in
both files (``claim_id``, ``dataset``, ...); without one, by position. So a missing row, a
new row and a changed cell are each named with the row they belong to.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from latentlab.errors import DataError

RTOL, ATOL = 1e-9, 1e-12
MAX_ROWS_SHOWN = 10


def load_volatile(path: str | Path) -> dict:
    """A ``volatile.yaml``: file pattern -> rule; ``{}`` when the file does not exist."""
    path = Path(path)
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text()) or {}
    if not isinstance(data, dict):
        raise DataError(path, "must map file patterns to rules")
    return data


def rule_for(rel: str, *volatiles: dict) -> dict | None:
    """The rule for ``rel``: in each of ``volatiles`` the first pattern matching it; the
    rules found are merged, an earlier volatile's keys winning (``None``: no match)."""
    found = []
    for volatile in volatiles:
        for pat, rule in volatile.items():
            if fnmatch.fnmatch(rel, pat):
                found.append(rule or {})
                break
    if not found:
        return None
    merged: dict = {}
    for rule in reversed(found):
        merged.update(rule)
    return merged


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


# a measured number inside text (a rule's JSON, a note's "L1 1.770"): such a column holds
# values, not labels, even where no cell is a number (claim ids like "C3.3" stay labels)
_MEASURED = r"\d\.\d{3,}|\d[eE][-+]?\d"


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


def _cell_diffs(a: pd.Series, b: pd.Series, rtol=RTOL, atol=ATOL) -> tuple[np.ndarray, np.ndarray]:
    """Where two string columns differ: (numbers beyond rtol/atol, other cells not equal)."""
    an = pd.to_numeric(a, errors="coerce")
    bn = pd.to_numeric(b, errors="coerce")
    both_num = (an.notna() & bn.notna()).to_numpy()
    pairs = zip(a.astype(str), b.astype(str), strict=True)
    eq = np.array([_text_close(x, y, rtol, atol) for x, y in pairs], bool)
    num = np.isclose(an.to_numpy(float), bn.to_numpy(float), rtol=rtol, atol=atol)
    return both_num & ~num, ~both_num & ~eq


def cells_equal(a: pd.Series, b: pd.Series, rtol=RTOL, atol=ATOL) -> np.ndarray:
    """Cell-wise equality of two string columns: numbers to rtol/atol, the rest exactly."""
    bad_num, bad_text = _cell_diffs(a, b, rtol, atol)
    return ~(bad_num | bad_text)


def _text_columns(df: pd.DataFrame) -> list[str]:
    """Columns of labels: no cell is a number (a column of values, such as a ledger's
    ``our_value`` with its numbers and booleans, is never part of a row's key)."""
    return [
        c
        for c in df.columns
        if pd.to_numeric(df[c][df[c] != ""], errors="coerce").isna().all()
        and not df[c].astype(str).str.contains(_MEASURED).any()
        and len(df)
    ]


def row_key(ref: pd.DataFrame, new: pd.DataFrame) -> list[str]:
    """The shortest run of ``ref``'s leading text columns that identifies every row of both
    frames; ``[]`` when none does (rows are then matched by position)."""
    cols = [c for c in _text_columns(ref) if c in new.columns]
    for n in range(1, len(cols) + 1):
        key = cols[:n]
        if not ref.duplicated(key).any() and not new.duplicated(key).any():
            return key
    return []


def _label(row: pd.Series, key: list[str], pos: int) -> str:
    if not key:
        return f"row {pos}"
    return "row " + ", ".join(f"{k}={row[k]}" for k in key)


def _show(row: pd.Series) -> str:
    return ", ".join(f"{k}={v}" for k, v in row.items())


def diff_frames(
    ref: pd.DataFrame,
    new: pd.DataFrame,
    rule: dict | None = None,
    names: tuple[str, str] = ("golden", "ours"),
    lenient: bool = False,
) -> tuple[list[str], list[str]]:
    """Differences between ``ref`` and ``new`` (string frames) as readable lines:
    ``(problems, moved)``; ``moved`` holds the rows of a ``machine_sensitive`` file whose
    numbers alone differ, when ``lenient`` (else they are problems)."""
    a, b = names
    rule = rule or {}
    problems: list[str] = []
    if list(ref.columns) != list(new.columns):
        only_ref = [c for c in ref.columns if c not in new.columns]
        only_new = [c for c in new.columns if c not in ref.columns]
        problems.append(
            f"columns differ: {a} {list(ref.columns)} vs {b} {list(new.columns)}"
            + (f" (only in {a}: {only_ref})" if only_ref else "")
            + (f" (only in {b}: {only_new})" if only_new else "")
        )
    common = [c for c in ref.columns if c in new.columns]
    skip_cols = set(rule.get("columns", []))
    stable = [c for c in common if c not in skip_cols]  # a skipped column keys no row
    key = row_key(ref[stable], new[stable]) if stable else []
    if key:
        rk = ref[key].astype(str).agg("\x1f".join, axis=1)
        nk = new[key].astype(str).agg("\x1f".join, axis=1)
        missing = ref[~rk.isin(set(nk))]
        extra = new[~nk.isin(set(rk))]
        both = rk.isin(set(nk))
        ref_i = ref[both].reset_index(drop=True)
        order = pd.Series(range(len(new)), index=nk.to_numpy())
        new_i = new.iloc[order[rk[both]].to_numpy()].reset_index(drop=True)
    else:
        n = min(len(ref), len(new))
        missing, extra = ref.iloc[n:], new.iloc[n:]
        ref_i, new_i = ref.iloc[:n].reset_index(drop=True), new.iloc[:n].reset_index(drop=True)
    sides = ((missing, "missing", f"in {a}, not in {b}"), (extra, "new", f"in {b}, not in {a}"))
    for rows, kind, where in sides:
        for i, (_, row) in enumerate(rows.iterrows()):
            if i == MAX_ROWS_SHOWN:
                problems.append(f"... {len(rows) - MAX_ROWS_SHOWN} more {kind} rows")
                break
            problems.append(f"{kind} row ({where}): {_show(row)}")
    if rule.get("shape_only"):
        return problems, []
    skip_rows = np.zeros(len(ref_i), bool)
    for col, values in (rule.get("rows") or {}).items():
        if col in ref_i.columns:  # {column: [values]} rows whose cells vary with timing
            skip_rows |= ref_i[col].isin([str(v) for v in values]).to_numpy()
    bad_num = np.zeros((len(ref_i), len(common)), bool)
    bad_text = np.zeros_like(bad_num)
    for j, col in enumerate(common):
        if col in skip_cols:
            continue
        tol = (rule.get("rtol", RTOL), rule.get("atol", ATOL))
        bad_num[:, j], bad_text[:, j] = _cell_diffs(ref_i[col], new_i[col], *tol)
    bad_num[skip_rows], bad_text[skip_rows] = False, False
    sensitive = lenient and bool(rule.get("machine_sensitive"))
    is_problem = bad_text.any(axis=1) | (bad_num.any(axis=1) & (not sensitive))
    is_moved = bad_num.any(axis=1) & ~is_problem
    bad = bad_num | bad_text

    def lines(rows, what):
        out = []
        for i in rows[:MAX_ROWS_SHOWN]:
            cells = "; ".join(
                f"{c}: {a} {ref_i[c][i]!r} vs {b} {new_i[c][i]!r}"
                for j, c in enumerate(common)
                if bad[i, j]
            )
            out.append(f"{_label(ref_i.iloc[i], key, i)}: {cells}")
        if len(rows) > MAX_ROWS_SHOWN:
            out.append(f"... {len(rows) - MAX_ROWS_SHOWN} more rows {what} ({len(rows)} in all)")
        return out

    problems += lines(np.flatnonzero(is_problem), "differ")
    return problems, lines(np.flatnonzero(is_moved), "moved")


def compare_frames(
    ref: pd.DataFrame,
    new: pd.DataFrame,
    rule: dict | None = None,
    names: tuple[str, str] = ("golden", "ours"),
) -> list[str]:
    """Every difference between ``ref`` and ``new`` (string frames), strictly."""
    return diff_frames(ref, new, rule, names)[0]


def read_csv(path: str | Path) -> pd.DataFrame:
    """A CSV as strings (no NaN conversion), so text compares exactly."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def compare_file(
    ref: str | Path, new: str | Path, rule: dict | None, names: tuple[str, str] = ("golden", "ours")
) -> list[str]:
    """:func:`compare_frames` of two CSV files."""
    return compare_frames(read_csv(ref), read_csv(new), rule, names)
