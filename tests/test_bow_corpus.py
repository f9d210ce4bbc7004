"""BowCorpus: construction, invariants, round trip, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from latentlab.data.corpus import BowCorpus
from latentlab.errors import DataError

dense_counts = st.integers(1, 6).flatmap(
    lambda d: st.integers(1, 8).flatmap(
        lambda w: st.lists(
            st.lists(st.integers(0, 4), min_size=w, max_size=w), min_size=d, max_size=d
        )
    )
)


@settings(max_examples=60, deadline=None)
@given(dense_counts)
def test_dense_roundtrip_and_counts(rows):
    x = np.array(rows)
    c = BowCorpus.from_dense(x).validate()
    assert np.array_equal(c.to_dense(), x)
    assert c.n_tokens == x.sum()
    assert np.array_equal(c.doc_lengths(), x.sum(1))
    assert c.n_empty_docs == int((x.sum(1) == 0).sum())
    ptr, w = c.to_tokens()
    assert len(w) == x.sum() and ptr[-1] == len(w)
    for d in range(x.shape[0]):
        assert np.array_equal(np.bincount(w[ptr[d] : ptr[d + 1]], minlength=x.shape[1]), x[d])


def test_triplets_sum_duplicates_and_any_order():
    c = BowCorpus.from_triplets([1, 0, 1, 1], [2, 0, 2, 0], [1, 3, 2, 5], 3, ["a", "b", "c"])
    assert np.array_equal(c.to_dense(), [[3, 0, 0], [5, 0, 3], [0, 0, 0]])
    assert c.n_empty_docs == 1


def test_save_load_roundtrip(tmp_path):
    c = BowCorpus.from_dense(
        np.array([[1, 0, 2], [0, 0, 0], [4, 1, 0]]),
        ["x", "y", "z"],
        labels=np.array([0, 1, -1]),
        label_names=["p", "q"],
        titles=["t0", "t1", "t2"],
        links=np.array([[0, 2], [2, 1]]),
        metadata={"source": "hand"},
    )
    c.save(tmp_path / "c.npz")
    d = BowCorpus.load(tmp_path / "c.npz")
    assert np.array_equal(d.to_dense(), c.to_dense())
    assert d.vocab == c.vocab and d.titles == c.titles and d.label_names == c.label_names
    assert np.array_equal(d.labels, c.labels) and np.array_equal(d.links, c.links)
    assert d.metadata == {"source": "hand"}
    assert d.content_sha256() == c.content_sha256()
    assert not list(tmp_path.glob("*.tmp*"))


def test_subset_and_drop_empty_follow_side_info():
    c = BowCorpus.from_dense(
        np.array([[1, 0], [0, 0], [2, 3]]),
        labels=np.array([0, 1, 2]),
        titles=["a", "b", "c"],
        links=np.array([[0, 2], [1, 0], [2, 1]]),
    )
    kept, ids = c.drop_empty()
    assert list(ids) == [0, 2]
    assert np.array_equal(kept.to_dense(), [[1, 0], [2, 3]])
    assert list(kept.labels) == [0, 2] and kept.titles == ["a", "c"]
    assert kept.links.tolist() == [[0, 1]]  # links touching the dropped doc are gone


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(doc=[0], word=[5], count=[1]), "word id 5 out of range"),
        (dict(doc=[0], word=[0], count=[-2]), "negative count"),
        (dict(doc=[3], word=[0], count=[1]), "document id out of range"),
    ],
)
def test_bad_triplets_name_the_problem(kwargs, match):
    with pytest.raises(DataError, match=match) as e:
        BowCorpus.from_triplets(n_docs=2, vocab=["a", "b"], source="f.txt", **kwargs)
    assert "f.txt" in str(e.value)


def test_validate_catches_corruption(tmp_path):
    c = BowCorpus.from_dense(np.array([[1, 2], [3, 0]]))
    c.word_ids[0] = 7
    with pytest.raises(DataError, match="out of range"):
        c.validate("x.npz")
    c = BowCorpus.from_dense(np.array([[1, 2], [3, 0]]))
    c.word_ids[:2] = [1, 0]
    with pytest.raises(DataError, match="sorted"):
        c.validate()
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(DataError, match="junk.npz"):
        BowCorpus.load(tmp_path / "junk.npz")
