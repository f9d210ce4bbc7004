"""Citation corpora of Foulds (2014) ch. 3: the ACL Anthology Network (AAN) release and
Heinrich's NIPS 0-12 collection with internal citations. Both become a
:class:`BowCorpus` whose ``links`` are (citing, cited) rows (the tir study's
``row_cites_col``) and whose ``titles`` are the papers' titles.

AAN (Radev et al. 2013), release tarball ``aanrelease2013.tar.gz``:
  ``aan/release/2013/acl.txt``           one citation per line, ``CITING ==> CITED``
                                           (ACL Anthology ids such as ``P05-1033``);
  ``aan/release/2013/acl-metadata.txt``  BibTeX-like blocks separated by blank lines,
                                           ``id = {..}``, ``author = {..}``, ``title =
                                           {..}``, ``venue = {..}``, ``year = {..}``;
  ``aan/papers_text/<id>.txt``           the text extracted from each paper's PDF.
  The document's subset is "3286 articles from the ACL conference published between 1987
  and 2011" (Sec 3.5): ``venue`` and the year range are options; papers without text are
  left out; the text is tokenised here (``min_df`` etc. are options, recorded in the
  corpus metadata) because the release ships no bag of words.

NIPS 0-12 (Heinrich, arbylon.net, 2010-11-25 release with citations; based on Roweis):
  ``nips.corpus``   one line per document, svm-light ``nterms (termid:freq)+``;
  ``nips.vocab``    one term per line (line 1 = term 0); ``nips.docs``: titles;
  ``nips.cite``     one line per document, the ids of the NIPS documents it cites;
  ``nips.authors``  author ids per document; ``nips.authors.key``: author names.
"""

from __future__ import annotations

import re
import tarfile
from pathlib import Path

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.errors import DataError

from ._util import parse_int, read_text

_FIELD = re.compile(r"^\s*(\w+)\s*=\s*\{(.*)\}\s*$")
_WORD = re.compile(r"[a-z][a-z]+")


# ----------------------------------------------------------------------------- AAN
def parse_aan_citations(text: str, source) -> list[tuple[str, str]]:
    """``CITING ==> CITED`` lines (blank lines skipped); anything else is a DataError."""
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split("==>")
        if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
            raise DataError(source, f"line {i}: not 'CITING ==> CITED': {line[:80]!r}")
        out.append((parts[0].strip(), parts[1].strip()))
    return out


def parse_aan_metadata(text: str, source) -> dict[str, dict]:
    """The metadata blocks by paper id (fields id, author, title, venue, year)."""
    papers: dict[str, dict] = {}
    block: dict = {}
    for i, line in enumerate(text.splitlines() + [""], 1):
        if not line.strip():
            if block:
                if "id" not in block:
                    raise DataError(source, f"block ending at line {i} has no id")
                papers[block["id"]] = block
                block = {}
            continue
        m = _FIELD.match(line)
        if m is None:
            raise DataError(source, f"line {i}: not 'key = {{value}}': {line[:80]!r}")
        block[m.group(1).lower()] = m.group(2).strip()
    return papers


def tokenize(text: str, stop: frozenset, min_len: int) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if len(w) >= min_len and w not in stop]


def _stopwords() -> frozenset:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS)


def parse_aan(tarball, options: dict, metadata: dict | None = None) -> BowCorpus:
    """The AAN subset of ``options`` (venue, years, min_len, min_df) from the release
    tarball; ``options['expect']`` holds the release's own line counts (checked)."""
    tarball = Path(tarball)
    venue = options["venue"]
    y0, y1 = options["years"]
    try:
        with tarfile.open(tarball) as tf:
            members = {m.name: m for m in tf.getmembers() if m.isfile()}

            def find(suffix):
                hits = [n for n in members if n.endswith(suffix)]
                if len(hits) != 1:
                    raise DataError(tarball, f"expected one member ending in {suffix}, "
                                    f"found {len(hits)}")  # fmt: skip
                return hits[0]

            def read(name):
                return tf.extractfile(members[name]).read().decode("utf-8", errors="replace")

            cite_name = find(options["citations"])
            meta_name = find(options["metadata"])
            cites = parse_aan_citations(read(cite_name), tarball / cite_name)
            papers = parse_aan_metadata(read(meta_name), tarball / meta_name)
            expect = options.get("expect", {})
            for key, got in (("citation_lines", len(cites)), ("metadata_entries", len(papers))):
                if key in expect and expect[key] != got:
                    raise DataError(tarball, f"{key}: the release documents {expect[key]}, "
                                    f"parsed {got}")  # fmt: skip
            texts = {}
            for name in members:
                m = re.search(r"papers_text/([A-Z]\d\d-\d{4})\.txt$", name)
                if m is None:
                    continue
                pid = m.group(1)
                p = papers.get(pid)
                if p is None or p.get("venue") != venue:
                    continue
                year = parse_int(p.get("year", ""), tarball / meta_name, 0, f"year of {pid}")
                if y0 <= year <= y1:
                    texts[pid] = read(name)
    except (tarfile.TarError, EOFError, OSError) as e:
        raise DataError(tarball, f"truncated or corrupt archive: {e}") from e
    return _aan_corpus(texts, papers, cites, options, tarball, metadata)


def _aan_corpus(texts, papers, cites, options, source, metadata) -> BowCorpus:
    stop = _stopwords()
    ids = sorted(pid for pid, t in texts.items() if t.strip())
    toks = [tokenize(texts[pid], stop, int(options["min_len"])) for pid in ids]
    keep = [i for i, t in enumerate(toks) if t]
    ids = [ids[i] for i in keep]
    toks = [toks[i] for i in keep]
    df: dict[str, int] = {}
    for t in toks:
        for w in set(t):
            df[w] = df.get(w, 0) + 1
    vocab = sorted(w for w, n in df.items() if n >= int(options["min_df"]))
    wid = {w: i for i, w in enumerate(vocab)}
    doc, word = [], []
    for d, t in enumerate(toks):
        ws = [wid[w] for w in t if w in wid]
        doc.append(np.full(len(ws), d, np.int64))
        word.append(np.array(ws, np.int64))
    pos = {pid: i for i, pid in enumerate(ids)}
    links = sorted({(pos[a], pos[b]) for a, b in cites if a in pos and b in pos})
    meta = {
        "source": str(source),
        "paper_ids": ids,
        "authors": [papers[p].get("author", "") for p in ids],
        "years": [papers[p].get("year", "") for p in ids],
        "tokenizer": {k: options[k] for k in ("venue", "years", "min_len", "min_df")}
        | {"pattern": _WORD.pattern, "stopwords": "scikit-learn ENGLISH_STOP_WORDS"},
        **(metadata or {}),
    }
    d = np.concatenate(doc) if doc else np.zeros(0, np.int64)
    w = np.concatenate(word) if word else np.zeros(0, np.int64)
    return BowCorpus.from_triplets(
        d, w, np.ones(len(w), np.int64), len(ids), vocab, source=source,
        titles=[papers[p].get("title", p) for p in ids],
        links=np.array(links, np.int64).reshape(-1, 2), metadata=meta,
    )  # fmt: skip


# ---------------------------------------------------------------------------- NIPS
def _lines(path) -> list[str]:
    text = read_text(path)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines = lines[:-1]
    return lines


def parse_nips_cite(corpus, vocab, docs, cite, authors, authors_key,
                    metadata: dict | None = None) -> BowCorpus:  # fmt: skip
    """Heinrich's NIPS 0-12 files (every file one line per document / term / author)."""
    words = [w.strip() for w in _lines(vocab)]
    V = len(words)
    rows = _lines(corpus)
    D = len(rows)
    d_of, w_of, c_of = [], [], []
    for i, line in enumerate(rows):
        parts = line.split()
        if not parts:
            raise DataError(corpus, f"line {i + 1}: empty (expected 'nterms term:freq ...')")
        n = parse_int(parts[0], corpus, i + 1, "nterms")
        if n != len(parts) - 1:
            raise DataError(corpus, f"line {i + 1}: header says {n} terms, line has "
                            f"{len(parts) - 1}")  # fmt: skip
        for p in parts[1:]:
            t, _, f = p.partition(":")
            t = parse_int(t, corpus, i + 1, "term id")
            f = parse_int(f, corpus, i + 1, "term frequency")
            if not 0 <= t < V:
                raise DataError(corpus, f"line {i + 1}: term id {t} out of range 0..{V - 1}")
            if f <= 0:
                raise DataError(corpus, f"line {i + 1}: non-positive frequency {f}")
            d_of.append(i)
            w_of.append(t)
            c_of.append(f)
    per_doc = {}
    for name, path in (("titles", docs), ("citations", cite), ("authors", authors)):
        lines = _lines(path)
        if len(lines) != D:
            raise DataError(path, f"{len(lines)} lines ({name}) for {D} documents")
        per_doc[name] = lines
    links = []
    for i, line in enumerate(per_doc["citations"]):
        for tok in line.split():
            c = parse_int(tok, cite, i + 1, "cited document id")
            if not 0 <= c < D:
                raise DataError(cite, f"line {i + 1}: document id {c} out of range 0..{D - 1}")
            links.append((i, c))
    names = [a.strip() for a in _lines(authors_key)]
    author_lists = []
    for i, line in enumerate(per_doc["authors"]):
        ids = [parse_int(t, authors, i + 1, "author id") for t in line.split()]
        if any(not 0 <= a < len(names) for a in ids):
            raise DataError(authors, f"line {i + 1}: author id out of range 0..{len(names) - 1}")
        author_lists.append(ids)
    meta = {"source": str(corpus), "author_ids": author_lists, "author_names": names,
            **(metadata or {})}  # fmt: skip
    return BowCorpus.from_triplets(
        np.array(d_of, np.int64), np.array(w_of, np.int64), np.array(c_of, np.int64), D,
        words, source=corpus, titles=[t.strip() for t in per_doc["titles"]],
        links=np.array(links, np.int64).reshape(-1, 2), metadata=meta,
    )  # fmt: skip
