"""prepare (published counts checked exactly) and the `latentlab data` commands."""

from __future__ import annotations

import json

import pytest
from datahelpers import sha, write_uci

from latentlab.cli import main
from latentlab.data import registry
from latentlab.errors import ChecksumError


@pytest.fixture
def toy(tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    (mirror / "uci-bow").mkdir(parents=True)
    dw, vf = write_uci(mirror / "uci-bow", name="toy")

    def make(published, content=None):
        ds = registry.Dataset(
            name="toy",
            kind="bow",
            title="toy",
            files=(
                registry.FileSpec("uci-bow/docword.toy.txt.gz", (), sha(dw), False),
                registry.FileSpec("uci-bow/vocab.toy.txt", (), sha(vf), False),
            ),
            parser="uci",
            citation="c",
            licence="l",
            published=published,
            content_sha256=content,
        )
        monkeypatch.setitem(registry.REGISTRY, "toy", ds)
        return ds

    return mirror, make


def test_cli_fetch_prepare_summary(tmp_path, toy, capsys):
    mirror, make = toy
    make({"n_docs": 3, "n_vocab": 4, "n_tokens": 11, "nnz": 5})
    res, out = tmp_path / "res", tmp_path / "out"
    assert main(["data", "prepare", "toy", "--resources", str(res), "--out-dir", str(out)]) == 1
    assert "not been fetched" in capsys.readouterr().err
    assert main(["data", "fetch", "toy", "--resources", str(res), "--mirror", str(mirror)]) == 0
    assert main(["data", "prepare", "toy", "--resources", str(res), "--out-dir", str(out)]) == 0
    s = json.loads((out / "summary.json").read_text())
    assert (s["n_docs"], s["n_vocab"], s["n_tokens"]) == (3, 4, 11)
    assert all(v["ok"] for v in s["published_check"].values())
    assert main(["data", "summary", str(out / "summary.json"), str(out / "dataset.npz")]) == 0
    assert '"n_docs": 3' in capsys.readouterr().out
    split = tmp_path / "split.npz"
    args = ["data", "split", str(out / "dataset.npz"), "--kind", "tokens", "--pct", "80"]
    assert main([*args, "--seed", "1", "--out", str(split)]) == 0 and split.exists()


def test_published_mismatch_is_an_error(tmp_path, toy, capsys):
    mirror, make = toy
    make({"n_docs": 3, "n_tokens": 12})
    res, out = tmp_path / "res", tmp_path / "out"
    main(["data", "fetch", "toy", "--resources", str(res), "--mirror", str(mirror)])
    assert main(["data", "prepare", "toy", "--resources", str(res), "--out-dir", str(out)]) == 1
    err = capsys.readouterr().err
    assert "n_tokens: published 12, parsed 11" in err and "docword.toy.txt.gz" in err
    assert not (out / "summary.json").exists()


def test_content_hash_mismatch(tmp_path, toy):
    from latentlab.data.fetch import fetch
    from latentlab.data.prepare import prepare

    mirror, make = toy
    make({"n_docs": 3}, content="0" * 64)
    fetch("toy", tmp_path / "res", mirror)
    with pytest.raises(ChecksumError, match="parsed-content sha256 mismatch"):
        prepare("toy", tmp_path / "res", tmp_path / "out")


def test_cli_synth_and_help(tmp_path, capsys):
    params = json.dumps(
        {"synthetic": {"synth_lda": dict(n_docs=5, n_vocab=8, n_topics=2, doc_length=5,
                                         alpha=0.5, beta=0.5)}, "base_seed": 3}
    )  # fmt: skip
    assert main(["data", "synth", "synth_lda", "--out-dir", str(tmp_path), "--params", params]) == 0
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["n_docs"] == 5 and s["seed"] == 3
    with pytest.raises(SystemExit):
        main(["data", "fetch", "--help"])
    assert "mismatch stops" in capsys.readouterr().out
