"""A user's own corpus registered in the config (``data.local``), without the registry.

``data.local: {NAME: {format: uci|ldac|mm|text, path: FILE, vocab: FILE, ...}}``;
``prepare_local(name, spec, out_dir)`` parses it (:mod:`latentlab.data.parsers.local`)
into the canonical :class:`BowCorpus` and writes ``out_dir/dataset.npz`` and
``out_dir/summary.json``: the counts, the content hash (``content_sha256``, which every
output computed from the corpus records), the input files' sha256 and the settings used
(for ``text``, the ``CountVectorizer`` settings). Bad input is a DataError naming the file
and line, and leaves nothing in ``out_dir``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from latentlab.data.corpus import BowCorpus
from latentlab.data.parsers import local as P
from latentlab.errors import ConfigError
from latentlab.outputs import write_json

TEXT_DEFAULTS = {
    "stop_words": "english",
    "min_df": 1,
    "max_df": 1.0,
    "lowercase": True,
    "token_pattern": r"(?u)\b[^\W\d_]{2,}\b",
    "max_features": None,
}
NEEDS_VOCAB = ("uci", "ldac", "mm")
KEYS = {
    "uci": {"format", "path", "vocab", "title"},
    "ldac": {"format", "path", "vocab", "title"},
    "mm": {"format", "path", "vocab", "orientation", "title"},
    "text": {"format", "path", "title", *TEXT_DEFAULTS},
}


def check_spec(name: str, spec: dict) -> dict:
    """The spec with its format's keys checked (ConfigError naming ``data.local.NAME.key``)."""
    where = f"data.local.{name}"
    if not isinstance(spec, dict):
        raise ConfigError(where, "expected a mapping {format: ..., path: ...}")
    fmt = spec.get("format")
    if fmt not in P.FORMATS:
        raise ConfigError(f"{where}.format", f"{fmt!r} is not one of {list(P.FORMATS)}")
    unknown = sorted(set(spec) - KEYS[fmt])
    if unknown:
        raise ConfigError(
            f"{where}.{unknown[0]}", f"not a setting of format {fmt} ({sorted(KEYS[fmt])})"
        )
    if "path" not in spec:
        raise ConfigError(f"{where}.path", "missing")
    if fmt in NEEDS_VOCAB and "vocab" not in spec:
        raise ConfigError(f"{where}.vocab", f"format {fmt} needs a vocabulary file")
    return spec


def input_files(spec: dict) -> list[str]:
    return [spec["path"]] + ([spec["vocab"]] if "vocab" in spec else [])


def vocab_size_hint(spec: dict) -> int | None:
    """Vocabulary size known without parsing the corpus (the vocabulary file's non-blank
    lines), or None (text: known only after tokenising)."""
    if "vocab" not in spec or not Path(spec["vocab"]).exists():
        return None
    from latentlab.data.parsers._util import read_bytes

    return sum(1 for ln in read_bytes(spec["vocab"]).splitlines() if ln.strip())


def _sha256(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def parse_local(name: str, spec: dict) -> tuple[BowCorpus, dict]:
    """(corpus, settings recorded) of one ``data.local`` entry."""
    spec = check_spec(name, spec)
    fmt = spec["format"]
    settings: dict = {"format": fmt}
    if fmt == "uci":
        corpus = P.parse_uci_local(spec["path"], spec["vocab"])
    elif fmt == "ldac":
        corpus = P.parse_ldac(spec["path"], spec["vocab"])
    elif fmt == "mm":
        settings["orientation"] = spec.get("orientation", "docs_by_words")
        corpus = P.parse_mm(spec["path"], spec["vocab"], settings["orientation"])
    else:
        opts = {k: spec.get(k, v) for k, v in TEXT_DEFAULTS.items()}
        corpus, used = P.parse_text(spec["path"], **opts)
        settings["vectorizer"] = used
    files = {str(p): _sha256(p) for p in input_files(spec)}
    corpus.metadata = {
        "dataset": name,
        "title": spec.get("title", name),
        "source": str(spec["path"]),
        "local": True,
        "settings": settings,
        "files_sha256": files,
    }
    return corpus, settings


def prepare_local(name: str, spec: dict, out_dir: str | Path) -> dict:
    """Parse and write ``dataset.npz`` + ``summary.json``; returns the summary. On bad
    input nothing is written (and an empty ``out_dir`` made by the caller is removed)."""
    out_dir = Path(out_dir)
    try:
        corpus, settings = parse_local(name, spec)
    except Exception:
        if out_dir.is_dir() and not any(out_dir.iterdir()):
            out_dir.rmdir()
        raise
    summary = {
        "name": name,
        **corpus.summary(),
        "format": settings["format"],
        "settings": settings,
        "files_sha256": corpus.metadata["files_sha256"],
        "source": corpus.metadata["source"],
    }
    corpus.save(out_dir / "dataset.npz")
    write_json(summary, out_dir / "summary.json")
    return summary
