"""Steps that compute: the seeded split, then one fit (+ evaluation) per method and K."""

from __future__ import annotations

import json
import time

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.errors import ConfigError, DataError
from latentlab.outputs import write_json
from latentlab.studies.shape import derive_seed

from .study import FIT_SETTINGS, LABELS, LDA_FAMILY, STUDY, SplitSettings

PARTS = ("train", "test", "observed", "scored")


@STUDY.run("split", settings=SplitSettings)
def split(ctx) -> None:
    """Seeded document split (test_frac held out, at most max_test_docs), then each held-out
    document's tokens into observed / scored parts (document completion). Empty documents
    and held-out documents with fewer than 2 tokens are left out (counted in info)."""
    from latentlab.data.splits import completion_split, doc_split

    s = ctx.settings  # (test_frac, observed_frac in (0, 1): SplitSettings, at start-up)
    corpus = BowCorpus.load(ctx.input("dataset"))
    sha = corpus.content_sha256()
    if sha != ctx.json("summary")["content_sha256"]:
        raise DataError(ctx.input("dataset"), "content hash differs from its summary.json")
    full_docs = corpus.n_docs
    corpus, _ = corpus.drop_empty()
    seed = ctx.seed(s.split_seed_offset)
    pct = int(round(100 * (1 - s.test_frac)))
    tr, te = doc_split(corpus.n_docs, pct, seed)
    te = te[corpus.doc_lengths()[te] >= 2]
    if s.max_test_docs is not None and len(te) > s.max_test_docs:
        rng = np.random.default_rng(derive_seed(seed, r=1))
        te = np.sort(rng.choice(te, size=s.max_test_docs, replace=False))
    if len(tr) == 0 or len(te) == 0:
        raise DataError(
            ctx.input("dataset"),
            f"{corpus.n_docs} non-empty documents leave {len(tr)} for training and {len(te)} "
            f"held-out documents with 2+ tokens (compare.test_frac = {s.test_frac})",
        )
    train, test = corpus.subset(tr), corpus.subset(te)
    halves = completion_split(test, derive_seed(seed, r=2), s.observed_frac)
    parts = {"train": train, "test": test, "observed": halves.observed, "scored": halves.scored}
    for name, c in parts.items():
        c.metadata = {"dataset": s.dataset, "content_sha256": sha, "part": name}
        c.save(ctx.output(name))
    info = {
        "dataset": s.dataset,
        "content_sha256": sha,
        "seed": seed,
        "n_docs": full_docs,
        "n_empty_docs_dropped": full_docs - corpus.n_docs,
        "n_vocab": corpus.n_vocab,
        "n_train_docs": train.n_docs,
        "n_train_tokens": train.n_tokens,
        "n_test_docs": test.n_docs,
        "n_observed_tokens": halves.observed.n_tokens,
        "n_scored_tokens": halves.scored.n_tokens,
        "settings": ctx.meta()["settings"],
    }
    write_json(info, ctx.output("info"))


def _fit(ctx, method: str) -> None:
    """Fit one method at K (wildcard) on the training documents; evaluate document
    completion (and the left-to-right estimator for the LDA family); peak memory is the
    step process's peak RSS (loading, fitting and evaluating)."""
    from latentlab.bench import peak_rss_mb
    from latentlab.evaluation.heldout import CompletionSplit, document_completion, perplexity

    from .methods import fit_method, warm_up

    s = ctx.settings
    ms = getattr(s, method)
    K = int(ctx.wildcards["K"])
    parts = {p: BowCorpus.load(ctx.input(p)) for p in PARTS}
    info = ctx.json("info")
    W = parts["train"].n_vocab
    if K > W:
        raise ConfigError(
            "compare.K", f"K = {K} is larger than the vocabulary of {s.dataset} (W = {W})"
        )
    warm_up(method, ms)
    split = CompletionSplit(parts["observed"], parts["scored"], 0)
    seed = ctx.seed(s.seed_offset)
    fitted = fit_method(method, parts["train"], K, ms, seed, split, s.evaluation)
    if fitted.completion is not None:
        ll = float(fitted.completion(split))
    else:
        ll = document_completion(split, fitted.phi_wk, fitted.alpha, s.evaluation.theta_iters)
    row = {
        "method": method,
        "label": LABELS[method],
        "K": K,
        "train_seconds": fitted.train_seconds,
        "iterations": fitted.iterations,
        "heldout_ll": ll,
        "perplexity": perplexity(ll),
        "topics_used": int((fitted.weight >= 1.0).sum()),
        **_left_to_right(method, fitted, parts["test"], s.evaluation, ctx.seed(s.seed_offset, 1)),
        "peak_rss_mb": peak_rss_mb(),
    }
    out = {
        **row,
        "dataset": s.dataset,
        "content_sha256": info["content_sha256"],
        "seed": seed,
        "settings": ctx.meta()["settings"],
        "extra": fitted.extra,
        "curve": fitted.curve,
    }
    arrays = {"phi_wk": fitted.phi_wk, "weight": fitted.weight}
    if fitted.alpha is not None:
        arrays["alpha"] = np.asarray(fitted.alpha, dtype=float)
    np.savez_compressed(ctx.output("npz"), **arrays)
    write_json(out, ctx.output("json"))


def _left_to_right(method, fitted, test, ev, seed) -> dict:
    """Left-to-right estimate (seed 004 Sec. 5.2) of whole held-out documents under
    (alpha, Phi): LDA family only; NaN otherwise (CTM has no Dirichlet prior)."""
    from latentlab.evaluation.ais.estimators import TopicModel, corpus_token_lists, left_to_right

    n = min(ev.lr_max_docs, test.n_docs)
    if method not in LDA_FAMILY or n == 0:
        return {"lr_ll": float("nan"), "lr_perplexity": float("nan"), "lr_docs": 0,
                "lr_seconds": float("nan")}  # fmt: skip
    docs = corpus_token_lists(test)[:n]
    model = TopicModel(fitted.phi_wk, fitted.alpha, name=LABELS[method])
    t0 = time.perf_counter()
    est = left_to_right(model, docs, R=ev.lr_particles, seed=seed)
    secs = time.perf_counter() - t0
    per_tok = float(est.log_lik.sum() / sum(len(d) for d in docs))
    return {"lr_ll": per_tok, "lr_perplexity": float(np.exp(-per_tok)), "lr_docs": n,
            "lr_seconds": secs}  # fmt: skip


def _register(method: str):
    STUDY.run(
        f"fit_{method}",
        settings=FIT_SETTINGS[method],
        help=f"fit and evaluate {LABELS[method]} at K = the K wildcard",
    )(lambda ctx: _fit(ctx, method))


for _m in FIT_SETTINGS:
    _register(_m)


def load_fits(paths) -> list[dict]:
    return [json.loads(open(p).read()) for p in paths]
