"""Feature-set corpus: one array of local descriptors per document (image), plus labels.

Storage is CSR-like: ``indptr`` (n_docs+1) over the rows of ``descriptors`` (N x dim,
float32); optional ``positions`` (N x 2, the descriptor's centre (x, y) in pixels of the
resized image). ``labels`` (int, one per document) index ``class_names``; ``names`` are the
documents' source names (relative image paths); ``split`` marks the source's own
packaging (0 = train, 1 = test, -1 = none), which a study may ignore for its own splits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from latentlab.data._io import hash_arrays, load_npz, save_npz
from latentlab.errors import DataError

FORMAT = "latentlab.featureset"

# Subsets of 15-Scene used by seed 003 (Waters 2014, Secs 4.5.1 and 4.5.3): 13-scene
# (Fei-Fei & Perona 2005) = all but Industrial and Store; 8-scene (Oliva & Torralba 2001) =
# the 8 outdoor classes.
SCENE8 = ["Coast", "Forest", "Highway", "InsideCity", "Mountain", "OpenCountry", "Street",
          "TallBuilding"]  # fmt: skip
SCENE13 = sorted(SCENE8 + ["Bedroom", "Kitchen", "LivingRoom", "Office", "Suburb"])


@dataclass
class FeatureSet:
    indptr: np.ndarray
    descriptors: np.ndarray
    labels: np.ndarray
    class_names: list[str]
    names: list[str] | None = None
    positions: np.ndarray | None = None
    split: np.ndarray | None = None
    metadata: dict = field(default_factory=dict)

    def __post_init__(self):
        self.indptr = np.ascontiguousarray(self.indptr, dtype=np.int64)
        self.descriptors = np.ascontiguousarray(self.descriptors, dtype=np.float32)
        if self.descriptors.ndim == 1:
            self.descriptors = self.descriptors.reshape(-1, 1)
        self.labels = np.ascontiguousarray(self.labels, dtype=np.int32)
        self.class_names = [str(c) for c in self.class_names]
        if self.positions is not None:
            self.positions = np.ascontiguousarray(self.positions, dtype=np.float32)
        if self.split is not None:
            self.split = np.ascontiguousarray(self.split, dtype=np.int8)

    @property
    def n_docs(self) -> int:
        return len(self.indptr) - 1

    @property
    def dim(self) -> int:
        return int(self.descriptors.shape[1])

    def doc(self, d: int) -> np.ndarray:
        return self.descriptors[self.indptr[d] : self.indptr[d + 1]]

    def counts_per_doc(self) -> np.ndarray:
        return np.diff(self.indptr)

    def subset(self, ids) -> FeatureSet:
        ids = np.asarray(ids, dtype=np.int64)
        idx = (
            np.concatenate([np.arange(self.indptr[d], self.indptr[d + 1]) for d in ids])
            if len(ids)
            else np.zeros(0, dtype=np.int64)
        )
        return FeatureSet(
            np.concatenate([[0], np.cumsum(np.diff(self.indptr)[ids])]),
            self.descriptors[idx],
            self.labels[ids],
            list(self.class_names),
            None if self.names is None else [self.names[i] for i in ids],
            None if self.positions is None else self.positions[idx],
            None if self.split is None else self.split[ids],
            dict(self.metadata),
        )

    def select_classes(self, class_names: list[str]) -> FeatureSet:
        """Only the documents of ``class_names``, relabelled 0..len-1 in that order (e.g.
        :data:`SCENE13` or :data:`SCENE8` from the 15-Scene set)."""
        missing = [c for c in class_names if c not in self.class_names]
        if missing:
            raise DataError(self.metadata.get("source"), f"no classes {missing}")
        old = [self.class_names.index(c) for c in class_names]
        ids = np.flatnonzero(np.isin(self.labels, old))
        out = self.subset(ids)
        remap = np.full(len(self.class_names), -1, dtype=np.int32)
        remap[old] = np.arange(len(old))
        out.labels = remap[out.labels]
        out.class_names = list(class_names)
        return out

    def validate(self, source=None) -> FeatureSet:
        src = source if source is not None else self.metadata.get("source")
        ip = self.indptr
        if ip.ndim != 1 or len(ip) < 1 or ip[0] != 0 or np.any(np.diff(ip) < 0):
            raise DataError(src, "indptr must start at 0 and be non-decreasing")
        if ip[-1] != len(self.descriptors):
            raise DataError(src, f"indptr ends at {ip[-1]}, {len(self.descriptors)} descriptors")
        if len(self.labels) != self.n_docs:
            raise DataError(src, f"{len(self.labels)} labels for {self.n_docs} documents")
        if len(self.labels) and (
            self.labels.min() < -1 or self.labels.max() >= len(self.class_names)
        ):
            raise DataError(src, "a label is outside class_names")
        if not np.isfinite(self.descriptors).all():
            raise DataError(src, "non-finite descriptor values")
        if self.names is not None and len(self.names) != self.n_docs:
            raise DataError(src, f"{len(self.names)} names for {self.n_docs} documents")
        if self.positions is not None and self.positions.shape != (len(self.descriptors), 2):
            raise DataError(src, "positions must be N x 2")
        if self.split is not None and len(self.split) != self.n_docs:
            raise DataError(src, "split marker length differs from the number of documents")
        return self

    def content_sha256(self) -> str:
        return hash_arrays(self.indptr, self.descriptors, self.labels, strings=self.class_names)

    def summary(self) -> dict:
        counts = self.counts_per_doc()
        per_class = np.bincount(self.labels[self.labels >= 0], minlength=len(self.class_names))
        out = {
            "kind": "featureset",
            "n_images": self.n_docs,
            "n_classes": len(self.class_names),
            "n_descriptors": int(len(self.descriptors)),
            "descriptor_dim": self.dim,
            "descriptors_per_image_min": int(counts.min()) if len(counts) else 0,
            "descriptors_per_image_max": int(counts.max()) if len(counts) else 0,
            "per_class": dict(zip(self.class_names, per_class.tolist(), strict=True)),
            "content_sha256": self.content_sha256(),
        }
        if self.split is not None:
            out["n_train"] = int((self.split == 0).sum())
            out["n_test"] = int((self.split == 1).sum())
        return out

    def save(self, path: str | Path) -> None:
        arrays = {"indptr": self.indptr, "descriptors": self.descriptors, "labels": self.labels}
        if self.positions is not None:
            arrays["positions"] = self.positions
        if self.split is not None:
            arrays["split"] = self.split
        side = {
            "format": FORMAT,
            "version": 1,
            "class_names": self.class_names,
            "names": self.names,
            "metadata": self.metadata,
        }
        save_npz(path, arrays, side)

    @classmethod
    def load(cls, path: str | Path) -> FeatureSet:
        a, side = load_npz(path, FORMAT)
        return cls(
            a["indptr"],
            a["descriptors"],
            a["labels"],
            side["class_names"],
            side.get("names"),
            a.get("positions"),
            a.get("split"),
            side.get("metadata") or {},
        ).validate(path)
