"""Study iwtm: settings parse, the dense SIFT grid, the pool split, HIK, claims tolerance
changes leave the fit jobs alone."""

from __future__ import annotations

import numpy as np
import pytest

from latentlab.data.parsers.scene15 import dense_sift
from latentlab.errors import ConfigError, DataError
from latentlab.studies.iwtm import pipeline as P
from latentlab.studies.shape import load_study


def test_config_sections_parse():
    import yaml

    st = load_study("iwtm")
    for f in ("config/config.yaml", "config/real.yaml", "config/paper.yaml"):
        st.check_config(yaml.safe_load(open(f))["iwtm"])
    with pytest.raises(ConfigError, match=r"iwtm\.cavi\.CC"):
        st.check_config({"cavi": {"CC": 1}})


def test_dense_sift_grid_and_small_image():
    img = np.random.default_rng(0).random((64, 96))
    d, pos = dense_sift(img, step=10, patch=16)
    assert d.shape == (len(np.arange(8, 57, 10)) * len(np.arange(8, 89, 10)), 128)
    assert pos[:, 0].min() == 8 and pos[:, 1].max() <= 56
    with pytest.raises(DataError, match="smaller than one"):
        dense_sift(np.zeros((10, 10)), 10, 16)


def test_pool_split_and_errors():
    y = np.repeat([0, 1], 10)
    r = P.pool_split(y, 4, seed=1)
    assert ((r >= 0) & (y == 0)).sum() == 4 and (r < 0).sum() == 12
    assert set(P.train_ids(r, 2)) <= set(np.where(r >= 0)[0]) and len(P.train_ids(r, 2)) == 4
    np.testing.assert_array_equal(r, P.pool_split(y, 4, seed=1))
    with pytest.raises(ConfigError, match="train_pool"):
        P.pool_split(y, 10, seed=1)


def test_hik_is_sum_of_minima():
    A = np.array([[0.2, 0.8], [0.5, 0.5]])
    K = P.hik(A, A)
    assert K[0, 1] == pytest.approx(0.7) and np.allclose(np.diag(K), 1.0)


def test_claims_tolerance_only_reruns_claims(tmp_path):
    st = load_study("iwtm")
    assert "claims" not in st.config_keys("ch4") and "claims" not in st.config_keys("ch5")
    assert st.config_keys("claims") == ["datasets", "claims"]


def test_desc_per_doc_subsample_is_a_seeded_subset(tmp_path):
    import json

    from latentlab.studies.iwtm.runs import _load

    X = np.arange(20, dtype=np.float32)[:, None] * np.ones((1, 3), np.float32)
    ip = np.array([0, 2, 9, 20])
    np.savez(tmp_path / "d.npz", X=X, indptr=ip, labels=np.zeros(3, int), rank=-np.ones(3, int))
    (tmp_path / "d.json").write_text(json.dumps({"dataset": "d"}))
    z, _ = _load(tmp_path / "d.npz", 4, seed=3)
    np.testing.assert_array_equal(z["indptr"], [0, 2, 6, 10])
    rows = z["X"][:, 0].astype(int)
    for d in range(3):  # each document keeps only its own rows, in order, without repeats
        r = rows[z["indptr"][d] : z["indptr"][d + 1]]
        assert np.all((r >= ip[d]) & (r < ip[d + 1])) and np.all(np.diff(r) > 0)
    np.testing.assert_array_equal(z["X"], _load(tmp_path / "d.npz", 4, seed=3)[0]["X"])
    with pytest.raises(ConfigError, match="desc_per_doc"):
        _load(tmp_path / "d.npz", 0)
