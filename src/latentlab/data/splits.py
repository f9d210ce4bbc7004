"""Seeded, deterministic, disjoint splits, each written as its own file.

Kinds (``pct`` = the training share in percent):

* ``tokens`` (bag of words): within-document token split. Each document's tokens are
  randomly permuted and the first ``n_train`` go to the training part, the rest to the
  test part: 80 = document completion (80/20), 50 = halves (observed / evaluated).
  ``n_train = round(pct/100 * n_d)`` with ties rounded DOWN (so halves give
  ``floor(n_d / 2)`` observed tokens), then clipped to ``[1, n_d - 1]`` when ``n_d >= 2``.
  Empty-document rule: both parts keep every document, so document ids stay aligned with
  the corpus; a document with 0 tokens is empty in both parts and a 1-token document
  keeps its token in the training part (its test part is empty). The file records
  ``n_empty_train`` / ``n_empty_test``; a study that cannot use empty documents calls
  ``BowCorpus.drop_empty`` on the part it evaluates.
* ``docs`` (any canonical type with documents/rows): a random ``pct`` % of the items
  (rounded down, ties down as above) form the training set, the rest the test set.
  Empty documents are split like any other (see the corpus's ``drop_empty``).
* ``tasks`` (TaskDataset): ``repeats`` independent splits with seeds ``seed + r``;
  within every task (multitask layout: the rows of each task; multi-label: all rows)
  ``pct`` % of the rows train, the rest test (at least one row on each side when the
  task has two or more rows).

All randomness comes from ``numpy.random.default_rng(seed)``: same seed, same bits.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from latentlab.data._io import load_npz, save_npz
from latentlab.data.corpus import BowCorpus
from latentlab.errors import DataError

FORMAT = "latentlab.split"


def n_train_of(n: np.ndarray, pct: int, clip: bool = True) -> np.ndarray:
    """round(pct/100 * n) with ties down, in exact integer arithmetic; clipped to
    [1, n-1] for n >= 2 when ``clip``."""
    n = np.asarray(n, dtype=np.int64)
    k = (2 * pct * n - 100 + 199) // 200
    k = np.clip(k, 0, n)
    if clip:
        big = n >= 2
        k = np.where(big, np.clip(k, 1, np.maximum(n - 1, 1)), np.minimum(n, 1))
    return k


def _check_pct(pct: int) -> int:
    pct = int(pct)
    if not 0 < pct < 100:
        raise DataError(None, f"split percentage must be in 1..99, got {pct}")
    return pct


def token_split(corpus: BowCorpus, pct: int, seed: int) -> tuple[BowCorpus, BowCorpus]:
    """Within-document token split: (train part, test part), both with all D documents."""
    pct = _check_pct(pct)
    rng = np.random.default_rng(seed)
    ptr, words = corpus.to_tokens()
    lens = np.diff(ptr)
    doc = np.repeat(np.arange(corpus.n_docs), lens)
    key = rng.random(len(words))
    order = np.lexsort((key, doc))  # by document, random within
    rank = np.empty(len(words), dtype=np.int64)
    rank[order] = np.arange(len(words)) - np.repeat(ptr[:-1], lens)
    k = n_train_of(lens, pct)
    is_train = rank < np.repeat(k, lens)
    kw = dict(
        labels=corpus.labels,
        label_names=corpus.label_names,
        titles=corpus.titles,
        links=corpus.links,
    )
    parts = []
    for mask in (is_train, ~is_train):
        parts.append(
            BowCorpus.from_triplets(
                doc[mask],
                words[mask],
                np.ones(int(mask.sum()), dtype=np.int64),
                corpus.n_docs,
                corpus.vocab,
                metadata=dict(corpus.metadata),
                **kw,
            )
        )
    return parts[0], parts[1]


def doc_split(n_items: int, pct: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Sorted (train ids, test ids) of a random document-level split."""
    pct = _check_pct(pct)
    perm = np.random.default_rng(seed).permutation(n_items)
    k = int(n_train_of(np.array([n_items]), pct, clip=n_items >= 2)[0])
    return np.sort(perm[:k]), np.sort(perm[k:])


def task_splits(groups: np.ndarray, pct: int, seed: int, repeats: int) -> np.ndarray:
    """(repeats x n_rows) bool training masks; repetition r uses seed + r; within every
    group (task) pct % of its rows train."""
    pct = _check_pct(pct)
    groups = np.asarray(groups, dtype=np.int64)
    n = len(groups)
    masks = np.zeros((repeats, n), dtype=bool)
    for r in range(repeats):
        rng = np.random.default_rng(seed + r)
        key = rng.random(n)
        order = np.lexsort((key, groups))
        g_sorted = groups[order]
        starts = np.flatnonzero(np.r_[True, g_sorted[1:] != g_sorted[:-1]])
        sizes = np.diff(np.r_[starts, n])
        rank = np.arange(n) - np.repeat(starts, sizes)
        k = np.repeat(n_train_of(sizes, pct), sizes)
        masks[r, order] = rank < k
    return masks


# ------------------------------------------------------------------ files
def save_split(path: str | Path, kind: str, pct: int, seed: int, arrays: dict, info: dict) -> None:
    side = {"format": FORMAT, "version": 1, "kind": kind, "pct": pct, "seed": seed, **info}
    save_npz(path, arrays, side)


def load_split(path: str | Path) -> tuple[dict, dict]:
    """(arrays, info) of a split file."""
    return load_npz(path, FORMAT)


def load_token_split(path: str | Path, corpus: BowCorpus) -> tuple[BowCorpus, BowCorpus]:
    """The (train, test) corpora of a token split file, with ``corpus``'s vocabulary."""
    a, info = load_split(path)
    if info["kind"] != "tokens":
        raise DataError(path, f"not a token split (kind {info['kind']})")
    out = []
    for p in ("train", "test"):
        c = BowCorpus(
            a[f"{p}_indptr"],
            a[f"{p}_word_ids"],
            a[f"{p}_counts"],
            corpus.vocab,
            labels=corpus.labels,
            label_names=corpus.label_names,
            titles=corpus.titles,
            links=corpus.links,
            metadata=dict(corpus.metadata),
        )
        out.append(c.validate(path))
    return out[0], out[1]


def make_split(
    dataset_path: str | Path, kind: str, pct: int, seed: int, out: str | Path, repeats: int = 10
) -> dict:
    """Compute a split of the canonical dataset at ``dataset_path`` and write it to ``out``."""
    from latentlab.data.prepare import load_dataset
    from latentlab.data.tasks import TaskDataset

    obj = load_dataset(dataset_path)
    info: dict = {"dataset": str(dataset_path)}
    if kind == "tokens":
        if not isinstance(obj, BowCorpus):
            raise DataError(dataset_path, "token splits need a bag-of-words corpus")
        tr, te = token_split(obj, pct, seed)
        arrays = {}
        for p, c in (("train", tr), ("test", te)):
            arrays.update(
                {f"{p}_indptr": c.indptr, f"{p}_word_ids": c.word_ids, f"{p}_counts": c.counts}
            )
        info.update(
            n_docs=obj.n_docs,
            n_train_tokens=tr.n_tokens,
            n_test_tokens=te.n_tokens,
            n_empty_train=tr.n_empty_docs,
            n_empty_test=te.n_empty_docs,
        )
    elif kind == "docs":
        n = obj.n_rows if isinstance(obj, TaskDataset) else obj.n_docs
        tr, te = doc_split(n, pct, seed)
        arrays = {"train_ids": tr, "test_ids": te}
        info.update(n_items=n, n_train=len(tr), n_test=len(te))
    elif kind == "tasks":
        if not isinstance(obj, TaskDataset):
            raise DataError(dataset_path, "per-task splits need a task dataset")
        groups = obj.task_ids if obj.layout == "multitask" else np.zeros(obj.n_rows, np.int64)
        masks = task_splits(groups, pct, seed, repeats)
        arrays = {"train_mask": masks}
        info.update(
            repeats=repeats,
            seeds=[seed + r for r in range(repeats)],
            n_rows=obj.n_rows,
            n_train=[int(m.sum()) for m in masks],
        )
    else:
        raise DataError(None, f"unknown split kind {kind!r} (tokens, docs, tasks)")
    save_split(out, kind, pct, seed, arrays, info)
    return info


# ------------------------------------------------------------------ in-process splits
# The two splits the studies compute in their own steps: held-out documents (train/test
# by document) and document completion (observed/scored tokens of each held-out document).


def heldout_docs(
    corpus: BowCorpus,
    frac: float,
    seed: int,
    max_test: int | None = None,
    surplus: str = "train",
) -> tuple[BowCorpus, BowCorpus, int, int]:
    """Train/test split by document. A seeded random ``frac`` of the non-empty documents
    (``max(1, round(frac * n))``) is held out; empty documents are dropped and counted.
    ``max_test`` caps the test documents: the surplus goes back to training
    (``surplus="train"``) or is left out of both parts (``"drop"``: the first ``max_test``
    held-out documents in corpus order are kept).

    Returns ``(train, test, n_empty, n_held_out)`` (``n_held_out`` before the cap)."""
    if not (0 < frac < 1):
        raise DataError(corpus.metadata.get("source"), f"held-out fraction {frac} not in (0, 1)")
    if surplus not in ("train", "drop"):
        raise ValueError(f"surplus must be 'train' or 'drop', got {surplus!r}")
    lens = corpus.doc_lengths()
    keep = np.flatnonzero(lens > 0)
    n_empty = int(len(lens) - len(keep))
    perm = keep[np.random.default_rng(seed).permutation(len(keep))]
    n_held = max(1, int(round(frac * len(keep))))
    n_test = min(n_held, int(max_test)) if max_test and surplus == "train" else n_held
    test = np.sort(perm[:n_test])
    train = np.sort(perm[n_test:])
    if max_test and surplus == "drop":
        test = test[: int(max_test)]
    if len(train) == 0:
        raise DataError(corpus.metadata.get("source"), "no training documents after hold-out")
    return corpus.subset(train), corpus.subset(test), n_empty, n_held


@dataclass
class CompletionSplit:
    """Observed and scored halves of held-out documents (same document order)."""

    observed: BowCorpus
    scored: BowCorpus
    n_dropped: int  # held-out documents with fewer than 2 tokens (cannot be split)

    @property
    def n_scored_tokens(self) -> int:
        return self.scored.n_tokens


def completion_split(corpus: BowCorpus, seed: int, frac_observed: float = 0.5) -> CompletionSplit:
    """Document completion (Foulds 2014 Sec. 4.7): each document's tokens split at random
    into an observed part (``floor(n * frac_observed)``, clipped to [1, n-1]) and a scored
    part; documents with fewer than 2 tokens are dropped and counted."""
    rng = np.random.default_rng(seed)
    ptr, w = corpus.to_tokens()
    W = corpus.n_vocab
    obs_rows, sc_rows = [], []
    dropped = 0
    for d in range(corpus.n_docs):
        toks = w[ptr[d] : ptr[d + 1]]
        if len(toks) < 2:
            dropped += 1
            continue
        perm = rng.permutation(len(toks))
        n_obs = min(max(1, int(np.floor(len(toks) * frac_observed))), len(toks) - 1)
        obs_rows.append(np.bincount(toks[perm[:n_obs]], minlength=W))
        sc_rows.append(np.bincount(toks[perm[n_obs:]], minlength=W))
    if not obs_rows:
        raise DataError(corpus.metadata.get("source"), "no held-out document has 2+ tokens")
    return CompletionSplit(
        _sparse_rows(obs_rows, corpus.vocab), _sparse_rows(sc_rows, corpus.vocab), dropped
    )


def _sparse_rows(rows, vocab) -> BowCorpus:
    indptr = [0]
    wids, cnts = [], []
    for r in rows:
        nz = np.flatnonzero(r)
        wids.append(nz)
        cnts.append(r[nz])
        indptr.append(indptr[-1] + len(nz))
    return BowCorpus(np.asarray(indptr), np.concatenate(wids), np.concatenate(cnts), list(vocab))
