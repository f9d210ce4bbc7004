"""Figures 4.3-4.7: held-out log-likelihood against time and documents processed.

Training runs with checkpoints at fixed numbers of documents processed (so a run is a
function of its seed); at each checkpoint the training clock is paused, the topics
are scored by document completion on the held-out halves (the same split for every
method), and the clock resumes (P4.6). Time is training time only.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import pandas as pd

from latentlab.evaluation.heldout import document_completion, split_halves
from latentlab.models.lda import SCVB0, BatchVB

from .data import heldout_split, load_dataset
from .methods import make_method, method_names, warm_up

log = logging.getLogger(__name__)


def prepare(p: dict, dataset: str, path: str | None, seed: int):
    spec = p["datasets"][dataset]
    corpus, kind = load_dataset(spec, path, seed)
    train, test, n_empty = heldout_split(
        corpus, p["heldout_frac"], p.get("heldout_max_docs"), seed + 1
    )
    split = split_halves(test, seed + 2)
    info = {
        "dataset": dataset,
        "data_kind": kind,
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


def run_curves(p: dict, dataset: str, path: str | None, seed: int):
    """Train SCVB0 and every SVB variant on ``dataset``; return the curve table."""
    cp = p["curves"]
    train, split, info = prepare(p, dataset, path, seed)
    K = int(cp["K"])
    total = int(cp["n_epochs"] * train.n_docs)
    grid = checkpoints(p["minibatch"], total, int(cp["n_checkpoints"]))
    warm_up(p)
    rows = []
    for name in method_names(p):
        model = make_method(name, p, K, seed + 10)
        state = {"i": 0}

        def score(m, name=name, state=state):
            if state["i"] < len(grid) and m.docs_seen >= grid[state["i"]]:
                while state["i"] < len(grid) and m.docs_seen >= grid[state["i"]]:
                    state["i"] += 1
                ll = document_completion(
                    split, m.phi_wk(), p["alpha"], n_iter=p["heldout_theta_iters"]
                )
                rows.append(
                    dict(
                        method=name,
                        docs_seen=m.docs_seen,
                        minibatches=m.minibatches,
                        train_seconds=m.train_seconds,
                        heldout_ll=ll,
                    )
                )
            return False

        t0 = time.perf_counter()
        model.fit(train, max_docs=total, n_epochs=None, callback=score)
        log.info(
            "%s on %s: %d docs in %.2fs train (%.2fs wall), final LL %.4f",
            name,
            dataset,
            model.docs_seen,
            model.train_seconds,
            time.perf_counter() - t0,
            rows[-1]["heldout_ll"],
        )
    return pd.DataFrame(rows), dict(info, K=K, checkpoints=grid.tolist())


def run_fig4_7(p: dict, path: str | None, seed: int):
    """SCVB0 on the full training corpus vs batch VB on subsets of N documents."""
    q = p["fig4_7"]
    dataset = q["dataset"]
    train, split, info = prepare(p, dataset, path, seed)
    K = int(q["K"])
    warm_up(p)
    rows = []
    total = int(q["scvb0_epochs"] * train.n_docs)
    grid = checkpoints(p["minibatch"], total, int(q.get("n_checkpoints", 15)))
    model = make_method("SCVB0", p, K, seed + 10)
    assert isinstance(model, SCVB0)
    state = {"i": 0}

    def score(m):
        if state["i"] < len(grid) and m.docs_seen >= grid[state["i"]]:
            while state["i"] < len(grid) and m.docs_seen >= grid[state["i"]]:
                state["i"] += 1
            ll = document_completion(split, m.phi_wk(), p["alpha"], n_iter=p["heldout_theta_iters"])
            rows.append(
                dict(
                    method="SCVB0 (all documents)",
                    N=train.n_docs,
                    iteration=m.minibatches,
                    docs_seen=m.docs_seen,
                    train_seconds=m.train_seconds,
                    heldout_ll=ll,
                )
            )
        return False

    model.fit(train, max_docs=total, n_epochs=None, callback=score)
    rng = np.random.default_rng(seed + 20)
    for N in q["subsets"]:
        N = int(min(N, train.n_docs))
        sub = train.subset(np.sort(rng.choice(train.n_docs, N, replace=False)))
        vb = BatchVB(
            K,
            alpha=p["alpha"],
            beta=p["beta"],
            max_local=q.get("max_local", 100),
            tol=q.get("local_tol", 1e-3),
            seed=seed + 30,
        )

        def vb_score(m, N=N):
            ll = document_completion(split, m.phi_wk(), p["alpha"], n_iter=p["heldout_theta_iters"])
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

        vb.fit(sub, int(q["vb_iters"]), callback=vb_score)
    return pd.DataFrame(rows), dict(info, K=K)
