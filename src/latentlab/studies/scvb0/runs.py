"""Computation steps of scvb0: corpora, the held-out curves (Figs 4.3-4.7) and the
fixed-budget topics (Tables 4.4/4.5). Each writes raw results to the paths of its rule.

Curves: training runs with checkpoints at fixed numbers of documents processed (so a run
is a function of its seed); at each checkpoint the training clock is paused, the topics
are scored by document completion on the held-out halves (the same split for every
method), and the clock resumes (our protocol; the thesis does not say). Time is training time only.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import pandas as pd

from latentlab.data.corpus import BowCorpus
from latentlab.data.splits import completion_split, heldout_docs
from latentlab.data.synthetic import lda_corpus_vectorised
from latentlab.errors import DataError
from latentlab.evaluation.coherence import umass_coherence
from latentlab.evaluation.heldout import document_completion
from latentlab.models.lda import SCVB0, BatchVB
from latentlab.outputs import write_json, write_table

from .methods import config_keys, make_method, method_names, svb_name, warm_up
from .study import (
    SEED_BATCH_VB,
    SEED_HALVES,
    SEED_MODEL,
    SEED_SPLIT,
    SEED_SUBSETS,
    SEED_TOPICS,
    STUDY,
    CorpusSettings,
    CurvesSettings,
    Fig47Settings,
    TopicsSettings,
    data_kind,
)

log = logging.getLogger("latentlab.scvb0")


@STUDY.run("corpus", settings=CorpusSettings)
def corpus(ctx):
    """Generate the synthetic LDA corpus ``dataset`` of the config."""
    name = ctx.wildcards["dataset"]
    spec = ctx.settings.datasets[name]
    if spec.kind != "synthetic":
        raise DataError(name, "a real dataset is prepared by rules/data.smk")
    c, _ = lda_corpus_vectorised(
        spec.D, spec.W, spec.K, spec.doc_len, spec.alpha, spec.beta, ctx.seed(spec.seed_offset)
    )
    c.metadata["dataset"] = name
    c.save(ctx.output("corpus"))
    log.info("%s: D=%d W=%d C=%d", name, c.n_docs, c.n_vocab, c.n_tokens)


def load_corpus(path) -> BowCorpus:
    c = BowCorpus.load(path)
    if c.n_tokens == 0:
        raise DataError(path, "corpus has no tokens")
    return c


def prepare(ctx, dataset: str):
    """Training corpus and document-completion split of ``dataset`` (input ``corpus``)."""
    s = ctx.settings
    train, test, n_empty, _ = heldout_docs(
        load_corpus(ctx.input("corpus")),
        s.heldout_frac,
        ctx.seed(SEED_SPLIT),
        max_test=s.heldout_max_docs,
    )
    split = completion_split(test, ctx.seed(SEED_HALVES))
    info = {
        "dataset": dataset,
        "data_kind": "synthetic" if s.datasets[dataset].kind == "synthetic" else "substitute",
        "D_train": train.n_docs,
        "C_train": train.n_tokens,
        "W": train.n_vocab,
        "D_heldout": test.n_docs - split.n_dropped,
        "heldout_scored_tokens": split.n_scored_tokens,
        "empty_docs_skipped": n_empty,
    }
    return train, split, info


def checkpoints(minibatch: int, total: int, n: int) -> np.ndarray:
    g = np.unique(np.round(np.geomspace(minibatch, total, n) / minibatch).astype(int)) * minibatch
    return g[g > 0]


class Checkpoints:
    """Callback scoring the topics by document completion at each checkpoint of documents
    processed; ``row(model)`` gives the row's other columns.

    Every method is scored with the study's ``alpha``, through the evaluation function,
    not ``m.log_predictive`` (the model protocol): for SCVB0, SVB-Bx-O0 and batch VB the two
    are equal bit for bit, but SVB-Bx-O0.5's own document prior is alpha + 0.5 (the offset
    O of Sec. 4.3.1 shifts it for training), so its ``log_predictive`` scores under another
    prior and gives other numbers (``tests/studies/test_scvb0_study.py``). One scorer for all
    methods keeps the curves comparable."""

    def __init__(self, grid, split, alpha, n_iter, row, rows):
        self.grid, self.split, self.alpha, self.n_iter = grid, split, alpha, n_iter
        self.row, self.rows, self.i = row, rows, 0

    def __call__(self, m, info=None) -> bool:
        if self.i < len(self.grid) and m.docs_seen >= self.grid[self.i]:
            while self.i < len(self.grid) and m.docs_seen >= self.grid[self.i]:
                self.i += 1
            ll = document_completion(self.split, m.phi_wk(), self.alpha, n_iter=self.n_iter)
            self.rows.append({**self.row(m), "heldout_ll": ll})
        return False


@STUDY.run("curves", settings=CurvesSettings)
def curves(ctx):
    """Train SCVB0 and every SVB variant on ``dataset``; write the curve table."""
    s = ctx.settings
    dataset = ctx.wildcards["dataset"]
    train, split, info = prepare(ctx, dataset)
    K = s.curves.K
    total = int(s.curves.n_epochs * train.n_docs)
    grid = checkpoints(s.minibatch, total, s.curves.n_checkpoints)
    warm_up(s)
    rows = []
    for r in range(s.curves.seeds):
        for name in method_names(s):
            model = make_method(name, s, K, ctx.seed(SEED_MODEL, r))
            cb = Checkpoints(
                grid,
                split,
                s.alpha,
                s.heldout_theta_iters,
                lambda m, name=name, r=r: dict(
                    method=name,
                    seed=r,
                    docs_seen=m.docs_seen,
                    minibatches=m.minibatches,
                    train_seconds=m.train_seconds,
                ),
                rows,
            )
            t0 = time.perf_counter()
            with config_keys():
                model.fit(train, None, callback=cb, max_docs=total)
            log.info(
                "%s seed %d on %s: %d docs in %.2fs train (%.2fs wall), final LL %.4f",
                name,
                r,
                dataset,
                model.docs_seen,
                model.train_seconds,
                time.perf_counter() - t0,
                rows[-1]["heldout_ll"],
            )
    write_table(pd.DataFrame(rows), ctx.output("csv"))
    write_json(
        ctx.meta(**info, K=K, seeds=s.curves.seeds, checkpoints=grid.tolist()), ctx.output("info")
    )


@STUDY.run("fig4_7_run", settings=Fig47Settings)
def fig4_7_run(ctx):
    """Fig 4.7: SCVB0 on the full training corpus vs batch VB on subsets of N documents."""
    s = ctx.settings
    q = s.fig4_7
    train, split, info = prepare(ctx, q.dataset)
    K = q.K
    warm_up(s)
    rows = []
    total = int(q.scvb0_epochs * train.n_docs)
    grid = checkpoints(s.minibatch, total, q.n_checkpoints)
    model = make_method("SCVB0", s, K, ctx.seed(SEED_MODEL))
    assert isinstance(model, SCVB0)
    cb = Checkpoints(
        grid,
        split,
        s.alpha,
        s.heldout_theta_iters,
        lambda m: dict(
            method="SCVB0 (all documents)",
            N=train.n_docs,
            iteration=m.minibatches,
            docs_seen=m.docs_seen,
            train_seconds=m.train_seconds,
        ),
        rows,
    )
    with config_keys():
        model.fit(train, None, callback=cb, max_docs=total)
    rng = np.random.default_rng(ctx.seed(SEED_SUBSETS))
    for N in q.subsets:
        N = int(min(N, train.n_docs))
        sub = train.subset(np.sort(rng.choice(train.n_docs, N, replace=False)))
        vb = BatchVB(
            K,
            alpha=s.alpha,
            beta=s.beta,
            max_local=q.max_local,
            tol=q.local_tol,
            seed=ctx.seed(SEED_BATCH_VB),
        )

        def vb_score(m, info=None, N=N):
            ll = document_completion(split, m.phi_wk(), s.alpha, n_iter=s.heldout_theta_iters)
            rows.append(
                dict(
                    method=f"batch VB (N={N})",
                    N=N,
                    iteration=m.iteration,
                    docs_seen=m.docs_seen,
                    train_seconds=m.train_seconds,
                    heldout_ll=ll,
                )
            )
            return False

        vb.fit(sub, q.vb_iters, callback=vb_score)
    write_table(pd.DataFrame(rows), ctx.output("csv"))
    write_json(ctx.meta(**info, K=K), ctx.output("info"))


@STUDY.run("topics", settings=TopicsSettings)
def topics(ctx, n_top: int = 10):
    """Tables 4.4/4.5: SCVB0 and SVB trained for ``seconds`` of training time, ``runs``
    times; writes the listed topics and the per-run summary (documents processed, UMass)."""
    s = ctx.settings
    table = ctx.wildcards["table"]
    q = getattr(s, table)
    corpus, _, n_empty, _ = heldout_docs(
        load_corpus(ctx.input("corpus")), s.heldout_frac, ctx.seed(SEED_SPLIT)
    )
    warm_up(s)
    K = q.K
    names = ["SCVB0", svb_name(q.svb.B, q.svb.O)]
    mb = min(s.minibatch, corpus.n_docs)
    rows, summary = [], []
    rng = np.random.default_rng(ctx.seed(SEED_TOPICS))
    for r in range(q.runs):
        for name in names:
            m = make_method(name, s, K, ctx.seed(0, r), minibatch=mb)
            with config_keys():
                m.fit(corpus, None, time_budget=q.seconds)
            top = np.argsort(-m.phi(), axis=1)[:, :n_top]
            coh = umass_coherence(corpus, top)
            summary.append(
                dict(
                    method=name,
                    run=r,
                    seconds=m.train_seconds,
                    docs_processed=m.docs_seen,
                    docs_per_second=m.docs_seen / m.train_seconds,
                    umass_mean=float(coh.mean()),
                )
            )
            if r == 0:
                for k in np.sort(rng.choice(K, size=min(q.n_show, K), replace=False)):
                    rows.append(
                        dict(
                            method=name,
                            topic=int(k),
                            words=" ".join(corpus.vocab[w] for w in top[k]),
                            umass=float(coh[k]),
                        )
                    )
    meta = ctx.meta(
        dataset=q.dataset,
        data_kind=data_kind(s.datasets, q.dataset),
        empty_docs_skipped=n_empty,
        coherence="UMass on the training corpus (proxy for the human study)",
        note="time-budgeted: documents processed depend on the machine",
    )
    write_table(pd.DataFrame(rows), ctx.output("topics"), meta=meta)
    write_table(pd.DataFrame(summary), ctx.output("runs"), meta=meta)
