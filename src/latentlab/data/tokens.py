"""Token streams: a bag-of-words corpus expanded to one word id per token, in a given order.

A model that sweeps tokens (collapsed variational or Gibbs inference) takes a
:class:`~latentlab.data.corpus.BowCorpus` and derives its :class:`TokenCorpus` inside
(:meth:`TokenCorpus.from_bow`); a split that shuffles tokens within documents
(:func:`latentlab.data.splits.split_within_documents`) hands over its training part as a
:class:`TokenCorpus` so that the shuffled order is kept. :class:`HeldOut` holds held-out
tokens grouped by (document, word) (Eq 36 of seed 001 weights each entry by its count).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from latentlab.errors import DataError


@dataclass
class TokenCorpus:
    """Training token stream: ``words[doc_ptr[d]:doc_ptr[d+1]]`` are document d's tokens."""

    doc_ptr: np.ndarray
    words: np.ndarray
    V: int

    def __post_init__(self):
        self.doc_ptr = np.ascontiguousarray(self.doc_ptr, dtype=np.int64)
        self.words = np.ascontiguousarray(self.words, dtype=np.int32)

    @property
    def n_docs(self) -> int:
        return len(self.doc_ptr) - 1

    @property
    def n_tokens(self) -> int:
        return int(self.doc_ptr[-1])

    def doc_lengths(self) -> np.ndarray:
        return np.diff(self.doc_ptr)

    def validate(self, source: str | None = None) -> TokenCorpus:
        if self.words.size and (self.words.min() < 0 or self.words.max() >= self.V):
            raise DataError(source, f"word ids outside [0, {self.V})")
        if np.any(np.diff(self.doc_ptr) < 0) or self.doc_ptr[0] != 0:
            raise DataError(source, "document pointers are not non-decreasing from 0")
        if self.doc_ptr[-1] != len(self.words):
            raise DataError(source, "last document pointer differs from the number of tokens")
        return self

    @classmethod
    def from_bow(cls, corpus) -> TokenCorpus:
        ptr, w = corpus.to_tokens()
        return cls(ptr, w, corpus.n_vocab)


@dataclass
class HeldOut:
    """Held-out tokens grouped by (document, word): Eq 36 weights each entry by ``count``."""

    doc: np.ndarray
    word: np.ndarray
    count: np.ndarray

    @property
    def n_tokens(self) -> int:
        return int(self.count.sum())


def as_tokens(corpus) -> TokenCorpus:
    """A :class:`TokenCorpus` as is; a :class:`BowCorpus` expanded to its token stream."""
    return corpus if isinstance(corpus, TokenCorpus) else TokenCorpus.from_bow(corpus)


def group_tokens(doc: np.ndarray, word: np.ndarray, V: int) -> HeldOut:
    """Tokens (doc, word) grouped into (document, word, count) entries."""
    key = doc.astype(np.int64) * V + word
    uniq, cnt = np.unique(key, return_counts=True)
    return HeldOut((uniq // V).astype(np.int64), (uniq % V).astype(np.int32), cnt.astype(np.int64))
