"""Token streams and the 80/20 within-document split of seed 001 (Sec 6.3, Eqs 36–37).

The split is at the token level: each document's tokens are shuffled with a seeded
generator and the first ``n_train = clip(round(frac·n_d), 1, n_d − 1)`` go to training
(digest §7.8, item 17 [AMBIG]: rounding). Documents with fewer than 2 tokens cannot give
both a training and a test token: ``short_docs = "drop"`` removes them (counted in the
split's ``info``), ``"error"`` stops with the document named.

Test words never seen among the training tokens (the τ_v = 0 case of AA, digest §7.4):
``oov_rule = "drop"`` removes those test tokens for *every* method, so all eight
configurations are scored on the same tokens (counted in ``info``); ``"keep"`` keeps them
(AA then needs ``tau_floor > 0``, otherwise the perplexity is refused); ``"error"`` stops.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from latentlab.errors import ConfigError, DataError


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


@dataclass
class Split:
    train: TokenCorpus
    test: HeldOut
    doc_ids: np.ndarray  # original document id of each kept document
    info: dict = field(default_factory=dict)


def _group(doc: np.ndarray, word: np.ndarray, V: int) -> HeldOut:
    key = doc.astype(np.int64) * V + word
    uniq, cnt = np.unique(key, return_counts=True)
    return HeldOut((uniq // V).astype(np.int64), (uniq % V).astype(np.int32), cnt.astype(np.int64))


def split_within_documents(
    corpus,
    frac: float = 0.8,
    seed: int = 0,
    short_docs: str = "drop",
    oov_rule: str = "drop",
    source: str | None = None,
) -> Split:
    """80/20 within-document token split (Sec 6.3) of a :class:`BowCorpus`."""
    if not 0 < frac < 1:
        raise ConfigError("hdp_pcvb0.train_frac", f"must be in (0, 1), got {frac}")
    if short_docs not in ("drop", "error"):
        raise ConfigError("hdp_pcvb0.short_docs", f"'drop' or 'error', got {short_docs!r}")
    if oov_rule not in ("drop", "keep", "error"):
        raise ConfigError("hdp_pcvb0.oov_rule", f"'drop', 'keep' or 'error', got {oov_rule!r}")
    ptr, w = corpus.to_tokens()
    V = corpus.n_vocab
    lens = np.diff(ptr)
    short = np.flatnonzero(lens < 2)
    if len(short) and short_docs == "error":
        raise DataError(
            source,
            f"{len(short)} document(s) have fewer than 2 tokens (first: document {short[0]} "
            f"with {lens[short[0]]}); an 80/20 split needs at least one training and one "
            "test token (set short_docs: drop to remove them)",
        )
    keep = np.flatnonzero(lens >= 2)
    rng = np.random.default_rng(seed)
    tr_w, tr_len, te_d, te_w = [], [], [], []
    for j, d in enumerate(keep):
        toks = w[ptr[d] : ptr[d + 1]].copy()
        rng.shuffle(toks)
        n = len(toks)
        nt = int(min(max(round(frac * n), 1), n - 1))
        tr_w.append(toks[:nt])
        tr_len.append(nt)
        te_d.append(np.full(n - nt, j, dtype=np.int64))
        te_w.append(toks[nt:])
    train_w = np.concatenate(tr_w) if tr_w else np.zeros(0, np.int32)
    tptr = np.concatenate([[0], np.cumsum(tr_len)]).astype(np.int64)
    te_d = np.concatenate(te_d) if te_d else np.zeros(0, np.int64)
    te_w = np.concatenate(te_w) if te_w else np.zeros(0, np.int32)
    seen = np.zeros(V, dtype=bool)
    seen[train_w] = True
    oov = ~seen[te_w]
    n_oov = int(oov.sum())
    if n_oov and oov_rule == "error":
        raise DataError(
            source,
            f"{n_oov} test tokens have words never seen in training (first word id "
            f"{int(te_w[oov][0])}); with AA, τ_v = 0 gives infinite perplexity "
            "(set oov_rule: drop, or keep with tau_floor > 0)",
        )
    if n_oov and oov_rule == "drop":
        te_d, te_w = te_d[~oov], te_w[~oov]
    info = {
        "n_docs_in": int(corpus.n_docs),
        "n_docs_dropped_short": int(len(short)),
        "n_train_tokens": int(len(train_w)),
        "n_test_tokens": int(len(te_w)),
        "n_test_oov_tokens": n_oov,
        "oov_rule": oov_rule,
        "train_frac": frac,
        "split_seed": int(seed),
    }
    return Split(TokenCorpus(tptr, train_w, V), _group(te_d, te_w, V), keep, info)
