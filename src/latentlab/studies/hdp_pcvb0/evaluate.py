"""Evaluations of seed 001 besides perplexity: Hellinger k-NN (Sec 6.4, Eq 38) and link
prediction as bags of links with MAP (Sec 6.5, Eq 39)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.errors import DataError


# ------------------------------------------------------------------- k-NN (Fig 4)
def hellinger_sq(test_theta: np.ndarray, train_theta: np.ndarray) -> np.ndarray:
    """H²(θ_d, θ_test) = Σ_k (√θ_dk − √θ_test,k)² (Eq 38) for all pairs (test x train)."""
    a = np.sqrt(test_theta)
    b = np.sqrt(train_theta)
    d = 2.0 - 2.0 * (a @ b.T)
    return np.maximum(d, 0.0)


def knn_predict(dist: np.ndarray, train_labels: np.ndarray, k: int) -> np.ndarray:
    """Majority vote over the k nearest training documents; ties go to the class with the
    smallest total distance among the tied classes (digest §4.5 [AMBIG])."""
    if k < 1:
        raise DataError(None, f"k-NN needs k >= 1, got {k}")
    k = min(k, dist.shape[1])
    idx = np.argsort(dist, axis=1, kind="stable")[:, :k]
    out = np.empty(dist.shape[0], dtype=np.int64)
    for i in range(dist.shape[0]):
        labs = train_labels[idx[i]]
        ds = dist[i, idx[i]]
        classes, counts = np.unique(labs, return_counts=True)
        best = classes[counts == counts.max()]
        if len(best) == 1:
            out[i] = best[0]
        else:
            tot = [ds[labs == c].sum() for c in best]
            out[i] = best[int(np.argmin(tot))]
    return out


def doc_split(n_docs: int, test_frac: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """90/10 random document split (Sec 6.4): (train ids, test ids), both sorted."""
    rng = np.random.default_rng(seed)
    perm = rng.permutation(n_docs)
    n_test = max(1, int(round(test_frac * n_docs)))
    return np.sort(perm[n_test:]), np.sort(perm[:n_test])


# ---------------------------------------------------------- link prediction (Fig 5)
@dataclass
class LinkTask:
    """Bags of links with held-out query links (Sec 6.5 protocol, digest §4.6)."""

    corpus: BowCorpus  # node j's training bag: its remaining neighbours (count 1 each)
    queries: np.ndarray  # query node ids (degree > min_links)
    positives: list  # per query: held-out neighbours ("relevance")
    negatives: list  # per query: sampled non-neighbours ("non relevance")
    info: dict


def link_task(
    edges: np.ndarray,
    n_nodes: int,
    min_links: int = 20,
    test_frac: float = 0.2,
    seed: int = 0,
    source: str | None = None,
) -> LinkTask:
    """Build the link-prediction task from an undirected edge list.

    * queries: nodes with more than ``min_links`` links ("over 20 links");
    * each query's links are split 80/20 (seeded); its 20% are positives;
    * every held-out link is removed from the training graph in both directions (the
      paper is silent; this avoids leakage through the reverse link);
    * negatives: as many as the query's training links, drawn uniformly from the nodes not
      linked to the query in the full graph, excluding the query itself;
    * nodes left with no training links keep an empty bag (they contribute nothing to
      training; as candidates they are scored by the prior alone).
    """
    e = np.asarray(edges, dtype=np.int64)
    e = e[e[:, 0] != e[:, 1]]
    if len(e) == 0:
        raise DataError(source, "graph has no links")
    rng = np.random.default_rng(seed)
    src = np.concatenate([e[:, 0], e[:, 1]])
    dst = np.concatenate([e[:, 1], e[:, 0]])
    order = np.lexsort((dst, src))
    src, dst = src[order], dst[order]
    ptr = np.concatenate([[0], np.cumsum(np.bincount(src, minlength=n_nodes))])
    deg = np.diff(ptr)
    queries = np.flatnonzero(deg > min_links)
    if len(queries) == 0:
        raise DataError(source, f"no node has more than {min_links} links; no query set")
    held = set()
    positives = []
    for j in queries:
        nb = dst[ptr[j] : ptr[j + 1]].copy()
        rng.shuffle(nb)
        n_test = max(1, int(round(test_frac * len(nb))))
        pos = np.sort(nb[:n_test])
        positives.append(pos)
        for l_ in pos:
            held.add((min(j, l_), max(j, l_)))
    key = np.minimum(src, dst) * n_nodes + np.maximum(src, dst)
    held_keys = np.array(sorted(a * n_nodes + b for a, b in held), dtype=np.int64)
    keep = ~np.isin(key, held_keys)
    tsrc, tdst = src[keep], dst[keep]
    corpus = BowCorpus.from_triplets(
        tsrc, tdst, np.ones(len(tsrc), dtype=np.int64), n_nodes, [str(i) for i in range(n_nodes)]
    )
    tdeg = np.bincount(tsrc, minlength=n_nodes)
    negatives = []
    for j in queries:
        linked = np.zeros(n_nodes, dtype=bool)
        linked[dst[ptr[j] : ptr[j + 1]]] = True
        linked[j] = True
        cand = np.flatnonzero(~linked)
        n_neg = int(tdeg[j])
        if n_neg > len(cand):
            raise DataError(source, f"node {j}: not enough non-neighbours for {n_neg} negatives")
        negatives.append(np.sort(rng.choice(cand, n_neg, replace=False)))
    info = {
        "n_nodes": int(n_nodes),
        "n_links": int(len(e)),
        "n_queries": int(len(queries)),
        "n_held_out_links": int(len(held)),
        "n_isolated_after_holdout": int((tdeg == 0).sum()),
        "min_links_exclusive": int(min_links),
        "test_frac": test_frac,
        "seed": int(seed),
    }
    return LinkTask(corpus, queries, positives, negatives, info)


def average_precision(scores: np.ndarray, relevant: np.ndarray) -> float:
    """AP of a ranking by decreasing score; tied scores are ranked pessimistically
    (relevant items after non-relevant ones with the same score)."""
    order = np.lexsort((relevant.astype(int), -scores))
    rel = relevant[order].astype(float)
    if rel.sum() == 0:
        return 0.0
    hits = np.cumsum(rel)
    prec = hits / np.arange(1, len(rel) + 1)
    return float((prec * rel).sum() / rel.sum())


def mean_average_precision(theta_q: np.ndarray, phi: np.ndarray, task: LinkTask) -> float:
    """MAP over query nodes; candidate l scored by Σ_k θ_jk φ_lk (Eq 39 = Eq 37)."""
    aps = []
    for i in range(len(task.queries)):
        pos, neg = task.positives[i], task.negatives[i]
        cand = np.concatenate([pos, neg])
        rel = np.concatenate([np.ones(len(pos), bool), np.zeros(len(neg), bool)])
        scores = phi[cand] @ theta_q[i]
        aps.append(average_precision(scores, rel))
    return float(np.mean(aps))
