"""Small helpers shared by the canonical types: atomic npz + JSON sidecar, hashing."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from latentlab.errors import DataError


def sha256_file(path: str | Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while b := f.read(chunk):
            h.update(b)
    return h.hexdigest()


def hash_arrays(*arrays, strings: list[str] | None = None) -> str:
    """sha256 over little-endian bytes of ``arrays`` (dtype and shape included) and ``strings``."""
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        dt = a.dtype.newbyteorder("<") if a.dtype.byteorder not in "|=" else a.dtype
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(a.astype(dt, copy=False).tobytes())
    if strings is not None:
        h.update("\n".join(strings).encode())
    return h.hexdigest()


def save_npz(path: str | Path, arrays: dict, side: dict) -> None:
    """Write arrays + a JSON sidecar (stored inside the npz as ``meta_json``); atomic."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = dict(arrays)
    arrays["meta_json"] = np.frombuffer(json.dumps(side).encode(), dtype=np.uint8)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)


def load_npz(path: str | Path, fmt: str) -> tuple[dict, dict]:
    """Read what :func:`save_npz` wrote; refuse a file of another ``fmt``."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            side = json.loads(bytes(z["meta_json"]).decode())
            if side.get("format") != fmt:
                raise DataError(path, f"expected format {fmt}, found {side.get('format')}")
            arrays = {k: z[k] for k in z.files if k != "meta_json"}
    except DataError:
        raise
    except (OSError, KeyError, ValueError, EOFError) as e:
        raise DataError(path, f"cannot read {fmt} file: {e}") from e
    return arrays, side


def read_format(path: str | Path) -> str:
    """The ``format`` recorded in a canonical npz file (bow, featureset, graph, ...)."""
    with np.load(path, allow_pickle=False) as z:
        return json.loads(bytes(z["meta_json"]).decode()).get("format", "")
