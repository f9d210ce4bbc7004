"""Shared pieces of the iwtm runs: HIK SVM, K-means bags of words, LDA fold-in (the
train/test splits are in latentlab.data.splits)."""

from __future__ import annotations

import time

import numpy as np
from scipy.special import digamma

from latentlab.data.featureset import FeatureSet
from latentlab.errors import ConfigError


def hik(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Histogram-intersection kernel sum_j min(a_j, b_j)."""
    out = np.zeros((len(A), len(B)))
    for j in range(A.shape[1]):
        out += np.minimum(A[:, j : j + 1], B[None, :, j])
    return out


def hik_svm(Ftr, ytr, Fte, C_grid, folds, seed):
    """One-vs-rest SVC on the precomputed HIK; C by stratified k-fold CV on the training
    set only. Returns (predictions, chosen C)."""
    clf, C = hik_svm_fit(Ftr, ytr, C_grid, folds, seed)
    return clf.predict(hik(Fte, Ftr)), C


def hik_svm_fit(Ftr, ytr, C_grid, folds, seed):
    """The fitted one-vs-rest HIK SVC (kernel columns = the rows of ``Ftr``) and its C."""
    return kernel_svm_fit(hik(Ftr, Ftr), ytr, C_grid, folds, seed)


def kernel_svm_fit(Ktr, ytr, C_grid, folds, seed):
    """One-vs-rest SVC on a precomputed training kernel; C by stratified k-fold CV on the
    training set (k = min(folds, smallest class); no CV below 2: the first C)."""
    from sklearn.model_selection import StratifiedKFold
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.svm import SVC

    k = min(folds, int(np.bincount(ytr).min()))
    best = (-1.0, C_grid[0])
    if k >= 2:
        cv = StratifiedKFold(k, shuffle=True, random_state=seed)
        for C in C_grid:
            acc = []
            for a, b in cv.split(Ktr, ytr):
                clf = OneVsRestClassifier(SVC(kernel="precomputed", C=C))
                clf.fit(Ktr[np.ix_(a, a)], ytr[a])
                acc.append((clf.predict(Ktr[np.ix_(b, a)]) == ytr[b]).mean())
            if np.mean(acc) > best[0]:
                best = (float(np.mean(acc)), C)
    return OneVsRestClassifier(SVC(kernel="precomputed", C=best[1])).fit(Ktr, ytr), best[1]


def kmeans_codebook(X, K, n_iter, max_points, seed):
    """scikit-learn K-means (Lloyd, BLAS distances) on training descriptors only."""
    from sklearn.cluster import KMeans

    rng = np.random.default_rng(seed)
    if max_points is not None and len(X) > max_points:
        X = X[rng.choice(len(X), max_points, replace=False)]
    if K > len(X):
        raise ConfigError("iwtm K", f"K = {K} exceeds the {len(X)} training descriptors")
    km = KMeans(K, n_init=1, max_iter=n_iter, random_state=seed).fit(X)
    return km


def bow(fs: FeatureSet, words: np.ndarray, W: int):
    """Per-document word counts (documents x W, dense int) of quantised descriptors."""
    doc = np.repeat(np.arange(fs.n_docs), np.diff(fs.indptr))
    M = np.zeros((fs.n_docs, W), np.int64)
    np.add.at(M, (doc, words), 1)
    return M


def to_corpus(M: np.ndarray):
    from latentlab.data.corpus import BowCorpus

    rows, cols = np.nonzero(M)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=len(M)))])
    return BowCorpus(indptr, cols, M[rows, cols], [str(w) for w in range(M.shape[1])])


def lda_features(Mtr, Mte, T, n_iter, seed):
    """Batch VB LDA (alpha = eta = 1/T, ``n_iter`` iterations; the project's BatchVB) on
    the training bags; posterior-mean topic weights of training and folded-in test docs."""
    from latentlab.models.lda.vb import BatchVB

    t0 = time.perf_counter()
    m = BatchVB(T, alpha=1.0 / T, beta=1.0 / T, seed=seed).fit(to_corpus(Mtr), n_iter)
    el = np.log(np.maximum(m.exp_elog_phi_wk(), 1e-300))  # W x T
    f = [_fold(M, el, 1.0 / T) for M in (Mtr, Mte)]
    return f[0], f[1], time.perf_counter() - t0


def _fold(M, elog_phi_wk, alpha, n_iter=100, tol=1e-4):
    """VB E-step for documents against fixed topics (Blei et al. 2003).

    Not ``BatchVB.transform`` (the model protocol's fold-in, :func:`latentlab.models.lda.vb.
    vb_theta`) on purpose: the two are the same fixed-point iteration from the same start,
    but this one stops when the *largest* change of gamma is below ``tol`` = 1e-4, the
    model's when the *mean* change is below its ``tol`` (1e-3), and it forms the
    responsibilities explicitly (normalised ``exp E log phi * exp E log theta``) where the
    model folds the normalisation into one matrix product. On a 30-document toy the
    features differ by up to 7e-4 (1.8e-5 with the model's ``tol=1e-4``: the stopping
    rule alone), and they feed the HIK SVMs of LDA+KMEANS / LDA+GDPMM (ch. 5, ``runs.ch5``)
    and of the ch. 7 active-learning baseline (``active.py``), whose smoke goldens hold
    this function's numbers; switching is a results change, to be made with the goldens
    refreshed (issue 25, item 2)."""
    ephi = np.exp(elog_phi_wk)
    T = ephi.shape[1]
    out = np.zeros((len(M), T))
    for d in range(len(M)):
        w = np.nonzero(M[d])[0]
        c = M[d, w].astype(float)
        g = np.full(T, alpha + c.sum() / T)
        for _ in range(n_iter):
            et = np.exp(digamma(g) - digamma(g.sum()))
            ph = ephi[w] * et
            ph /= ph.sum(1, keepdims=True)
            g2 = alpha + c @ ph
            if np.abs(g2 - g).max() < tol:
                g = g2
                break
            g = g2
        out[d] = g / g.sum()
    return out


def confusion(y, yhat, n):
    M = np.zeros((n, n))
    np.add.at(M, (y, yhat), 1)
    return M / np.maximum(M.sum(1, keepdims=True), 1)
