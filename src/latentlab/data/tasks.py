"""Task dataset: a design matrix with targets, grouped into learning tasks.

Two layouts, named by ``layout``:

* ``"multitask"`` (School): each row belongs to one task (``task_ids``, e.g. the school);
  ``Y`` has one column, the target (exam score), ``target = "regression"``.
* ``"multilabel"`` (Mulan Yeast, Scene): every row carries ``L`` binary labels (``Y`` is
  n x L, 0/1); each label is a separate binary problem over all rows, so ``n_tasks = L``.

``split`` marks the source's own train/test packaging (0 = train, 1 = test, -1 = none).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from latentlab.data._io import hash_arrays, load_npz, save_npz
from latentlab.errors import DataError

FORMAT = "latentlab.tasks"


@dataclass
class TaskDataset:
    X: np.ndarray
    Y: np.ndarray
    layout: str
    target: str
    task_ids: np.ndarray | None = None
    split: np.ndarray | None = None
    feature_names: list[str] | None = None
    label_names: list[str] | None = None
    task_names: list[str] | None = None
    metadata: dict = field(default_factory=dict)

    def __post_init__(self):
        self.X = np.ascontiguousarray(self.X, dtype=np.float64)
        self.Y = np.ascontiguousarray(self.Y, dtype=np.float64)
        if self.Y.ndim == 1:
            self.Y = self.Y.reshape(-1, 1)
        if self.task_ids is not None:
            self.task_ids = np.ascontiguousarray(self.task_ids, dtype=np.int32)
        if self.split is not None:
            self.split = np.ascontiguousarray(self.split, dtype=np.int8)

    @property
    def n_rows(self) -> int:
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        return int(self.X.shape[1])

    @property
    def n_labels(self) -> int:
        return int(self.Y.shape[1])

    @property
    def n_tasks(self) -> int:
        if self.layout == "multilabel":
            return self.n_labels
        return (
            0 if self.task_ids is None or not len(self.task_ids) else int(self.task_ids.max()) + 1
        )

    def problems(self) -> Iterator[tuple[str, np.ndarray, np.ndarray, np.ndarray | None]]:
        """Each task as (name, X, y, split): a label column, or the rows of one task."""
        if self.layout == "multilabel":
            names = self.label_names or [f"label{j}" for j in range(self.n_labels)]
            for j, name in enumerate(names):
                yield name, self.X, self.Y[:, j], self.split
        else:
            names = self.task_names or [f"task{t}" for t in range(self.n_tasks)]
            for t, name in enumerate(names):
                rows = np.flatnonzero(self.task_ids == t)
                sp = None if self.split is None else self.split[rows]
                yield name, self.X[rows], self.Y[rows, 0], sp

    def validate(self, source=None) -> TaskDataset:
        src = source if source is not None else self.metadata.get("source")
        n = self.n_rows
        if self.layout not in ("multitask", "multilabel"):
            raise DataError(src, f"unknown layout {self.layout!r}")
        if self.Y.shape[0] != n:
            raise DataError(src, f"{self.Y.shape[0]} target rows for {n} design rows")
        if not np.isfinite(self.X).all() or not np.isfinite(self.Y).all():
            raise DataError(src, "non-finite values in the design matrix or targets")
        if self.layout == "multilabel" and not np.isin(self.Y, (0.0, 1.0)).all():
            raise DataError(src, "multi-label targets must be 0/1")
        if self.layout == "multitask":
            if self.task_ids is None or len(self.task_ids) != n:
                raise DataError(src, "a multitask dataset needs one task id per row")
            if n and self.task_ids.min() < 0:
                raise DataError(src, "negative task id")
        if self.split is not None and len(self.split) != n:
            raise DataError(src, "split marker length differs from the number of rows")
        for what, names, k in (
            ("feature", self.feature_names, self.n_features),
            ("label", self.label_names, self.n_labels),
            ("task", self.task_names, self.n_tasks),
        ):
            if names is not None and len(names) != k:
                raise DataError(src, f"{len(names)} {what} names for {k} {what}s")
        return self

    def content_sha256(self) -> str:
        extra = [] if self.task_ids is None else [self.task_ids]
        return hash_arrays(self.X, self.Y, *extra)

    def summary(self) -> dict:
        out = {
            "kind": "tasks",
            "layout": self.layout,
            "target": self.target,
            "n_rows": self.n_rows,
            "n_tasks": self.n_tasks,
            "n_features": self.n_features,
            "n_labels": self.n_labels,
            "content_sha256": self.content_sha256(),
        }
        if self.split is not None and (self.split >= 0).any():
            out["n_train"] = int((self.split == 0).sum())
            out["n_test"] = int((self.split == 1).sum())
        if self.layout == "multitask":
            sizes = np.bincount(self.task_ids, minlength=self.n_tasks)
            out["rows_per_task_min"] = int(sizes.min())
            out["rows_per_task_max"] = int(sizes.max())
        else:
            out["label_cardinality"] = float(self.Y.sum(axis=1).mean()) if self.n_rows else 0.0
        return out

    def save(self, path: str | Path) -> None:
        arrays = {"X": self.X, "Y": self.Y}
        if self.task_ids is not None:
            arrays["task_ids"] = self.task_ids
        if self.split is not None:
            arrays["split"] = self.split
        side = {
            "format": FORMAT,
            "version": 1,
            "layout": self.layout,
            "target": self.target,
            "feature_names": self.feature_names,
            "label_names": self.label_names,
            "task_names": self.task_names,
            "metadata": self.metadata,
        }
        save_npz(path, arrays, side)

    @classmethod
    def load(cls, path: str | Path) -> TaskDataset:
        a, side = load_npz(path, FORMAT)
        return cls(
            a["X"],
            a["Y"],
            side["layout"],
            side["target"],
            a.get("task_ids"),
            a.get("split"),
            side.get("feature_names"),
            side.get("label_names"),
            side.get("task_names"),
            side.get("metadata") or {},
        ).validate(path)
