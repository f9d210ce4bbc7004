"""Graphs: a temporal graph of actors and timestamped events, and a static undirected graph.

:class:`TemporalGraph` (Enron email): ``n_actors`` actors with string attributes
(``actor_attrs``: name -> list, one value per actor); events are directed, each with one
sender, a time (int64, Unix seconds) and one or more receivers (CSR: ``recv_ptr`` over
``receivers``). Events are sorted by (time, event id); ``event_ids`` keeps the source ids.

:class:`StaticGraph` (SNAP): undirected edges as an (E x 2) array of node indices
0..n_nodes-1 with ``u <= v`` (a self-loop has u == v), sorted and unique; ``node_ids``
maps indices back to the source's node ids.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from latentlab.data._io import hash_arrays, load_npz, save_npz
from latentlab.errors import DataError

TEMPORAL = "latentlab.temporal_graph"
STATIC = "latentlab.static_graph"


def _iso(t: int) -> str:
    return dt.datetime.fromtimestamp(int(t), tz=dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class TemporalGraph:
    n_actors: int
    senders: np.ndarray
    times: np.ndarray
    recv_ptr: np.ndarray
    receivers: np.ndarray
    actor_attrs: dict = field(default_factory=dict)
    event_ids: np.ndarray | None = None
    metadata: dict = field(default_factory=dict)

    def __post_init__(self):
        self.n_actors = int(self.n_actors)
        self.senders = np.ascontiguousarray(self.senders, dtype=np.int32)
        self.times = np.ascontiguousarray(self.times, dtype=np.int64)
        self.recv_ptr = np.ascontiguousarray(self.recv_ptr, dtype=np.int64)
        self.receivers = np.ascontiguousarray(self.receivers, dtype=np.int32)
        if self.event_ids is not None:
            self.event_ids = np.ascontiguousarray(self.event_ids, dtype=np.int64)

    @property
    def n_events(self) -> int:
        return len(self.senders)

    def event_receivers(self, e: int) -> np.ndarray:
        return self.receivers[self.recv_ptr[e] : self.recv_ptr[e + 1]]

    def edges(self) -> np.ndarray:
        """One (sender, receiver, time) row per receiver of every event (int64)."""
        k = np.diff(self.recv_ptr)
        return np.column_stack(
            [np.repeat(self.senders, k), self.receivers, np.repeat(self.times, k)]
        ).astype(np.int64)

    def validate(self, source=None) -> TemporalGraph:
        src = source if source is not None else self.metadata.get("source")
        n = self.n_events
        if len(self.times) != n or len(self.recv_ptr) != n + 1:
            raise DataError(src, "senders, times and recv_ptr lengths disagree")
        if n and (self.recv_ptr[0] != 0 or np.any(np.diff(self.recv_ptr) < 0)):
            raise DataError(src, "recv_ptr must start at 0 and be non-decreasing")
        if self.recv_ptr[-1] != len(self.receivers):
            raise DataError(src, "recv_ptr does not end at the number of receivers")
        for name, ids in (("sender", self.senders), ("receiver", self.receivers)):
            if len(ids) and (ids.min() < 0 or ids.max() >= self.n_actors):
                raise DataError(src, f"{name} id out of range 0..{self.n_actors - 1}")
        if n > 1 and np.any(np.diff(self.times) < 0):
            raise DataError(src, "events are not sorted by time")
        for k, v in self.actor_attrs.items():
            if len(v) != self.n_actors:
                raise DataError(src, f"actor attribute {k!r} has {len(v)} values")
        return self

    def content_sha256(self) -> str:
        return hash_arrays(self.senders, self.times, self.recv_ptr, self.receivers)

    def summary(self) -> dict:
        return {
            "kind": "temporal_graph",
            "n_actors": self.n_actors,
            "n_events": self.n_events,
            "n_receiver_rows": int(len(self.receivers)),
            "n_events_without_receiver": int((np.diff(self.recv_ptr) == 0).sum()),
            "time_min": int(self.times.min()) if self.n_events else None,
            "time_max": int(self.times.max()) if self.n_events else None,
            "time_span": [_iso(self.times.min()), _iso(self.times.max())]
            if self.n_events
            else None,
            "content_sha256": self.content_sha256(),
        }

    def save(self, path: str | Path) -> None:
        arrays = {
            "senders": self.senders,
            "times": self.times,
            "recv_ptr": self.recv_ptr,
            "receivers": self.receivers,
        }
        if self.event_ids is not None:
            arrays["event_ids"] = self.event_ids
        side = {
            "format": TEMPORAL,
            "version": 1,
            "n_actors": self.n_actors,
            "actor_attrs": {k: list(v) for k, v in self.actor_attrs.items()},
            "metadata": self.metadata,
        }
        save_npz(path, arrays, side)

    @classmethod
    def load(cls, path: str | Path) -> TemporalGraph:
        a, side = load_npz(path, TEMPORAL)
        return cls(
            side["n_actors"],
            a["senders"],
            a["times"],
            a["recv_ptr"],
            a["receivers"],
            side.get("actor_attrs") or {},
            a.get("event_ids"),
            side.get("metadata") or {},
        ).validate(path)


@dataclass
class StaticGraph:
    n_nodes: int
    edges: np.ndarray
    node_ids: np.ndarray | None = None
    metadata: dict = field(default_factory=dict)

    def __post_init__(self):
        self.n_nodes = int(self.n_nodes)
        self.edges = np.ascontiguousarray(self.edges, dtype=np.int64).reshape(-1, 2)
        if self.node_ids is not None:
            self.node_ids = np.ascontiguousarray(self.node_ids, dtype=np.int64)

    @property
    def n_edges(self) -> int:
        return len(self.edges)

    @property
    def n_self_loops(self) -> int:
        return int((self.edges[:, 0] == self.edges[:, 1]).sum())

    def validate(self, source=None) -> StaticGraph:
        src = source if source is not None else self.metadata.get("source")
        e = self.edges
        if len(e) and (e.min() < 0 or e.max() >= self.n_nodes):
            raise DataError(src, f"node index out of range 0..{self.n_nodes - 1}")
        if np.any(e[:, 0] > e[:, 1]):
            raise DataError(src, "undirected edges must be stored with u <= v")
        if len(e) > 1:
            key = e[:, 0] * self.n_nodes + e[:, 1]
            if np.any(np.diff(key) <= 0):
                raise DataError(src, "edges must be sorted and unique")
        if self.node_ids is not None and len(self.node_ids) != self.n_nodes:
            raise DataError(src, f"{len(self.node_ids)} node ids for {self.n_nodes} nodes")
        return self

    def source_edges(self) -> np.ndarray:
        """Edges in the source's node ids (u <= v), sorted."""
        e = self.edges if self.node_ids is None else self.node_ids[self.edges]
        e = np.sort(e, axis=1)
        return e[np.lexsort((e[:, 1], e[:, 0]))]

    def content_sha256(self) -> str:
        """Hash of the sorted undirected edge list in source ids: independent of line order."""
        return hash_arrays(self.source_edges().astype("<i8"))

    def degrees(self) -> np.ndarray:
        deg = np.bincount(self.edges.ravel(), minlength=self.n_nodes)
        return deg

    def summary(self) -> dict:
        return {
            "kind": "static_graph",
            "n_nodes": self.n_nodes,
            "n_edges": self.n_edges,
            "n_self_loops": self.n_self_loops,
            "n_isolated_nodes": int((self.degrees() == 0).sum()),
            "content_sha256": self.content_sha256(),
            **{k: self.metadata[k] for k in ("n_directed_lines",) if k in self.metadata},
        }

    def save(self, path: str | Path) -> None:
        arrays = {"edges": self.edges}
        if self.node_ids is not None:
            arrays["node_ids"] = self.node_ids
        side = {"format": STATIC, "version": 1, "n_nodes": self.n_nodes, "metadata": self.metadata}
        save_npz(path, arrays, side)

    @classmethod
    def load(cls, path: str | Path) -> StaticGraph:
        a, side = load_npz(path, STATIC)
        return cls(
            side["n_nodes"], a["edges"], a.get("node_ids"), side.get("metadata") or {}
        ).validate(path)
