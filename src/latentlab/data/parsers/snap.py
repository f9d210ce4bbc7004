"""SNAP edge lists (``.txt.gz``): ``#`` comment lines, one of them ``# Nodes: N Edges: E``,
then ``from<TAB>to`` lines. For the undirected SNAP graphs each pair is listed in both
directions and a self-loop once; the canonical graph keeps each unordered pair (and each
self-loop) once. The header must agree with the body (E lines, N distinct nodes)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.data.graph import StaticGraph
from latentlab.data.parsers._util import read_bytes
from latentlab.errors import DataError

_HDR = re.compile(r"Nodes:\s*(\d+)\s+Edges:\s*(\d+)")


def parse_snap(path: str | Path, metadata: dict | None = None) -> StaticGraph:
    path = Path(path)
    data = read_bytes(path)
    n_hdr = e_hdr = None
    for line in data[:4096].decode("latin-1").splitlines():
        if not line.startswith("#"):
            break
        if m := _HDR.search(line):
            n_hdr, e_hdr = int(m.group(1)), int(m.group(2))
    if n_hdr is None:
        raise DataError(path, "no '# Nodes: N Edges: E' header line")
    try:
        df = pd.read_csv(
            io.BytesIO(data), sep=r"\s+", comment="#", header=None, names=["u", "v"], dtype=np.int64
        )
    except pd.errors.EmptyDataError:
        df = pd.DataFrame({"u": [], "v": []}, dtype=np.int64)
    except (ValueError, pd.errors.ParserError) as e:
        raise DataError(path, f"malformed edge line: {e}") from e
    if df.isna().any().any():
        raise DataError(path, "an edge line has fewer than 2 fields")
    u, v = df["u"].to_numpy(), df["v"].to_numpy()
    if len(u) and min(u.min(), v.min()) < 0:
        raise DataError(path, "negative node id")
    if len(u) != e_hdr:
        raise DataError(path, f"header says Edges: {e_hdr} but the body has {len(u)} lines")
    node_ids, inv = np.unique(np.concatenate([u, v]), return_inverse=True)
    if len(node_ids) != n_hdr:
        raise DataError(path, f"header says Nodes: {n_hdr} but the body has {len(node_ids)} nodes")
    a, b = inv[: len(u)], inv[len(u) :]
    e = np.unique(np.column_stack([np.minimum(a, b), np.maximum(a, b)]), axis=0)
    meta = {"source": str(path), "n_directed_lines": int(len(u)), **(metadata or {})}
    return StaticGraph(len(node_ids), e, node_ids, meta).validate(path)
