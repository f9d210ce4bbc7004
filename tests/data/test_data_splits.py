"""Splits: sizes, determinism, disjointness, the empty-document rule."""

from __future__ import annotations

import numpy as np
import pytest

from latentlab.data.corpus import BowCorpus
from latentlab.data.splits import (
    doc_split,
    load_split,
    load_token_split,
    make_split,
    n_train_of,
    task_splits,
    token_split,
)
from latentlab.data.tasks import TaskDataset
from latentlab.errors import DataError


def _corpus(seed=0, D=40, V=30):
    rng = np.random.default_rng(seed)
    counts = rng.poisson(0.6, size=(D, V))
    counts[3] = 0  # an empty document
    counts[4] = 0
    counts[4, 7] = 1  # a one-token document
    return BowCorpus.from_dense(counts)


def test_n_train_rule():
    n = np.array([0, 1, 2, 3, 4, 5, 10, 11])
    np.testing.assert_array_equal(n_train_of(n, 80), [0, 1, 1, 2, 3, 4, 8, 9])
    np.testing.assert_array_equal(n_train_of(n, 50), [0, 1, 1, 1, 2, 2, 5, 5])


@pytest.mark.parametrize("pct", [80, 50])
def test_token_split_partitions_each_document(pct):
    c = _corpus()
    tr, te = token_split(c, pct, seed=7)
    assert tr.n_docs == te.n_docs == c.n_docs
    np.testing.assert_array_equal(tr.to_dense() + te.to_dense(), c.to_dense())
    lens = c.doc_lengths()
    np.testing.assert_array_equal(tr.doc_lengths(), n_train_of(lens, pct))
    assert tr.doc_lengths()[3] == te.doc_lengths()[3] == 0  # empty stays empty
    assert tr.doc_lengths()[4] == 1 and te.doc_lengths()[4] == 0  # 1 token -> train
    tr2, te2 = token_split(c, pct, seed=7)
    assert tr2.content_sha256() == tr.content_sha256()
    tr3, _ = token_split(c, pct, seed=8)
    assert tr3.content_sha256() != tr.content_sha256()


def test_doc_split():
    tr, te = doc_split(101, 90, seed=3)
    assert len(tr) == 91 and len(te) == 10
    assert not set(tr) & set(te) and set(tr) | set(te) == set(range(101))
    tr2, _ = doc_split(101, 90, seed=3)
    np.testing.assert_array_equal(tr, tr2)
    with pytest.raises(DataError, match="1..99"):
        doc_split(10, 100, 0)


def test_task_splits_per_task():
    groups = np.repeat([0, 1, 2], [8, 4, 1])
    m = task_splits(groups, 75, seed=5, repeats=3)
    assert m.shape == (3, 13)
    for r in range(3):
        assert m[r, groups == 0].sum() == 6 and m[r, groups == 1].sum() == 3
        assert m[r, groups == 2].sum() == 1
        again = task_splits(groups, 75, seed=5 + r, repeats=1)[0]
        np.testing.assert_array_equal(m[r], again)  # repetition r uses seed + r
    assert not np.array_equal(m[0], m[1])


def test_split_files(tmp_path):
    c = _corpus()
    c.save(tmp_path / "dataset.npz")
    info = make_split(tmp_path / "dataset.npz", "tokens", 80, 11, tmp_path / "s.npz")
    assert info["n_train_tokens"] + info["n_test_tokens"] == c.n_tokens
    tr, te = load_token_split(tmp_path / "s.npz", c)
    np.testing.assert_array_equal(tr.to_dense() + te.to_dense(), c.to_dense())
    make_split(tmp_path / "dataset.npz", "docs", 80, 11, tmp_path / "d.npz")
    a, info = load_split(tmp_path / "d.npz")
    assert info["kind"] == "docs" and len(a["train_ids"]) == 32
    with pytest.raises(DataError, match="task dataset"):
        make_split(tmp_path / "dataset.npz", "tasks", 75, 1, tmp_path / "t.npz")
    t = TaskDataset(np.zeros((8, 2)), np.zeros((8, 3)), "multilabel", "binary")
    t.save(tmp_path / "tasks.npz")
    info = make_split(tmp_path / "tasks.npz", "tasks", 75, 1, tmp_path / "t.npz", repeats=2)
    assert info["n_train"] == [6, 6] and info["seeds"] == [1, 2]
