"""bench.csv (the layout of :mod:`latentlab.bench`): TIR Gibbs throughput vs the project's
LDA CGS at the same K, the time of one regression step, and tomotopy's DMRModel
(exponential DMR, its own sampler) side by side with our additive DMR on the same training
corpus."""

from __future__ import annotations

import logging
import time

import numpy as np
import pandas as pd

from latentlab.bench import long_format, peak_rss_mb, write_bench
from latentlab.data.corpus import BowCorpus

from .runs import load_graph, make_model
from .study import STUDY, BenchSettings


def _rate(step, sweeps, repeats, ntok):
    """Seconds per sweep of each of ``repeats`` timings (after one warm-up)."""
    step()  # compile / warm up
    secs = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(sweeps):
            step()
        secs.append((time.perf_counter() - t0) / sweeps)
    return secs


def _timed(rows, bench, method, secs, ntok, n_params):
    """Rows of one measurement: ``repeat`` 0 the fastest of the timings (tokens/s where a
    sweep), then every timing as repeat 1, 2, ... (the claims' replicates)."""
    for r, sec in [(0, min(secs)), *enumerate(secs, 1)]:
        rows.append(
            {"bench": bench, "method": method, "repeat": r, "seconds": sec, "n_params": n_params,
             "tokens_per_s": ntok / sec if bench == "sweep" else np.nan}
        )  # fmt: skip


@STUDY.run("bench", settings=BenchSettings)
def bench(ctx):
    """bench.csv: TIR Gibbs throughput vs the project's LDA CGS, one regression step,
    tomotopy's DMRModel beside our additive DMR."""
    from latentlab.models.lda import CGS

    f, b = ctx.settings.fit, ctx.settings.bench
    train = BowCorpus.load(ctx.input("train"))
    g = load_graph(train)
    ntok = int(train.n_tokens)
    rows = []
    for name, sampler in (("LDA CGS (dense)", "dense"), ("LDA CGS (sparse)", "sparse")):
        m = CGS(f.K, alpha=f.alpha, beta=f.beta, optimize_interval=0, seed=1, sampler=sampler)
        m.initialize(train)
        _timed(rows, "sweep", name, _rate(m.step, b.sweeps, b.repeats, ntok), ntok, 0)
    for name, kind in (("TIR Gibbs (approximate)", "tir"), ("DMR Gibbs (additive)", "dmr"),
                       ("TIRE Gibbs (approximate)", "tire")):  # fmt: skip
        m = make_model(kind, f, 1).initialize(train, g)
        n_params = {"tir": len(m.cited), "dmr": m.lam.size, "tire": g.n_edges}[kind]
        _timed(rows, "sweep", name, _rate(m.sweep, b.sweeps, b.repeats, ntok), ntok, n_params)
        m.regress()  # warm up
        secs, before = [], dict(m.reg_stats)
        for _ in range(b.repeats):
            for _ in range(f.interval):  # as in a fit: the step starts from a moved z
                m.sweep()
            t0 = time.perf_counter()
            m.regress()
            secs.append(time.perf_counter() - t0)
        _timed(rows, "regression", f"{kind.upper()} regression step", secs, ntok, n_params)
        # the optimiser's iterations per timed step, and the steps stopped by the budget
        st = {k: m.reg_stats[k] - before[k] for k in before}
        rows[-len(secs) - 1].update(iterations=st["iterations"] / b.repeats,
                                    at_budget=st["at_budget"], max_l=float(m.l.max()))  # fmt: skip
    if b.tomotopy:
        try:
            rows.append(_tomotopy(train, g, f, b, ntok))
        except ModuleNotFoundError as e:  # the optional `bench` extra is not installed
            if e.name != "tomotopy":
                raise
            logging.getLogger("latentlab.tir").warning(
                "tomotopy not installed (pip install -e '.[bench]'): no tomotopy row"
            )
    df = pd.DataFrame(rows)
    df["K"] = f.K
    df["tokens"] = ntok
    df["peak_rss_mb"] = peak_rss_mb()
    df["note"] = ""
    df.loc[df.method.str.startswith("tomotopy"), "note"] = (
        "exponential DMR (alpha = exp(x lambda)), cited ids as multi_metadata; its own "
        "sparse sampler with 1 worker"
    )
    long = long_format(df, "tir", settings=("K", "tokens", "n_params"), note="note")
    write_bench(long, ctx.output("csv"))


def _tomotopy(train, g, f, b, ntok):
    import tomotopy as tp

    m = tp.DMRModel(k=f.K, alpha=f.alpha, eta=f.beta, sigma=f.sigma, seed=1)
    cites = [[] for _ in range(train.n_docs)]
    for d, c in g.edges():
        cites[d].append(f"c{c}")
    for d in range(train.n_docs):
        a, z = train.indptr[d], train.indptr[d + 1]
        words = np.repeat(train.word_ids[a:z], train.counts[a:z])
        if len(words):
            m.add_doc([f"w{w}" for w in words], multi_metadata=cites[d])
    m.optim_interval = f.interval
    m.train(0, workers=1)
    n = m.num_words
    best = np.inf
    for _ in range(b.repeats):
        t0 = time.perf_counter()
        m.train(b.sweeps, workers=1)
        best = min(best, time.perf_counter() - t0)
    return {"bench": "sweep", "method": "tomotopy DMRModel", "repeat": 0,
            "tokens_per_s": n * b.sweeps / best, "seconds": best / b.sweeps,
            "n_params": int(np.size(m.lambdas))}  # fmt: skip
