"""Synthetic logistic-regression tasks with the shapes of Yeast, Scene and School (smoke run)."""

from __future__ import annotations

import numpy as np


def synthetic_multilabel(n_train, n_test, d, n_labels, seed, *, signal=1.0, rank=5):
    """Multi-label data like Mulan Yeast/Scene: correlated Gaussian features (low-rank + noise),
    one logistic label per problem with weights ~ N(0, signal^2 / d) and an intercept.

    Returns dict(Xtr, Xte, Ytr (n x L), Yte)."""
    rng = np.random.default_rng(seed)
    n = n_train + n_test
    A = rng.standard_normal((rank, d))
    X = rng.standard_normal((n, rank)) @ A + rng.standard_normal((n, d))
    W = rng.standard_normal((d, n_labels)) * signal * np.sqrt(3.0 / d)
    b = rng.normal(-1.0, 0.7, size=n_labels)
    Xs = (X - X.mean(0)) / X.std(0)
    p = 1.0 / (1.0 + np.exp(-(Xs @ W + b)))
    Y = (rng.random(p.shape) < p).astype(np.int8)
    return {"Xtr": X[:n_train], "Xte": X[n_train:], "Ytr": Y[:n_train], "Yte": Y[n_train:]}


def synthetic_school(n_schools, d, seed, *, mean_students=110, min_students=8, tau=0.5):
    """Hierarchical data like ILEA School: per-school theta_j ~ N(mu, tau^2 I) around a shared
    mu, binary/categorical-like student features plus school-level features.

    Returns (X: n x d, score: n, school: n)."""
    rng = np.random.default_rng(seed)
    mu = rng.standard_normal(d) * 0.6
    Xs, ss, sch = [], [], []
    for j in range(n_schools):
        nj = max(min_students, int(rng.poisson(mean_students)))
        th = mu + tau * rng.standard_normal(d)
        Xstud = (rng.random((nj, d // 2)) < 0.4).astype(float)
        Xschool = np.repeat(rng.standard_normal((1, d - d // 2)), nj, axis=0)
        X = np.hstack([Xstud, Xschool])
        score = X @ th + rng.standard_normal(nj) * 1.5
        Xs.append(X)
        ss.append(score)
        sch.append(np.full(nj, j))
    return np.vstack(Xs), np.concatenate(ss), np.concatenate(sch)
