"""Canonical types: save/load round trips and validation."""

from __future__ import annotations

import numpy as np
import pytest

from latentlab.data.featureset import FeatureSet
from latentlab.data.graph import StaticGraph, TemporalGraph
from latentlab.data.prepare import load_dataset
from latentlab.data.tasks import TaskDataset
from latentlab.errors import DataError


def _fs():
    rng = np.random.default_rng(1)
    return FeatureSet(
        [0, 2, 5, 5],
        rng.random((5, 3)),
        [0, 1, 1],
        ["a", "b"],
        names=["x.jpg", "y.jpg", "z.jpg"],
        positions=rng.random((5, 2)),
        split=[0, 1, -1],
        metadata={"source": "toy"},
    )


def _tg():
    return TemporalGraph(
        3,
        senders=[0, 2],
        times=[10, 20],
        recv_ptr=[0, 2, 3],
        receivers=[1, 2, 0],
        actor_attrs={"name": ["a", "b", "c"]},
        event_ids=[7, 8],
        metadata={"source": "toy"},
    )


def _sg():
    return StaticGraph(3, [[0, 1], [1, 1], [1, 2]], node_ids=[10, 20, 30])


def _tasks():
    rng = np.random.default_rng(2)
    return TaskDataset(
        rng.normal(size=(6, 2)),
        rng.normal(size=6),
        layout="multitask",
        target="regression",
        task_ids=[0, 0, 1, 1, 1, 2],
        task_names=["s1", "s2", "s3"],
    )


@pytest.mark.parametrize("make", [_fs, _tg, _sg, _tasks])
def test_round_trip(tmp_path, make):
    obj = make().validate()
    path = tmp_path / "dataset.npz"
    obj.save(path)
    back = load_dataset(path)
    assert type(back) is type(obj)
    assert back.content_sha256() == obj.content_sha256()
    assert back.summary() == obj.summary()
    assert not list(tmp_path.glob("*.tmp*"))


def test_featureset_fields(tmp_path):
    fs = _fs()
    fs.save(tmp_path / "f.npz")
    back = FeatureSet.load(tmp_path / "f.npz")
    np.testing.assert_array_equal(back.positions, fs.positions)
    assert back.names == fs.names and back.split.tolist() == [0, 1, -1]
    assert back.doc(1).shape == (3, 3) and back.doc(2).shape == (0, 3)
    sub = fs.subset([2, 0])
    assert sub.counts_per_doc().tolist() == [0, 2] and sub.labels.tolist() == [1, 0]


def test_load_wrong_format(tmp_path):
    _sg().save(tmp_path / "g.npz")
    with pytest.raises(DataError, match="expected format"):
        FeatureSet.load(tmp_path / "g.npz")
    (tmp_path / "bad.npz").write_bytes(b"garbage")
    with pytest.raises(DataError, match="cannot read"):
        TaskDataset.load(tmp_path / "bad.npz")


def test_validation_errors():
    fs = _fs()
    fs.labels[0] = 5
    with pytest.raises(DataError, match="outside class_names"):
        fs.validate()
    tg = _tg()
    tg.receivers[0] = 3
    with pytest.raises(DataError, match="receiver id out of range"):
        tg.validate()
    tg = _tg()
    tg.times = np.array([30, 20])
    with pytest.raises(DataError, match="not sorted"):
        tg.validate()
    with pytest.raises(DataError, match="u <= v"):
        StaticGraph(3, [[1, 0]]).validate()
    with pytest.raises(DataError, match="sorted and unique"):
        StaticGraph(3, [[0, 1], [0, 1]]).validate()
    with pytest.raises(DataError, match="0/1"):
        TaskDataset(np.zeros((2, 1)), [[0.5], [1]], "multilabel", "binary").validate()
    with pytest.raises(DataError, match="one task id per row"):
        TaskDataset(np.zeros((2, 1)), [1.0, 2.0], "multitask", "regression").validate()


def test_temporal_edges_and_tasks_problems():
    e = _tg().edges()
    np.testing.assert_array_equal(e, [[0, 1, 10], [0, 2, 10], [2, 0, 20]])
    probs = list(_tasks().problems())
    assert [p[0] for p in probs] == ["s1", "s2", "s3"]
    assert [len(p[2]) for p in probs] == [2, 3, 1]
    assert _tasks().summary()["n_tasks"] == 3


def test_select_classes():
    fs = _fs()
    sub = fs.select_classes(["b"])
    assert sub.n_docs == 2 and sub.labels.tolist() == [0, 0] and sub.class_names == ["b"]
    with pytest.raises(DataError, match="no classes"):
        fs.select_classes(["zzz"])
