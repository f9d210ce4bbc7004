"""Tiny synthetic corpora for the LDA tests."""

import numpy as np

from latentlab.data.corpus import BowCorpus


def synth_corpus(D=30, W=25, K=3, mean_len=20, seed=0, alpha=0.5, beta=0.2, empty=0):
    """A tiny LDA-generated corpus (plus ``empty`` empty documents at the end)."""
    rng = np.random.default_rng(seed)
    phi = rng.dirichlet(np.full(W, beta), size=K)
    X = np.zeros((D + empty, W), dtype=np.int64)
    for d in range(D):
        th = rng.dirichlet(np.full(K, alpha))
        n = max(1, rng.poisson(mean_len))
        z = rng.choice(K, size=n, p=th)
        for k in z:
            X[d, rng.choice(W, p=phi[k])] += 1
    return BowCorpus.from_dense(X)
