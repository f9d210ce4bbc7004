"""Write a BowCorpus in each local format (UCI, LDA-C, Matrix Market, text)."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
TINY = HERE / "tiny_corpus.txt"


def tiny_corpus():
    from latentlab.data.parsers.local import parse_text

    return parse_text(TINY)[0]


def write_vocab(path: Path, vocab) -> Path:
    path.write_text("\n".join(vocab) + "\n", encoding="utf-8")
    return path


def write_uci(corpus, d: Path, gz: bool = True) -> dict:
    doc = corpus.doc_ids_per_entry() + 1
    lines = [str(corpus.n_docs), str(corpus.n_vocab), str(corpus.nnz)]
    lines += [
        f"{a} {b + 1} {c}" for a, b, c in zip(doc, corpus.word_ids, corpus.counts, strict=True)
    ]
    text = ("\n".join(lines) + "\n").encode()
    p = d / ("docword.tiny.txt.gz" if gz else "docword.tiny.txt")
    p.write_bytes(gzip.compress(text, mtime=0) if gz else text)
    return {
        "format": "uci",
        "path": str(p),
        "vocab": str(write_vocab(d / "vocab.tiny.txt", corpus.vocab)),
    }


def write_ldac(corpus, d: Path) -> dict:
    lines = []
    for i in range(corpus.n_docs):
        w, c = corpus.doc(i)
        lines.append(" ".join([str(len(w))] + [f"{a}:{b}" for a, b in zip(w, c, strict=True)]))
    p = d / "tiny.ldac"
    p.write_text("\n".join(lines) + "\n")
    return {
        "format": "ldac",
        "path": str(p),
        "vocab": str(write_vocab(d / "tiny.ldac.vocab", corpus.vocab)),
    }


def write_mm(corpus, d: Path) -> dict:
    import scipy.io
    import scipy.sparse as sp

    X = sp.csr_matrix(
        (corpus.counts, corpus.word_ids, corpus.indptr), shape=(corpus.n_docs, corpus.n_vocab)
    )
    p = d / "tiny.mtx"
    scipy.io.mmwrite(str(p), X.tocoo(), field="integer")
    return {
        "format": "mm",
        "path": str(p),
        "vocab": str(write_vocab(d / "tiny.mm.vocab", corpus.vocab)),
    }


def write_all(d: Path) -> dict:
    """{name: data.local spec} of the tiny corpus in all four formats, under ``d``."""
    c = tiny_corpus()
    d.mkdir(parents=True, exist_ok=True)
    return {
        "tiny_uci": write_uci(c, d),
        "tiny_ldac": write_ldac(c, d),
        "tiny_mm": write_mm(c, d),
        "tiny_text": {"format": "text", "path": str(TINY)},
    }


__all__ = ["np", "write_all", "tiny_corpus", "write_uci", "write_ldac", "write_mm", "write_vocab"]
