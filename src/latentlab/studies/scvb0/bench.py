"""bench.csv (the layout of :mod:`latentlab.bench`, :func:`bench_long`): throughput of
every LDA algorithm, and side-by-side comparisons with scikit-learn, gensim and tomotopy
when they are installed (optional extras)."""

from __future__ import annotations

import logging
import os
import time
from dataclasses import asdict

import numpy as np
import pandas as pd

from latentlab.bench import long_format, machine_peaks, peak_rss_mb, write_bench
from latentlab.data.corpus import BowCorpus
from latentlab.data.splits import completion_split, heldout_docs
from latentlab.data.synthetic import lda_corpus_vectorised
from latentlab.evaluation.heldout import document_completion
from latentlab.models.lda import CGS, CVB0, SCVB0, SVB, BatchVB

from .methods import warm_up
from .study import SEED_HALVES, SEED_SPLIT, STUDY, BenchSettings

log = logging.getLogger(__name__)

# Floating-point operations per topic per CSR entry and pass, counted from the kernels
# (kernels.scvb0_minibatch: gamma 5, normalise 1, N^Theta update 3, accumulate 4 on the
# final pass; kernels.cvb_sweep: 8 for gamma, 1 normalise, 7 for the statistics).
FLOPS_SCVB0_PASS = 9.0
FLOPS_SCVB0_FINAL = 4.0
FLOPS_CVB0 = 16.0


def _state_mb(*arrays) -> float:
    return sum(a.nbytes for a in arrays if isinstance(a, np.ndarray)) / 2**20


def _load() -> float:
    return os.getloadavg()[0]


def use_workqueue_threads() -> str:
    """Select numba's ``workqueue`` threading layer for this (bench) process if no
    parallel kernel has run yet. Measured on the shared 2-core machine (load > 4): with
    OpenMP, every SCVB0 minibatch (~2 ms of work at K = 100) paid a ~20 ms barrier wait
    for a descheduled worker; workqueue threads do not. Returns the layer in use."""
    import numba

    try:
        return numba.threading_layer()  # already chosen by an earlier parallel launch
    except ValueError:
        numba.config.THREADING_LAYER = "workqueue"
        return "workqueue"


def alternate_stochastic(models, seconds: float, n_turns: int = 6) -> None:
    """Initialised stochastic models (``resume``/``train_seconds``) run in alternating
    turns until each has trained for ``seconds``, so they share the machine's load."""
    models = list(models)
    turn = seconds / n_turns
    while any(m.train_seconds < seconds for m in models):
        for m in models:
            if m.train_seconds < seconds:
                m.resume(time_budget=min(seconds, m.train_seconds + turn))


def alternate_batch(models, corpus, seconds: float) -> list[tuple[int, float]]:
    """Batch models (``initialize``/``step``) stepped in alternating turns (one sweep
    each) until each has run for ``seconds`` (at least one sweep). Returns
    ``(sweeps, seconds)`` per model."""
    models = list(models)
    for m in models:
        m.initialize(corpus)
    n = [0] * len(models)
    t = [0.0] * len(models)
    while min(t) < seconds or min(n) == 0:
        for i, m in enumerate(models):
            if t[i] < seconds or n[i] == 0:
                t0 = time.perf_counter()
                m.step()
                t[i] += time.perf_counter() - t0
                n[i] += 1
    return list(zip(n, t, strict=True))


def tomotopy_model(corpus, K: int, alpha: float, beta: float, seed: int):
    """tomotopy.LDAModel on the same tokens (None if tomotopy is not installed); alpha
    optimisation off (``optim_interval=0``) like our CGS rows."""
    try:
        import tomotopy as tp
    except ImportError:  # pragma: no cover
        log.warning("tomotopy not installed; CGS side-by-side skipped")
        return None
    mdl = tp.LDAModel(k=K, alpha=alpha, eta=beta, seed=seed)
    mdl.optim_interval = 0
    for j in range(corpus.n_docs):
        ids, cts = corpus.doc(j)
        if len(ids):
            mdl.add_doc([corpus.vocab[w] for w in np.repeat(ids, cts)])
    return mdl


def cgs_vs_tomotopy(corpus, K, alpha, beta, seed, seconds, warm=1, turn=2):
    """Our CGS and tomotopy.LDAModel (1 worker) timed back to back in the same process:
    after ``warm`` sweeps each (initialisation included, not timed), turns of ``turn``
    sweeps alternate between the two until each has run for ``seconds``. Returns
    ``(cgs, secs, sweeps, secs_tomotopy, sweeps_tomotopy)``; tomotopy's are None when
    it is not installed."""
    cgs = CGS(K, alpha, beta, optimize_interval=0, seed=seed).initialize(corpus)
    mdl = tomotopy_model(corpus, K, alpha, beta, seed)
    for _ in range(warm):
        cgs.step()
    if mdl is not None:
        mdl.train(warm, workers=1)
    t_ours = t_tp = 0.0
    n_ours = n_tp = 0
    while True:
        t0 = time.perf_counter()
        for _ in range(turn):
            cgs.step()
        t_ours += time.perf_counter() - t0
        n_ours += turn
        if mdl is not None:
            t0 = time.perf_counter()
            mdl.train(turn, workers=1)
            t_tp += time.perf_counter() - t0
            n_tp += turn
        if t_ours >= seconds and (mdl is None or t_tp >= seconds):
            break
    if mdl is None:
        return cgs, t_ours, n_ours, None, None
    return cgs, t_ours, n_ours, t_tp, n_tp


def throughput(s, corpus, K: int, seconds: float, seed: int) -> list[dict]:
    """Tokens/s and documents/s of each algorithm at K topics, single thread, plus 2
    threads for the kernels that are parallel (SCVB0, the first SVB variant, BatchVB:
    documents are independent within a minibatch / E-step; CGS and CVB0/CVB sweeps are
    sequential) and tomotopy's CGS beside ours. Compared rows (1 vs 2 threads, CGS vs
    tomotopy) are timed in alternating turns in this process; ``speed_ratio`` is
    tokens/s over the row named in ``ratio_baseline``, ``load_avg_1m`` the machine load
    after the row."""
    rows = []
    D, C, nnz = corpus.n_docs, corpus.n_tokens, corpus.nnz
    mb = min(s.minibatch, D)

    def add(name, docs, tokens, secs, state_mb, flops=None, threads=1):
        r = dict(
            algorithm=name,
            K=K,
            threads=threads,
            load_avg_1m=_load(),
            seconds=secs,
            docs_per_s=docs / secs,
            tokens_per_s=tokens / secs,
            state_mb=state_mb,
            peak_rss_mb=peak_rss_mb(),
        )
        if flops is not None:
            r["gflops"] = flops / secs / 1e9
        rows.append(r)

    # stochastic methods: time budget. SCVB0 on 1 and 2 threads (its only parallel
    # kernel), run in alternating turns so that both see the same machine load.
    threads = [1] + ([2] if int(s.bench.max_threads) >= 2 else [])

    def ratio_rows(name, n):
        """speed_ratio of the last n rows (threads 1, 2, ...) against the first."""
        one = rows[-n]
        for r in rows[-n + 1 :] if n > 1 else []:
            r["ratio_baseline"] = f"{name} (1 thread)"
            r["speed_ratio"] = r["tokens_per_s"] / one["tokens_per_s"]

    ms = {
        t: SCVB0(
            K,
            s.alpha,
            s.beta,
            minibatch=mb,
            rho_phi=asdict(s.rho_phi),
            rho_theta=asdict(s.rho_theta),
            n_burn=s.n_burn,
            seed=seed,
            threads=t,
        ).initialize(corpus)
        for t in threads
    }
    alternate_stochastic(ms.values(), seconds)
    for t, m in ms.items():
        nnz_seen = m.tokens_seen / C * nnz
        fl = nnz_seen * K * ((m.n_burn + 1) * FLOPS_SCVB0_PASS + FLOPS_SCVB0_FINAL)
        st = _state_mb(m.M, m.n_z, m.acc, m._acc_extra)
        add("SCVB0", m.docs_seen, m.tokens_seen, m.train_seconds, st, fl, threads=t)
    ratio_rows("SCVB0", len(ms))
    for i, v in enumerate(s.svb_variants):
        name = f"SVB-B{v.B}-O{v.O:g}"
        ts = threads if i == 0 else [1]  # the first variant also on 2 threads
        ss = {
            t: SVB(
                K,
                s.alpha,
                s.beta,
                offset=v.O,
                minibatch=mb,
                n_local=v.B,
                rho=asdict(s.rho_phi),
                seed=seed,
                threads=t,
            ).initialize(corpus)
            for t in ts
        }
        alternate_stochastic(ss.values(), seconds)
        for t, sv in ss.items():
            st = _state_mb(sv.L, sv.acc, sv.expElogbeta, sv._acc_extra)
            add(name, sv.docs_seen, sv.tokens_seen, sv.train_seconds, st, threads=t)
        ratio_rows(name, len(ss))
    sv = SVB(K, s.alpha, s.beta, minibatch=mb, n_local=1, rho=asdict(s.rho_phi), seed=seed,
             dense=True)  # fmt: skip
    sv.fit(corpus, None, time_budget=seconds)
    add("SVB-B1-O0 (dense, as onlineldavb.py)", sv.docs_seen, sv.tokens_seen, sv.train_seconds,
        _state_mb(sv.L, sv.acc, sv.expElogbeta))  # fmt: skip
    # batch methods: whole sweeps, as many as fit in the budget (at least one)
    cap = float(s.bench.max_state_mb)
    cgs, t_ours, n_ours, t_tp, n_tp = cgs_vs_tomotopy(corpus, K, s.alpha, s.beta, seed, seconds)
    add("CGS", n_ours * D, n_ours * C, t_ours, _state_mb(cgs.n_wk, cgs.n_dk, cgs.z))
    if t_tp is not None:
        add("tomotopy.LDAModel (CGS, 1 worker)", n_tp * D, n_tp * C, t_tp, np.nan)
        ours, theirs = rows[-2], rows[-1]
        ours["ratio_baseline"] = theirs["algorithm"]
        ours["speed_ratio"] = ours["tokens_per_s"] / theirs["tokens_per_s"]
    bvb = {
        t: BatchVB(K, s.alpha, s.beta, max_local=1, tol=0.0, seed=seed, threads=t) for t in threads
    }
    for t, (n, secs) in zip(bvb, alternate_batch(bvb.values(), corpus, seconds), strict=True):
        m = bvb[t]
        add("BatchVB", n * D, n * C, secs, _state_mb(m.L, m._acc_extra), threads=t)
    ratio_rows("BatchVB", len(bvb))
    # CVB0 / CVB: sequential sweeps (each update reads the statistics the previous one
    # wrote), so no parallel variant
    for name, model in [
        ("CVB0 (clumped)", CVB0(K, s.alpha, s.beta, order=0, seed=seed)),
        ("CVB (2nd order, clumped)", CVB0(K, s.alpha, s.beta, order=2, seed=seed)),
    ]:
        if name.startswith("CVB") and nnz * K * 8 * (1 if "CVB0" in name else 2) / 2**20 > cap:
            log.warning("%s at K=%d skipped: gamma storage exceeds %.0f MB", name, K, cap)
            continue
        model.initialize(corpus)
        n = 0
        t0 = time.perf_counter()
        while True:
            model.step()
            n += 1
            if time.perf_counter() - t0 >= seconds:
                break
        secs = time.perf_counter() - t0
        st = [getattr(model, a, None) for a in ("n_wk", "n_dk", "gamma", "z", "L")]
        fl = n * nnz * K * FLOPS_CVB0 if name.startswith("CVB0") else None
        add(name, n * D, n * C, secs, _state_mb(*st), fl)
    return rows


def compare_libraries(s, q, train, split, seed: int) -> list[dict]:
    """Time to reach the held-out log-likelihood that scikit-learn's online LDA reaches
    after ``q.sklearn_iters`` passes (K = q.K); SCVB0, gensim (default schedule and
    decay 0.7 / offset 10) on the same split. tomotopy CGS tokens/s vs ours."""
    K = q.K
    rows = []
    alpha = s.alpha

    def ll(phi_wk):
        return document_completion(split, phi_wk, alpha, n_iter=s.heldout_theta_iters)

    curve = {}
    try:
        import scipy.sparse as sp
        from sklearn.decomposition import LatentDirichletAllocation
    except ImportError:  # pragma: no cover
        log.warning("scikit-learn not installed; comparison skipped")
        return rows
    d = np.repeat(np.arange(train.n_docs), np.diff(train.indptr))
    X = sp.csr_matrix((train.counts, (d, train.word_ids)), shape=(train.n_docs, train.n_vocab))
    sk = LatentDirichletAllocation(
        n_components=K,
        doc_topic_prior=alpha,
        topic_word_prior=s.beta,
        learning_method="online",
        batch_size=s.minibatch,
        total_samples=train.n_docs,
        random_state=seed,
    )
    t = 0.0
    rng = np.random.default_rng(seed)
    curve["sklearn"] = []
    for _ in range(q.sklearn_iters):
        order = rng.permutation(train.n_docs)
        t0 = time.perf_counter()
        for b in range(0, train.n_docs, s.minibatch):
            sk.partial_fit(X[order[b : b + s.minibatch]])
        t += time.perf_counter() - t0
        comp = sk.components_
        curve["sklearn"].append((t, ll((comp / comp.sum(1, keepdims=True)).T.copy())))
    target = curve["sklearn"][-1][1]

    def first_time(c):
        for tt, v in c:
            if v >= target:
                return tt
        return float("inf")

    every = max(1, train.n_docs // s.minibatch // 4)
    schedules = [("SCVB0", asdict(s.rho_phi))] + [
        (f"SCVB0 (rho_phi s={r.s:g}, tau={r.tau:g}, kappa={r.kappa:g})", asdict(r))
        for r in q.extra_schedules
    ]
    for label, sched in schedules:
        scvb = SCVB0(
            K,
            alpha,
            s.beta,
            minibatch=s.minibatch,
            rho_phi=sched,
            rho_theta=asdict(s.rho_theta),
            n_burn=s.n_burn,
            init=s.scvb0_init,
            seed=seed,
        )
        curve[label] = []

        def cb(m, info=None, label=label):
            if m.minibatches % every == 0:
                curve[label].append((m.train_seconds, ll(m.phi_wk())))
                return curve[label][-1][1] >= target
            return False

        n_ep = float(q.sklearn_iters if q.scvb0_max_epochs is None else q.scvb0_max_epochs)
        scvb.fit(train, n_ep, callback=cb)
    try:
        from gensim.models import LdaModel

        corpus_g = [list(zip(*train.doc(j), strict=True)) for j in range(train.n_docs)]
        for label, kw in [
            ("gensim (default)", {}),
            ("gensim (decay 0.7, offset 10)", {"decay": 0.7, "offset": 10.0}),
        ]:
            lda = LdaModel(
                num_topics=K,
                id2word={i: w for i, w in enumerate(train.vocab)},
                chunksize=s.minibatch,
                alpha=alpha,
                eta=s.beta,
                random_state=seed,
                eval_every=None,
                **kw,
            )
            curve[label] = []
            tg = 0.0
            for _ in range(q.sklearn_iters):
                t0 = time.perf_counter()
                lda.update(corpus_g, chunks_as_numpy=False)
                tg += time.perf_counter() - t0
                curve[label].append((tg, ll(lda.get_topics().T.copy())))
                if curve[label][-1][1] >= target:
                    break
    except ImportError:
        log.warning("gensim not installed; comparison skipped")
    for name, c in curve.items():
        rows.append(
            dict(
                algorithm=name,
                K=K,
                comparison="time_to_sklearn_10_iter_ll",
                target_ll=target,
                seconds_to_target=first_time(c),
                final_ll=c[-1][1] if c else np.nan,
                total_seconds=c[-1][0] if c else np.nan,
            )
        )
    # CGS tokens/s vs tomotopy, back to back in alternating turns
    n_it = q.cgs_iters
    _, t_ours, n_ours, t_tp, n_tp = cgs_vs_tomotopy(
        train, K, alpha, s.beta, seed, seconds=0.0, warm=q.cgs_warm, turn=n_it
    )
    ours = dict(algorithm="CGS (latentlab)", K=K, comparison="cgs_tokens_per_s", threads=1,
                tokens_per_s=n_ours * train.n_tokens / t_ours, load_avg_1m=_load())  # fmt: skip
    rows.append(ours)
    if t_tp is not None:
        tps = n_tp * train.n_tokens / t_tp
        ours.update(ratio_baseline="tomotopy.LDAModel", speed_ratio=ours["tokens_per_s"] / tps)
        rows.append(dict(algorithm="tomotopy.LDAModel", K=K, comparison="cgs_tokens_per_s",
                         threads=1, tokens_per_s=tps, load_avg_1m=_load()))  # fmt: skip
    return rows


@STUDY.run("bench", settings=BenchSettings)
def bench(ctx):
    """bench.csv: throughput of every algorithm at each K; library comparison."""
    s = ctx.settings
    q = s.bench
    seed = ctx.seed()
    peaks = machine_peaks()
    warm_up(s)
    peaks = dict(peaks, numba_threading_layer=use_workqueue_threads())
    c, _ = lda_corpus_vectorised(20, 30, 2, 10, 0.5, 0.5, 0)
    SCVB0(2, minibatch=5, seed=0, threads=2).fit(c, n_iter=1)  # compile/load the kernels
    SVB(2, minibatch=5, seed=0, threads=2).fit(c, n_iter=1)
    BatchVB(2, max_local=1, seed=0, threads=2).fit(c, 1)
    CGS(2, optimize_interval=0).fit(c, 1)
    paths = ctx.input_list("corpora")  # in the order of bench.datasets
    corpora = {n: BowCorpus.load(p) for n, p in zip(q.datasets, paths, strict=True)}
    rows = []
    for name in q.datasets:
        for K in q.K:
            for r in throughput(s, corpora[name], int(K), q.seconds, seed):
                rows.append(dict(dataset=name, data_kind=s.datasets[name].kind, **r))
    df = pd.DataFrame(rows)
    if "gflops" in df:
        df["fraction_of_gemm_peak"] = df["gflops"] / peaks["gemm_gflops"]
    comp = q.compare
    if comp:
        c = BowCorpus.load(ctx.input("compare"))
        train, test, _, _ = heldout_docs(c, s.heldout_frac, ctx.seed(SEED_SPLIT))
        split = completion_split(test, ctx.seed(SEED_HALVES))
        cmp = pd.DataFrame(compare_libraries(s, comp, train, split, seed))
        cmp.insert(0, "dataset", comp.dataset)
        cmp.insert(1, "data_kind", s.datasets[comp.dataset].kind)
        df = pd.concat([df, cmp], ignore_index=True)
    csv = ctx.output("csv")
    md = ctx.outputs.get("md", csv.with_suffix(".md"))
    write_bench(bench_long(df), csv, meta=ctx.meta(peaks=peaks), md_path=md)


def bench_long(df: pd.DataFrame) -> pd.DataFrame:
    """The wide rows of :func:`throughput` and :func:`compare_libraries` (``dataset,
    data_kind, algorithm, K, threads, comparison, ratio_baseline``, metrics) in the layout
    of :mod:`latentlab.bench`: bench ``throughput`` or the comparison's name, method the
    algorithm, settings dataset, data_kind, K and ``baseline`` (the row ``speed_ratio`` is
    measured against)."""
    df = df.copy()
    bench = df["comparison"] if "comparison" in df else pd.Series(np.nan, index=df.index)
    df["bench"] = bench.fillna("throughput")
    df = df.drop(columns=["comparison"], errors="ignore").rename(
        columns={"algorithm": "method", "ratio_baseline": "baseline"}
    )
    settings = ("dataset", "data_kind", "K", "baseline")
    return long_format(df, "scvb0", settings=[c for c in settings if c in df])
