"""LFRM_LDA on the real Enron network with subject lines as edge documents (a substitute
for Sec. 2.7.2 / Table 2.3, whose email bodies are not in the data mirror).

The document: 140 actors from the "sent_items" folders, text after "forwarded" cut, the
SMART stop list plus baby names removed, words occurring once removed, multi-recipient
emails duplicated per recipient, a Poisson link on the email counts, 20 topics, 3000
burn-in iterations, 100 recorded samples. Here: the study's top actors and window (the
``network`` settings), one document per directed pair i -> j holding the subject lines of
every message from i to j (a message with k recipients counts once per recipient, as in
the document), tokenised like the project's text corpora (``CountVectorizer`` with the
settings of :data:`latentlab.data.local.TEXT_DEFAULTS`), reply / forward markers dropped
as stop words, words occurring once dropped, the vocabulary pruned with
:func:`latentlab.data.corpus.keep_top_words`.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment

from latentlab.data.corpus import BowCorpus, keep_top_words
from latentlab.data.local import TEXT_DEFAULTS
from latentlab.errors import DataError
from latentlab.models.drift import lfrm_lda as lm

from .networks import monthly_networks
from .study import STUDY, EnronTextSettings
from .tables import PAPER_2_3
from .text import text_hyper

N_TOP = 10


def read_subjects(path) -> dict[int, str]:
    """message id -> subject from the mirror's ``messages.tsv`` (mid, file, time, subject,
    sender). A line without five fields or with a non-integer id is an error naming it."""
    out = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 5:
                raise DataError(path, f"line {lineno}: {len(parts)} fields, expected 5")
            try:
                mid = int(parts[0])
            except ValueError:
                raise DataError(path, f"line {lineno}: message id {parts[0]!r}") from None
            out[mid] = "\t".join(parts[3:-1])  # a subject may hold a tab
    return out


def edge_texts(graph, subjects, top, first_month, last_month):
    """Counts Y (n, n) of messages i -> j between the ``top`` actors inside the window
    (one per recipient) and the subject lines of each directed pair."""
    from .networks import _month_index

    month, T, _ = _month_index(graph.times, first_month, last_month)
    n = len(top)
    pos = np.full(graph.n_actors, -1)
    pos[top] = np.arange(n)
    k = np.diff(graph.recv_ptr)
    snd = np.repeat(graph.senders, k)
    inside = np.repeat((month >= 0) & (month < T), k)
    mids = np.repeat(graph.event_ids, k)
    rcv = graph.receivers
    keep = inside & (pos[snd] >= 0) & (pos[rcv] >= 0) & (snd != rcv)
    missing = sorted({int(m) for m in mids[keep]} - set(subjects))
    if missing:
        raise DataError("enron_email", f"message {missing[0]} has no line in messages.tsv")
    Y = np.zeros((n, n))
    texts: dict[tuple[int, int], list[str]] = {}
    for s, r, m in zip(pos[snd[keep]], pos[rcv[keep]], mids[keep], strict=True):
        Y[s, r] += 1
        texts.setdefault((int(s), int(r)), []).append(subjects[int(m)])
    return Y, texts, int(keep.sum())


def tokenise(texts, extra_stop, min_count, vocab_max):
    """BowCorpus of the pairs' documents (in ``sorted(texts)`` order) and its summary."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, CountVectorizer

    pairs = sorted(texts)
    docs = [" ".join(texts[p]) for p in pairs]
    settings = {**TEXT_DEFAULTS, "stop_words": sorted(ENGLISH_STOP_WORDS | set(extra_stop))}
    X = CountVectorizer(**settings).fit(docs)
    M = X.transform(docs).tocsr()
    vocab = list(X.get_feature_names_out())
    freq = np.asarray(M.sum(0)).ravel()
    ok = np.flatnonzero(freq >= min_count)  # the document: words occurring once removed
    M = M[:, ok].tocsr()
    M.sort_indices()
    corpus = BowCorpus(M.indptr, M.indices, M.data, [vocab[i] for i in ok])
    corpus = keep_top_words(corpus, vocab_max)
    return (
        pairs,
        corpus,
        {
            "vocab_after_stop_words": len(vocab),
            "vocab_after_min_count": int(len(ok)),
            "V": corpus.n_vocab,
        },
    )


def text_network(Y, pairs, corpus, K: int) -> tuple[lm.TextNetwork, dict]:
    """The LFRM_LDA data: Y counts on every ordered pair, one document per pair with
    tokens (pairs whose subject lines lose every word are counted, no document)."""
    n = Y.shape[0]
    O = ~np.eye(n, dtype=bool)
    ptr, w, snd, rcv = [0], [], [], []
    empty = 0
    for d, (i, j) in enumerate(pairs):
        ids = corpus.word_ids[corpus.indptr[d] : corpus.indptr[d + 1]]
        cnt = corpus.counts[corpus.indptr[d] : corpus.indptr[d + 1]]
        if cnt.sum() == 0:
            empty += 1
            continue
        w.extend(np.repeat(ids, cnt).tolist())
        ptr.append(len(w))
        snd.append(i)
        rcv.append(j)
    data = lm.square(Y, O, np.array(ptr), np.array(w), np.array(snd), np.array(rcv),
                     corpus.n_vocab, K)  # fmt: skip
    return data, {"edge_documents": len(snd), "pairs_without_words": empty, "tokens": len(w)}


def swap_share(phis, phi_mean) -> float:
    """Share of recorded samples whose topics, matched to the posterior-mean topics by the
    Hungarian algorithm on L1 distance, are not matched to themselves (feature swapping)."""
    out = []
    for p in phis:
        cost = np.abs(p[:, None, :] - phi_mean[None, :, :]).sum(-1)
        r, c = linear_sum_assignment(cost)
        out.append(not np.array_equal(c[np.argsort(r)], np.arange(len(p))))
    return float(np.mean(out)) if out else float("nan")


def chain_matches(phi_a, phi_b, ratio: float) -> np.ndarray:
    """Stability across two independent chains, per topic of chain a: chain b's
    posterior-mean topics matched to chain a's by the Hungarian algorithm on L1; a topic is
    matched when its partner lies closer than ``ratio`` x the L1 distance to a's nearest
    other topic (C2.7's rule)."""
    cost = np.abs(phi_a[:, None, :] - phi_b[None, :, :]).sum(-1)
    r, c = linear_sum_assignment(cost)
    own = np.abs(phi_a[:, None, :] - phi_a[None, :, :]).sum(-1)
    np.fill_diagonal(own, np.inf)
    near = own.min(1)
    out = np.zeros(len(phi_a), bool)
    out[r] = cost[r, c] < ratio * near[r]
    return out


def chain_match_share(phi_a, phi_b, ratio: float) -> float:
    """The share of chain a's topics that chain b matches (:func:`chain_matches`)."""
    return float(np.mean(chain_matches(phi_a, phi_b, ratio)))


def best_paper_match(words: list[str]):
    """The document's Table 2.3 topic sharing most of ``words`` (name, shared words)."""
    best = max(PAPER_2_3.items(), key=lambda kv: len(set(kv[1].lower().split()) & set(words)))
    shared = sorted(set(best[1].lower().split()) & set(words))
    return best[0], shared


def enron_text_network(graph_path, messages_path, e, nw):
    """The Enron LFRM_LDA data of the ``network`` settings ``nw`` and the subject-line
    settings ``e`` (:class:`~.study.EnronText`): (TextNetwork, corpus, actor names, Y, a
    summary of the actors, months, rows, vocabulary and documents)."""
    from latentlab.data.graph import TemporalGraph

    g = TemporalGraph.load(graph_path)
    messages = Path(messages_path)
    if not messages.exists():
        raise DataError(messages, "not found (fetched by rule fetch_enron_email)")
    _, _, top, names, _ = monthly_networks(
        g, nw.n_actors, nw.first_month, nw.last_month, nw.outside_window, "keep"
    )
    Y, texts, rows = edge_texts(g, read_subjects(messages), top, nw.first_month, nw.last_month)
    pairs, corpus, vsum = tokenise(texts, e.extra_stop_words, e.min_count, e.vocab_max)
    data, dsum = text_network(Y, pairs, corpus, e.K)
    summary = {"actors": int(len(top)), "months": [nw.first_month, nw.last_month],
               "receiver_rows_between_actors": rows, "pairs_with_messages": len(pairs),
               **vsum, **dsum}  # fmt: skip
    return data, corpus, names, Y, summary


def enron_hyper(f) -> lm.TextHyper:
    """The Enron fit's sampler settings: a Poisson link on the email counts (Sec. 2.7.2), a
    normal prior on a full W, the rest from the text_fit settings ``f``."""
    return text_hyper(f, link="poisson", w_prior="normal", w_diagonal=False)


@STUDY.run("enron_text_fit", settings=EnronTextSettings)
def enron_text_fit(ctx):
    """LFRM_LDA (Poisson link) on the Enron top actors, subject lines as edge documents."""
    e, nw, f = ctx.settings.enron_text, ctx.settings.network, ctx.settings.text_fit
    data, corpus, names, Y, dsum = enron_text_network(
        ctx.input("graph"), ctx.input("messages"), e, nw
    )
    hyper = enron_hyper(f)
    t0 = time.perf_counter()
    zp, ph, phis, trace, _ = lm.run_chain(
        data, hyper, ctx.seed(e.seed_offset), e.burnin, e.samples, e.thin
    )
    seconds = time.perf_counter() - t0  # one chain
    # independent chains (other seeds) for C2.13: topics stable across chains, not only
    # within the recorded samples of one chain
    others = [
        lm.run_chain(data, hyper, ctx.seed(e.seed_offset, c), e.burnin, e.samples, e.thin)[1]
        for c in range(1, e.chains)
    ]
    vocab = np.array(corpus.vocab)
    active = zp > 0.5  # the most likely assignment (Sec. 2.7.2)
    rows_out = []
    for k in range(e.K):
        words = vocab[np.argsort(-ph[k], kind="stable")[:N_TOP]].tolist()
        paper, shared = best_paper_match(words)
        rows_out.append(
            {
                "feature": k,
                "ten_most_probable_words": " ".join(words),
                "actors_with_feature": int(active[:, k].sum()),
                "share_of_actors": float(active[:, k].mean()),
                "closest_paper_topic": paper,
                "shared_with_paper_topic": " ".join(shared),
                "actors": "; ".join(np.array(names)[active[:, k]].tolist()),
            }
        )
    pd.DataFrame(rows_out).to_csv(ctx.output("topics"), index=False)
    pd.DataFrame(trace).to_csv(ctx.output("trace"), index=False)
    widest = int(np.argmax(active.sum(0)))
    summary = {
        "data_kind": "substitute",
        "substitute": "subject lines of the mirror's Perry & Wolfe messages stand in for "
        "the email bodies of the CMU corpus",
        **dsum,
        "K": e.K,
        "burnin": e.burnin,
        "samples": e.samples,
        "mean_active_features_per_person": float(active.sum(1).mean()),
        "widest_feature": widest,
        "widest_feature_actors": int(active[:, widest].sum()),
        "swap_share": swap_share(phis, ph),
        "chains": e.chains,
        "chain_match_ratio": e.chain_match_ratio,
        "chain_match_share": min((chain_match_share(ph, o, e.chain_match_ratio)
                                  for o in others), default=None),  # fmt: skip
        "seconds": seconds,
        "paper": {"actors": 140, "edges_with_text": 1379, "V": 15150,
                  "mean_active_features_per_person": 4.5, "meetings_actors": 81},
    }  # fmt: skip
    ctx.output("summary").write_text(json.dumps(summary, indent=1))
    np.savez_compressed(ctx.output("fit"), zprob=zp, phi=ph, vocab=vocab, names=np.array(names),
                        Y=Y)  # fmt: skip
