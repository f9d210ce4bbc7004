"""Fetch a registered dataset's files into ``resources/``, checksum-verified.

Source: the data mirror (``data.mirror``: a folder holding the same relative paths) when
given, else the upstream URLs. Every file whose hash is known for that source is verified;
a mismatch raises :class:`ChecksumError` naming the file, the expected and the actual hash.
Files that cannot be byte-verified (an upstream file that differs from the mirror's copy,
or whose hash is unknown) are verified after parsing by the registry's content hash and
published counts (``latentlab data prepare``). A tree whose upstream is a set of archives
(SUN397) is checked by the archives' pinned MD5s (the only checksums published), then by
the dataset's counts on the unpacked files.

Writes are atomic (a ``.part`` file renamed into place), so an interrupted fetch leaves no
file that looks complete; rerunning resumes (a partial download continues with an HTTP
Range request; completed files are verified and kept).
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import subprocess
import tarfile
import urllib.request
import zipfile
from pathlib import Path

from latentlab.data import registry
from latentlab.data._io import sha256_file
from latentlab.errors import ChecksumError, DataError
from latentlab.outputs import write_json

log = logging.getLogger("latentlab.data")


def _part(dest: Path) -> Path:
    return dest.with_name(f".{dest.name}.part")


def _verify(path: Path, expected: str | None, shown: Path | None = None) -> str:
    actual = sha256_file(path)
    if expected is not None and actual != expected:
        raise ChecksumError(shown or path, expected, actual)
    return actual


def download(url: str, dest: Path, timeout: float = 60) -> Path:
    """Download ``url`` to ``dest`` atomically, resuming a previous partial download."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = _part(dest)
    have = part.stat().st_size if part.exists() else 0
    req = urllib.request.Request(url, headers={"User-Agent": "latentlab-fetch/1"})
    if have:
        req.add_header("Range", f"bytes={have}-")
    log.info("downloading %s -> %s%s", url, dest, f" (resuming at {have} bytes)" if have else "")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            mode = "ab" if have and getattr(r, "status", 200) == 206 else "wb"
            with open(part, mode) as f:
                shutil.copyfileobj(r, f, 1 << 20)
    except OSError as e:  # URLError, HTTPError, timeouts
        raise DataError(url, f"download failed: {e}. Rerun to resume, or set data.mirror") from e
    part.replace(dest)
    return dest


def _download_any(urls, dest: Path) -> Path:
    if dest.exists():
        return dest
    errors = []
    for url in urls:
        try:
            return download(url, dest)
        except DataError as e:
            errors.append(str(e))
    raise DataError(dest, "every upstream URL failed: " + " | ".join(errors))


def extract_member(archive: Path, member: str, dest: Path) -> Path:
    """Extract ``member`` (path inside the archive, or its basename) to ``dest`` atomically;
    a truncated or corrupt archive is a DataError naming it."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = _part(dest)
    name = archive.name.lower()
    try:
        if name.endswith((".tar.gz", ".tgz", ".tar")):
            with tarfile.open(archive) as tf:
                m = next(
                    (
                        m
                        for m in tf.getmembers()
                        if m.name == member or m.name.endswith("/" + member)
                    ),
                    None,
                )
                if m is None:
                    raise DataError(archive, f"no member {member}")
                src = tf.extractfile(m)
                with open(part, "wb") as f:
                    shutil.copyfileobj(src, f)
        elif name.endswith(".zip"):
            with zipfile.ZipFile(archive) as zf:
                cand = [n for n in zf.namelist() if n == member or n.endswith("/" + member)]
                if not cand:
                    raise DataError(archive, f"no member {member}")
                with zf.open(cand[0]) as src, open(part, "wb") as f:
                    shutil.copyfileobj(src, f)
        elif name.endswith(".rar"):
            _extract_rar(archive, member, part)
        else:
            raise DataError(archive, "unknown archive type")
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError) as e:
        part.unlink(missing_ok=True)
        raise DataError(archive, f"truncated or corrupt archive: {e}") from e
    part.replace(dest)
    return dest


def _extract_rar(archive: Path, member: str, out: Path) -> None:
    for cmd in (
        ["bsdtar", "-xOf", str(archive), member],
        ["unrar", "p", "-inul", str(archive), member],
        ["7z", "e", "-so", str(archive), member],
    ):
        if shutil.which(cmd[0]) is None:
            continue
        with open(out, "wb") as f:
            r = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE)
        if r.returncode == 0 and out.stat().st_size > 0:
            return
        raise DataError(archive, f"{cmd[0]} could not extract {member}: {r.stderr.decode()[:200]}")
    raise DataError(
        archive, "extracting .rar needs bsdtar, unrar or 7z on PATH (or use data.mirror)"
    )


def _fetch_file(spec: registry.FileSpec, resources: Path, mirror: Path | None) -> dict:
    dest = resources / spec.path
    expected = spec.sha256 if (mirror is not None or spec.identical) else None
    if dest.exists():
        if expected is None:
            return {"path": spec.path, "sha256": sha256_file(dest), "verified": "at prepare"}
        actual = sha256_file(dest)
        if actual == expected:
            return {"path": spec.path, "sha256": actual, "verified": "sha256"}
        log.warning("%s: sha256 %s != pinned %s; fetching again", dest, actual, expected)
        dest.unlink()
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = _part(dest)
    if mirror is not None:
        src = mirror / spec.path
        if not src.exists():
            raise DataError(src, "not in the data mirror")
        shutil.copyfile(src, part)
        shown = src
    elif spec.member is not None:
        archive = resources / "_downloads" / spec.urls[0].rsplit("/", 1)[-1]
        _download_any(spec.urls, archive)
        extract_member(archive, spec.member, part)
        shown = archive / spec.member
    else:
        if not spec.urls:
            raise DataError(spec.path, "no upstream URL; set data.mirror")
        _download_any(spec.urls, part)
        shown = spec.urls[0]
    try:
        actual = _verify(part, expected, shown)
    except ChecksumError:
        part.unlink(missing_ok=True)
        raise
    part.replace(dest)
    return {
        "path": spec.path,
        "sha256": actual,
        "verified": "sha256" if expected else "at prepare (content hash + published counts)",
    }


def _fetch_tree(spec: registry.FileSpec, resources: Path, mirror: Path | None) -> dict:
    """A manifest and every file it lists (relative to the manifest's folder)."""
    from latentlab.data.parsers.scene15 import read_manifest

    if mirror is None:
        if spec.archives:
            return _fetch_archive_tree(spec, resources)
        return _fetch_scene15_upstream(spec, resources)
    info = _fetch_file(spec, resources, mirror)
    rel_root = Path(spec.path).parent
    entries = read_manifest(resources / spec.path)
    for sha, rel in entries:
        dest = resources / rel_root / rel
        if dest.exists() and sha256_file(dest) == sha:
            continue
        src = mirror / rel_root / rel
        if not src.exists():
            raise DataError(src, "listed in the manifest but not in the data mirror")
        dest.parent.mkdir(parents=True, exist_ok=True)
        part = _part(dest)
        shutil.copyfile(src, part)
        try:
            _verify(part, sha, src)
        except ChecksumError:
            part.unlink(missing_ok=True)
            raise
        part.replace(dest)
    info["n_files"] = len(entries)
    return info


def _md5_file(path: Path, chunk: int = 1 << 24) -> str:
    h = hashlib.md5()  # noqa: S324 (the publishers' checksum, not a security use)
    with open(path, "rb") as f:
        while b := f.read(chunk):
            h.update(b)
    return h.hexdigest()


def _fetch_archive_tree(spec: registry.FileSpec, resources: Path) -> dict:
    """Download every archive of ``spec.archives`` (resumable, into
    ``resources/_downloads``), check its pinned MD5, unpack it under the manifest's folder
    and write the manifest (``<sha256>  <relative path>``) of every unpacked file. A
    mismatching archive is deleted (a rerun downloads it again) and stops the fetch with a
    ChecksumError naming it; the manifest is written last, so an interrupted fetch leaves
    none."""
    from latentlab.data.parsers.scene15 import read_manifest

    manifest = resources / spec.path
    root = manifest.parent
    if manifest.exists():
        missing = [rel for _, rel in read_manifest(manifest) if not (root / rel).exists()]
        if not missing:
            return {"path": spec.path, "verified": "manifest kept", "n_files": "unchanged"}
        log.warning("%s: %d listed file(s) missing; unpacking again", manifest, len(missing))
        manifest.unlink()
    got = []
    for a in spec.archives:
        archive = resources / "_downloads" / a.url.rsplit("/", 1)[-1]
        _download_any((a.url,), archive)
        actual = _md5_file(archive)
        if a.md5 is not None and actual != a.md5:
            archive.unlink()
            raise ChecksumError(archive, a.md5, actual, what="md5")
        dest = root / a.into
        dest.mkdir(parents=True, exist_ok=True)
        log.info("unpacking %s -> %s", archive, dest)
        try:
            if zipfile.is_zipfile(archive):
                with zipfile.ZipFile(archive) as zf:
                    zf.extractall(dest)
            else:
                with tarfile.open(archive) as tf:
                    tf.extractall(dest, filter="data")
        except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError) as e:
            raise DataError(archive, f"truncated or corrupt archive: {e}") from e
        got.append({"url": a.url, "md5": actual, "verified": "md5" if a.md5 else "counts only"})
    lines = [
        f"{sha256_file(f)}  {f.relative_to(root).as_posix()}"
        for f in sorted(root.rglob("*"))
        if f.is_file() and f != manifest and not f.name.startswith(".")
    ]
    part = _part(manifest)
    part.write_text("\n".join(lines) + "\n")
    part.replace(manifest)
    return {"path": spec.path, "archives": got, "n_files": len(lines)}


def _check_fetched(ds: registry.Dataset, resources: Path) -> dict | None:
    """The published counts of a dataset without a canonical form (no prepare step
    checks them): SUN397's classes, partition files and images."""
    if ds.name == "sun397":
        from latentlab.data.parsers.sun397 import check_release

        return check_release(resources / Path(ds.files[0].path).parent, ds.published)
    return None


_SCENE_SUFFIX = {c.lower(): c for c in registry._SCENE15_CLASSES}


def _scene_class(folder: str) -> str | None:
    f = folder.lower()
    for low, c in _SCENE_SUFFIX.items():
        if f.endswith(low):
            return c
    return None


def _fetch_scene15_upstream(spec: registry.FileSpec, resources: Path) -> dict:
    """Download the 15-Scene archive and lay it out as scene15/all/<Class>/<file> with a
    fresh MANIFEST.sha256; the image multiset is checked against the pinned content hash
    at prepare time."""
    archive = resources / "_downloads" / "scene15.zip"
    _download_any(spec.urls, archive)
    root = resources / Path(spec.path).parent
    lines = []

    def walk(zf: zipfile.ZipFile):
        for n in zf.namelist():
            low = n.lower()
            if low.endswith(".zip"):
                import io

                with zipfile.ZipFile(io.BytesIO(zf.read(n))) as inner:
                    walk(inner)
            elif low.endswith(".jpg"):
                cls = _scene_class(Path(n).parent.name)
                if cls is None:
                    raise DataError(archive, f"cannot map folder of {n} to a 15-Scene class")
                data = zf.read(n)
                rel = f"all/{cls}/{Path(n).name}"
                out = root / rel
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(data)
                lines.append(f"{hashlib.sha256(data).hexdigest()}  {rel}")

    try:
        with zipfile.ZipFile(archive) as zf:
            walk(zf)
    except (zipfile.BadZipFile, EOFError, OSError) as e:
        raise DataError(archive, f"truncated or corrupt archive: {e}") from e
    manifest = resources / spec.path
    part = _part(manifest)
    part.write_text("\n".join(sorted(lines, key=lambda s: s[66:])) + "\n")
    part.replace(manifest)
    return {
        "path": spec.path,
        "verified": "at prepare (image multiset hash)",
        "n_files": len(lines),
    }


def fetch(name: str, resources: str | Path, mirror: str | Path | None = None) -> dict:
    """Fetch every file of dataset ``name``; return (and write) a stamp describing them."""
    ds = registry.get(name)
    resources = Path(resources)
    mirror = Path(mirror) if mirror else None
    if mirror is not None and not mirror.is_dir():
        raise DataError(mirror, "data.mirror is not a folder")
    files = []
    for spec in ds.files:
        if spec.tree:
            files.append(_fetch_tree(spec, resources, mirror))
        else:
            files.append(_fetch_file(spec, resources, mirror))
    stamp = {
        "name": name,
        "source": f"mirror {mirror}" if mirror else "upstream",
        "files": files,
    }
    checks = _check_fetched(ds, resources)
    if checks is not None:
        stamp["checks"] = checks
    write_json(stamp, stamp_path(resources, name))
    log.info("%s: %d file(s) in %s", name, len(files), resources)
    return stamp


def stamp_path(resources: str | Path, name: str) -> Path:
    return Path(resources) / ".fetched" / f"{name}.json"
