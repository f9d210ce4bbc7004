"""Topic coherence (an automatic proxy for human judgements of topics)."""

from __future__ import annotations

import numpy as np


def umass_coherence(corpus, top_words: np.ndarray, eps: float = 1.0) -> np.ndarray:
    """UMass coherence (Mimno et al. 2011) of each topic's top words on ``corpus``:
    sum_{m<l} log((D(w_m, w_l) + eps) / D(w_l)), words ordered by rank."""
    X = corpus.to_dense() > 0 if corpus.n_docs * corpus.n_vocab < 5e7 else None
    out = np.empty(len(top_words))
    if X is None:
        import scipy.sparse as sp

        d = np.repeat(np.arange(corpus.n_docs), np.diff(corpus.indptr))
        X = sp.csc_matrix(
            (np.ones(len(d)), (d, corpus.word_ids)), shape=(corpus.n_docs, corpus.n_vocab)
        )
        get = lambda w: X[:, w].toarray().ravel() > 0  # noqa: E731
    else:
        get = lambda w: X[:, w]  # noqa: E731
    for t, words in enumerate(top_words):
        cols = np.stack([get(w) for w in words])
        df = cols.sum(1)
        s = 0.0
        for m in range(1, len(words)):
            for l in range(m):  # noqa: E741
                co = np.sum(cols[m] & cols[l])
                s += np.log((co + eps) / max(df[l], 1))
        out[t] = s
    return out
