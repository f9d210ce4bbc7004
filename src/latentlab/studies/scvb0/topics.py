"""Tables 4.4 / 4.5: topics after a short fixed training-time budget, with documents
processed and an automatic coherence score (a labelled proxy for the human studies)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .methods import make_method, warm_up


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
            for l in range(m):
                co = np.sum(cols[m] & cols[l])
                s += np.log((co + eps) / max(df[l], 1))
        out[t] = s
    return out


def fixed_budget_topics(p: dict, q: dict, corpus, seed: int, n_top: int = 10):
    """Train SCVB0 and SVB (B1, O0: the thesis's SVB in these studies is unspecified;
    ``q['svb']`` picks the variant) for ``q['seconds']`` of training time, ``q['runs']``
    times; return (topics table, per-run summary)."""
    warm_up(p)
    K = int(q["K"])
    q_svb = q.get("svb", {"B": 1, "O": 0.0})
    from .methods import svb_name

    names = ["SCVB0", svb_name(q_svb["B"], q_svb["O"])]
    pp = dict(p, minibatch=min(p["minibatch"], corpus.n_docs))
    topics, summary = [], []
    rng = np.random.default_rng(seed + 99)
    for r in range(int(q["runs"])):
        for name in names:
            m = make_method(name, pp, K, seed + r)
            m.fit(corpus, n_epochs=None, time_budget=float(q["seconds"]))
            phi = m.phi()
            top = np.argsort(-phi, axis=1)[:, :n_top]
            coh = umass_coherence(corpus, top)
            summary.append(
                dict(
                    method=name,
                    run=r,
                    seconds=m.train_seconds,
                    docs_processed=m.docs_seen,
                    docs_per_second=m.docs_seen / m.train_seconds,
                    umass_mean=float(coh.mean()),
                )
            )
            if r == 0:
                for k in np.sort(rng.choice(K, size=min(int(q["n_show"]), K), replace=False)):
                    topics.append(
                        dict(
                            method=name,
                            topic=int(k),
                            words=" ".join(corpus.vocab[w] for w in top[k]),
                            umass=float(coh[k]),
                        )
                    )
    return pd.DataFrame(topics), pd.DataFrame(summary)
