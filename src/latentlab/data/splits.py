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

* per-class pools (labelled collections: the iwtm study's images and SYN-IWTM): a seeded
  pool of ``train_pool`` items per class read in its seeded order (the first n per class
  train a fit of size n) and the fixed test set of the rest (:func:`pool_split`,
  :func:`pool_train`, :func:`pool_test`); or ``per_train`` + ``per_test`` seeded picks per
  class, optionally from a predefined partition (:func:`per_class_picks`).

All randomness comes from ``numpy.random.default_rng(seed)``: same seed, same bits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from latentlab.data._io import load_npz, save_npz
from latentlab.data.corpus import BowCorpus
from latentlab.data.tokens import HeldOut, TokenCorpus, group_tokens
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
    """Document completion (Foulds 2014 Secs. 4.3.1, 5.1.5): each document's tokens split at
    random into an observed part (``floor(n * frac_observed)``, clipped to [1, n-1]) and a
    scored part; documents with fewer than 2 tokens are dropped and counted."""
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


# =====================================================================================
# Splits of the hdp_pcvb0 study (seed 001): the within-document token split of Sec 6.3
# (training part kept as a shuffled token stream) and the per-node held-out links of
# Sec 6.5 (its 90/10 document hold-out of Sec 6.4 is :func:`heldout_docs`).
# =====================================================================================


@dataclass
class Split:
    train: TokenCorpus
    test: HeldOut
    doc_ids: np.ndarray  # original document id of each kept document
    info: dict = field(default_factory=dict)


def split_within_documents(
    corpus,
    frac: float = 0.8,
    seed: int = 0,
    short_docs: str = "drop",
    oov_rule: str = "drop",
    source: str | None = None,
) -> Split:
    """Within-document token split of a :class:`BowCorpus` (seed 001 Sec 6.3: 80/20).

    Each document's tokens are shuffled with a seeded generator and the first
    ``n_train = clip(round(frac·n_d), 1, n_d − 1)`` go to training, in that shuffled order
    (Python's round: ties to even; Sato et al. 2012, Sec. 6.3, give only "80 %"/"20 %", the
    rounding is ours). Documents with fewer than 2
    tokens cannot give both parts: ``short_docs="drop"`` removes them (counted in
    ``info``), ``"error"`` stops naming the document. Test words never seen among the
    training tokens: ``oov_rule="drop"`` removes those test tokens (counted), ``"keep"``
    keeps them, ``"error"`` stops. Unlike :func:`token_split` (a file-backed split that
    keeps every document in both parts), the training part is a token stream."""
    if not 0 < frac < 1:
        raise ValueError(f"split_within_documents: frac must be in (0, 1), got {frac}")
    if short_docs not in ("drop", "error"):
        raise ValueError(
            f"split_within_documents: short_docs 'drop' or 'error', got {short_docs!r}"
        )
    if oov_rule not in ("drop", "keep", "error"):
        raise ValueError(
            f"split_within_documents: oov_rule 'drop', 'keep' or 'error', got {oov_rule!r}"
        )
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
    return Split(TokenCorpus(tptr, train_w, V), group_tokens(te_d, te_w, V), keep, info)


@dataclass
class LinkTask:
    """Bags of links with held-out query links (Sato et al. 2012, Sec 6.5 protocol)."""

    corpus: BowCorpus  # node j's training bag: its remaining neighbours (count 1 each)
    queries: np.ndarray  # query node ids (degree > min_links)
    positives: list  # per query: held-out neighbours ("relevance")
    negatives: list  # per query: sampled non-neighbours ("non relevance")
    info: dict


def link_task(
    edges: np.ndarray,
    n_nodes: int,
    min_links: int = 20,
    test_frac: float = 0.2,
    seed: int = 0,
    source: str | None = None,
) -> LinkTask:
    """Build the link-prediction task from an undirected edge list.

    * queries: nodes with more than ``min_links`` links ("over 20 links");
    * each query's links are split 80/20 (seeded); its 20% are positives;
    * every held-out link is removed from the training graph in both directions (the
      paper is silent; this avoids leakage through the reverse link);
    * negatives: as many as the query's training links, drawn uniformly from the nodes not
      linked to the query in the full graph, excluding the query itself;
    * nodes left with no training links keep an empty bag (they contribute nothing to
      training; as candidates they are scored by the prior alone).
    """
    e = np.asarray(edges, dtype=np.int64)
    e = e[e[:, 0] != e[:, 1]]
    if len(e) == 0:
        raise DataError(source, "graph has no links")
    rng = np.random.default_rng(seed)
    src = np.concatenate([e[:, 0], e[:, 1]])
    dst = np.concatenate([e[:, 1], e[:, 0]])
    order = np.lexsort((dst, src))
    src, dst = src[order], dst[order]
    ptr = np.concatenate([[0], np.cumsum(np.bincount(src, minlength=n_nodes))])
    deg = np.diff(ptr)
    queries = np.flatnonzero(deg > min_links)
    if len(queries) == 0:
        raise DataError(source, f"no node has more than {min_links} links; no query set")
    held = set()
    positives = []
    for j in queries:
        nb = dst[ptr[j] : ptr[j + 1]].copy()
        rng.shuffle(nb)
        n_test = max(1, int(round(test_frac * len(nb))))
        pos = np.sort(nb[:n_test])
        positives.append(pos)
        for l_ in pos:
            held.add((min(j, l_), max(j, l_)))
    key = np.minimum(src, dst) * n_nodes + np.maximum(src, dst)
    held_keys = np.array(sorted(a * n_nodes + b for a, b in held), dtype=np.int64)
    keep = ~np.isin(key, held_keys)
    tsrc, tdst = src[keep], dst[keep]
    corpus = BowCorpus.from_triplets(
        tsrc, tdst, np.ones(len(tsrc), dtype=np.int64), n_nodes, [str(i) for i in range(n_nodes)]
    )
    tdeg = np.bincount(tsrc, minlength=n_nodes)
    negatives = []
    for j in queries:
        linked = np.zeros(n_nodes, dtype=bool)
        linked[dst[ptr[j] : ptr[j + 1]]] = True
        linked[j] = True
        cand = np.flatnonzero(~linked)
        n_neg = int(tdeg[j])
        if n_neg > len(cand):
            raise DataError(source, f"node {j}: not enough non-neighbours for {n_neg} negatives")
        negatives.append(np.sort(rng.choice(cand, n_neg, replace=False)))
    info = {
        "n_nodes": int(n_nodes),
        "n_links": int(len(e)),
        "n_queries": int(len(queries)),
        "n_held_out_links": int(len(held)),
        "n_isolated_after_holdout": int((tdeg == 0).sum()),
        "min_links_exclusive": int(min_links),
        "test_frac": test_frac,
        "seed": int(seed),
    }
    return LinkTask(corpus, queries, positives, negatives, info)


# =====================================================================================
# Document completion on (word ids, counts) documents (nonconjugate_vi, seed 002 Sec 5.1).
# =====================================================================================
def split_doc_halves(docs: list, seed: int) -> tuple[list, list, np.ndarray]:
    """Document completion split of documents given as (word ids, counts) (Wang & Blei 2013,
    Sec. 5.1, split each test document "in two halves" without a rule; ours): expand
    tokens, permute with one seeded generator over the documents in order, first
    floor(N/2) observed, rest evaluated. Documents with N < 2 are skipped; the
    returned index array lists the kept documents."""
    rng = np.random.default_rng(seed)
    obs, held, kept = [], [], []
    for i, (ids, cnt) in enumerate(docs):
        toks = np.repeat(ids, cnt.astype(np.int64))
        if len(toks) < 2:
            continue
        toks = toks[rng.permutation(len(toks))]
        h = len(toks) // 2
        a, b = np.unique(toks[:h], return_counts=True), np.unique(toks[h:], return_counts=True)
        obs.append((a[0], a[1].astype(float)))
        held.append((b[0], b[1].astype(float)))
        kept.append(i)
    return obs, held, np.asarray(kept)


# ------------------------------------------------------------------ per-class pools
# A labelled collection (images, feature sets) split by class: a seeded training pool of
# ``train_pool`` items per class, read in its seeded order (the first n per class train a
# fit of size n), and a fixed test set of the rest. ``key`` names the caller's setting in
# an error.
def pool_split(labels: np.ndarray, train_pool: int, seed: int, key: str = "train_pool"):
    """rank[d] = position of item d in its class's seeded pool order, or -1 for the fixed
    test set (every item outside the ``train_pool``-per-class pool). Classes in sorted
    order draw from one generator ``default_rng(seed)``."""
    from latentlab.errors import ConfigError

    rng = np.random.default_rng(seed)
    rank = np.full(len(labels), -1, np.int64)
    for c in np.unique(labels):
        ids = np.where(labels == c)[0]
        if len(ids) <= train_pool:
            raise ConfigError(
                key, f"class {c} has {len(ids)} documents, not more than the pool {train_pool}"
            )
        perm = rng.permutation(ids)[:train_pool]
        rank[perm] = np.arange(train_pool)
    return rank


def pool_train(rank: np.ndarray, n: int) -> np.ndarray:
    """Sorted ids of the first ``n`` pool items of every class."""
    return np.where((rank >= 0) & (rank < n))[0]


def pool_test(rank: np.ndarray, labels: np.ndarray, per_class: int | None, seed: int):
    """The fixed test set (rank -1), or a seeded ``per_class`` of it from every class
    (sorted ids; a class with fewer test items keeps them all)."""
    test = np.where(rank < 0)[0]
    if per_class is None:
        return test
    rng = np.random.default_rng(seed)
    keep = [rng.permutation(test[labels[test] == c])[:per_class] for c in np.unique(labels)]
    return np.sort(np.concatenate(keep))


def per_class_picks(entries, per_train, per_test, rng, train_from=None, test_from=None,
                    key: str = "per_class"):  # fmt: skip
    """Per class (sorted names): ``per_train`` training and ``per_test`` test items drawn
    with ``rng`` (a ``numpy.random.Generator``, shared across classes in that order).
    ``entries``: (class, item) pairs; ``train_from`` / ``test_from``: {class: [item]} of
    a predefined partition (else both come from ``entries``; a test item is never a
    training pick). Returns (classes, [(class index, item, 0 train | 1 test)])."""
    from latentlab.errors import ConfigError

    out = []
    classes = sorted({c for c, _ in entries})
    for ci, c in enumerate(classes):
        tr = train_from[c] if train_from else [r for cc, r in entries if cc == c]
        te = test_from[c] if test_from else tr
        tr = [tr[i] for i in rng.permutation(len(tr))]
        pick_tr = tr[:per_train]
        te = [r for r in te if r not in set(pick_tr)]
        te = [te[i] for i in rng.permutation(len(te))][:per_test]
        if len(pick_tr) < per_train or len(te) < per_test:
            raise ConfigError(key, f"class {c} has too few images for "
                              f"{per_train} + {per_test}")  # fmt: skip
        out += [(ci, r, 0) for r in pick_tr] + [(ci, r, 1) for r in te]
    return classes, out
