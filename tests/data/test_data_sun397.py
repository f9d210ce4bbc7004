"""SUN397 through the data layer: the registry entry (pinned MD5s of the two upstream
archives), the download path (file:// URLs to a tiny fake release: MD5 match / mismatch,
the count checks), the mirror path, and reading an official partition."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import tarfile
import zipfile

import pytest

from latentlab.data import fetch as F
from latentlab.data import registry
from latentlab.data.parsers.sun397 import read_partition
from latentlab.errors import ChecksumError, DataError

IMAGES = ("SUN397/a/abbey/sun_1.jpg", "SUN397/a/abbey/sun_2.jpg", "SUN397/b/bar/sun_3.jpg",
          "SUN397/b/bar/sun_4.jpg")  # fmt: skip
TRAIN = "/a/abbey/sun_1.jpg\n/b/bar/sun_3.jpg\n"
TEST = "/a/abbey/sun_2.jpg\n/b/bar/sun_4.jpg\n"


def _md5(p):
    return hashlib.md5(p.read_bytes()).hexdigest()


def _fake_release(d):
    """A two-class 'SUN397': the images tarball and the partitions zip."""
    src = d / "upstream"
    src.mkdir()
    tar = src / "SUN397.tar.gz"
    with tarfile.open(tar, "w:gz") as t:
        for name in IMAGES:
            info = tarfile.TarInfo(name)
            info.size = len(name)
            t.addfile(info, io.BytesIO(name.encode()))
    z = src / "Partitions.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("Training_01.txt", TRAIN)
        zf.writestr("Testing_01.txt", TEST)
    return tar, z


@pytest.fixture
def fake_sun397(tmp_path, monkeypatch):
    """The registry's sun397 entry pointed at the fake release (file:// URLs), with its
    MD5s pinned and the counts of two classes of one image per partition file."""
    tar, z = _fake_release(tmp_path)
    real = registry.get("sun397")
    spec = dataclasses.replace(
        real.files[0],
        urls=(tar.as_uri(), z.as_uri()),
        archives=(
            registry.Archive(tar.as_uri(), _md5(tar)),
            registry.Archive(z.as_uri(), _md5(z), "Partitions"),
        ),
    )
    ds = dataclasses.replace(real, files=(spec,), published={"n_classes": 2, "partition_lines": 2})
    monkeypatch.setitem(registry.REGISTRY, "sun397", ds)
    return ds, tar, z


def test_registry_pins_the_published_md5s_and_has_no_prepare():
    ds = registry.get("sun397")
    (spec,) = ds.files
    assert spec.tree and spec.path == "sun397/MANIFEST.sha256"
    assert [(a.url, a.md5, a.into) for a in spec.archives] == [
        (registry.SUN397_URL, "8ca2778205c41d23104230ba66911c7a", ""),
        (registry.SUN397_PARTITIONS_URL, "29a205c0a0129d21f36cbecfefe81881", "Partitions"),
    ]
    assert ds.published == {"n_classes": 397, "partition_lines": 19850}
    assert "sun397" in registry.external_names()
    assert "sun397" not in registry.prepared_names()
    assert "scene15" in registry.prepared_names()


def test_download_with_matching_md5s_unpacks_and_writes_the_manifest(tmp_path, fake_sun397):
    res = tmp_path / "res"
    stamp = F.fetch("sun397", res)
    root = res / "sun397"
    listed = (root / "MANIFEST.sha256").read_text().split("\n")
    rels = sorted(line.split("  ", 1)[1] for line in listed if line)
    assert rels == sorted(["Partitions/Testing_01.txt", "Partitions/Training_01.txt",
                           *IMAGES])  # fmt: skip
    assert [a["verified"] for a in stamp["files"][0]["archives"]] == ["md5", "md5"]
    assert stamp["checks"]["n_classes"] == 2
    assert json.loads((res / ".fetched" / "sun397.json").read_text())["checks"]["images_present"]
    assert not list(res.rglob(".*.part"))
    F.fetch("sun397", res)  # rerun: the manifest and its files are kept


def test_md5_mismatch_names_the_archive_and_writes_nothing(tmp_path, fake_sun397, monkeypatch):
    ds, tar, _ = fake_sun397
    spec = ds.files[0]
    bad = dataclasses.replace(
        spec, archives=(registry.Archive(tar.as_uri(), "0" * 32), *spec.archives[1:])
    )
    monkeypatch.setitem(registry.REGISTRY, "sun397", dataclasses.replace(ds, files=(bad,)))
    res = tmp_path / "res"
    with pytest.raises(ChecksumError) as e:
        F.fetch("sun397", res)
    msg = str(e.value)
    assert str(res / "_downloads" / "SUN397.tar.gz") in msg
    assert "md5 mismatch" in msg and "0" * 32 in msg and _md5(tar) in msg
    assert not (res / "sun397" / "MANIFEST.sha256").exists()
    assert not (res / "_downloads" / "SUN397.tar.gz").exists()  # a rerun downloads it again
    assert not (res / ".fetched" / "sun397.json").exists()


def test_the_counts_of_the_real_entry_refuse_a_two_class_release(
    tmp_path, fake_sun397, monkeypatch
):
    ds, _, _ = fake_sun397
    real = dataclasses.replace(ds, published={"n_classes": 397, "partition_lines": 19850})
    monkeypatch.setitem(registry.REGISTRY, "sun397", real)
    with pytest.raises(DataError, match="2 classes, expected 397") as e:
        F.fetch("sun397", tmp_path / "res")
    assert "Training_01.txt" in str(e.value)


def test_a_listed_image_missing_is_named(tmp_path, fake_sun397):
    res = tmp_path / "res"
    F.fetch("sun397", res)
    (res / "sun397" / "SUN397/b/bar/sun_4.jpg").unlink()
    (res / "sun397" / "MANIFEST.sha256").unlink()  # a fresh check of the unpacked tree
    from latentlab.data.parsers.sun397 import check_release

    with pytest.raises(DataError, match="listed image missing") as e:
        check_release(res / "sun397", {"n_classes": 2, "partition_lines": 2})
    assert "sun_4.jpg" in str(e.value)


def test_mirror_copy_is_verified_by_its_manifest(tmp_path, fake_sun397):
    up = tmp_path / "up"
    F.fetch("sun397", up)
    mirror = up  # a mirror holds the same relative paths: sun397/MANIFEST.sha256 + files
    res = tmp_path / "res"
    stamp = F.fetch("sun397", res, mirror)
    assert stamp["source"].startswith("mirror") and stamp["files"][0]["n_files"] == 6
    assert (res / "sun397" / "SUN397/a/abbey/sun_1.jpg").read_bytes() == IMAGES[0].encode()
    (mirror / "sun397" / "SUN397/a/abbey/sun_2.jpg").write_bytes(b"altered")
    with pytest.raises(ChecksumError, match="sun_2.jpg"):
        F.fetch("sun397", tmp_path / "res2", mirror)


def test_read_partition_keeps_the_partition_files_classes_and_order(tmp_path, fake_sun397):
    res = tmp_path / "res"
    F.fetch("sun397", res)
    split = read_partition(res / "sun397", 1)
    assert split == {
        "train": {"/a/abbey": ["a/abbey/sun_1.jpg"], "/b/bar": ["b/bar/sun_3.jpg"]},
        "test": {"/a/abbey": ["a/abbey/sun_2.jpg"], "/b/bar": ["b/bar/sun_4.jpg"]},
    }
    with pytest.raises(DataError, match="Training_02.txt"):
        read_partition(res / "sun397", 2)


def test_prepare_refuses_a_dataset_without_a_canonical_form(tmp_path):
    from latentlab.data.prepare import prepare

    with pytest.raises(DataError, match="no canonical form"):
        prepare("sun397", tmp_path, tmp_path / "out")
