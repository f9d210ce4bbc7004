"""The citation graph TIR needs: a DAG over documents with no empty cited documents.

Links are rows ``(citing, cited)``. Documented rules (each counted in the summary):

* a link naming a document outside ``0..n_docs-1``: :class:`DataError` naming it;
* a self-citation loop ``(d, d)`` and a repeated link: dropped;
* a citation cycle: broken by deleting one edge of the cycle chosen uniformly at random
  (seeded), cycle by cycle, as the document did for the loops it did not resolve by hand
  (Sec 3.5); ``on_cycle="error"`` raises instead, naming a document;
* a cited document with no tokens: its incoming edges are dropped (its zbar is undefined;
  ours).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from latentlab.errors import DataError


@dataclass
class CitationGraph:
    """CSR over citing documents: ``cptr`` (D+1), ``cidx`` (cited ids); reverse CSR
    ``rptr``/``ridx`` (citers) with ``reidx`` the matching edge index."""

    n_docs: int
    cptr: np.ndarray
    cidx: np.ndarray
    summary: dict = field(default_factory=dict)

    def __post_init__(self):
        self.cptr = np.ascontiguousarray(self.cptr, dtype=np.int64)
        self.cidx = np.ascontiguousarray(self.cidx, dtype=np.int64)
        src = np.repeat(np.arange(self.n_docs), np.diff(self.cptr))
        order = np.argsort(self.cidx, kind="stable")
        self.reidx = order.astype(np.int64)
        self.ridx = src[order].astype(np.int64)
        self.rptr = np.concatenate([[0], np.cumsum(np.bincount(self.cidx, minlength=self.n_docs))])
        self.rptr = self.rptr.astype(np.int64)

    @property
    def n_edges(self) -> int:
        return len(self.cidx)

    def citing(self) -> np.ndarray:
        """Edge -> citing document."""
        return np.repeat(np.arange(self.n_docs), np.diff(self.cptr))

    def in_degree(self) -> np.ndarray:
        """In-corpus citation count of every document (the multiplier of Eq 3.2)."""
        return np.diff(self.rptr)

    def out_degree(self) -> np.ndarray:
        return np.diff(self.cptr)

    @classmethod
    def from_edges(cls, n_docs: int, edges: np.ndarray, summary=None) -> CitationGraph:
        edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        order = np.lexsort((edges[:, 1], edges[:, 0]))
        e = edges[order]
        cptr = np.concatenate([[0], np.cumsum(np.bincount(e[:, 0], minlength=n_docs))])
        return cls(n_docs, cptr, e[:, 1], dict(summary or {}))

    def edges(self) -> np.ndarray:
        return np.column_stack([self.citing(), self.cidx])


def find_cycle(n: int, edges: np.ndarray) -> list[int] | None:
    """Edge indices of one directed cycle (iterative DFS), or None for a DAG."""
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for i, (a, b) in enumerate(edges):
        adj[a].append((b, i))
    state = np.zeros(n, np.int8)  # 0 new, 1 on stack, 2 done
    for s in range(n):
        if state[s]:
            continue
        stack = [(s, 0)]
        via: list[int] = []  # edge index used to reach stack[j+1]
        state[s] = 1
        while stack:
            v, j = stack[-1]
            if j < len(adj[v]):
                stack[-1] = (v, j + 1)
                u, ei = adj[v][j]
                if state[u] == 1:
                    nodes = [x for x, _ in stack]
                    start = nodes.index(u)
                    return via[start:] + [ei]
                if state[u] == 0:
                    state[u] = 1
                    stack.append((u, 0))
                    via.append(ei)
            else:
                state[v] = 2
                stack.pop()
                if via:
                    via.pop()
    return None


def build_citation_graph(
    links, n_docs: int, doc_lengths, seed: int, on_cycle: str = "break", source=None
) -> CitationGraph:
    """Check and clean ``links`` (rows citing, cited) under the rules of the module doc."""
    links = np.asarray(links, dtype=np.int64).reshape(-1, 2)
    lengths = np.asarray(doc_lengths)
    bad = np.flatnonzero((links < 0).any(1) | (links >= n_docs).any(1))
    if len(bad):
        a, b = links[bad[0]]
        raise DataError(
            source, f"citation {int(a)} -> {int(b)} names a document outside 0..{n_docs - 1}"
        )
    s = {"n_links_in": len(links)}
    self_loop = links[:, 0] == links[:, 1]
    s["self_loops_dropped"] = int(self_loop.sum())
    links = links[~self_loop]
    _, first = np.unique(links, axis=0, return_index=True)
    s["duplicates_dropped"] = len(links) - len(first)
    links = links[np.sort(first)]
    empty = lengths[links[:, 1]] == 0
    s["edges_to_empty_docs_dropped"] = int(empty.sum())
    s["empty_cited_docs"] = int(len(np.unique(links[empty, 1])))
    links = links[~empty]
    rng = np.random.default_rng(seed)
    removed = []
    keep = np.ones(len(links), bool)
    while True:
        idx = np.flatnonzero(keep)
        cyc = find_cycle(n_docs, links[idx])
        if cyc is None:
            break
        if on_cycle == "error":
            a, b = links[idx[cyc[0]]]
            raise DataError(
                source, f"citation cycle through documents {int(a)} -> {int(b)} (on_cycle=error)"
            )
        pick = idx[cyc[int(rng.integers(len(cyc)))]]
        keep[pick] = False
        removed.append([int(x) for x in links[pick]])
    s["cycles_broken"] = len(removed)
    s["cycle_edges_removed"] = removed
    s["cycle_rule"] = "delete one edge of each cycle uniformly at random (seeded)"
    links = links[keep]
    s["n_links_kept"] = len(links)
    return CitationGraph.from_edges(n_docs, links, s)
