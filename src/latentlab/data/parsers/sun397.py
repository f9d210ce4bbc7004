"""SUN397 (Xiao et al. 2010): the official partitions and the checks of a fetched release.

The fetched tree (``resources/sun397/``, listed by its ``MANIFEST.sha256``) holds the
images under ``SUN397/<letter>/<class>/...jpg`` and the partition files under
``Partitions/`` (``Training_NN.txt`` / ``Testing_NN.txt``, NN = 01..10: 50 + 50 images of
every class, one ``/<letter>/<class>/<image>`` per line).
"""

from __future__ import annotations

from pathlib import Path

from latentlab.errors import DataError


def _partition_file(folder: Path, name: str) -> Path:
    found = sorted((folder / "Partitions").rglob(name))
    if not found:
        raise DataError(folder / "Partitions" / name, "partition file not found")
    return found[0]


def read_partition(folder: str | Path, partition: int) -> dict[str, dict[str, list[str]]]:
    """``{"train": {class: [image, ...]}, "test": {...}}`` of official partition
    ``partition`` (1..10). A class is the image's folder as the file writes it
    (``/a/abbey``); an image is its path relative to ``folder/SUN397``."""
    folder = Path(folder)
    split: dict[str, dict[str, list[str]]] = {}
    for k, f in (("train", f"Training_{partition:02d}.txt"),
                 ("test", f"Testing_{partition:02d}.txt")):  # fmt: skip
        for x in _partition_file(folder, f).read_text().split():
            split.setdefault(k, {}).setdefault(str(Path(x).parent), []).append(x.lstrip("/"))
    return split


def check_release(folder: str | Path, published: dict) -> dict:
    """The counts of an unpacked release: ``published["n_classes"]`` classes in
    Training_01.txt, ``published["partition_lines"]`` lines in every partition file, and
    every listed image present. A DataError names the first file that fails."""
    folder = Path(folder)
    parts = sorted((folder / "Partitions").rglob("*ing_*.txt"))
    if not parts:
        raise DataError(folder / "Partitions", "no Training_/Testing_ partition files")
    first = _partition_file(folder, "Training_01.txt")
    classes = {str(Path(x).parent) for x in first.read_text().split()}
    if len(classes) != published["n_classes"]:
        raise DataError(first, f"{len(classes)} classes, expected {published['n_classes']}")
    for p in parts:
        lines = p.read_text().split()
        if len(lines) != published["partition_lines"]:
            raise DataError(p, f"{len(lines)} images, expected {published['partition_lines']}")
        missing = [x for x in lines if not (folder / "SUN397" / x.lstrip("/")).exists()]
        if missing:
            raise DataError(folder / "SUN397" / missing[0].lstrip("/"), "listed image missing")
    return {
        "n_classes": len(classes),
        "partition_files": [p.name for p in parts],
        "partition_lines": published["partition_lines"],
        "images_present": True,
    }
