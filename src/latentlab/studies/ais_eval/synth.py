"""Synthetic LDA corpora for the smoke run of ``ais_eval`` (known topics, known alpha).

LDA's generative process (Algorithm 2, digest section 1.1): Phi_k ~ Dir(beta),
theta_d ~ Dir(alpha), N_d ~ Poisson(doc_length) (at least ``min_length``), z ~ theta_d,
w ~ Phi_z. ``alpha_decay`` < 1 plants a strongly asymmetric alpha,
alpha_k ∝ alpha_decay^k with total ``alpha_sum``, so that an asymmetric-alpha model has a
visible advantage over a symmetric one (Table 5.3; digest section 7.4).
"""

from __future__ import annotations

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.errors import ConfigError

DEFAULTS = {
    "n_docs": 400,
    "n_vocab": 500,
    "n_topics": 10,
    "doc_length": 80,
    "min_length": 10,
    "alpha_sum": 1.0,
    "alpha_decay": 0.6,
    "beta": 0.05,
}


def true_alpha(K: int, alpha_sum: float, decay: float) -> np.ndarray:
    a = decay ** np.arange(K, dtype=float)
    return alpha_sum * a / a.sum()


def lda_corpus(params: dict, seed: int):
    """(BowCorpus, truth dict with phi V x K and alpha) from an LDA with asymmetric alpha."""
    p = {**DEFAULTS, **(params or {})}
    for key in ("n_docs", "n_vocab", "n_topics", "doc_length"):
        if int(p[key]) < 1:
            raise ConfigError(f"ais_eval.corpora.*.synthetic.{key}", f"must be >= 1, got {p[key]}")
    if not 0 < float(p["alpha_decay"]) <= 1:
        raise ConfigError("ais_eval.corpora.*.synthetic.alpha_decay", "must be in (0, 1]")
    rng = np.random.default_rng(seed)
    D, V, K = int(p["n_docs"]), int(p["n_vocab"]), int(p["n_topics"])
    alpha = true_alpha(K, float(p["alpha_sum"]), float(p["alpha_decay"]))
    phi = rng.dirichlet(np.full(V, float(p["beta"])), size=K).T  # V x K
    phi = np.maximum(phi, 1e-300)
    phi /= phi.sum(axis=0)
    docs = []
    for _ in range(D):
        n = max(int(p["min_length"]), int(rng.poisson(float(p["doc_length"]))))
        theta = rng.dirichlet(np.maximum(alpha, 1e-3))
        z = rng.choice(K, size=n, p=theta)
        cdf = np.cumsum(phi[:, z], axis=0)
        w = (rng.random(n)[None, :] * cdf[-1] > cdf).sum(axis=0)
        docs.append(np.minimum(w, V - 1))
    vocab = [f"w{i}" for i in range(V)]
    counts = np.zeros((D, V), dtype=np.int64)
    for d, w in enumerate(docs):
        np.add.at(counts[d], w, 1)
    corpus = BowCorpus.from_dense(counts, vocab, metadata={"source": "ais_eval synthetic LDA", **p})
    return corpus, {"phi": phi, "alpha": alpha, "params": p, "seed": seed}
