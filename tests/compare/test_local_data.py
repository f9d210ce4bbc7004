"""data.local: the four formats give the same corpus; bad input names file, line, problem."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest
from compare_formats import TINY, tiny_corpus, write_all, write_ldac, write_mm, write_uci

from latentlab.data.corpus import BowCorpus
from latentlab.data.local import parse_local, prepare_local
from latentlab.errors import ConfigError, DataError


def test_tiny_corpus_has_the_written_documents():
    c = tiny_corpus()
    assert c.n_docs == 42 and c.n_empty_docs == 0
    assert "telescope" in c.vocab and "the" not in c.vocab  # English stop words removed
    assert c.to_dense()[0, c.vocab.index("garlic")] == 1


def test_four_formats_give_one_corpus_and_hash(tmp_path):
    specs = write_all(tmp_path)
    ref = tiny_corpus()
    for name, spec in specs.items():
        c, settings = parse_local(name, spec)
        assert settings["format"] == spec["format"]
        assert c.vocab == ref.vocab
        np.testing.assert_array_equal(c.to_dense(), ref.to_dense())
        assert c.content_sha256() == ref.content_sha256(), name


def test_prepare_writes_summary_with_hash_and_vectorizer_settings(tmp_path):
    s = prepare_local("t", {"format": "text", "path": str(TINY), "min_df": 2}, tmp_path / "o")
    c = BowCorpus.load(tmp_path / "o" / "dataset.npz")
    js = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert js == json.loads(json.dumps(s))
    assert js["content_sha256"] == c.content_sha256() and js["n_docs"] == 42
    v = js["settings"]["vectorizer"]
    assert v["min_df"] == 2 and v["stop_words"] == "english" and "sklearn_version" in v
    assert c.n_vocab < tiny_corpus().n_vocab  # min_df 2 dropped the words of one document
    assert list(js["files_sha256"]) == [str(TINY)]


def _uci(tmp_path, body, W=3, vocab="a\nb\nc\n", D=2):
    lines = [str(D), str(W), str(len(body))] + body
    p = tmp_path / "docword.txt"
    p.write_text("\n".join(lines) + "\n")
    v = tmp_path / "vocab.txt"
    v.write_text(vocab)
    return {"format": "uci", "path": str(p), "vocab": str(v)}


@pytest.mark.parametrize(
    "body, vocab, W, file, pattern",
    [
        (
            ["1 1 2", "2 3 1"],
            "a\nb\n",
            3,
            "vocab",
            r"2 vocabulary lines but docword.txt uses word id 3",
        ),
        (
            ["1 1 2", "2 3 1"],
            "a\nb\na\n",
            3,
            "vocab",
            r"line 3: duplicate vocabulary entry 'a' \(first at line 1\)",
        ),
        (["1 1 2", "2 3 -1"], "a\nb\nc\n", 3, "docword", r"line 5: negative count -1"),
        (["1 1 2", "2 3 1.5"], "a\nb\nc\n", 3, "docword", r"line 5: count '1.5' is not an integer"),
        (["1 1 x"], "a\nb\nc\n", 3, "docword", r"line 4: count 'x' is not an integer"),
        ([], "a\nb\nc\n", 3, "docword", r"empty corpus"),
    ],
)
def test_uci_bad_input(tmp_path, body, vocab, W, file, pattern):
    spec = _uci(tmp_path, body, W, vocab)
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(DataError, match=pattern) as e:
        prepare_local("bad", spec, out)
    assert e.value.path == spec["path" if file == "docword" else "vocab"]
    assert not out.exists()  # nothing written, the empty folder removed


def test_ldac_bad_input(tmp_path):
    v = tmp_path / "v.txt"
    v.write_text("a\nb\n")
    p = tmp_path / "c.ldac"
    cases = [
        ("2 0:1 1:2\n1 0:-3\n", r"line 2: negative count -3"),
        ("2 0:1 1:2\n1 1:2.0\n", r"line 2: count '2.0' is not an integer"),
        ("2 0:1 1:2\n2 0:1\n", r"line 2: says 2 distinct words but has 1 pairs"),
        ("1 0:1\n1 5:1\n", r"2 vocabulary lines but c.ldac uses word id 6"),
        ("0\n0\n", r"empty corpus"),
    ]
    for text, pattern in cases:
        p.write_text(text)
        with pytest.raises(DataError, match=pattern):
            parse_local("x", {"format": "ldac", "path": str(p), "vocab": str(v)})


def test_mm_bad_input(tmp_path):
    v = tmp_path / "v.txt"
    v.write_text("a\nb\nc\n")
    p = tmp_path / "m.mtx"
    head = "%%MatrixMarket matrix coordinate real general\n% a comment\n2 3 2\n"
    p.write_text(head + "1 1 2\n2 3 -1\n")
    with pytest.raises(DataError, match=r"m.mtx: line 5: negative count -1"):
        parse_local("x", {"format": "mm", "path": str(p), "vocab": str(v)})
    p.write_text(head + "1 1 2.5\n2 3 1\n")
    with pytest.raises(DataError, match=r"line 4: non-integer count 2.5"):
        parse_local("x", {"format": "mm", "path": str(p), "vocab": str(v)})
    v.write_text("a\nb\n")
    p.write_text(head + "1 1 2\n2 3 1\n")
    with pytest.raises(DataError, match=r"2 vocabulary lines but m.mtx uses word id 3"):
        parse_local("x", {"format": "mm", "path": str(p), "vocab": str(v)})


def test_text_bad_input(tmp_path):
    p = tmp_path / "t.txt"
    p.write_bytes("first document is fine\nsecond caf\xe9 line\n".encode("latin-1"))
    with pytest.raises(DataError, match=r"t.txt: line 2: not valid UTF-8 \(byte 0xe9"):
        parse_local("x", {"format": "text", "path": str(p)})
    p.write_text("\n  \n\n")
    with pytest.raises(DataError, match="empty corpus"):
        parse_local("x", {"format": "text", "path": str(p)})
    p.write_text("the and of\nit is\n")  # only stop words
    with pytest.raises(DataError, match="empty vocabulary"):
        parse_local("x", {"format": "text", "path": str(p)})


def test_spec_errors_name_the_key(tmp_path):
    with pytest.raises(ConfigError, match=r"data\.local\.x\.format"):
        parse_local("x", {"format": "csv", "path": "p"})
    with pytest.raises(ConfigError, match=r"data\.local\.x\.vocab"):
        parse_local("x", {"format": "uci", "path": "p"})
    with pytest.raises(ConfigError, match=r"data\.local\.x\.min_df"):
        parse_local("x", {"format": "uci", "path": "p", "vocab": "v", "min_df": 2})


def test_gzip_and_plain_uci_agree(tmp_path):
    c = tiny_corpus()
    a = write_uci(c, tmp_path, gz=True)
    (tmp_path / "plain").mkdir()
    b = write_uci(c, tmp_path / "plain", gz=False)
    assert parse_local("a", a)[0].content_sha256() == parse_local("b", b)[0].content_sha256()
    assert gzip.decompress((tmp_path / "docword.tiny.txt.gz").read_bytes()).startswith(b"42\n")
    _ = (write_ldac, write_mm)
