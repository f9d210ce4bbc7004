"""Turn a fetched dataset into its canonical type, check it, and write its summary.

``prepare(name, root, out_dir)`` parses the files under ``root`` (the ``resources/``
folder), checks the pinned content hash (when the registry has one) and every published
count EXACTLY, then writes ``out_dir/dataset.npz`` and ``out_dir/summary.json``. A
mismatch is a DataError: nothing is written.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import numpy as np

from latentlab.data import registry
from latentlab.data.corpus import BowCorpus
from latentlab.errors import ChecksumError, DataError
from latentlab.outputs import write_json

log = logging.getLogger("latentlab.data")


def parse_dataset(ds: registry.Dataset, root: str | Path, options: dict | None = None):
    """The canonical object of dataset ``ds`` from its files under ``root``."""
    root = Path(root)

    def f(suffix: str) -> Path:
        return root / ds.file(suffix).path

    meta = {
        "dataset": ds.name,
        "title": ds.title,
        "citation": ds.citation,
        "licence": ds.licence,
        "homepage": ds.homepage,
    }
    p = ds.parser
    if p is None:
        raise DataError(
            None, f"{ds.name} has no canonical form: a study reads its fetched files ({ds.notes})"
        )
    if p == "uci":
        from latentlab.data.parsers.uci import parse_uci

        return parse_uci(root / ds.files[0].path, root / ds.files[1].path, meta)
    if p == "ap":
        from latentlab.data.parsers.rda import parse_ap

        return parse_ap(root / ds.files[0].path, meta)
    if p == "cora":
        from latentlab.data.parsers.rda import parse_cora

        return parse_cora(
            f("cora.documents.rda"),
            f("cora.vocab.rda"),
            f("cora.cites.rda"),
            f("cora.titles.rda"),
            meta,
        )
    if p == "newsgroups":
        from latentlab.data.parsers.rda import parse_newsgroups

        return parse_newsgroups(
            f("newsgroup.train.documents.rda"),
            f("newsgroup.test.documents.rda"),
            f("newsgroup.train.labels.rda"),
            f("newsgroup.test.labels.rda"),
            f("newsgroup.vocab.rda"),
            f("newsgroup.label.map.rda"),
            meta,
        )
    if p == "mulan":
        from latentlab.data.parsers.arff import parse_mulan

        return parse_mulan(f("-train.arff"), f("-test.arff"), ds.options["n_labels"], meta)
    if p == "school":
        from latentlab.data.parsers.school import parse_school

        return parse_school(root / ds.files[0].path, meta)
    if p == "enron_email":
        from latentlab.data.parsers.enron import parse_enron_email

        return parse_enron_email(f("employees.txt"), f("messages.tsv"), f("recipients.tsv"), meta)
    if p == "snap":
        from latentlab.data.parsers.snap import parse_snap

        return parse_snap(root / ds.files[0].path, meta)
    if p == "aan":
        from latentlab.data.parsers.citations import parse_aan

        return parse_aan(root / ds.files[0].path, ds.options, meta)
    if p == "nips_cite":
        from latentlab.data.parsers.citations import parse_nips_cite

        return parse_nips_cite(
            f("nips.corpus"), f("nips.vocab"), f("nips.docs"), f("nips.cite"),
            f("nips.authors"), f("nips.authors.key"), meta,
        )  # fmt: skip
    if p == "scene15":
        from latentlab.data.parsers.scene15 import parse_scene15

        folder = (root / ds.files[0].path).parent
        return parse_scene15(folder, options, meta, log=log)
    raise DataError(None, f"{ds.name}: no parser {p!r}")


def content_hash(obj) -> str:
    """The content checksum a registry entry pins (images: the image multiset)."""
    if "image_multiset_sha256" in obj.metadata:
        return obj.metadata["image_multiset_sha256"]
    return obj.content_sha256()


def summarize(obj) -> dict:
    s = obj.summary()
    if isinstance(obj, BowCorpus):
        split = obj.metadata.get("split")
        if split:
            lens = obj.doc_lengths()
            for part, (a, b) in split.items():
                s[f"n_{part}"] = b - a
                s[f"n_{part}_tokens"] = int(lens[a:b].sum())
    return s


def check_published(ds: registry.Dataset, summary: dict, source) -> dict:
    """Compare every published count with ``summary``; raise DataError listing mismatches."""
    bad = {k: (v, summary.get(k)) for k, v in ds.published.items() if summary.get(k) != v}
    if bad:
        detail = "; ".join(f"{k}: published {a}, parsed {b}" for k, (a, b) in bad.items())
        raise DataError(source, f"{ds.name} does not match its published counts: {detail}")
    return {
        k: {"published": v, "parsed": summary.get(k), "ok": True} for k, v in ds.published.items()
    }


def prepare(name: str, root: str | Path, out_dir: str | Path, options: dict | None = None) -> dict:
    ds = registry.get(name)
    out_dir = Path(out_dir)
    t0 = time.perf_counter()
    log.info("%s: parsing from %s", name, root)
    obj = parse_dataset(ds, root, options)
    source = Path(root) / ds.files[0].path
    h = content_hash(obj)
    if ds.content_sha256 is not None and h != ds.content_sha256:
        raise ChecksumError(source, ds.content_sha256, h, what="parsed-content sha256")
    summary = summarize(obj)
    checks = check_published(ds, summary, source)
    summary.update(
        {
            "name": name,
            "title": ds.title,
            "citation": ds.citation,
            "licence": ds.licence,
            "files": [f.path for f in ds.files],
            "content_check": "pinned" if ds.content_sha256 else "not pinned (file sha256 pinned)",
            "published_check": checks,
            "notes": ds.notes,
            "parse_seconds": round(time.perf_counter() - t0, 2),
        }
    )
    obj.save(out_dir / "dataset.npz")
    write_json(summary, out_dir / "summary.json")
    log.info("%s: %s", name, {k: v for k, v in summary.items() if k.startswith("n_")})
    return summary


def load_dataset(path: str | Path):
    """Load any canonical type by the format recorded in the file."""
    from latentlab.data._io import read_format

    fmt = read_format(path)
    if fmt == "latentlab.bow":
        return BowCorpus.load(path)
    from latentlab.data.featureset import FORMAT as FS
    from latentlab.data.featureset import FeatureSet
    from latentlab.data.graph import STATIC, TEMPORAL, StaticGraph, TemporalGraph
    from latentlab.data.tasks import FORMAT as TS
    from latentlab.data.tasks import TaskDataset

    for f, cls in (
        (FS, FeatureSet),
        (STATIC, StaticGraph),
        (TEMPORAL, TemporalGraph),
        (TS, TaskDataset),
    ):
        if fmt == f:
            return cls.load(path)
    raise DataError(path, f"unknown canonical format {fmt!r}")


__all__ = ["prepare", "parse_dataset", "load_dataset", "check_published", "np"]
