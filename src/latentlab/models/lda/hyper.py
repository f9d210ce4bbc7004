"""Hyperparameter learning for LDA: Minka's fixed point on count histograms.

Asymmetric alpha (Wallach et al. 2009a; MALLET ``Dirichlet.learnParameters``) and a
symmetric beta, both from the Polya (Dirichlet-multinomial) likelihood of the topic
assignments (thesis Sec. 4.1.2, Eq. 4.20). The digamma differences
psi(n + a) - psi(a) are evaluated as cumulative sums of 1/(a + i) over a histogram of
counts, so one fixed-point iteration costs O(K * max count), not O(D * K).
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln


def count_histograms(ndk: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Histograms for the alpha update from a D x K count matrix.

    Returns ``(hist, len_hist)``: ``hist[k, n]`` = number of documents with n_dk = n,
    ``len_hist[n]`` = number of documents of length n (both for n >= 0).
    """
    ndk = np.asarray(ndk, dtype=np.int64)
    D, K = ndk.shape
    lens = ndk.sum(axis=1)
    maxn = int(max(lens.max(initial=0), ndk.max(initial=0)))
    hist = np.zeros((K, maxn + 1), dtype=np.int64)
    for k in range(K):
        hist[k] = np.bincount(ndk[:, k], minlength=maxn + 1)
    len_hist = np.bincount(lens, minlength=maxn + 1)
    return hist, len_hist


def _digamma_diff_weighted(a: float, hist: np.ndarray) -> float:
    """sum_n hist[n] * (psi(n + a) - psi(a)) = sum_n hist[n] * sum_{i<n} 1/(a+i)."""
    n_max = len(hist) - 1
    if n_max < 1:
        return 0.0
    inc = 1.0 / (a + np.arange(n_max, dtype=np.float64))  # 1/(a+i), i = 0..n_max-1
    cum = np.concatenate([[0.0], np.cumsum(inc)])  # cum[n] = psi(n+a) - psi(a)
    return float(np.dot(hist, cum))


def minka_alpha(
    alpha: np.ndarray,
    hist: np.ndarray,
    len_hist: np.ndarray,
    n_iter: int = 200,
    tol: float = 1e-10,
    min_alpha: float = 1e-10,
) -> np.ndarray:
    """Minka's fixed point for an asymmetric Dirichlet from count histograms.

    alpha_k <- alpha_k * sum_d [psi(n_dk + alpha_k) - psi(alpha_k)]
                        / sum_d [psi(n_d + alpha_0) - psi(alpha_0)]
    (Minka 2000, Eq. 55; Wallach 2008 histogram form). Maximises
    sum_d log Polya(z_d | alpha) (thesis Sec. 3.4 and 4.1.2).
    """
    a = np.array(alpha, dtype=np.float64)
    for _ in range(n_iter):
        denom = _digamma_diff_weighted(a.sum(), len_hist)
        if denom <= 0:
            break
        new = np.empty_like(a)
        for k in range(len(a)):
            new[k] = max(a[k] * _digamma_diff_weighted(a[k], hist[k]) / denom, min_alpha)
        done = np.max(np.abs(new - a)) < tol * max(1.0, a.max())
        a = new
        if done:
            break
    return a


def minka_beta_symmetric(
    beta: float,
    nwk: np.ndarray,
    W: int | None = None,
    n_iter: int = 200,
    tol: float = 1e-10,
    min_beta: float = 1e-10,
) -> float:
    """Minka's fixed point for a symmetric Dirichlet on topics (concentration W*beta).

    beta <- beta * sum_{k,w} [psi(n_wk + beta) - psi(beta)]
                 / (W * sum_k [psi(n_k + W beta) - psi(W beta)]).
    ``nwk`` is W x K (word-major).
    """
    nwk = np.asarray(nwk, dtype=np.int64)
    W = nwk.shape[0] if W is None else W
    hist = np.bincount(nwk.ravel())
    nk_hist = np.bincount(nwk.sum(axis=0))
    b = float(beta)
    for _ in range(n_iter):
        den = W * _digamma_diff_weighted(W * b, nk_hist)
        if den <= 0:
            break
        new = max(b * _digamma_diff_weighted(b, hist) / den, min_beta)
        done = abs(new - b) < tol * max(1.0, b)
        b = new
        if done:
            break
    return b


def log_polya(ndk: np.ndarray, alpha: np.ndarray) -> float:
    """sum_d log Polya(z_d | alpha) (thesis Sec. 3.4 and 4.1.2): the probability of the topic
    assignment *sequences*, no multinomial coefficient."""
    ndk = np.asarray(ndk, dtype=np.float64)
    alpha = np.broadcast_to(np.asarray(alpha, dtype=np.float64), ndk.shape[-1:])
    a0 = alpha.sum()
    nd = ndk.sum(axis=-1)
    return float(
        np.sum(gammaln(a0) - gammaln(nd + a0)) + np.sum(gammaln(ndk + alpha) - gammaln(alpha))
    )


def log_collapsed_joint(ndk, nwk, alpha, beta) -> float:
    """log P(w, z | alpha, beta) of Eq. 4.20 (``nwk`` is W x K, beta symmetric scalar)."""
    nwk = np.asarray(nwk, dtype=np.float64)
    W = nwk.shape[0]
    nk = nwk.sum(axis=0)
    topic = np.sum(gammaln(W * beta) - gammaln(nk + W * beta)) + np.sum(
        gammaln(nwk + beta) - gammaln(beta)
    )
    return log_polya(ndk, alpha) + float(topic)
