"""Performance benchmark of seed 001 (Fig 1 as measured numbers, claims C1 and C15), written
as ``bench.csv`` in the layout of :mod:`latentlab.bench` (``study.bench_table`` reads it back).

* time per iteration and memory of each of the eight configurations at each bench T: every
  (config, T) runs in a fresh process so its peak RSS is its own; ``state_mb`` is the exact
  size of the arrays the method keeps between sweeps (q, counts, variance counts, log-zero
  statistics); ``alloc_peak_mb`` adds to it the tracemalloc peak of the numpy buffers
  allocated during the measured iterations (per-iteration temporaries such as the CVB
  positive-part statistics and expected table counts); ``peak_rss_mb`` minus the baseline
  (a process that only loads the data) is dominated by the numba runtime at small sizes;
* lines of code of each method's inference path (logical lines of the functions it calls,
  docstrings and comments excluded);
* side by side with ``tomotopy.HDPModel`` (Gibbs) and gensim's ``HdpModel`` (online VB),
  when installed, on the same 80/20 split: held-out perplexity reached and wall time, and
  PCVB0's perplexity at the same wall time.
"""

from __future__ import annotations

import ast
import inspect
import logging
import multiprocessing as mp
import os
import textwrap
import time
import tracemalloc

import numpy as np

from latentlab.studies.hdp_pcvb0.study import STUDY, BenchSettings

log = logging.getLogger("latentlab.hdp_pcvb0")


def _split(inp, split_kw):
    from latentlab.data.splits import split_within_documents
    from latentlab.studies.hdp_pcvb0.runs import load_corpus

    return split_within_documents(load_corpus(inp), source=str(inp), **split_kw)


def _child(args):
    """Fit one configuration for a few iterations in a fresh process."""
    inp, split_kw, options, seed, config, T, n_iter = args
    from latentlab.bench import peak_rss_mb
    from latentlab.studies.hdp_pcvb0.runs import new_model

    split = _split(inp, split_kw)
    base = peak_rss_mb()
    if config == "baseline":
        return {"baseline_rss_mb": base}
    m = new_model(T, config, options=options, seed=seed, task="bench")
    m._init(split.train)
    tracemalloc.start()  # numpy reports its buffers: per-iteration temporaries
    secs = []
    for _ in range(n_iter):
        t0 = time.perf_counter()
        m.step()
        secs.append(time.perf_counter() - t0)
    alloc_peak = (m.state_bytes() + tracemalloc.get_traced_memory()[1]) / 2**20
    tracemalloc.stop()
    t0 = time.perf_counter()
    m.sweep()  # the token sweep alone (Algorithm 1 lines 2-6), without the global updates
    sweep = time.perf_counter() - t0
    return {
        "sec_sweep": sweep,
        "alloc_peak_mb": alloc_peak,
        "sec_per_iter": float(np.median(secs)),
        "sec_per_iter_min": float(np.min(secs)),
        "state_mb": m.state_bytes() / 2**20,
        "peak_rss_mb": peak_rss_mb(),
        "n_train_tokens": split.train.n_tokens,
    }


def _logical_lines(fn) -> int:
    src = textwrap.dedent(inspect.getsource(fn))
    tree = ast.parse(src)
    node = tree.body[0]
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # docstring
    node.body = body or [ast.Pass()]
    return len([ln for ln in ast.unparse(node).splitlines() if ln.strip()])


def lines_of_code() -> dict:
    """Logical lines of each method's inference path (the functions it runs)."""
    from latentlab.models.hdp import kernels, updates
    from latentlab.models.hdp.model import HDPLDA

    pcvb_globals = [
        HDPLDA._global_pcvb,
        updates.q_pi_pcvb,
        updates.stick_expectation,
        updates.fixed_point_concentration,
        updates.gamma0_closed_form,
        updates.tau_from_counts,
        kernels.log_zero_stats.py_func,
        kernels.log1m.py_func,
    ]
    cvb_globals = [
        HDPLDA._global_cvb,
        updates.positive_part,
        updates.expected_tables,
        kernels._psi2,
        updates.gamma_moments,
        updates.stick_expectation,
        updates.stick_log_geometric,
        kernels.log_zero_stats.py_func,
        kernels.log1m.py_func,
        kernels.counts_from_q.py_func,  # variance counts
    ]
    paths = {
        "pcvb0": [kernels.sweep_zero.py_func, *pcvb_globals],
        "pcvb": [kernels.sweep_second.py_func, *pcvb_globals],
        "cvb0": [kernels.sweep_zero.py_func, *cvb_globals],
        "cvb": [kernels.sweep_second.py_func, *cvb_globals],
    }
    return {m: sum(_logical_lines(f) for f in fns) for m, fns in paths.items()}


def _heldout_probs(theta, phi_vk, split):
    from latentlab.models.hdp.kernels import entry_probs

    p = entry_probs(split.test.doc, split.test.word, theta, phi_vk)
    return float(
        np.exp(-np.sum(split.test.count * np.log(np.maximum(p, 1e-300))) / split.test.n_tokens)
    )


def _tomotopy(split, T, seconds, seed):
    try:
        import tomotopy as tp
    except ImportError:
        return {"status": "tomotopy not installed"}
    mdl = tp.HDPModel(tw=tp.TermWeight.ONE, initial_k=10, seed=seed)
    tr = split.train
    for d in range(tr.n_docs):
        ws = tr.words[tr.doc_ptr[d] : tr.doc_ptr[d + 1]]
        mdl.add_doc([f"w{w}" for w in ws] if len(ws) else ["w0"])
    t0 = time.perf_counter()
    it = 0
    while time.perf_counter() - t0 < seconds:
        mdl.train(10, workers=1)
        it += 10
    wall = time.perf_counter() - t0
    vocab_index = {w: i for i, w in enumerate(mdl.used_vocabs)}
    K = mdl.k
    live = [k for k in range(K) if mdl.is_live_topic(k)]
    phi = np.full((tr.V, len(live)), 1e-12)
    for j, k in enumerate(live):
        dist = mdl.get_topic_word_dist(k)
        for v in range(tr.V):
            i = vocab_index.get(f"w{v}")
            if i is not None:
                phi[v, j] = dist[i]
    theta = np.array([np.asarray(doc.get_topic_dist())[live] for doc in mdl.docs])
    theta /= theta.sum(1, keepdims=True)
    return {
        "status": "ok",
        "iterations": it,
        "wall_seconds": wall,
        "perplexity": _heldout_probs(theta, phi, split),
        "topics": len(live),
    }


def _gensim(split, T, seconds, seed):
    try:
        from gensim.corpora import Dictionary
        from gensim.models import HdpModel
    except ImportError:
        return {"status": "gensim not installed"}
    tr = split.train
    id2word = Dictionary([[f"w{v}" for v in range(tr.V)]])
    bows = []
    for d in range(tr.n_docs):
        ws, c = np.unique(tr.words[tr.doc_ptr[d] : tr.doc_ptr[d + 1]], return_counts=True)
        bows.append([(id2word.token2id[f"w{w}"], int(n)) for w, n in zip(ws, c, strict=True)])
    perm = np.array([id2word.token2id[f"w{v}"] for v in range(tr.V)])
    t0 = time.perf_counter()
    hdp = HdpModel(bows, id2word, T=T, max_time=seconds, random_state=seed)
    wall = time.perf_counter() - t0
    gamma = hdp.inference(bows) + 1e-12  # hdp.lda_alpha/lda_beta: the LDA view of the HDP
    lb = np.asarray(hdp.lda_beta)
    phi = (lb / lb.sum(1, keepdims=True))[:, perm].T  # V x T
    theta = gamma / gamma.sum(1, keepdims=True)
    return {
        "status": "ok",
        "wall_seconds": wall,
        "perplexity": _heldout_probs(theta, phi, split),
        "topics": T,
    }


def timed_trace(m, split, secs: float, max_iter: int = 1000) -> np.ndarray:
    """(seconds since start, test perplexity) after each sweep of ``m`` until ``secs``
    (5% slack) have passed; at least one sweep, even when the initialisation alone takes
    longer than ``secs`` (a loaded machine, a tiny smoke budget)."""
    trace = []
    t_start = time.perf_counter()
    m._init(split.train)
    while m.iteration < max_iter and (not trace or time.perf_counter() - t_start < secs * 1.05):
        m.step()
        trace.append((time.perf_counter() - t_start, m.perplexity(split.test)))
    return np.array(trace)


@STUDY.run("bench", settings=BenchSettings)
def run_bench(ctx) -> None:
    """bench.csv: time, memory, lines of code, libraries (one process per measurement)."""
    import pandas as pd

    from latentlab.bench import long_format, machine_peaks, write_bench
    from latentlab.studies.hdp_pcvb0.runs import new_model

    logging.getLogger("gensim").setLevel(logging.WARNING)
    b = ctx.settings.bench
    p = ctx.settings.perplexity
    inp = str(ctx.input("data"))
    split_kw = {"frac": p.train_frac, "seed": ctx.seed(p.split_seed),
                "short_docs": p.short_docs, "oov_rule": p.oov_rule}  # fmt: skip
    opts = ctx.settings.options
    seed = ctx.seed(0)
    Ts = list(b.T)
    n_iter = b.iterations
    pctx = mp.get_context("spawn")
    rows = []
    loc = lines_of_code()

    def job(config, T, n):
        return ((inp, split_kw, opts, seed, config, T, n),)

    with pctx.Pool(1, maxtasksperchild=1) as pool:
        base = pool.apply(_child, job("baseline", 2, 0))["baseline_rss_mb"]
        for T in Ts:
            for config in b.configs:
                r = pool.apply(_child, job(config, T, n_iter))
                method, prior = config.split("_")
                log.info("bench %s T=%d: %s", config, T, r)
                rows.append(
                    {
                        "kind": "method",
                        "config": config,
                        "method": method,
                        "prior": prior,
                        "T": T,
                        **r,
                        "baseline_rss_mb": base,
                        "rss_above_baseline_mb": r["peak_rss_mb"] - base,
                        "loc": loc[method],
                    }
                )
        for T in b.sweep_T:  # the brief: PCVB0 at T = 300 on KOS
            r = pool.apply(_child, job("pcvb0_AS", T, 2))
            log.info("bench sweep pcvb0_AS T=%d: %s", T, r)
            rows.append({"kind": "sweep", "config": "pcvb0_AS", "method": "pcvb0",
                         "prior": "AS", "T": T, **r, "baseline_rss_mb": base})  # fmt: skip
    # libraries on the same split, against PCVB0's perplexity at the same wall time
    split = _split(inp, split_kw)
    T_lib = b.library_T if b.library_T is not None else max(Ts)
    secs = b.library_seconds
    m = new_model(T_lib, f"pcvb0_{b.library_prior}", options=opts, seed=seed, task="bench")
    trace = timed_trace(m, split, secs)
    libs = {}
    for name, fn in (("tomotopy.HDPModel", _tomotopy), ("gensim.HdpModel", _gensim)):
        if name.split(".")[0] not in b.libraries:
            continue
        try:
            libs[name] = fn(split, T_lib, secs, seed)
        except Exception as e:  # a third-party failure is a recorded result, not a crash
            libs[name] = {"status": f"failed: {type(e).__name__}: {e}"}
        log.info("bench %s: %s", name, libs[name])
    libs[f"latentlab PCVB0 {b.library_prior}"] = {
        "status": "ok",
        "wall_seconds": float(trace[-1, 0]),
        "perplexity": float(trace[-1, 1]),
        "iterations": m.iteration,
        "topics": m.effective_topics(),
    }
    for name, r in libs.items():
        row = {
            "kind": "library",
            "config": name,
            "T": T_lib,
            "status": r.get("status", "ok"),
            "wall_seconds": r.get("wall_seconds", np.nan),
            "perplexity": r.get("perplexity", np.nan),
        }
        if r.get("status") == "ok" and not name.startswith("latentlab"):
            ok = trace[trace[:, 0] <= r["wall_seconds"]]
            row["pcvb0_perplexity_same_time"] = float(ok[-1, 1]) if len(ok) else np.nan
        rows.append(row)
    df = pd.DataFrame(rows)
    peaks = machine_peaks()
    meta = {
        **ctx.meta(),
        "n_train_tokens": split.train.n_tokens,
        "machine": peaks,
        "loadavg": os.getloadavg(),
        "loc": loc,
        "note": "time per iteration = median of the measured sweeps incl. global updates; "
        "the machine is shared, so times are noisy",
    }
    # one row per measured number (latentlab.bench): kind -> bench, config -> method, the
    # config's method family, prior and T -> settings, a library's status -> note
    df = df.rename(columns={"method": "family"}).rename(
        columns={"kind": "bench", "config": "method"}
    )
    long = long_format(
        df, "hdp_pcvb0", settings=("family", "prior", "T"), note="status", units={"loc": "lines"}
    )
    write_bench(long, ctx.output("csv"), meta=meta)
