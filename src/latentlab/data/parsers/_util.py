"""Reading helpers that turn low-level failures into DataError naming the file."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

from latentlab.errors import DataError


def read_bytes(path: str | Path) -> bytes:
    """Whole file content, gunzipped when the name ends in .gz; a truncated or corrupt
    gzip stream is a DataError."""
    path = Path(path)
    if not path.exists():
        raise DataError(path, "file not found")
    if path.suffix == ".gz":
        try:
            with gzip.open(path, "rb") as f:
                return f.read()
        except (EOFError, gzip.BadGzipFile, zlib.error, OSError) as e:
            raise DataError(path, f"truncated or corrupt gzip archive ({e})") from e
    return path.read_bytes()


def read_text(path: str | Path) -> str:
    data = read_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def parse_int(token: str, path, lineno: int, what: str) -> int:
    try:
        return int(token)
    except ValueError:
        raise DataError(path, f"line {lineno}: {what} {token!r} is not an integer") from None
