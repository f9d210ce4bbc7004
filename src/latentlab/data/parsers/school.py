"""ILEA school data in the multi-task packaging: a MATLAB file with ``X`` and ``Y``, 1 x T
cell arrays (one n_t x p design matrix and one n_t x 1 exam-score vector per school)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from latentlab.data.tasks import TaskDataset
from latentlab.errors import DataError


def parse_school(path: str | Path, metadata: dict | None = None) -> TaskDataset:
    import scipy.io

    path = Path(path)
    if not path.exists():
        raise DataError(path, "file not found")
    try:
        m = scipy.io.loadmat(str(path))
    except Exception as e:  # scipy raises several types on corrupt files
        raise DataError(path, f"cannot read MATLAB file (truncated or corrupt?): {e}") from e
    if "X" not in m or "Y" not in m:
        raise DataError(
            path,
            f"expected variables X and Y, found {sorted(k for k in m if not k.startswith('__'))}",
        )
    Xc, Yc = np.ravel(m["X"]), np.ravel(m["Y"])
    if len(Xc) != len(Yc):
        raise DataError(path, f"X has {len(Xc)} cells but Y has {len(Yc)}")
    xs, ys, tids = [], [], []
    p = None
    for t, (x, y) in enumerate(zip(Xc, Yc, strict=True)):
        x = np.asarray(x, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64).ravel()
        if x.ndim != 2 or x.shape[0] != len(y):
            raise DataError(path, f"school {t + 1}: X is {x.shape} but Y has {len(y)} values")
        if p is None:
            p = x.shape[1]
        elif x.shape[1] != p:
            raise DataError(path, f"school {t + 1}: {x.shape[1]} columns, expected {p}")
        xs.append(x)
        ys.append(y)
        tids.append(np.full(len(y), t))
    meta = {"source": str(path), **(metadata or {})}
    return TaskDataset(
        np.vstack(xs),
        np.concatenate(ys),
        layout="multitask",
        target="regression",
        task_ids=np.concatenate(tids),
        task_names=[f"school{t + 1}" for t in range(len(xs))],
        metadata=meta,
    ).validate(path)
