"""Inputs of the nonconjugate_vi study: synthetic stand-ins (smoke) or canonical real data.

Specs are the settings dataclasses of :mod:`.study`; a real spec's file is given by the rule
(``path``), never built here. Real corpora may be subsampled (``max_docs``, seeded) and the
vocabulary pruned to the ``vocab_max`` most frequent terms
(:func:`latentlab.data.corpus.keep_top_words`; our choice: 20 Newsgroups' vocabulary is much
larger than the 10,760 terms of the document's NYT corpus, Sec. 5.1).
"""

from __future__ import annotations

import numpy as np

from latentlab.errors import ConfigError, DataError


def _need(path, what):
    if path is None:
        raise ConfigError(what, "a real dataset needs its canonical file (the rule's input)")
    return path


def load_ctm_corpus(spec, seed: int, path=None):
    """Returns (docs, n_vocab, info) with docs a list of (ids, counts)."""
    if spec.kind == "synthetic":
        from latentlab.models.ctm.synthetic import synthetic_ctm

        docs, _ = synthetic_ctm(spec.n_docs, spec.n_vocab, spec.K_true, float(spec.mean_len), seed)
        return docs, spec.n_vocab, {"data_kind": "synthetic", "K_true": spec.K_true}
    from latentlab.data.corpus import keep_top_words
    from latentlab.data.prepare import load_dataset

    path = _need(path, f"nonconjugate_vi.ctm.corpora[{spec.name}]")
    X = load_dataset(path)
    rng = np.random.default_rng(seed)
    ids = np.arange(X.n_docs)[X.doc_lengths() >= spec.min_doc_len]
    if spec.max_docs and len(ids) > spec.max_docs:
        ids = np.sort(rng.choice(ids, spec.max_docs, replace=False))
    sub = X.subset(ids)
    if spec.vocab_max and sub.n_vocab > spec.vocab_max:
        sub = keep_top_words(sub, spec.vocab_max)
    docs = []
    for d in range(sub.n_docs):
        w, c = sub.doc(d)
        w, c = np.asarray(w, dtype=np.int64), np.asarray(c, dtype=float)
        if c.sum() >= 2:
            docs.append((w, c))
    if not docs:
        raise DataError(path, "no documents left after subsampling/pruning")
    info = {
        "data_kind": spec.data_kind,
        "stands_in_for": spec.stands_in_for,
        "dataset": spec.dataset,
        "n_docs_source": X.n_docs,
        "n_docs_used": len(docs),
        "n_vocab_used": sub.n_vocab,
        "n_tokens_used": float(sum(c.sum() for _, c in docs)),
    }
    return docs, sub.n_vocab, info


def load_multilabel(spec, seed: int, path=None):
    """Table 1 data: dict(Xtr, Xte, Ytr, Yte, data_kind). Synthetic spec mirrors the Mulan
    shapes; a real spec reads the canonical multilabel task set with its own train/test split."""
    if spec.kind == "synthetic":
        from latentlab.models.logreg.synthetic import synthetic_multilabel

        d = synthetic_multilabel(spec.n_train, spec.n_test, spec.d, spec.n_labels, seed)
        return {**d, "data_kind": "synthetic"}
    from latentlab.data.prepare import load_dataset

    path = _need(path, f"nonconjugate_vi.blr.table1[{spec.name}]")
    ts = load_dataset(path)
    if ts.layout != "multilabel" or ts.split is None:
        raise DataError(path, "Table 1 needs a multilabel task set with a train/test split")
    tr, te = ts.split == 0, ts.split == 1
    return {"Xtr": ts.X[tr], "Xte": ts.X[te], "Ytr": ts.Y[tr], "Yte": ts.Y[te], "data_kind": "real"}


def load_school(spec, seed: int, path=None):
    """Table 2 data: (X, score, school ids, data_kind). Real: the canonical multitask set."""
    if spec.kind == "synthetic":
        from latentlab.models.logreg.synthetic import synthetic_school

        X, s, g = synthetic_school(spec.n_schools, spec.d, seed, mean_students=spec.mean_students)
        return X, s, g, "synthetic"
    from latentlab.data.prepare import load_dataset

    path = _need(path, "nonconjugate_vi.school")
    ts = load_dataset(path)
    if ts.layout != "multitask":
        raise DataError(path, "Table 2 needs a multitask (per-school) dataset")
    return ts.X, ts.Y[:, 0], ts.task_ids, "real"
