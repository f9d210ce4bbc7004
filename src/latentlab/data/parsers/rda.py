"""R data files (.rda, XDR) read with the ``rdata`` package, without R.

* topicmodels ``AssociatedPress``: a ``DocumentTermMatrix`` = ``simple_triplet_matrix``
  (1-based ``i``, ``j``, counts ``v``, ``nrow``, ``ncol``, ``dimnames$Terms``).
* lda package corpora: ``*.documents`` = list of 2-row integer matrices (row 1: 0-based
  word ids, row 2: counts); ``*.vocab`` = character vector; ``cora.cites`` = list of
  0-based ids of the documents each document cites; ``cora.titles``; newsgroup labels
  (1-based integers) and ``newsgroup.label.map`` (name, id).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.errors import DataError


def read_rda(path: str | Path, name: str | None = None):
    """The object ``name`` of an .rda file (or its only object)."""
    import rdata

    path = Path(path)
    if not path.exists():
        raise DataError(path, "file not found")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            objs = rdata.read_rda(str(path))
    except Exception as e:  # rdata raises many types on corrupt input
        raise DataError(path, f"cannot read R data file (truncated or corrupt?): {e}") from e
    if name is None:
        if len(objs) != 1:
            raise DataError(path, f"expected one object, found {list(objs)}")
        return next(iter(objs.values()))
    if name not in objs:
        raise DataError(path, f"no object {name!r} (found {list(objs)})")
    return objs[name]


def _int_vector(x, path, what) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64).ravel()
    if not np.isfinite(a).all() or np.any(a != np.round(a)):
        raise DataError(path, f"{what} holds non-integer values")
    return a.astype(np.int64)


def parse_ap(path: str | Path, metadata: dict | None = None) -> BowCorpus:
    path = Path(path)
    m = read_rda(path, "AssociatedPress")
    try:
        i, j, v = (_int_vector(m[k], path, k) for k in ("i", "j", "v"))
        nrow, ncol = int(np.ravel(m["nrow"])[0]), int(np.ravel(m["ncol"])[0])
        terms = [str(t) for t in m["dimnames"]["Terms"]]
    except (KeyError, TypeError, IndexError) as e:
        raise DataError(path, f"not a simple_triplet_matrix: missing {e}") from e
    if not (len(i) == len(j) == len(v)):
        raise DataError(path, f"i, j, v lengths differ ({len(i)}, {len(j)}, {len(v)})")
    if len(terms) != ncol:
        raise DataError(path, f"ncol = {ncol} but {len(terms)} terms")
    for what, ids, hi in (("document", i, nrow), ("term", j, ncol)):
        if len(ids) and (ids.min() < 1 or ids.max() > hi):
            bad = int(ids[(ids < 1) | (ids > hi)][0])
            raise DataError(path, f"{what} id {bad} out of range 1..{hi}")
    if len(v) and v.min() < 0:
        raise DataError(path, f"negative count {int(v.min())}")
    meta = {"source": str(path), **(metadata or {})}
    return BowCorpus.from_triplets(i - 1, j - 1, v, nrow, terms, source=path, metadata=meta)


def lda_documents(path: str | Path, name: str, n_vocab: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """An lda-package document list as (word ids, counts) per document, checked."""
    path = Path(path)
    docs = read_rda(path, name)
    if not isinstance(docs, list):
        raise DataError(path, f"{name} is not a list of documents")
    out = []
    for d, m in enumerate(docs):
        a = np.asarray(m)
        if a.size == 0:
            out.append((np.zeros(0, np.int64), np.zeros(0, np.int64)))
            continue
        if a.ndim != 2 or a.shape[0] != 2:
            raise DataError(path, f"document {d}: expected a 2-row matrix, got shape {a.shape}")
        w, c = _int_vector(a[0], path, f"document {d}"), _int_vector(a[1], path, f"document {d}")
        if w.min() < 0 or w.max() >= n_vocab:
            bad = int(w[(w < 0) | (w >= n_vocab)][0])
            raise DataError(path, f"document {d}: word id {bad} out of range 0..{n_vocab - 1}")
        if c.min() < 0:
            raise DataError(path, f"document {d}: negative count {int(c.min())}")
        out.append((w, c))
    return out


def _corpus_from_docs(docs, vocab, source, **kw) -> BowCorpus:
    lens = np.array([len(w) for w, _ in docs], dtype=np.int64)
    d = np.repeat(np.arange(len(docs)), lens)
    w = np.concatenate([w for w, _ in docs]) if len(docs) else np.zeros(0, np.int64)
    c = np.concatenate([c for _, c in docs]) if len(docs) else np.zeros(0, np.int64)
    return BowCorpus.from_triplets(d, w, c, len(docs), vocab, source=source, **kw)


def _vocab(path, name) -> list[str]:
    v = read_rda(path, name)
    return [str(x) for x in np.asarray(v).ravel()]


def parse_cora(documents, vocab, cites, titles, metadata: dict | None = None) -> BowCorpus:
    words = _vocab(vocab, "cora.vocab")
    docs = lda_documents(documents, "cora.documents", len(words))
    n = len(docs)
    cit = read_rda(cites, "cora.cites")
    if len(cit) != n:
        raise DataError(cites, f"{len(cit)} citation lists for {n} documents")
    src, dst = [], []
    for i, c in enumerate(cit):
        c = _int_vector(c, cites, f"citations of document {i}")
        if len(c) and (c.min() < 0 or c.max() >= n):
            raise DataError(cites, f"document {i} cites id {int(c.max())} out of range 0..{n - 1}")
        src.append(np.full(len(c), i))
        dst.append(c)
    links = np.column_stack([np.concatenate(src), np.concatenate(dst)]).astype(np.int64)
    tit = [str(t) for t in np.asarray(read_rda(titles, "cora.titles")).ravel()]
    if len(tit) != n:
        raise DataError(titles, f"{len(tit)} titles for {n} documents")
    meta = {"source": str(documents), **(metadata or {})}
    return _corpus_from_docs(docs, words, documents, titles=tit, links=links, metadata=meta)


def parse_newsgroups(
    train_docs, test_docs, train_labels, test_labels, vocab, label_map, metadata: dict | None = None
) -> BowCorpus:
    words = _vocab(vocab, "newsgroup.vocab")
    tr = lda_documents(train_docs, "newsgroup.train.documents", len(words))
    te = lda_documents(test_docs, "newsgroup.test.documents", len(words))
    lm = read_rda(label_map, "newsgroup.label.map")
    try:
        names = [str(x) for x in lm.iloc[:, 0]]
        ids = _int_vector(lm.iloc[:, 1].to_numpy(dtype=float), label_map, "label ids")
    except (AttributeError, IndexError, ValueError) as e:
        raise DataError(label_map, f"not a (name, id) table: {e}") from e
    if sorted(ids.tolist()) != list(range(1, len(names) + 1)):
        raise DataError(label_map, "label ids are not 1..K")
    label_names = [n for _, n in sorted(zip(ids.tolist(), names, strict=True))]
    labels = []
    for path, name, docs in (
        (train_labels, "newsgroup.train.labels", tr),
        (test_labels, "newsgroup.test.labels", te),
    ):
        lab = _int_vector(read_rda(path, name), path, "labels")
        if len(lab) != len(docs):
            raise DataError(path, f"{len(lab)} labels for {len(docs)} documents")
        if len(lab) and (lab.min() < 1 or lab.max() > len(label_names)):
            raise DataError(path, f"label out of range 1..{len(label_names)}")
        labels.append(lab - 1)
    meta = {
        "source": str(train_docs),
        "split": {"train": [0, len(tr)], "test": [len(tr), len(tr) + len(te)]},
        **(metadata or {}),
    }
    return _corpus_from_docs(
        tr + te,
        words,
        train_docs,
        labels=np.concatenate(labels),
        label_names=label_names,
        metadata=meta,
    )
