"""Helpers that write small hand-made source files for the data-layer tests."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path


def sha(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def write_uci(tmp: Path, header=(3, 4, 5), body=None, vocab=None, gz=True, name="toy"):
    body = body if body is not None else ["1 1 2", "1 3 1", "2 2 4", "3 1 1", "3 4 3"]
    vocab = vocab if vocab is not None else ["apple", "bean", "corn", "date"]
    text = "\n".join([str(h) for h in header] + body) + "\n"
    dw = tmp / f"docword.{name}.txt{'.gz' if gz else ''}"
    if gz:
        with gzip.open(dw, "wt") as f:
            f.write(text)
    else:
        dw.write_text(text)
    vf = tmp / f"vocab.{name}.txt"
    vf.write_text("\n".join(vocab) + "\n")
    return dw, vf


def truncate(path: Path, keep: float = 0.5) -> Path:
    data = Path(path).read_bytes()
    Path(path).write_bytes(data[: max(1, int(len(data) * keep))])
    return Path(path)
