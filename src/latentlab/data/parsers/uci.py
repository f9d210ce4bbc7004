"""UCI Bag of Words: ``docword.<name>.txt[.gz]`` + ``vocab.<name>.txt``.

docword: three header lines D, W, NNZ, then NNZ lines ``docID wordID count`` (1-based).
The header must agree with the body (NNZ lines, ids within D and W) and with the
vocabulary (W lines); counts must be positive.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.data.corpus import BowCorpus
from latentlab.data.parsers._util import parse_int, read_bytes, read_text
from latentlab.errors import DataError


def read_vocab(path: str | Path) -> list[str]:
    lines = read_text(path).splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    return [ln.strip() for ln in lines]


def parse_uci(docword: str | Path, vocab: str | Path, metadata: dict | None = None) -> BowCorpus:
    docword = Path(docword)
    data = read_bytes(docword)
    buf = io.BytesIO(data)
    header = [buf.readline().decode().strip() for _ in range(3)]
    if any(h == "" for h in header):
        raise DataError(docword, "missing header: expected 3 lines D, W, NNZ")
    D, W, NNZ = (parse_int(h, docword, i + 1, "header value") for i, h in enumerate(header))
    if min(D, W, NNZ) < 0:
        raise DataError(docword, f"negative header value (D={D}, W={W}, NNZ={NNZ})")
    try:
        body = pd.read_csv(
            buf, sep=r"\s+", header=None, dtype=np.int64, engine="c", names=["d", "w", "c"]
        )
    except pd.errors.EmptyDataError:
        body = pd.DataFrame({"d": [], "w": [], "c": []}, dtype=np.int64)
    except (ValueError, pd.errors.ParserError) as e:
        raise DataError(docword, f"malformed body line: {e}") from e
    if body.isna().any().any():
        raise DataError(docword, "a body line has fewer than 3 fields")
    if len(body) != NNZ:
        raise DataError(docword, f"header says NNZ = {NNZ} but the body has {len(body)} lines")
    d, w, c = (body[k].to_numpy() for k in "dwc")
    for name, ids, hi in (("document", d, D), ("word", w, W)):
        bad = (ids < 1) | (ids > hi)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise DataError(
                docword,
                f"line {i + 4}: {name} id {int(ids[i])} out of range 1..{hi} (header says {hi})",
            )
    if len(c) and c.min() <= 0:
        i = int(np.flatnonzero(c <= 0)[0])
        kind = "negative" if c[i] < 0 else "zero"
        raise DataError(docword, f"line {i + 4}: {kind} count {int(c[i])}")
    words = read_vocab(vocab)
    if len(words) != W:
        raise DataError(
            vocab, f"{len(words)} vocabulary lines but {docword.name} header says W = {W}"
        )
    meta = {"source": str(docword), **(metadata or {})}
    corpus = BowCorpus.from_triplets(d - 1, w - 1, c, D, words, source=docword, metadata=meta)
    if corpus.nnz != NNZ:
        raise DataError(docword, f"{NNZ - corpus.nnz} duplicate (doc, word) lines")
    return corpus.validate(docword)
