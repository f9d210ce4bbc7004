"""ARFF (Weka) files as used by Mulan: numeric and nominal attributes, dense or sparse
rows. For a Mulan multi-label set the labels are the last ``L`` attributes ({0,1})."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from latentlab.data.parsers._util import read_text
from latentlab.data.tasks import TaskDataset
from latentlab.errors import DataError

_ATTR = re.compile(r"^@attribute\s+('(?:[^']|\\')*'|\"[^\"]*\"|\S+)\s+(.+)$", re.IGNORECASE)


def read_arff(path: str | Path) -> tuple[list[str], list, np.ndarray]:
    """(attribute names, attribute types, data matrix float64). Nominal values that are
    numbers keep their numeric value; other nominal values become their index."""
    path = Path(path)
    names, types = [], []
    rows = []
    in_data = False
    for lineno, raw in enumerate(read_text(path).splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if not in_data:
            low = line.lower()
            if low.startswith("@relation"):
                continue
            if low.startswith("@attribute"):
                m = _ATTR.match(line)
                if not m:
                    raise DataError(path, f"line {lineno}: malformed @attribute")
                name, typ = m.group(1).strip("'\""), m.group(2).strip()
                if typ.startswith("{"):
                    vals = [v.strip().strip("'\"") for v in typ.strip("{}").split(",")]
                    types.append(vals)
                elif typ.lower() in ("numeric", "real", "integer"):
                    types.append("numeric")
                else:
                    raise DataError(path, f"line {lineno}: unsupported attribute type {typ!r}")
                names.append(name)
                continue
            if low.startswith("@data"):
                in_data = True
                continue
            raise DataError(path, f"line {lineno}: unexpected header line {line[:40]!r}")
        rows.append(_parse_row(line, names, types, path, lineno))
    if not in_data:
        raise DataError(path, "no @data section")
    X = np.array(rows, dtype=np.float64).reshape(len(rows), len(names))
    return names, types, X


def _value(tok: str, typ, path, lineno, j) -> float:
    tok = tok.strip().strip("'\"")
    if tok == "?":
        raise DataError(path, f"line {lineno}: missing value in attribute {j + 1}")
    if typ == "numeric":
        try:
            return float(tok)
        except ValueError:
            raise DataError(path, f"line {lineno}: {tok!r} is not numeric") from None
    if tok not in typ:
        raise DataError(path, f"line {lineno}: {tok!r} not among the nominal values {typ}")
    try:
        return float(tok)
    except ValueError:
        return float(typ.index(tok))


def _parse_row(line, names, types, path, lineno) -> list[float]:
    n = len(names)
    if line.startswith("{"):
        if not line.endswith("}"):
            raise DataError(path, f"line {lineno}: unterminated sparse row")
        row = [0.0] * n
        body = line[1:-1].strip()
        for item in body.split(",") if body else []:
            parts = item.split()
            if len(parts) != 2:
                raise DataError(path, f"line {lineno}: malformed sparse entry {item!r}")
            try:
                j = int(parts[0])
            except ValueError:
                raise DataError(path, f"line {lineno}: bad index {parts[0]!r}") from None
            if not 0 <= j < n:
                raise DataError(path, f"line {lineno}: attribute index {j} out of range 0..{n - 1}")
            row[j] = _value(parts[1], types[j], path, lineno, j)
        return row
    toks = line.split(",")
    if len(toks) != n:
        raise DataError(
            path, f"line {lineno}: {len(toks)} values but the header declares {n} attributes"
        )
    return [_value(t, types[j], path, lineno, j) for j, t in enumerate(toks)]


def parse_mulan(train, test, n_labels: int, metadata: dict | None = None) -> TaskDataset:
    """Mulan train + test ARFF files -> a multi-label TaskDataset (split 0 / 1)."""
    parts = []
    for path in (train, test):
        names, types, X = read_arff(path)
        if len(names) <= n_labels:
            raise DataError(path, f"{len(names)} attributes, fewer than {n_labels} labels + 1")
        for j in range(len(names) - n_labels, len(names)):
            if not isinstance(types[j], list) or sorted(types[j]) != ["0", "1"]:
                raise DataError(path, f"label attribute {names[j]!r} is not nominal {{0,1}}")
        parts.append((path, names, X))
    (p0, n0, X0), (p1, n1, X1) = parts
    if n0 != n1:
        raise DataError(p1, f"attributes differ from {p0}")
    p = len(n0) - n_labels
    X = np.vstack([X0, X1])
    split = np.concatenate([np.zeros(len(X0)), np.ones(len(X1))]).astype(np.int8)
    meta = {"source": str(train), **(metadata or {})}
    return TaskDataset(
        X[:, :p],
        X[:, p:],
        layout="multilabel",
        target="binary",
        split=split,
        feature_names=n0[:p],
        label_names=n0[p:],
        metadata=meta,
    ).validate(train)
