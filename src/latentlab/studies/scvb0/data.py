"""Corpora of the scvb0 study: seeded synthetic LDA corpora and the held-out split."""

from __future__ import annotations

import logging

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.errors import ConfigError, DataError

log = logging.getLogger(__name__)


def synthetic_lda(D: int, W: int, K: int, doc_len: float, alpha: float, beta: float, seed: int):
    """An LDA corpus (Algorithm 2) with Poisson(doc_len) document lengths (>= 1).

    Vectorised: topic assignments by inverse CDF of theta_d, words by inverse CDF of
    Phi_k, then counted into CSR. Returns ``(corpus, phi (K x W))``.
    """
    for key, v in {"D": D, "W": W, "K": K, "doc_len": doc_len}.items():
        if v is None or v < 1:
            raise ConfigError(f"scvb0.datasets.*.{key}", f"must be >= 1, got {v}")
    rng = np.random.default_rng(seed)
    phi = rng.dirichlet(np.full(W, beta), size=K)
    lens = np.maximum(rng.poisson(doc_len, size=D), 1)
    ptr = np.concatenate([[0], np.cumsum(lens)])
    C = int(ptr[-1])
    d_of = np.repeat(np.arange(D), lens)
    z = np.empty(C, dtype=np.int64)
    chunk = 20000
    for s in range(0, D, chunk):
        e = min(D, s + chunk)
        th = rng.gamma(alpha, 1.0, size=(e - s, K))
        th /= np.maximum(th.sum(1, keepdims=True), 1e-300)
        cdf = np.cumsum(th, axis=1)
        cdf[:, -1] = 1.0
        a, b = ptr[s], ptr[e]
        u = rng.random(b - a)
        rows = d_of[a:b] - s
        z[a:b] = np.minimum((cdf[rows] <= u[:, None]).sum(1), K - 1)
    w = np.empty(C, dtype=np.int64)
    cphi = np.cumsum(phi, axis=1)
    cphi[:, -1] = 1.0
    u = rng.random(C)
    for k in range(K):
        m = z == k
        w[m] = np.minimum(np.searchsorted(cphi[k], u[m], side="right"), W - 1)
    key = d_of * W + w
    uniq, cnt = np.unique(key, return_counts=True)
    docs = uniq // W
    indptr = np.concatenate([[0], np.cumsum(np.bincount(docs, minlength=D))])
    vocab = [f"w{i}" for i in range(W)]
    corpus = BowCorpus(indptr, (uniq % W).astype(np.int32), cnt.astype(np.int32), vocab)
    corpus.metadata = {"source": "synthetic_lda", "D": D, "W": W, "K": K, "seed": seed}
    return corpus, phi


def load_dataset(spec: dict, path: str | None, seed: int) -> tuple[BowCorpus, str]:
    """A dataset named in the config: synthetic (generated from ``seed``) or a canonical
    corpus file from the data layer. Returns ``(corpus, data_kind)``."""
    kind = spec.get("kind")
    if kind == "synthetic" and path:
        return BowCorpus.load(path), "synthetic"
    if kind == "synthetic":
        c, _ = synthetic_lda(
            int(spec["D"]),
            int(spec["W"]),
            int(spec["K"]),
            float(spec["doc_len"]),
            float(spec.get("alpha", 0.1)),
            float(spec.get("beta", 0.01)),
            seed,
        )
        return c, "synthetic"
    if kind == "real":
        if not path:
            raise ConfigError("scvb0.datasets.*.name", "a real dataset needs its corpus file")
        c = BowCorpus.load(path)
        if c.n_tokens == 0:
            raise DataError(path, "corpus has no tokens")
        return c, "substitute"
    raise ConfigError("scvb0.datasets.*.kind", f"must be 'synthetic' or 'real', got {kind!r}")


def heldout_split(corpus: BowCorpus, frac: float, max_docs: int | None, seed: int):
    """Hold out a seeded random ``frac`` of the non-empty documents (at most ``max_docs``)
    for document completion; the rest is the training corpus (empty documents dropped and
    counted). Returns ``(train, test, n_empty)``."""
    if not (0 < frac < 1):
        raise ConfigError("scvb0.heldout_frac", f"must be in (0, 1), got {frac}")
    lens = corpus.doc_lengths()
    keep = np.flatnonzero(lens > 0)
    n_empty = int(len(lens) - len(keep))
    rng = np.random.default_rng(seed)
    perm = keep[rng.permutation(len(keep))]
    n_test = max(1, int(round(frac * len(keep))))
    if max_docs:
        n_test = min(n_test, int(max_docs))
    test = np.sort(perm[:n_test])
    train = np.sort(perm[n_test:])
    if len(train) == 0:
        raise DataError(corpus.metadata.get("source"), "no training documents after hold-out")
    return corpus.subset(train), corpus.subset(test), n_empty
