"""Bag-of-words corpus: the canonical type every text study reads.

Storage is CSR over documents: ``indptr`` (D+1 document pointers), ``word_ids`` and
``counts`` (one entry per distinct (document, word) pair, word ids sorted within a
document). Optional side information: per-document ``labels`` (int, -1 = none) with
``label_names``, ``titles``, directed ``links`` between documents (E x 2), and a free
``metadata`` dict (source, citation, licence, ...).

Empty documents
---------------
A corpus may hold documents with no tokens (the source has them, or a split emptied
them). They are kept so that document ids stay aligned with the source, counted in
``n_empty_docs`` and in ``summary.json``; a study that cannot use them calls
:meth:`BowCorpus.drop_empty`, which returns the kept ids so labels and links follow.
No kernel ever sees an empty document unless it says it accepts one.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from latentlab.errors import DataError

FORMAT_VERSION = 1


@dataclass
class BowCorpus:
    indptr: np.ndarray
    word_ids: np.ndarray
    counts: np.ndarray
    vocab: list[str]
    labels: np.ndarray | None = None
    label_names: list[str] | None = None
    titles: list[str] | None = None
    links: np.ndarray | None = None
    metadata: dict = field(default_factory=dict)

    def __post_init__(self):
        self.indptr = np.ascontiguousarray(self.indptr, dtype=np.int64)
        self.word_ids = np.ascontiguousarray(self.word_ids, dtype=np.int32)
        self.counts = np.ascontiguousarray(self.counts, dtype=np.int32)
        self.vocab = [str(v) for v in self.vocab]
        if self.labels is not None:
            self.labels = np.ascontiguousarray(self.labels, dtype=np.int32)
        if self.links is not None:
            self.links = np.ascontiguousarray(self.links, dtype=np.int64).reshape(-1, 2)

    # ----------------------------------------------------------------- sizes
    @property
    def n_docs(self) -> int:
        return len(self.indptr) - 1

    @property
    def n_vocab(self) -> int:
        return len(self.vocab)

    @property
    def n_tokens(self) -> int:
        return int(self.counts.sum(dtype=np.int64))

    @property
    def nnz(self) -> int:
        return len(self.word_ids)

    def doc_lengths(self) -> np.ndarray:
        """Tokens per document, N_d (int64, length D)."""
        csum = np.concatenate([[0], np.cumsum(self.counts, dtype=np.int64)])
        return csum[self.indptr[1:]] - csum[self.indptr[:-1]]

    @property
    def n_empty_docs(self) -> int:
        return int((self.doc_lengths() == 0).sum())

    # ------------------------------------------------------------ validation
    def validate(self, source: str | Path | None = None) -> BowCorpus:
        """Check every structural invariant; raise :class:`DataError` naming ``source``."""
        src = source if source is not None else self.metadata.get("source")
        ip, w, c = self.indptr, self.word_ids, self.counts
        if ip.ndim != 1 or len(ip) < 1 or ip[0] != 0:
            raise DataError(src, "indptr must be 1-D and start at 0")
        if np.any(np.diff(ip) < 0):
            raise DataError(src, "indptr is not non-decreasing")
        if ip[-1] != len(w) or len(w) != len(c):
            raise DataError(
                src, f"indptr ends at {ip[-1]} but there are {len(w)} word ids, {len(c)} counts"
            )
        if len(w):
            if w.min() < 0 or w.max() >= self.n_vocab:
                bad = int(w[(w < 0) | (w >= self.n_vocab)][0])
                raise DataError(
                    src, f"word id {bad} out of range for a vocabulary of {self.n_vocab}"
                )
            if c.min() <= 0:
                raise DataError(src, f"non-positive count {int(c.min())} (counts must be >= 1)")
            # sorted, unique word ids within each document
            d = np.diff(w.astype(np.int64))
            starts = np.zeros(len(w), dtype=bool)
            starts[ip[:-1][ip[:-1] < len(w)]] = True
            if np.any((d <= 0) & ~starts[1:]):
                raise DataError(src, "word ids within a document must be sorted and unique")
        if self.labels is not None and len(self.labels) != self.n_docs:
            raise DataError(src, f"{len(self.labels)} labels for {self.n_docs} documents")
        if self.labels is not None and self.label_names is not None and len(self.labels):
            if self.labels.max() >= len(self.label_names) or self.labels.min() < -1:
                raise DataError(src, "a label is outside label_names")
        if self.titles is not None and len(self.titles) != self.n_docs:
            raise DataError(src, f"{len(self.titles)} titles for {self.n_docs} documents")
        if self.links is not None and len(self.links):
            if self.links.min() < 0 or self.links.max() >= self.n_docs:
                raise DataError(src, "a link names a document id out of range")
        return self

    # ----------------------------------------------------------- constructors
    @classmethod
    def from_triplets(
        cls,
        doc: np.ndarray,
        word: np.ndarray,
        count: np.ndarray,
        n_docs: int,
        vocab: list[str],
        source: str | Path | None = None,
        **kw,
    ) -> BowCorpus:
        """Build from (doc, word, count) triples in any order; duplicate pairs are summed."""
        doc = np.asarray(doc, dtype=np.int64)
        word = np.asarray(word, dtype=np.int64)
        count = np.asarray(count, dtype=np.int64)
        if len(doc) and (doc.min() < 0 or doc.max() >= n_docs):
            raise DataError(source, f"document id out of range 0..{n_docs - 1}")
        if len(word) and (word.min() < 0 or word.max() >= len(vocab)):
            bad = int(word[(word < 0) | (word >= len(vocab))][0])
            raise DataError(source, f"word id {bad} out of range for a vocabulary of {len(vocab)}")
        if len(count) and count.min() < 0:
            raise DataError(source, f"negative count {int(count.min())}")
        keep = count > 0
        doc, word, count = doc[keep], word[keep], count[keep]
        key = doc * len(vocab) + word
        order = np.argsort(key, kind="stable")
        key, count = key[order], count[order]
        uniq, first = np.unique(key, return_index=True)
        summed = np.add.reduceat(count, first) if len(count) else count
        d, w = np.divmod(uniq, len(vocab))
        indptr = np.zeros(n_docs + 1, dtype=np.int64)
        np.add.at(indptr, d + 1, 1)
        np.cumsum(indptr, out=indptr)
        if len(summed) and summed.max() > np.iinfo(np.int32).max:
            raise DataError(source, "a count does not fit in int32")
        return cls(indptr, w, summed, vocab, **kw)

    @classmethod
    def from_token_lists(cls, docs: list, vocab: list[str], **kw) -> BowCorpus:
        """Build from one array of word ids per document (token order is discarded)."""
        n = len(docs)
        lens = np.array([len(x) for x in docs], dtype=np.int64)
        d = np.repeat(np.arange(n), lens)
        w = np.concatenate([np.asarray(x, dtype=np.int64) for x in docs]) if n else np.zeros(0)
        return cls.from_triplets(d, w, np.ones_like(d), n, vocab, **kw)

    @classmethod
    def from_dense(cls, counts: np.ndarray, vocab: list[str] | None = None, **kw) -> BowCorpus:
        counts = np.asarray(counts)
        d, w = np.nonzero(counts)
        vocab = vocab if vocab is not None else [f"w{i}" for i in range(counts.shape[1])]
        return cls.from_triplets(d, w, counts[d, w], counts.shape[0], vocab, **kw)

    # ------------------------------------------------------------ conversions
    def to_dense(self) -> np.ndarray:
        out = np.zeros((self.n_docs, self.n_vocab), dtype=np.int64)
        d = np.repeat(np.arange(self.n_docs), np.diff(self.indptr))
        out[d, self.word_ids] = self.counts
        return out

    def doc_ids_per_entry(self) -> np.ndarray:
        return np.repeat(np.arange(self.n_docs, dtype=np.int64), np.diff(self.indptr))

    def to_tokens(self) -> tuple[np.ndarray, np.ndarray]:
        """Expanded token stream: (doc_ptr of length D+1 over tokens, word id per token)."""
        w = np.repeat(self.word_ids, self.counts)
        ptr = np.concatenate([[0], np.cumsum(self.doc_lengths())])
        return ptr.astype(np.int64), w.astype(np.int32)

    def doc(self, d: int) -> tuple[np.ndarray, np.ndarray]:
        s, e = self.indptr[d], self.indptr[d + 1]
        return self.word_ids[s:e], self.counts[s:e]

    def subset(self, doc_ids) -> BowCorpus:
        """Documents ``doc_ids`` in that order; labels and titles follow, links are remapped."""
        doc_ids = np.asarray(doc_ids, dtype=np.int64)
        lens = np.diff(self.indptr)[doc_ids]
        indptr = np.concatenate([[0], np.cumsum(lens)])
        idx = (
            np.concatenate([np.arange(self.indptr[d], self.indptr[d + 1]) for d in doc_ids])
            if len(doc_ids)
            else np.zeros(0, dtype=np.int64)
        ).astype(np.int64)
        links = None
        if self.links is not None:
            new_id = np.full(self.n_docs, -1, dtype=np.int64)
            new_id[doc_ids] = np.arange(len(doc_ids))
            mapped = new_id[self.links]
            links = mapped[(mapped >= 0).all(axis=1)]
        return BowCorpus(
            indptr,
            self.word_ids[idx],
            self.counts[idx],
            list(self.vocab),
            labels=None if self.labels is None else self.labels[doc_ids],
            label_names=self.label_names,
            titles=None if self.titles is None else [self.titles[i] for i in doc_ids],
            links=links,
            metadata=dict(self.metadata),
        )

    def drop_empty(self) -> tuple[BowCorpus, np.ndarray]:
        """The corpus without empty documents, and the kept original ids."""
        keep = np.flatnonzero(self.doc_lengths() > 0)
        return self.subset(keep), keep

    def predefined_split(self) -> tuple[np.ndarray, np.ndarray]:
        """(train ids, test ids) of the source's own split (``metadata['split']``, e.g. the
        20 Newsgroups bydate ranges); DataError if the corpus has none."""
        sp = self.metadata.get("split")
        if not sp or "train" not in sp or "test" not in sp:
            raise DataError(self.metadata.get("source"), "corpus has no predefined split")
        return np.arange(*sp["train"], dtype=np.int64), np.arange(*sp["test"], dtype=np.int64)

    # ------------------------------------------------------------- identity
    def content_sha256(self) -> str:
        """Hash of the (doc, word, count) triples and the vocabulary: order-independent of
        how the source listed its lines, so a re-packaged copy of a dataset verifies
        the same way as the upstream file."""
        h = hashlib.sha256()
        h.update(np.asarray(self.indptr, dtype="<i8").tobytes())
        h.update(np.asarray(self.word_ids, dtype="<i4").tobytes())
        h.update(np.asarray(self.counts, dtype="<i4").tobytes())
        h.update("\n".join(self.vocab).encode())
        return h.hexdigest()

    def summary(self) -> dict:
        return {
            "kind": "bow",
            "n_docs": self.n_docs,
            "n_vocab": self.n_vocab,
            "n_tokens": self.n_tokens,
            "nnz": self.nnz,
            "n_empty_docs": self.n_empty_docs,
            "n_labels": None if self.label_names is None else len(self.label_names),
            "n_links": None if self.links is None else len(self.links),
            "content_sha256": self.content_sha256(),
        }

    # --------------------------------------------------------------- storage
    def save(self, path: str | Path) -> None:
        """Write ``path`` (.npz); atomic (a temp file renamed) so a killed job leaves nothing."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {"indptr": self.indptr, "word_ids": self.word_ids, "counts": self.counts}
        if self.labels is not None:
            arrays["labels"] = self.labels
        if self.links is not None:
            arrays["links"] = self.links
        side = {
            "format": "latentlab.bow",
            "version": FORMAT_VERSION,
            "vocab": self.vocab,
            "label_names": self.label_names,
            "titles": self.titles,
            "metadata": self.metadata,
        }
        arrays["meta_json"] = np.frombuffer(json.dumps(side).encode(), dtype=np.uint8)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, **arrays)
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> BowCorpus:
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as z:
                side = json.loads(bytes(z["meta_json"]).decode())
                if side.get("format") != "latentlab.bow":
                    fmt = side.get("format")
                    raise DataError(path, f"not a bag-of-words corpus (format {fmt})")
                corpus = cls(
                    z["indptr"],
                    z["word_ids"],
                    z["counts"],
                    side["vocab"],
                    labels=z["labels"] if "labels" in z else None,
                    label_names=side.get("label_names"),
                    titles=side.get("titles"),
                    links=z["links"] if "links" in z else None,
                    metadata=side.get("metadata") or {},
                )
        except (OSError, KeyError, ValueError) as e:
            if isinstance(e, DataError):
                raise
            raise DataError(path, f"cannot read corpus: {e}") from e
        return corpus.validate(path)


def keep_top_words(corpus: BowCorpus, top: int) -> BowCorpus:
    """The corpus restricted to its ``top`` most frequent words (total count; ties broken
    by word id), word ids renumbered in their original order. Every document is kept (some
    may become empty: ``drop_empty`` them where that matters). The vocabulary pruning of
    the studies (seed 001 20news: V = 13,178; seed 002: ``vocab_max``)."""
    if top >= corpus.n_vocab:
        return corpus
    freq = np.bincount(corpus.word_ids, weights=corpus.counts, minlength=corpus.n_vocab)
    keep = np.sort(np.argsort(-freq, kind="stable")[: int(top)])
    remap = np.full(corpus.n_vocab, -1, dtype=np.int64)
    remap[keep] = np.arange(len(keep))
    d = corpus.doc_ids_per_entry()
    ok = remap[corpus.word_ids] >= 0
    return BowCorpus.from_triplets(
        d[ok], remap[corpus.word_ids[ok]], corpus.counts[ok], corpus.n_docs,
        [corpus.vocab[i] for i in keep], labels=corpus.labels,
        label_names=corpus.label_names, metadata=corpus.metadata,
    )  # fmt: skip
