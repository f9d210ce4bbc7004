"""Inputs of the nonconjugate_vi study: synthetic stand-ins (smoke) or canonical real data.

A corpus spec (config ``nonconjugate_vi.ctm.corpora``) is either
``{name, kind: synthetic, n_docs, n_vocab, K_true, mean_len}`` or
``{name, kind: real, dataset, path, max_docs, min_doc_len, vocab_max}`` where ``path`` is the
canonical corpus under results/{run}/data/<dataset>/ (rules/data.smk). Real corpora may be
subsampled (``max_docs``, seeded) and the vocabulary pruned to the ``vocab_max`` most frequent
terms (a recorded choice, digest §5: 20 Newsgroups' vocabulary is much larger than NYT's).
"""

from __future__ import annotations

import numpy as np

from latentlab.errors import ConfigError, DataError


def real_path(spec: dict, run: str) -> str:
    """Canonical file of a real dataset: ``spec['path']`` or results/{run}/data/<dataset>/."""
    return spec.get("path") or f"results/{run}/data/{spec['dataset']}/dataset.npz"


def load_ctm_corpus(spec: dict, seed: int, run: str = "smoke"):
    """Returns (docs, n_vocab, info) with docs a list of (ids, counts)."""
    kind = spec.get("kind", "synthetic")
    if kind == "synthetic":
        from latentlab.models.ctm.synthetic import synthetic_ctm

        docs, truth = synthetic_ctm(
            int(spec["n_docs"]),
            int(spec["n_vocab"]),
            int(spec["K_true"]),
            float(spec["mean_len"]),
            seed,
        )
        info = {"data_kind": "synthetic", "K_true": int(spec["K_true"])}
        return docs, int(spec["n_vocab"]), info
    if kind != "real":
        raise ConfigError(f"nonconjugate_vi.ctm.corpora[{spec.get('name')}].kind", "synthetic|real")
    from latentlab.data.prepare import load_dataset

    path = real_path(spec, run)
    corpus = load_dataset(path)
    X = corpus  # BowCorpus
    rng = np.random.default_rng(seed)
    ids = np.arange(X.n_docs)
    lens = X.doc_lengths()
    ids = ids[lens >= int(spec.get("min_doc_len", 2))]
    max_docs = spec.get("max_docs")
    if max_docs and len(ids) > int(max_docs):
        ids = np.sort(rng.choice(ids, int(max_docs), replace=False))
    sub = X.subset(ids)
    vocab_max = spec.get("vocab_max")
    keep = None
    if vocab_max and sub.n_vocab > int(vocab_max):
        freq = np.bincount(sub.word_ids, weights=sub.counts, minlength=sub.n_vocab)
        keep = np.sort(np.argsort(-freq, kind="stable")[: int(vocab_max)])
    remap = None
    if keep is not None:
        remap = -np.ones(sub.n_vocab, dtype=np.int64)
        remap[keep] = np.arange(len(keep))
    docs = []
    for d in range(sub.n_docs):
        w, c = sub.doc(d)
        w = np.asarray(w, dtype=np.int64)
        c = np.asarray(c, dtype=float)
        if remap is not None:
            k = remap[w] >= 0
            w, c = remap[w[k]], c[k]
        if c.sum() >= 2:
            docs.append((w, c))
    if not docs:
        raise DataError(path, "no documents left after subsampling/pruning")
    V = sub.n_vocab if keep is None else len(keep)
    info = {
        "data_kind": spec.get("data_kind", "real"),
        "stands_in_for": spec.get("stands_in_for"),
        "dataset": spec.get("dataset"),
        "n_docs_source": X.n_docs,
        "n_docs_used": len(docs),
        "n_vocab_used": V,
        "n_tokens_used": float(sum(c.sum() for _, c in docs)),
    }
    return docs, V, info


def load_multilabel(spec: dict, seed: int, run: str = "smoke"):
    """Table 1 data: dict(Xtr, Xte, Ytr, Yte, data_kind). Synthetic spec mirrors the Mulan
    shapes; a real spec reads the canonical multilabel task set with its own train/test split."""
    if spec.get("kind", "synthetic") == "synthetic":
        from latentlab.models.logreg.synthetic import synthetic_multilabel

        d = synthetic_multilabel(
            int(spec["n_train"]), int(spec["n_test"]), int(spec["d"]), int(spec["n_labels"]), seed
        )
        return {**d, "data_kind": "synthetic"}
    from latentlab.data.prepare import load_dataset

    path = real_path(spec, run)
    ts = load_dataset(path)
    if ts.layout != "multilabel" or ts.split is None:
        raise DataError(path, "Table 1 needs a multilabel task set with a train/test split")
    tr, te = ts.split == 0, ts.split == 1
    return {"Xtr": ts.X[tr], "Xte": ts.X[te], "Ytr": ts.Y[tr], "Yte": ts.Y[te], "data_kind": "real"}


def load_school(spec: dict, seed: int, run: str = "smoke"):
    """Table 2 data: (X, score, school ids, data_kind). Real: the canonical multitask set."""
    if spec.get("kind", "synthetic") == "synthetic":
        from latentlab.models.logreg.synthetic import synthetic_school

        X, s, g = synthetic_school(
            int(spec["n_schools"]),
            int(spec["d"]),
            seed,
            mean_students=spec.get("mean_students", 110),
        )
        return X, s, g, "synthetic"
    from latentlab.data.prepare import load_dataset

    path = real_path(spec, run)
    ts = load_dataset(path)
    if ts.layout != "multitask":
        raise DataError(path, "Table 2 needs a multitask (per-school) dataset")
    return ts.X, ts.Y[:, 0], ts.task_ids, "real"
