"""Parsers of the ch. 3 citation corpora (AAN release 2013, Heinrich's NIPS 0-12) on tiny
hand-made files in the upstream formats, through the registry's prepare step."""

from __future__ import annotations

import dataclasses
import io
import json
import tarfile

import numpy as np
import pytest

from latentlab.data import prepare as prep
from latentlab.data import registry
from latentlab.data.parsers.citations import (
    parse_aan,
    parse_aan_citations,
    parse_aan_metadata,
    parse_nips_cite,
)
from latentlab.errors import DataError

ACL_TXT = "P90-1001 ==> P88-1002\nP90-1001 ==> J93-2004\nW99-0101 ==> P88-1002\n\n"
METADATA = """id = {P88-1002}
author = {Smith, Ann; Jones, Bob}
title = {Parsing Parsers With Parsing}
venue = {ACL}
year = {1988}

id = {P90-1001}
author = {Jones, Bob}
title = {Translation Models Translate}
venue = {ACL}
year = {1990}

id = {J93-2004}
author = {Marcus, Mitch}
title = {A Treebank}
venue = {Computational Linguistics}
year = {1993}

id = {W99-0101}
author = {Doe, Jane}
title = {Workshop Paper}
venue = {ACL}
year = {1999}

id = {P12-1001}
author = {Late, Lee}
title = {Too Late}
venue = {ACL}
year = {2012}
"""
TEXTS = {
    "P88-1002": "We parse sentences. Parsing parses the sentences quickly; parsers parse.",
    "P90-1001": "Translation models translate sentences; we parse and translate the models.",
    "J93-2004": "A treebank of parsed sentences.",
    "W99-0101": "Workshop models parse sentences and translate sentences.",
    "P12-1001": "Too late for the corpus: parse translate models sentences.",
}
OPTIONS = {
    "citations": "release/2013/acl.txt",
    "metadata": "release/2013/acl-metadata.txt",
    "venue": "ACL",
    "years": [1987, 2011],
    "min_len": 3,
    "min_df": 2,
    "expect": {"citation_lines": 3, "metadata_entries": 5},
}


def _tar(path, files):
    with tarfile.open(path, "w:gz") as tf:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


def _aan_tar(tmp_path, **override):
    files = {
        "aan/release/2013/acl.txt": ACL_TXT,
        "aan/release/2013/acl-metadata.txt": METADATA,
        **{f"aan/papers_text/{k}.txt": v for k, v in TEXTS.items()},
    }
    files.update(override)
    return _tar(tmp_path / "aanrelease2013.tar.gz", files)


def test_aan_citation_and_metadata_formats():
    assert parse_aan_citations(ACL_TXT, "acl.txt") == [
        ("P90-1001", "P88-1002"), ("P90-1001", "J93-2004"), ("W99-0101", "P88-1002")
    ]  # fmt: skip
    meta = parse_aan_metadata(METADATA, "m")
    assert meta["P88-1002"]["author"] == "Smith, Ann; Jones, Bob"
    assert meta["J93-2004"]["venue"] == "Computational Linguistics"
    with pytest.raises(DataError, match="line 1"):
        parse_aan_citations("P90-1001 -> P88-1002\n", "acl.txt")
    with pytest.raises(DataError, match="key = "):
        parse_aan_metadata("id = {X}\ngarbage\n", "m")


def test_aan_subset_links_and_vocabulary(tmp_path):
    c = parse_aan(_aan_tar(tmp_path), OPTIONS)
    # ACL venue, 1987-2011: J93 (journal) and P12 (2012) are out
    assert c.metadata["paper_ids"] == ["P88-1002", "P90-1001", "W99-0101"]
    assert c.titles[1] == "Translation Models Translate"
    # citations inside the subset only, as (citing, cited)
    assert sorted(map(tuple, c.links.tolist())) == [(1, 0), (2, 0)]
    # words in >= 2 of the 3 documents, stop words dropped, lower case
    assert c.vocab == ["models", "parse", "sentences", "translate"]
    dense = np.zeros((c.n_docs, c.n_vocab), int)
    for d in range(c.n_docs):
        a, b = c.indptr[d], c.indptr[d + 1]
        dense[d, c.word_ids[a:b]] = c.counts[a:b]
    assert dense.tolist() == [[0, 2, 2, 0], [2, 1, 1, 2], [1, 1, 2, 1]]


def test_aan_checks_the_release_counts_and_members(tmp_path):
    bad = dict(OPTIONS, expect={"citation_lines": 4})
    with pytest.raises(DataError, match="citation_lines: the release documents 4, parsed 3"):
        parse_aan(_aan_tar(tmp_path), bad)
    tar = _tar(tmp_path / "empty.tar.gz", {"aan/release/2013/acl.txt": ACL_TXT})
    with pytest.raises(DataError, match="acl-metadata.txt"):
        parse_aan(tar, OPTIONS)
    trunc = tmp_path / "trunc.tar.gz"
    trunc.write_bytes(_aan_tar(tmp_path).read_bytes()[:100])
    with pytest.raises(DataError):
        parse_aan(trunc, OPTIONS)


NIPS = {
    "nips.corpus": "2 0:3 2:1\n1 1:4\n3 0:1 1:1 2:2\n",
    "nips.vocab": "network\nlearning\nkernel\n",
    "nips.docs": "Nets\nLearning\nKernels\n",
    "nips.cite": "\n0\n0 1\n",
    "nips.authors": "0\n1\n0 2\n",
    "nips.authors.key": "Hinton\nJordan\nVapnik\n",
}


def _nips(tmp_path, **override):
    files = {**NIPS, **override}
    for k, v in files.items():
        (tmp_path / k).write_text(v)
    return [tmp_path / k for k in NIPS]


def test_nips_cite_format(tmp_path):
    c = parse_nips_cite(*_nips(tmp_path))
    assert (c.n_docs, c.n_vocab, c.n_tokens) == (3, 3, 12)
    assert sorted(map(tuple, c.links.tolist())) == [(1, 0), (2, 0), (2, 1)]
    assert c.titles == ["Nets", "Learning", "Kernels"]
    assert c.metadata["author_ids"] == [[0], [1], [0, 2]]
    assert c.metadata["author_names"][2] == "Vapnik"


@pytest.mark.parametrize(
    "override, match",
    [
        ({"nips.corpus": "3 0:3 2:1\n1 1:4\n3 0:1 1:1 2:2\n"}, "header says 3 terms"),
        ({"nips.corpus": "2 0:3 5:1\n1 1:4\n3 0:1 1:1 2:2\n"}, "term id 5 out of range"),
        ({"nips.cite": "\n7\n0 1\n"}, "document id 7 out of range"),
        ({"nips.docs": "Nets\nLearning\n"}, "2 lines .titles. for 3 documents"),
        ({"nips.authors": "0\n1\n0 9\n"}, "author id out of range"),
    ],
)
def test_nips_cite_refuses_bad_files(tmp_path, override, match):
    with pytest.raises(DataError, match=match):
        parse_nips_cite(*_nips(tmp_path, **override))


def test_prepare_checks_published_counts(tmp_path, monkeypatch):
    """The registry path: prepare parses the fetched files and compares the published
    counts exactly (here the tiny files' own counts; then one that is off by one)."""
    root = tmp_path / "resources"
    (root / "nips-arbylon").mkdir(parents=True)
    _nips(root / "nips-arbylon")
    ds = registry.get("nips_cite")
    tiny = dataclasses.replace(ds, published={"n_docs": 3, "n_vocab": 3, "n_tokens": 12,
                                              "n_links": 3})  # fmt: skip
    monkeypatch.setitem(registry.REGISTRY, "nips_cite", tiny)
    s = prep.prepare("nips_cite", root, tmp_path / "out")
    assert s["published_check"]["n_links"]["ok"]
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["n_links"] == 3
    monkeypatch.setitem(
        registry.REGISTRY, "nips_cite", dataclasses.replace(tiny, published={"n_links": 4})
    )
    with pytest.raises(DataError, match="n_links: published 4, parsed 3"):
        prep.prepare("nips_cite", root, tmp_path / "out2")

    (root / "aan").mkdir()
    _aan_tar(root / "aan")
    aan = dataclasses.replace(registry.get("aan"), options=OPTIONS, published={"n_docs": 3})
    monkeypatch.setitem(registry.REGISTRY, "aan", aan)
    assert prep.prepare("aan", root, tmp_path / "out3")["n_links"] == 2


def test_registry_entries_name_their_sources():
    aan, nips = registry.get("aan"), registry.get("nips_cite")
    assert aan.published == {"n_docs": 3286}
    assert nips.published == {"n_docs": 1740, "n_vocab": 13649, "n_tokens": 2301375,
                              "n_links": 1287}  # fmt: skip
    for ds in (aan, nips):
        assert all(f.urls and f.sha256 is None for f in ds.files)
        assert "checksum" in ds.notes
