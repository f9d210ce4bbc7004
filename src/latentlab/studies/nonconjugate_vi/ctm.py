"""CTM computations of Wang & Blei (2013) Sec. 5.1: raw results for Figs. 2, 5, 6 and bench.

Protocol (Sec. 5.1): 80/20 train/test documents (seeded), topics initialised by Dir(1) draws
identical for all methods at a given (K, seed); variational EM with the standard CTM M-step
(:func:`latentlab.models.ctm.vi.m_step`); held-out
per-word log likelihood by document completion on halves of the test documents (plug-in
predictive, MC switch). Per-word Eq. 21 objective on the training documents (Fig. 5a).
No plotting here (:mod:`.figures` draws from the raw CSVs). ``c`` is the ``ctm`` settings
(:class:`~.study.CtmSettings`).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd

from latentlab.data.splits import CompletionSplit
from latentlab.models.ctm import CTM
from latentlab.models.ctm import vi as R
from latentlab.outputs import UnitStore, write_unit
from latentlab.studies.nonconjugate_vi.data import load_ctm_corpus

log = logging.getLogger(__name__)


def warmup() -> None:
    """Compile the numba kernels on a toy document so no timing includes JIT compilation,
    once per process (:func:`latentlab.kernels.warmup.warm_once`)."""
    from latentlab.kernels.warmup import warm_once

    warm_once("nonconjugate_vi.ctm", _toy_docs)


def _toy_docs() -> None:
    rng = np.random.default_rng(0)
    lb = np.log(rng.dirichlet(np.ones(8), size=3))
    ids, cnt = np.arange(4), np.ones(4)
    for meth in R.METHODS:
        R.infer_doc(meth, ids, cnt, lb, R.initial_model(meth, lb).prior)


def method_opts(c, method: str) -> dict:
    """Per-document inference settings (the document gives no thresholds; ours)."""
    if method == "bl":
        return {"tol": c.bl_tol, "max_iter": c.bl_max_iter}
    return {"tol": c.estep_tol, "max_iter": c.estep_max_iter}


def make_ctm(c, K: int, seed: int, method: str, *, tol: float, smooth: bool = True) -> CTM:
    """The CTM (:class:`latentlab.models.ctm.CTM`) with this study's settings: the
    per-document inference options of :func:`method_opts`; ``smooth``: the configured
    pseudo-count and ridge (else the model's defaults, as the bench runs)."""
    o = method_opts(c, method)
    extra = {"pseudo": c.pseudo_count, "ridge_rel": c.ridge_rel} if smooth else {}
    return CTM(K, method, seed=seed, tol=tol, estep_tol=o["tol"], estep_max_iter=o["max_iter"],
               **extra)  # fmt: skip


def as_corpus(docs, V: int):
    """A list of (ids, counts) documents as the BowCorpus the models take (order kept)."""
    return R.docs_to_corpus(docs, V)


def as_split(obs, held, V: int) -> CompletionSplit:
    """Observed and scored halves (:func:`prepare_corpus`) as a CompletionSplit."""
    return CompletionSplit(as_corpus(obs, V), as_corpus(held, V), 0)


def prepare_corpus(ctx, spec, path=None):
    """Load, split 80/20 by documents, and split test documents into halves (seeded)."""
    from latentlab.data.splits import doc_split, split_doc_halves

    c = ctx.settings.ctm
    docs, V, info = load_ctm_corpus(spec, ctx.seed(), path)
    pct = int(round(100 * (1 - c.test_frac)))
    tr, te = doc_split(len(docs), pct, ctx.seed(c.split_seed))
    train = [docs[i] for i in tr]
    test = [docs[i] for i in te]
    if c.max_test_docs:
        test = test[: c.max_test_docs]
    obs, held, _ = split_doc_halves(test, ctx.seed(c.halves_seed))
    info.update({"n_train_docs": len(train), "n_test_docs": len(obs), "V": V})
    return train, obs, held, V, info


def _fit_one(job):
    """One fit of the sweep; its row is also written to its unit file (``job[-1]``), so an
    interrupted sweep keeps it."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        row = _fit_one_inner(job[:-1])
    return row if job[-1] is None else write_unit(job[-1], row)


def _fit_one_inner(job):
    train, obs, held, V, K, seed, method, c, corpus = job
    warmup()
    m = make_ctm(c, K, seed, method, tol=c.em_tol)
    train_c, split = as_corpus(train, V), as_split(obs, held, V)
    t0 = time.perf_counter()
    m.fit(
        train_c,
        c.em_max_iter,
        time_budget=c.em_time_budget_s,
        iter_budget=c.iter_budget(corpus, K, method),
    )
    t_fit = time.perf_counter() - t0
    hist = m.history
    return {
        "K": K,
        "seed": seed,
        "method": method,
        "bound_per_word": hist[-1]["bound_per_word"],
        "heldout_per_word": m.log_predictive(split, c.predictive, c.n_mc, seed),
        "em_iters": len(hist),
        "em_converged": hist[-1]["em_stop"] == "tolerance",  # vi.em_iterations' own rule
        "fit_time_s": t_fit,
        "estep_time_s": float(np.mean([h["estep_s"] for h in hist])),
        "max_ridge": float(max(h["ridge"] for h in hist)),
        "em_stop": hist[-1]["em_stop"],
    }


def ctm_sweep(ctx, spec, path=None, units: UnitStore | None = None) -> tuple[pd.DataFrame, dict]:
    """Fig. 5 data for one corpus: every (seed, K, method), same initial topics per (K, seed).
    EM runs to ``ctm.em_tol`` or is cut by a budget (:class:`~.study.CtmSettings`); each row
    says why it stopped (``em_stop``). With ``units``, each finished fit is kept there and
    the fits an interrupted run finished are not run again."""
    c = ctx.settings.ctm
    train, obs, held, V, info = prepare_corpus(ctx, spec, path)
    names, pending, rows, jobs = [], [], {}, []
    for r in range(c.seeds):
        for K in c.K_grid:
            seed = ctx.seed(K, c.seed_stride * r)
            for method in c.methods:
                name = f"K{int(K)}_seed{seed}_{method}"
                names.append(name)
                done = units.get(name) if units else None
                if done is not None:
                    rows[name] = done
                    continue
                keep = units.path(name) if units else None
                jobs.append((train, obs, held, V, int(K), seed, method, c, spec.name, keep))
                pending.append(name)
    workers = max(1, ctx.threads)
    log.info("%s: %d fits on %d workers, %d kept from an interrupted run (%s)",
             spec.name, len(jobs), workers, len(rows), info)  # fmt: skip
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            fitted = list(ex.map(_fit_one, jobs))
    else:
        fitted = [_fit_one(j) for j in jobs]
    rows.update(zip(pending, fitted, strict=True))
    df = pd.DataFrame([rows[n] for n in names])
    df.insert(0, "corpus", spec.name)
    df["data_kind"] = info["data_kind"]
    meta = {
        "corpus": info,
        "spec": dataclasses.asdict(spec),
        "protocol": "80/20 documents; halves of test docs; Dir(1) initial topics shared by methods",
    }
    return df, meta


def _fit_model(train, V, K, seed, method, c, max_iter) -> CTM:
    return make_ctm(c, K, seed, method, tol=0.0).fit(as_corpus(train, V), max_iter)


def fig2_traces(ctx, path=None) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """Fig. 2 data: Eq. 21 per iteration of per-document inference, two documents, Laplace
    and delta; and, over ``n_check_docs`` test documents, whether each trace ever decreases
    (claim C7).

    Choices of ours (the document states neither documents, K nor method for Fig. 2): corpus
    and K from config; topics from a few Laplace EM
    iterations; the two documents are seeded draws among the test documents; both methods
    start at m = 0 with tight tolerance.
    """
    c, f2 = ctx.settings.ctm, ctx.settings.fig2
    spec = c.corpus(f2.corpus)
    train, obs, held, V, info = prepare_corpus(ctx, spec, path)
    model = _fit_model(train, V, f2.K, ctx.seed(), "laplace", c, f2.em_iters)
    rng = np.random.default_rng(ctx.seed(f2.pick_seed))
    ndocs = min(f2.n_check_docs, len(obs))
    pick = rng.choice(len(obs), 2, replace=False)
    rows, mono = [], []
    opts = {"tol": f2.tol, "max_iter": f2.max_iter}
    for meth in ("laplace", "delta"):
        for j in range(ndocs):
            ids, cnt = obs[j]
            fit = R.infer_doc(meth, ids, cnt, model.logbeta, model.prior, opts=opts)
            tr = np.asarray(fit.trace)
            dec = np.diff(tr) < -1e-8 * np.abs(tr[:-1])
            mono.append({"method": meth, "doc": j, "n_iter": len(tr),
                         "n_decreases": int(dec.sum()),
                         "monotone": bool(not dec.any()),
                         "converged": bool(fit.n_iter < f2.max_iter)})  # fmt: skip
        for d_i, j in enumerate(pick):
            ids, cnt = obs[j]
            fit = R.infer_doc(meth, ids, cnt, model.logbeta, model.prior, opts=opts)
            for it, v in enumerate(fit.trace, 1):
                rows.append({"doc": f"doc{d_i + 1}", "doc_index": int(j), "method": meth,
                             "iteration": it, "objective": v})  # fmt: skip
    # Sec. 3.2: θ̂ = previous m (Ahmed-Xing, undamped Newton) "did not always converge"
    for j in range(ndocs):
        ids, cnt = obs[j]
        ok, it, _ = R.ahmed_xing_doc(ids, cnt, model.logbeta, model.prior, tol=c.estep_tol,
                                     max_iter=f2.max_iter)  # fmt: skip
        mono.append({"method": "ahmed_xing", "doc": j, "n_iter": it, "n_decreases": -1,
                     "monotone": False, "converged": bool(ok)})  # fmt: skip
    ax = {"tol": c.estep_tol, "max_iter": f2.max_iter,
          "note": "monotone/n_decreases not recorded for ahmed_xing rows"}  # fmt: skip
    meta = {"corpus": info, "K": f2.K, "em_iters": f2.em_iters, "tol": f2.tol, "ahmed_xing": ax}
    return pd.DataFrame(rows), pd.DataFrame(mono), meta


def _fig6_fit(job):
    """One (seed, method) history of Fig. 6, in a worker with single-threaded BLAS."""
    from threadpoolctl import threadpool_limits

    train, obs, held, V, K, seed, meth, r, c, max_iter = job
    split = as_split(obs, held, V)

    def ev(model, rec):  # outside the timed region (em_iterations' clock)
        rec["heldout_per_word"] = model.log_predictive(split)

    with threadpool_limits(1):
        warmup()
        m = make_ctm(c, K, seed, meth, tol=0.0).fit(as_corpus(train, V), max_iter, callback=ev)
    return [{"method": meth, "seed": r, **h} for h in m.history]


def fig6_history(ctx, path=None) -> tuple[pd.DataFrame, dict]:
    """Fig. 6 data: approximate bound and held-out log likelihood after every EM iteration
    against wall-clock time, one corpus and K (the document does not say which; ours). Held-out
    evaluation is
    excluded from the timed region. The (seed, method) fits run in ``ctx.threads`` worker
    processes, one core each, so each history's clock is its own fit's."""
    c, f6 = ctx.settings.ctm, ctx.settings.fig6
    train, obs, held, V, info = prepare_corpus(ctx, c.corpus(f6.corpus), path)
    K = f6.K
    jobs = [
        (train, obs, held, V, K, ctx.seed(K, c.seed_stride * r), meth, r, c, f6.em_max_iter)
        for r in range(f6.seeds)
        for meth in f6.methods
    ]  # fmt: skip
    workers = max(1, min(ctx.threads, len(jobs)))
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            res = list(ex.map(_fig6_fit, jobs))
    else:
        res = [_fig6_fit(j) for j in jobs]
    rows = [row for r in res for row in r]
    meta = {"corpus": info, "K": K, "em_max_iter": f6.em_max_iter, "seeds": f6.seeds,
            "workers": workers}  # fmt: skip
    return pd.DataFrame(rows), meta


def bench_ctm(ctx, path=None) -> list[dict]:
    """Time per E-step document and per EM iteration for each method and K (bench.csv rows),
    ``bench.repeats`` times (the methods interleaved, so each repeat sees the machine alike;
    the repeats are the timing claims' replicates)."""
    c, b = ctx.settings.ctm, ctx.settings.bench
    spec = c.corpus(b.corpus)
    full_train, obs, held, V, info = prepare_corpus(ctx, spec, path)
    train = full_train[: b.n_docs]
    warmup()
    rows = []
    for rep, K, meth in ((r, K, m) for r in range(b.repeats) for K in b.K for m in c.methods):
        m = make_ctm(c, int(K), ctx.seed(K), meth, tol=0.0, smooth=False)
        hist = m.fit(as_corpus(train, V), b.em_iters).history
        t_iter = float(
            np.mean(
                [h["time_s"] for h in hist[:1]]
                + [hist[i]["time_s"] - hist[i - 1]["time_s"] for i in range(1, len(hist))]
            )
        )
        t_doc = float(np.mean([h["estep_s"] for h in hist])) / len(train)
        for what, value in (("ctm_estep_per_doc", t_doc), ("ctm_em_iteration", t_iter)):
            rows.append({"what": what, "method": meth, "K": int(K), "rep": rep,
                         "dataset": spec.name, "data_kind": info["data_kind"],
                         "value": value, "unit": "s", "n": len(train)})  # fmt: skip
    if b.tomotopy_K:
        rows.extend(
            bench_tomotopy(full_train, obs, held, V, b, c, spec, info, ctx.seed(b.tomotopy_K))
        )
    return rows


def bench_tomotopy(train, obs, held, V, b, c, spec, info, seed) -> list[dict]:
    """tomotopy.CTModel vs our Laplace VI on the same split and K: held-out per-word log
    likelihood (document completion, plug-in predictive for both) and training wall time.
    tomotopy is imported lazily; without it no rows are written (logged)."""
    try:
        import tomotopy as tp
    except ImportError:
        log.info("tomotopy not installed: CTModel comparison skipped")
        return []
    K = b.tomotopy_K
    mdl = tp.CTModel(k=K, seed=seed)
    for ids, cnt in train:
        mdl.add_doc([str(w) for w, n in zip(ids, cnt.astype(int), strict=True) for _ in range(n)])
    t0 = time.perf_counter()
    mdl.train(b.tomotopy_iters, workers=1)
    t_tp = time.perf_counter() - t0
    vocab = {w: i for i, w in enumerate(mdl.used_vocabs)}
    phi = np.stack([mdl.get_topic_word_dist(k) for k in range(K)])
    # evaluate both models on the held-out tokens whose word occurs in the training documents
    # (tomotopy has no parameters for unseen words)
    held = [
        (h[np.isin(h, [int(w) for w in vocab])], c_[np.isin(h, [int(w) for w in vocab])])
        for h, c_ in held
    ]
    tot, ntok = 0.0, 0
    for (ids, cnt), (hids, hcnt) in zip(obs, held, strict=True):
        words = [
            str(w)
            for w, n in zip(ids, cnt.astype(int), strict=True)
            for _ in range(n)
            if str(w) in vocab
        ]
        doc = mdl.make_doc(words)
        mdl.infer(doc, iterations=b.tomotopy_infer_iters, workers=1)
        theta = np.asarray(doc.get_topic_dist())
        cols = np.array([vocab.get(str(w), -1) for w in hids])
        pw = np.full(len(hids), 1e-300)
        ok = cols >= 0
        pw[ok] = np.maximum(theta @ phi[:, cols[ok]], 1e-300)
        tot += float(hcnt @ np.log(pw))
        ntok += int(hcnt.sum())
    m = make_ctm(c, K, seed, "laplace", tol=c.em_tol, smooth=False)
    train_c, split = as_corpus(train, V), as_split(obs, held, V)
    t0 = time.perf_counter()
    hist = m.fit(train_c, b.laplace_em_iters).history
    t_lap = time.perf_counter() - t0
    s_l = m.log_predictive(split)
    n_l = split.n_scored_tokens
    base = {"K": K, "dataset": spec.name, "data_kind": info["data_kind"]}
    return [
        {
            "what": "heldout_per_word",
            "method": "tomotopy_CTModel",
            **base,
            "value": tot / ntok,
            "unit": "nats/word",
            "n": ntok,
        },
        {
            "what": "train_time",
            "method": "tomotopy_CTModel",
            **base,
            "value": t_tp,
            "unit": "s",
            "n": b.tomotopy_iters,
        },
        {
            "what": "heldout_per_word",
            "method": "laplace",
            **base,
            "value": s_l,
            "unit": "nats/word",
            "n": n_l,
        },
        {
            "what": "train_time",
            "method": "laplace",
            **base,
            "value": t_lap,
            "unit": "s",
            "n": len(hist),
        },
    ]
