"""Fetch: mirror copy and (file://) download, checksum refusal, atomic writes, archives."""

from __future__ import annotations

import io
import tarfile

import pytest
from datahelpers import sha, truncate, write_uci

from latentlab.data import fetch as F
from latentlab.data import registry
from latentlab.errors import ChecksumError, DataError


@pytest.fixture
def toy_registry(tmp_path, monkeypatch):
    """A mirror folder with a toy UCI dataset and a registry entry pinning its hashes."""
    mirror = tmp_path / "mirror"
    (mirror / "uci-bow").mkdir(parents=True)
    dw, vf = write_uci(mirror / "uci-bow", name="toy")
    ds = registry.Dataset(
        name="toy",
        kind="bow",
        title="toy",
        files=(
            registry.FileSpec("uci-bow/docword.toy.txt.gz", (dw.as_uri(),), sha(dw), True),
            registry.FileSpec("uci-bow/vocab.toy.txt", (vf.as_uri(),), sha(vf), True),
        ),
        parser="uci",
        citation="c",
        licence="l",
        published={"n_docs": 3, "n_vocab": 4, "n_tokens": 11},
    )
    monkeypatch.setitem(registry.REGISTRY, "toy", ds)
    return mirror, ds


def test_fetch_from_mirror_and_rerun(tmp_path, toy_registry):
    mirror, ds = toy_registry
    res = tmp_path / "res"
    stamp = F.fetch("toy", res, mirror)
    assert all(f["verified"] == "sha256" for f in stamp["files"])
    assert (res / ".fetched" / "toy.json").exists()
    assert sha(res / ds.files[0].path) == ds.files[0].sha256
    F.fetch("toy", res, mirror)  # rerun: verified and kept
    assert not list(res.rglob(".*.part"))


def test_corrupt_mirror_file_refused(tmp_path, toy_registry):
    mirror, ds = toy_registry
    bad = mirror / "uci-bow" / "vocab.toy.txt"
    bad.write_text("apple\nbean\ncorn\ndatE\n")
    with pytest.raises(ChecksumError) as e:
        F.fetch("toy", tmp_path / "res", mirror)
    msg = str(e.value)
    assert str(bad) in msg and ds.files[1].sha256 in msg and sha(bad) in msg
    assert not (tmp_path / "res" / "uci-bow" / "vocab.toy.txt").exists()
    assert not list((tmp_path / "res").rglob(".*.part"))


def test_corrupt_resource_is_refetched(tmp_path, toy_registry):
    mirror, ds = toy_registry
    res = tmp_path / "res"
    F.fetch("toy", res, mirror)
    (res / ds.files[1].path).write_text("tampered\n")
    F.fetch("toy", res, mirror)
    assert sha(res / ds.files[1].path) == ds.files[1].sha256


def test_download_file_url_verified(tmp_path, toy_registry):
    mirror, ds = toy_registry
    res = tmp_path / "res"
    stamp = F.fetch("toy", res, None)  # "upstream" = file:// URLs, no network
    assert stamp["source"] == "upstream"
    assert sha(res / ds.files[0].path) == ds.files[0].sha256
    # a wrong upstream file is refused
    (mirror / "uci-bow" / "vocab.toy.txt").write_text("x\n")
    (res / ds.files[1].path).unlink()
    with pytest.raises(ChecksumError, match="sha256 mismatch"):
        F.fetch("toy", res, None)


def test_missing_mirror_file(tmp_path, toy_registry):
    mirror, _ = toy_registry
    (mirror / "uci-bow" / "vocab.toy.txt").unlink()
    with pytest.raises(DataError, match="not in the data mirror"):
        F.fetch("toy", tmp_path / "res", mirror)


def _tar(tmp_path, members: dict):
    p = tmp_path / "pkg_1.0.tar.gz"
    with tarfile.open(p, "w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return p


def test_extract_member_and_truncated_tar(tmp_path):
    import os

    payload = os.urandom(200_000)
    p = _tar(tmp_path, {"pkg/data/x.rda": payload, "pkg/DESCRIPTION": b"d"})
    out = F.extract_member(p, "pkg/data/x.rda", tmp_path / "out" / "x.rda")
    assert out.read_bytes() == payload
    with pytest.raises(DataError, match="no member"):
        F.extract_member(p, "pkg/data/y.rda", tmp_path / "out" / "y.rda")
    truncate(p, 0.5)
    with pytest.raises(DataError, match="truncated or corrupt archive") as e:
        F.extract_member(p, "pkg/data/x.rda", tmp_path / "out" / "z.rda")
    assert str(p) in str(e.value)
    assert not (tmp_path / "out" / "z.rda").exists()


def test_cran_member_fetch(tmp_path, monkeypatch):
    data = b"R data bytes"
    tgz = _tar(tmp_path, {"pkg/data/x.rda": data})
    import hashlib

    spec = registry.FileSpec(
        "cran/pkg/x.rda", (tgz.as_uri(),), hashlib.sha256(data).hexdigest(), True, "pkg/data/x.rda"
    )
    ds = registry.Dataset("pkgx", "bow", "t", (spec,), "ap", "c", "l")
    monkeypatch.setitem(registry.REGISTRY, "pkgx", ds)
    F.fetch("pkgx", tmp_path / "res")
    assert (tmp_path / "res" / "cran/pkg/x.rda").read_bytes() == data


def test_registry_covers_the_mirror():
    """Every dataset of the mirror README has an entry with pinned hashes and counts."""
    names = {
        "kos", "ap", "cora", "newsgroups", "school", "yeast", "scene_mulan", "enron_email",
        "scene15", "snap_astroph", "snap_enron", "uci_nips", "uci_enron", "uci_nytimes",
        "uci_pubmed",
    }  # fmt: skip
    assert names <= set(registry.REGISTRY)
    for n in names:
        ds = registry.get(n)
        assert ds.citation and ds.licence and ds.published and ds.files
        in_mirror = not n.startswith("uci_")
        for f in ds.files:
            assert f.urls, (n, f.path)
            if in_mirror:
                assert f.sha256 and len(f.sha256) == 64
                if not f.identical:
                    assert ds.content_sha256, n  # non-identical copy -> content hash pinned
    with pytest.raises(Exception, match="unknown dataset"):
        registry.get("nope")
