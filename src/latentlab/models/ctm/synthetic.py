"""Synthetic CTM corpora from the generative process of Sec. 4.1 (smoke run stand-in for AP/NYT)."""

from __future__ import annotations

import numpy as np


def synthetic_ctm(
    n_docs: int,
    n_vocab: int,
    K: int,
    mean_len: float,
    seed: int,
    *,
    topic_conc: float = 0.05,
    corr: float = 0.5,
):
    """Draw a CTM corpus: Sigma0 with random correlations (scale ``corr``), mu0 = 0,
    beta_k ~ Dir(topic_conc), N_d ~ Poisson(mean_len) (>= 2).

    Returns (docs as list of (ids, counts), dict of true parameters).
    """
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((K, K)) * corr / np.sqrt(K)
    Sigma = A @ A.T + np.eye(K)
    mu = np.zeros(K)
    beta = rng.dirichlet(np.full(n_vocab, topic_conc), size=K)
    docs = []
    for _ in range(n_docs):
        th = rng.multivariate_normal(mu, Sigma)
        p = np.exp(th - th.max())
        p /= p.sum()
        N = max(2, int(rng.poisson(mean_len)))
        z = rng.multinomial(N, p)
        cnt = np.zeros(n_vocab, dtype=np.int64)
        for k in np.nonzero(z)[0]:
            cnt += rng.multinomial(z[k], beta[k])
        ids = np.nonzero(cnt)[0]
        docs.append((ids.astype(np.int64), cnt[ids].astype(float)))
    return docs, {"mu": mu, "Sigma": Sigma, "beta": beta, "K": K}
