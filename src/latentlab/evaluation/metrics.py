"""Evaluation metrics on fitted topic proportions (seed 001 Sec 6.4, 6.5).

* :func:`hellinger_sq` and :func:`knn_predict`: Hellinger k-NN classification on E[θ]
  (Eq 38);
* :func:`average_precision` and :func:`mean_average_precision`: link prediction scored
  by Σ_k θ_jk φ_lk (Eq 39 = Eq 37) over a held-out link task
  (:func:`latentlab.data.splits.link_task`);
* :func:`sign_test_p`: the exact binomial sign test of wins against losses (ties dropped).

Held-out likelihood and perplexity live in :mod:`latentlab.evaluation.heldout`.
"""

from __future__ import annotations

import numpy as np

from latentlab.errors import DataError


def hellinger_sq(test_theta: np.ndarray, train_theta: np.ndarray) -> np.ndarray:
    """H²(θ_d, θ_test) = Σ_k (√θ_dk − √θ_test,k)² (Eq 38) for all pairs (test x train)."""
    a = np.sqrt(test_theta)
    b = np.sqrt(train_theta)
    d = 2.0 - 2.0 * (a @ b.T)
    return np.maximum(d, 0.0)


def knn_predict(dist: np.ndarray, train_labels: np.ndarray, k: int) -> np.ndarray:
    """Majority vote over the k nearest training documents; ties go to the class with the
    smallest total distance among the tied classes (Sato et al. 2012, Sec. 6.4 and Fig. 4
    do not say how ties are broken; our choice)."""
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


def knn_accuracy(
    test_theta: np.ndarray, train_theta: np.ndarray, train_labels, test_labels, ks
) -> dict[str, float]:
    """Accuracy of Hellinger k-NN for each k in ``ks`` (keys are str(k))."""
    dist = hellinger_sq(test_theta, train_theta)
    return {str(k): float(np.mean(knn_predict(dist, train_labels, k) == test_labels)) for k in ks}


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


def mean_average_precision(theta_q: np.ndarray, phi: np.ndarray, task) -> float:
    """MAP over the query nodes of ``task`` (a :class:`~latentlab.data.splits.LinkTask`);
    candidate l of query j scored by Σ_k θ_jk φ_lk (Eq 39 = Eq 37); ``phi`` is V x T."""
    aps = []
    for i in range(len(task.queries)):
        pos, neg = task.positives[i], task.negatives[i]
        cand = np.concatenate([pos, neg])
        rel = np.concatenate([np.ones(len(pos), bool), np.zeros(len(neg), bool)])
        scores = phi[cand] @ theta_q[i]
        aps.append(average_precision(scores, rel))
    return float(np.mean(aps))


def sign_test_p(wins: int, losses: int, alternative: str = "greater") -> float:
    """Exact sign test of ``wins`` against ``losses`` (ties already dropped): the binomial
    p-value of ``wins`` successes in ``wins + losses`` trials at 1/2 (scipy ``binomtest``),
    one-sided ("greater": more wins than chance) or "two-sided". No pairs: p = 1."""
    from scipy.stats import binomtest

    n = int(wins) + int(losses)
    if n == 0:
        return 1.0
    return float(binomtest(int(wins), n, 0.5, alternative=alternative).pvalue)
