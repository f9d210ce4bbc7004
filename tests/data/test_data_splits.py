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


# ------------------------------------------------------------------ per-class pools
# The exact arrays below are those of the iwtm study's own split code before it moved here
# (studies/iwtm/pipeline.py and sun.py at 547c665): the move keeps every split bit for bit.
POOL_Y = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1])


def test_pool_split_exact_small_case():
    from latentlab.data.splits import pool_split, pool_test, pool_train

    r = pool_split(POOL_Y, 2, seed=5)
    assert r.tolist() == [-1, -1, 0, -1, 0, -1, -1, -1, -1, 1, -1, 1, 0, 1]
    assert pool_train(r, 1).tolist() == [2, 4, 12]
    assert pool_test(r, POOL_Y, 1, seed=3).tolist() == [1, 6, 8]


def test_pool_split_counts_determinism_disjointness():
    from latentlab.data.splits import pool_split, pool_test, pool_train

    y = np.repeat([0, 1, 2], [10, 7, 12])
    r = pool_split(y, 4, seed=1)
    # per class: ranks 0..3 exactly once in the pool, the rest test
    for c in range(3):
        assert sorted(r[y == c][r[y == c] >= 0].tolist()) == [0, 1, 2, 3]
    assert np.bincount(y[r < 0]).tolist() == [6, 3, 8]
    np.testing.assert_array_equal(r, pool_split(y, 4, seed=1))
    assert not np.array_equal(r, pool_split(y, 4, seed=2))
    for n in (1, 2, 4):
        tr = pool_train(r, n)
        assert np.bincount(y[tr]).tolist() == [n] * 3 and np.all(np.diff(tr) > 0)
        assert set(pool_train(r, n - 1)) <= set(tr)  # nested: the first n of a fixed order
        assert not set(tr) & set(pool_test(r, y, None, seed=0))
    t = pool_test(r, y, 3, seed=2)
    assert np.all(r[t] < 0) and np.bincount(y[t]).tolist() == [3, 3, 3]
    np.testing.assert_array_equal(t, pool_test(r, y, 3, seed=2))
    np.testing.assert_array_equal(pool_test(r, y, None, seed=2), np.where(r < 0)[0])
    assert np.bincount(y[pool_test(r, y, 100, seed=2)]).tolist() == [6, 3, 8]  # all there is


def test_pool_split_refuses_a_class_no_larger_than_the_pool():
    from latentlab.data.splits import pool_split
    from latentlab.errors import ConfigError

    with pytest.raises(ConfigError, match="iwtm.x.train_pool") as e:
        pool_split(np.repeat([0, 1], [10, 4]), 4, seed=1, key="iwtm.x.train_pool")
    assert "class 1 has 4 documents" in str(e.value)


def test_per_class_picks_exact_small_case():
    from latentlab.data.splits import per_class_picks
    from latentlab.errors import ConfigError

    e = [("b", f"b{i}") for i in range(4)] + [("a", f"a{i}") for i in range(3)]
    classes, pick = per_class_picks(e, 1, 2, np.random.default_rng(4))
    assert classes == ["a", "b"]
    assert pick == [(0, "a0", 0), (0, "a1", 1), (0, "a2", 1),
                    (1, "b1", 0), (1, "b0", 1), (1, "b2", 1)]  # fmt: skip
    for c in (0, 1):  # disjoint, per_train + per_test per class
        tr = {r for ci, r, t in pick if ci == c and t == 0}
        te = {r for ci, r, t in pick if ci == c and t == 1}
        assert len(tr) == 1 and len(te) == 2 and not tr & te
    assert pick == per_class_picks(e, 1, 2, np.random.default_rng(4))[1]
    # a predefined partition: train from train_from, test from test_from
    train_from = {"a": ["a0", "a1"], "b": ["b0", "b1"]}
    test_from = {"a": ["a1", "a2"], "b": ["b2", "b3"]}
    _, pick = per_class_picks(e, 1, 1, np.random.default_rng(4), train_from, test_from)
    assert pick == [(0, "a1", 0), (0, "a2", 1), (1, "b0", 0), (1, "b2", 1)]
    with pytest.raises(ConfigError, match="iwtm.sun_data"):
        per_class_picks(e, 2, 2, np.random.default_rng(0), key="iwtm.sun_data")
