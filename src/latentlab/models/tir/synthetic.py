"""TIR / TIRE corpora on random citation DAGs with known influence (Algorithms 4 and 5).

Documents are generated in index order (a topological order). Document d cites
``min(d, m_d)`` distinct earlier documents, m_d uniform on 0..max_cites, chosen with
probability proportional to (citations so far + 1) so citation counts spread out.
``l^(d) ~ Exponential(rate)``; TIRE edges ``l^(c,d) ~ truncGauss(l^(c) + boost * self, sigma)``
with a random ``self_frac`` of the edges planted as "self-citations" (Fig 3.4 stand-in;
Cora has no author lists).
"""

from __future__ import annotations

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.errors import ConfigError


def generate(
    n_docs: int,
    n_vocab: int,
    K: int,
    doc_length: int,
    max_cites: int,
    rate: float,
    alpha: float,
    beta: float,
    seed: int,
    kind: str = "tir",
    sigma: float = 1.0,
    self_frac: float = 0.0,
    self_boost: float = 0.0,
    min_length: int = 10,
):
    if kind not in ("tir", "tire"):
        raise ConfigError("kind", f"must be 'tir' or 'tire', got {kind!r}")
    if min(n_docs, n_vocab, K, doc_length) < 1 or max_cites < 0:
        raise ConfigError("synthetic", "sizes must be >= 1 and max_cites >= 0")
    from scipy.stats import truncnorm  # here: scipy.stats costs every tir job ~0.5 s

    rng = np.random.default_rng(seed)
    phi = rng.dirichlet(np.full(n_vocab, beta), size=K)  # K x V
    l = rng.exponential(1.0 / rate, size=n_docs)
    indeg = np.zeros(n_docs)
    edges, ew, is_self = [], [], []
    zbar = np.zeros((n_docs, K))
    rows, cnts = [], []
    indptr = [0]
    for d in range(n_docs):
        m = min(d, int(rng.integers(0, max_cites + 1)))
        a = np.full(K, alpha)
        if m:
            p = indeg[:d] + 1.0
            cited = rng.choice(d, size=m, replace=False, p=p / p.sum())
            for c in np.sort(cited):
                s = bool(rng.random() < self_frac)
                if kind == "tir":
                    w = l[c]
                else:
                    mu = l[c] + self_boost * s
                    w = float(truncnorm.rvs(-mu / sigma, np.inf, loc=mu, scale=sigma,
                                            random_state=rng))  # fmt: skip
                edges.append((d, int(c)))
                ew.append(w)
                is_self.append(s)
                indeg[c] += 1
                a += w * zbar[c]
        theta = rng.dirichlet(a)
        n = max(min_length, int(rng.poisson(doc_length)))
        z = rng.choice(K, size=n, p=theta)
        zbar[d] = np.bincount(z, minlength=K) / n
        words = np.empty(n, np.int64)
        for k in np.unique(z):
            idx = np.flatnonzero(z == k)
            words[idx] = rng.choice(n_vocab, size=len(idx), p=phi[k])
        u, c = np.unique(words, return_counts=True)
        rows.append(u)
        cnts.append(c)
        indptr.append(indptr[-1] + len(u))
    corpus = BowCorpus(
        indptr=np.array(indptr),
        word_ids=np.concatenate(rows),
        counts=np.concatenate(cnts),
        vocab=[f"w{i}" for i in range(n_vocab)],
        titles=[f"synthetic document {d}" for d in range(n_docs)],
        links=np.array(edges, dtype=np.int64).reshape(-1, 2),
        metadata={"source": "latentlab.models.tir.synthetic", "kind": kind, "seed": seed},
    )
    truth = {
        "l": l,
        "edge_weight": np.array(ew, float),
        "is_self": np.array(is_self, bool),
        "phi": phi,
        "zbar": zbar,
        "in_degree": indeg.astype(np.int64),
    }
    return corpus, truth
