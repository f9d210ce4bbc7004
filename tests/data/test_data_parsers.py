"""Parsers on small hand-made files, and every malformed case named in the issue."""

from __future__ import annotations

import gzip

import numpy as np
import pytest
import rdata
import scipy.io
from datahelpers import truncate, write_uci

from latentlab.errors import DataError

# ------------------------------------------------------------------------------- UCI


def test_uci_parses(uci_files):
    from latentlab.data.parsers.uci import parse_uci

    c = parse_uci(*uci_files)
    assert (c.n_docs, c.n_vocab, c.nnz, c.n_tokens) == (3, 4, 5, 11)
    np.testing.assert_array_equal(c.to_dense(), [[2, 0, 1, 0], [0, 4, 0, 0], [1, 0, 0, 3]])
    assert c.vocab[3] == "date"


def test_uci_plain_text_and_empty_doc(tmp_path):
    from latentlab.data.parsers.uci import parse_uci

    dw, vf = write_uci(tmp_path, header=(4, 4, 2), body=["1 1 1", "3 2 2"], gz=False)
    c = parse_uci(dw, vf)
    assert c.n_docs == 4 and c.n_empty_docs == 2


@pytest.mark.parametrize(
    "header,body,match",
    [
        ((3, 4, 6), None, "NNZ = 6 but the body has 5"),
        ((2, 4, 5), None, "document id 3 out of range 1..2"),
        ((3, 3, 5), None, "word id 4 out of range 1..3"),
        ((3, 4, 5), ["1 1 2", "1 3 -1", "2 2 4", "3 1 1", "3 4 3"], "negative count -1"),
        ((3, 4, 5), ["1 1 2", "1 3 0", "2 2 4", "3 1 1", "3 4 3"], "zero count"),
        ((3, 4, 5), ["1 1 2", "1 x 1", "2 2 4", "3 1 1", "3 4 3"], "malformed"),
        ((3, 4, 5), ["1 1 2", "1 1 1", "2 2 4", "3 1 1", "3 4 3"], "duplicate"),
    ],
)
def test_uci_malformed(tmp_path, header, body, match):
    from latentlab.data.parsers.uci import parse_uci

    dw, vf = write_uci(tmp_path, header=header, body=body)
    with pytest.raises(DataError, match=match) as e:
        parse_uci(dw, vf)
    assert str(dw) in str(e.value)


def test_uci_vocab_disagrees_with_header(tmp_path):
    from latentlab.data.parsers.uci import parse_uci

    dw, vf = write_uci(tmp_path, vocab=["a", "b", "c"])
    with pytest.raises(DataError, match="3 vocabulary lines but .* W = 4") as e:
        parse_uci(dw, vf)
    assert str(vf) in str(e.value)


def test_uci_truncated_gzip(tmp_path):
    from latentlab.data.parsers.uci import parse_uci

    body = [f"{d} {w} 1" for d in range(1, 200) for w in range(1, 4)]
    dw, vf = write_uci(tmp_path, header=(199, 4, len(body)), body=body)
    truncate(dw, 0.6)
    with pytest.raises(DataError, match="truncated or corrupt gzip") as e:
        parse_uci(dw, vf)
    assert str(dw) in str(e.value)


def test_uci_missing_header(tmp_path):
    from latentlab.data.parsers.uci import parse_uci

    dw = tmp_path / "docword.x.txt"
    dw.write_text("3\n4\n")
    (tmp_path / "vocab.x.txt").write_text("a\n")
    with pytest.raises(DataError, match="header"):
        parse_uci(dw, tmp_path / "vocab.x.txt")


# ------------------------------------------------------------------------------- R data


def _lda_docs(tmp_path, docs, vocab, name="cora"):
    d, v = tmp_path / f"{name}.documents.rda", tmp_path / f"{name}.vocab.rda"
    rdata.write_rda(d, {f"{name}.documents": [np.asarray(x, dtype=np.int32) for x in docs]})
    rdata.write_rda(v, {f"{name}.vocab": np.array(vocab)})
    return d, v


def _cora(tmp_path, docs=None, cites=None, titles=None):
    docs = docs if docs is not None else [[[0, 2], [3, 1]], [[1], [5]], [[0, 1], [1, 1]]]
    d, v = _lda_docs(tmp_path, docs, ["a", "b", "c"])
    c, t = tmp_path / "cora.cites.rda", tmp_path / "cora.titles.rda"
    cites = cites if cites is not None else [[1, 2], [], [0]]
    rdata.write_rda(c, {"cora.cites": [np.array(x, dtype=np.int32) for x in cites]})
    rdata.write_rda(t, {"cora.titles": np.array(titles or ["t0", "t1", "t2"])})
    return d, v, c, t


def test_cora_parses(tmp_path):
    from latentlab.data.parsers.rda import parse_cora

    c = parse_cora(*_cora(tmp_path))
    assert (c.n_docs, c.n_vocab, c.n_tokens) == (3, 3, 11)
    np.testing.assert_array_equal(c.links, [[0, 1], [0, 2], [2, 0]])
    assert c.titles == ["t0", "t1", "t2"]


def test_cora_word_id_out_of_range(tmp_path):
    from latentlab.data.parsers.rda import parse_cora

    files = _cora(tmp_path, docs=[[[0, 3], [1, 1]], [[1], [5]], [[0], [1]]])
    with pytest.raises(DataError, match="word id 3 out of range") as e:
        parse_cora(*files)
    assert "cora.documents.rda" in str(e.value)


def test_cora_negative_count_and_bad_cite(tmp_path):
    from latentlab.data.parsers.rda import parse_cora

    with pytest.raises(DataError, match="negative count"):
        parse_cora(*_cora(tmp_path, docs=[[[0], [-2]], [[1], [5]], [[0], [1]]]))
    with pytest.raises(DataError, match="out of range") as e:
        parse_cora(*_cora(tmp_path, cites=[[7], [], []]))
    assert "cora.cites.rda" in str(e.value)


def test_rda_corrupt_file(tmp_path):
    from latentlab.data.parsers.rda import parse_cora

    files = _cora(tmp_path)
    truncate(files[0], 0.5)
    with pytest.raises(DataError, match="truncated or corrupt") as e:
        parse_cora(*files)
    assert "cora.documents.rda" in str(e.value)


def _ap(tmp_path, i=(1, 2, 2), j=(1, 3, 1), v=(2.0, 1.0, 4.0), nrow=2, terms=("x", "y", "z")):
    p = tmp_path / "AssociatedPress.rda"
    obj = {
        "i": np.array(i, dtype=np.int32),
        "j": np.array(j, dtype=np.int32),
        "v": np.array(v),
        "nrow": np.array([nrow], dtype=np.int32),
        "ncol": np.array([len(terms)], dtype=np.int32),
        "dimnames": {"Docs": None, "Terms": np.array(terms)},
    }
    rdata.write_rda(p, {"AssociatedPress": obj})
    return p


def test_ap_parses_and_checks(tmp_path):
    from latentlab.data.parsers.rda import parse_ap

    c = parse_ap(_ap(tmp_path))
    np.testing.assert_array_equal(c.to_dense(), [[2, 0, 0], [4, 0, 1]])
    with pytest.raises(DataError, match="document id 3 out of range 1..2"):
        parse_ap(_ap(tmp_path, i=(1, 3, 2)))
    with pytest.raises(DataError, match="negative count"):
        parse_ap(_ap(tmp_path, v=(2.0, -1.0, 4.0)))
    with pytest.raises(DataError, match="non-integer"):
        parse_ap(_ap(tmp_path, v=(2.5, 1.0, 4.0)))


def test_newsgroups_train_then_test(tmp_path):
    import pandas as pd

    from latentlab.data.parsers.rda import parse_newsgroups

    vocab = ["a", "b", "c", "d"]
    tr = tmp_path / "newsgroup.train.documents.rda"
    te = tmp_path / "newsgroup.test.documents.rda"
    rdata.write_rda(tr, {"newsgroup.train.documents": [np.array([[0, 1], [1, 2]], np.int32)] * 2})
    rdata.write_rda(te, {"newsgroup.test.documents": [np.array([[3], [4]], np.int32)]})
    trl, tel = tmp_path / "trl.rda", tmp_path / "tel.rda"
    rdata.write_rda(trl, {"newsgroup.train.labels": np.array([2, 1], np.int32)})
    rdata.write_rda(tel, {"newsgroup.test.labels": np.array([2], np.int32)})
    v = tmp_path / "newsgroup.vocab.rda"
    rdata.write_rda(v, {"newsgroup.vocab": np.array(vocab)})
    lm = tmp_path / "newsgroup.label.map.rda"
    df = pd.DataFrame({"V1": ["beta", "alpha"], "V2": np.array([2, 1], np.int32)})
    rdata.write_rda(lm, {"newsgroup.label.map": df})
    c = parse_newsgroups(tr, te, trl, tel, v, lm)
    assert c.n_docs == 3 and c.label_names == ["alpha", "beta"]
    np.testing.assert_array_equal(c.labels, [1, 0, 1])
    train, test = c.predefined_split()
    np.testing.assert_array_equal(train, [0, 1])
    np.testing.assert_array_equal(test, [2])
    rdata.write_rda(tel, {"newsgroup.test.labels": np.array([2, 2], np.int32)})
    with pytest.raises(DataError, match="2 labels for 1 documents"):
        parse_newsgroups(tr, te, trl, tel, v, lm)


# ------------------------------------------------------------------------------- ARFF

ARFF = """@relation toy
% a comment
@attribute f1 numeric
@attribute f2 numeric
@attribute L1 {0,1}
@attribute L2 {0,1}
@data
0.5,1.5,1,0
-1,2,0,1
{0 3.0,3 1}
"""


def test_mulan_parses(tmp_path):
    from latentlab.data.parsers.arff import parse_mulan

    a, b = tmp_path / "toy-train.arff", tmp_path / "toy-test.arff"
    a.write_text(ARFF)
    b.write_text(ARFF.split("@data")[0] + "@data\n1,1,1,1\n")
    t = parse_mulan(a, b, n_labels=2)
    assert (t.n_rows, t.n_features, t.n_labels, t.n_tasks) == (4, 2, 2, 2)
    np.testing.assert_array_equal(t.X[2], [3.0, 0.0])
    np.testing.assert_array_equal(t.Y[:, 1], [0, 1, 1, 1])
    np.testing.assert_array_equal(t.split, [0, 0, 0, 1])
    names = [n for n, *_ in t.problems()]
    assert names == ["L1", "L2"]


@pytest.mark.parametrize(
    "data,match",
    [
        ("0.5,1.5,1\n", "3 values but the header declares 4"),
        ("0.5,1.5,2,0\n", "not among the nominal values"),
        ("0.5,abc,1,0\n", "not numeric"),
        ("{9 1}\n", "attribute index 9 out of range"),
    ],
)
def test_arff_malformed(tmp_path, data, match):
    from latentlab.data.parsers.arff import read_arff

    p = tmp_path / "bad.arff"
    p.write_text(ARFF.split("@data")[0] + "@data\n" + data)
    with pytest.raises(DataError, match=match) as e:
        read_arff(p)
    assert str(p) in str(e.value)


def test_mulan_label_not_binary(tmp_path):
    from latentlab.data.parsers.arff import parse_mulan

    a = tmp_path / "a.arff"
    a.write_text(ARFF)
    with pytest.raises(DataError, match="not nominal"):
        parse_mulan(a, a, n_labels=3)


# ------------------------------------------------------------------------------- School


def _school(tmp_path, sizes=(3, 2), p=4, ymis=0):
    rng = np.random.default_rng(0)
    X = np.empty((1, len(sizes)), dtype=object)
    Y = np.empty((1, len(sizes)), dtype=object)
    for t, n in enumerate(sizes):
        X[0, t] = rng.integers(0, 3, size=(n, p)).astype(float)
        Y[0, t] = rng.normal(size=(n + (ymis if t == 0 else 0), 1))
    path = tmp_path / "school.mat"
    scipy.io.savemat(path, {"X": X, "Y": Y})
    return path


def test_school_parses(tmp_path):
    from latentlab.data.parsers.school import parse_school

    t = parse_school(_school(tmp_path))
    assert (t.n_rows, t.n_tasks, t.n_features, t.n_labels) == (5, 2, 4, 1)
    np.testing.assert_array_equal(t.task_ids, [0, 0, 0, 1, 1])
    assert [len(y) for _, _, y, _ in t.problems()] == [3, 2]


def test_school_rows_disagree(tmp_path):
    from latentlab.data.parsers.school import parse_school

    with pytest.raises(DataError, match="school 1: X is"):
        parse_school(_school(tmp_path, ymis=1))
    p = tmp_path / "junk.mat"
    p.write_bytes(b"not a mat file" * 10)
    with pytest.raises(DataError, match="cannot read MATLAB"):
        parse_school(p)


# ------------------------------------------------------------------------------- Enron


def _enron(tmp_path, messages=None, recipients=None):
    e, m, r = tmp_path / "employees.txt", tmp_path / "messages.tsv", tmp_path / "recipients.tsv"
    e.write_text(
        "1\tAnn A\tLegal\tG1\tVP\tFemale\tSenior\n2\tBob B\tTrading\tG2\tMgr\tMale\tJunior\n"
        "3\tCy C\tTrading\tG2\tEmployee\tMale\tJunior\n"
    )
    m.write_text(messages or "10\ta/1\t300\tHi\t1\n11\tb/2\t100\tRe: x\t2\n12\tc/3\t200\tYo\t3\n")
    r.write_text(recipients or "10\t1\t2\n10\t2\t3\n11\t1\t1\n12\t1\t1\n")
    return e, m, r


def test_enron_parses(tmp_path):
    from latentlab.data.parsers.enron import parse_enron_email

    g = parse_enron_email(*_enron(tmp_path))
    assert (g.n_actors, g.n_events, len(g.receivers)) == (3, 3, 4)
    np.testing.assert_array_equal(g.times, [100, 200, 300])  # sorted by time
    np.testing.assert_array_equal(g.senders, [1, 2, 0])
    np.testing.assert_array_equal(g.event_receivers(2), [1, 2])  # multiple receivers
    assert g.actor_attrs["department"] == ["Legal", "Trading", "Trading"]
    s = g.summary()
    assert s["time_span"][0].startswith("1970-01-01")


@pytest.mark.parametrize(
    "messages,recipients,match",
    [
        ("10\ta/1\t300\tHi\t4\n", "10\t1\t2\n", "sender id 4 out of range 1..3"),
        ("10\ta/1\t300\tHi\t1\n", "10\t1\t9\n", "receiver id 9 out of range"),
        ("10\ta/1\t300\tHi\t1\n", "99\t1\t2\n", "message id 99 not in"),
        ("10\ta/1\tnoon\tHi\t1\n", "10\t1\t2\n", "time 'noon' is not an integer"),
    ],
)
def test_enron_malformed(tmp_path, messages, recipients, match):
    from latentlab.data.parsers.enron import parse_enron_email

    with pytest.raises(DataError, match=match):
        parse_enron_email(*_enron(tmp_path, messages, recipients))


# ------------------------------------------------------------------------------- SNAP


def _snap(tmp_path, lines, nodes, edges):
    p = tmp_path / "g.txt.gz"
    text = f"# Undirected graph\n# Nodes: {nodes} Edges: {edges}\n# FromNodeId\tToNodeId\n"
    with gzip.open(p, "wt") as f:
        f.write(text + "".join(f"{a}\t{b}\n" for a, b in lines))
    return p


def test_snap_parses(tmp_path):
    from latentlab.data.parsers.snap import parse_snap

    lines = [(5, 9), (9, 5), (9, 12), (12, 9), (7, 7)]
    g = parse_snap(_snap(tmp_path, lines, 4, 5))
    assert (g.n_nodes, g.n_edges, g.n_self_loops) == (4, 3, 1)
    np.testing.assert_array_equal(g.source_edges(), [[5, 9], [7, 7], [9, 12]])
    # line order does not change the content hash
    g2 = parse_snap(_snap(tmp_path, lines[::-1], 4, 5))
    assert g.content_sha256() == g2.content_sha256()


def test_snap_header_disagrees(tmp_path):
    from latentlab.data.parsers.snap import parse_snap

    with pytest.raises(DataError, match="Edges: 6 but the body has 2 lines"):
        parse_snap(_snap(tmp_path, [(1, 2), (2, 1)], 2, 6))
    with pytest.raises(DataError, match="Nodes: 3 but the body has 2"):
        parse_snap(_snap(tmp_path, [(1, 2), (2, 1)], 3, 2))


def test_snap_truncated(tmp_path):
    from latentlab.data.parsers.snap import parse_snap

    p = _snap(tmp_path, [(i, i + 1) for i in range(3000)], 3001, 3000)
    truncate(p, 0.5)
    with pytest.raises(DataError, match="truncated or corrupt gzip") as e:
        parse_snap(p)
    assert str(p) in str(e.value)


# ------------------------------------------------------------------------------- images


def _images(tmp_path, n_per_class=2):
    from PIL import Image

    rng = np.random.default_rng(0)
    root = tmp_path / "scene15"
    lines = []
    for part in ("train", "test"):
        for cls in ("Coast", "Forest"):
            d = root / part / cls
            d.mkdir(parents=True)
            for i in range(n_per_class):
                p = d / f"image_{i:04d}.jpg"
                arr = (rng.random((40, 56)) * 255).astype(np.uint8)
                Image.fromarray(arr, mode="L").save(p, quality=90)
                lines.append(f"{_sha(p)}  {part}/{cls}/{p.name}")
    (root / "MANIFEST.sha256").write_text("\n".join(lines) + "\n")
    return root


def _sha(p):
    import hashlib

    return hashlib.sha256(p.read_bytes()).hexdigest()


OPTS = {"size": 32, "cell": 8, "step": 8, "bins": 8}


def test_scene15_parses(tmp_path):
    from latentlab.data.parsers.scene15 import parse_scene15

    fs = parse_scene15(_images(tmp_path), OPTS)
    assert fs.n_docs == 8 and fs.class_names == ["Coast", "Forest"] and fs.dim == 32
    # 32 x 44 after resizing -> 4 x 5 cells -> 3 x 4 blocks at step 8
    assert set(fs.counts_per_doc().tolist()) == {12}
    norms = np.linalg.norm(fs.descriptors, axis=1)
    assert np.allclose(norms[norms > 0], 1.0, atol=1e-3)
    assert fs.summary()["n_train"] == 4


def test_scene15_unreadable_image(tmp_path):
    from latentlab.data.parsers.scene15 import parse_scene15

    root = _images(tmp_path)
    bad = root / "train" / "Coast" / "image_0001.jpg"
    bad.write_bytes(b"\xff\xd8 not really a jpeg")
    man = root / "MANIFEST.sha256"
    lines = [
        (
            f"{_sha(bad)}  train/Coast/image_0001.jpg"
            if ln.endswith("train/Coast/image_0001.jpg")
            else ln
        )
        for ln in man.read_text().splitlines()
    ]
    man.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match="unreadable image") as e:
        parse_scene15(root, OPTS)
    assert "image_0001.jpg" in str(e.value)


def test_scene15_image_changed(tmp_path):
    from latentlab.data.parsers.scene15 import parse_scene15

    root = _images(tmp_path)
    p = root / "test" / "Forest" / "image_0000.jpg"
    p.write_bytes(p.read_bytes() + b"x")
    with pytest.raises(DataError, match="sha256 mismatch") as e:
        parse_scene15(root, OPTS)
    assert "image_0000.jpg" in str(e.value)
