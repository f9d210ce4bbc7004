"""Parsers for a user's own corpus (``data.local`` in the config), strict about bad input.

Formats (each returns a validated :class:`BowCorpus`):

``uci``   UCI bag of words: ``docword`` (D, W, NNZ header lines, then ``doc word count``,
          1-based) + ``vocab`` (one word per line).
``ldac``  LDA-C (Blei's lda-c): one document per line, ``N id:count id:count ...`` with
          0-based word ids and N the number of pairs; + ``vocab``.
``mm``    Matrix Market coordinate file (``scipy.io.mmread``), rows = documents, columns =
          words (``orientation: words_by_docs`` for the transpose); + ``vocab``.
``text``  plain UTF-8 text, one document per line, tokenised by scikit-learn's
          ``CountVectorizer`` with the recorded settings (stop words, min/max df, ...).

Every error is a :class:`DataError` naming the file, the line (1-based) and the problem:
a vocabulary with fewer lines than the largest word id, duplicate vocabulary entries, a
negative or non-integer count, an empty corpus, text that is not UTF-8.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.data.parsers._util import read_bytes
from latentlab.errors import DataError

FORMATS = ("uci", "ldac", "mm", "text")


def decode_utf8(path: str | Path, data: bytes) -> str:
    """``data`` decoded as UTF-8; a DataError naming the line and byte offset otherwise."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise DataError(
            path, f"line {line}: not valid UTF-8 (byte 0x{data[e.start]:02x} at offset {e.start})"
        ) from None


def read_vocab_strict(path: str | Path) -> list[str]:
    """One word per line (trailing blank lines ignored); blank or duplicate entries are
    errors naming both lines."""
    lines = decode_utf8(path, read_bytes(path)).splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    seen: dict[str, int] = {}
    words = []
    for i, ln in enumerate(lines, start=1):
        w = ln.strip()
        if not w:
            raise DataError(path, f"line {i}: empty vocabulary entry")
        if w in seen:
            raise DataError(
                path, f"line {i}: duplicate vocabulary entry {w!r} (first at line {seen[w]})"
            )
        seen[w] = i
        words.append(w)
    if not words:
        raise DataError(path, "empty vocabulary")
    return words


def _check_vocab_covers(vocab_path, n_vocab: int, max_id: int, where: str) -> None:
    """A word id (0-based ``max_id``) needs at least ``max_id + 1`` vocabulary lines."""
    if max_id >= n_vocab:
        raise DataError(
            vocab_path,
            f"{n_vocab} vocabulary lines but {where} uses word id {max_id + 1} "
            f"(1-based; the vocabulary needs at least {max_id + 1} lines)",
        )


def _count(tok: str, path, lineno: int) -> int:
    try:
        c = int(tok)
    except ValueError:
        raise DataError(path, f"line {lineno}: count {tok!r} is not an integer") from None
    if c < 0:
        raise DataError(path, f"line {lineno}: negative count {c}")
    return c


def _int(tok: str, path, lineno: int, what: str) -> int:
    try:
        return int(tok)
    except ValueError:
        raise DataError(path, f"line {lineno}: {what} {tok!r} is not an integer") from None


def _nonempty(corpus: BowCorpus, path) -> BowCorpus:
    if corpus.n_docs == 0 or corpus.n_tokens == 0:
        raise DataError(path, f"empty corpus ({corpus.n_docs} documents, 0 tokens)")
    return corpus


# --------------------------------------------------------------------------- uci
def parse_uci_local(docword: str | Path, vocab: str | Path) -> BowCorpus:
    """UCI bag of words, every body line checked (header D, W, NNZ must match the body)."""
    docword = Path(docword)
    text = decode_utf8(docword, read_bytes(docword))
    lines = text.splitlines()
    if len(lines) < 3 or any(not h.strip() for h in lines[:3]):
        raise DataError(docword, "missing header: expected 3 lines D, W, NNZ")
    D, W, NNZ = (_int(lines[i].strip(), docword, i + 1, "header value") for i in range(3))
    if min(D, W, NNZ) < 0:
        raise DataError(docword, f"negative header value (D={D}, W={W}, NNZ={NNZ})")
    body = [(i + 4, ln) for i, ln in enumerate(lines[3:]) if ln.strip()]
    d = np.empty(len(body), np.int64)
    w = np.empty(len(body), np.int64)
    c = np.empty(len(body), np.int64)
    for j, (lineno, ln) in enumerate(body):
        parts = ln.split()
        if len(parts) != 3:
            raise DataError(docword, f"line {lineno}: expected 'doc word count', got {ln!r}")
        d[j] = _int(parts[0], docword, lineno, "document id")
        w[j] = _int(parts[1], docword, lineno, "word id")
        c[j] = _count(parts[2], docword, lineno)
    if len(body) != NNZ:
        raise DataError(docword, f"header says NNZ = {NNZ} but the body has {len(body)} lines")
    for name, ids, hi in (("document", d, D), ("word", w, W)):
        bad = (ids < 1) | (ids > hi)
        if bad.any():
            j = int(np.flatnonzero(bad)[0])
            raise DataError(
                docword, f"line {body[j][0]}: {name} id {int(ids[j])} out of range 1..{hi}"
            )
    words = read_vocab_strict(vocab)
    if len(w):
        _check_vocab_covers(vocab, len(words), int(w.max()) - 1, Path(docword).name)
    if len(words) != W:
        raise DataError(
            vocab, f"{len(words)} vocabulary lines but {docword.name} header says W = {W}"
        )
    corpus = BowCorpus.from_triplets(d - 1, w - 1, c, D, words, source=docword)
    if corpus.nnz != int((c > 0).sum()):
        raise DataError(docword, "duplicate (document, word) lines")
    return _nonempty(corpus, docword).validate(docword)


# --------------------------------------------------------------------------- lda-c
def parse_ldac(path: str | Path, vocab: str | Path) -> BowCorpus:
    """LDA-C: ``N id:count ...`` per line (0-based ids); N must equal the number of pairs."""
    path = Path(path)
    lines = decode_utf8(path, read_bytes(path)).splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    docs, words, counts = [], [], []
    for i, ln in enumerate(lines, start=1):
        parts = ln.split()
        if not parts:
            raise DataError(path, f"line {i}: empty line (an empty document is written '0')")
        n = _int(parts[0], path, i, "number of distinct words")
        if n != len(parts) - 1:
            raise DataError(
                path, f"line {i}: says {n} distinct words but has {len(parts) - 1} pairs"
            )
        seen = set()
        for p in parts[1:]:
            wid, sep, cnt = p.partition(":")
            if not sep:
                raise DataError(path, f"line {i}: expected 'id:count', got {p!r}")
            wi = _int(wid, path, i, "word id")
            if wi < 0:
                raise DataError(path, f"line {i}: negative word id {wi}")
            if wi in seen:
                raise DataError(path, f"line {i}: word id {wi} listed twice")
            seen.add(wi)
            docs.append(i - 1)
            words.append(wi)
            counts.append(_count(cnt, path, i))
    vocab_words = read_vocab_strict(vocab)
    if words:
        _check_vocab_covers(vocab, len(vocab_words), max(words), path.name)
    corpus = BowCorpus.from_triplets(docs, words, counts, len(lines), vocab_words, source=path)
    return _nonempty(corpus, path).validate(path)


# --------------------------------------------------------------------------- matrix market
def _mm_header_lines(path: Path) -> int:
    """Lines before the first entry of a coordinate file (banner, comments, size line)."""
    n = 0
    for ln in decode_utf8(path, read_bytes(path)).splitlines():
        n += 1
        if not ln.startswith("%") and ln.strip():
            return n  # the size line
    return n


def parse_mm(path: str | Path, vocab: str | Path, orientation: str = "docs_by_words") -> BowCorpus:
    """Matrix Market (coordinate or array) read by ``scipy.io.mmread``; entries must be
    non-negative integers. Rows are documents (``orientation='docs_by_words'``)."""
    import scipy.io
    import scipy.sparse as sp

    path = Path(path)
    if orientation not in ("docs_by_words", "words_by_docs"):
        raise DataError(
            path, f"orientation must be docs_by_words or words_by_docs, not {orientation!r}"
        )
    try:
        m = scipy.io.mmread(str(path))
    except (ValueError, OSError, IndexError) as e:
        raise DataError(path, f"not a readable Matrix Market file: {e}") from e
    coord = sp.issparse(m)
    m = sp.coo_matrix(m)
    if orientation == "words_by_docs":
        rows, cols = m.col, m.row
        D, W = m.shape[1], m.shape[0]
    else:
        rows, cols = m.row, m.col
        D, W = m.shape
    vals = np.asarray(m.data)
    if np.iscomplexobj(vals):
        raise DataError(path, "complex entries: counts must be non-negative integers")
    bad = (vals < 0) | (vals != np.round(vals))
    if bad.any():
        j = int(np.flatnonzero(bad)[0])
        where = f"line {_mm_header_lines(path) + j + 1}: " if coord else ""
        kind = "negative" if vals[j] < 0 else "non-integer"
        raise DataError(path, f"{where}{kind} count {float(vals[j]):g}")
    words = read_vocab_strict(vocab)
    if len(cols):
        _check_vocab_covers(vocab, len(words), int(cols.max()), path.name)
    if W != len(words):
        raise DataError(
            vocab, f"{len(words)} vocabulary lines but {path.name} has {W} word columns"
        )
    corpus = BowCorpus.from_triplets(rows, cols, vals.astype(np.int64), D, words, source=path)
    return _nonempty(corpus, path).validate(path)


# --------------------------------------------------------------------------- text
def parse_text(
    path: str | Path,
    stop_words: str | list[str] | None = "english",
    min_df: float = 1,
    max_df: float = 1.0,
    lowercase: bool = True,
    token_pattern: str = r"(?u)\b[^\W\d_]{2,}\b",
    max_features: int | None = None,
) -> tuple[BowCorpus, dict]:
    """One document per line (UTF-8), tokenised by ``CountVectorizer`` with these
    settings; returns the corpus and the settings as recorded. Empty lines are kept as
    empty documents (ids stay aligned with the file's lines)."""
    from sklearn.feature_extraction.text import CountVectorizer

    path = Path(path)
    lines = decode_utf8(path, read_bytes(path)).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [ln.rstrip("\r") for ln in lines]
    if not any(ln.strip() for ln in lines):
        raise DataError(path, f"empty corpus ({len(lines)} lines, none with text)")
    try:
        re.compile(token_pattern)
    except re.error as e:
        msg = f"token_pattern {token_pattern!r} is not a regular expression: {e}"
        raise DataError(path, msg) from None
    settings = {
        "stop_words": stop_words,
        "min_df": min_df,
        "max_df": max_df,
        "lowercase": lowercase,
        "token_pattern": token_pattern,
        "max_features": max_features,
    }
    cv = CountVectorizer(**settings)
    try:
        X = cv.fit_transform(lines).tocsr()
    except ValueError as e:  # empty vocabulary after stop words / df cuts, bad df settings
        raise DataError(path, f"CountVectorizer{settings}: {e}") from None
    X.sort_indices()
    vocab = list(cv.get_feature_names_out())
    corpus = BowCorpus(X.indptr, X.indices, X.data, vocab, metadata={"source": str(path)})
    import sklearn

    settings["sklearn_version"] = sklearn.__version__
    return _nonempty(corpus, path).validate(path), settings
