"""iwtm bench: GEMM share of the CAVI expected log-likelihood vs the machine's GEMM peak
(alone and with the top-C selection), one CAVI iteration block by block at N x C with 1
and (when the job has them) 2 threads, the same with the E l GEMM in float32 (float64
re-check of the top-C boundary) against the float32 peak, the float64 iteration's labelled
extrapolation to ``estimate_N``; at one thread: scikit-learn BayesianGaussianMixture side
by side, Gibbs vs VI time at equal data (E13; the Gibbs sweep also with the reference
kernel), one LDA+KMEANS run vs CAVI (E12), dense SIFT images per second.
Writes bench.csv (never a timed test) in the layout of :mod:`latentlab.bench`
(:func:`bench_long`). With ``bench.dataset`` set the descriptors are the
run's real ones (rows tiled when N exceeds them); otherwise standard normal."""

from __future__ import annotations

import functools
import os
import time

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from latentlab.bench import best_time, long_format, machine_peaks, write_bench
from latentlab.models.iwtm.cavi import CaviSettings, IWTMCavi
from latentlab.models.iwtm.gibbs import GibbsSchedule, IWTMGibbs
from latentlab.models.iwtm.normal_gamma import NGPrior

from . import pipeline as P
from .study import STUDY, BenchSettings


def _best_top_clusters(m, X, Xa, reps: int) -> tuple[float, dict]:
    """The fastest of ``reps`` top-C selections (E l GEMM included): its seconds and the
    model's phase timings of that run."""
    t_sel, tm = np.inf, {}
    for _ in range(reps):
        m.timing.clear()
        t0 = time.perf_counter()
        m.top_clusters(X, Xa)
        t = time.perf_counter() - t0
        if t < t_sel:
            t_sel, tm = t, dict(m.timing)
    return t_sel, tm


def _descriptors(ctx, b, rng):
    if b.dataset is None:
        return rng.normal(size=(b.N, b.D)), "synthetic N(0, 1)"
    X = np.load(ctx.input("data"))["X"].astype(np.float64)
    src = f"{b.dataset} descriptors ({len(X)} rows)"
    if len(X) < b.N:
        X = np.tile(X, (int(np.ceil(b.N / len(X))), 1))
        src += f", tiled to {b.N}"
    return np.ascontiguousarray(X[rng.permutation(len(X))[: b.N]]), src


@STUDY.run("bench", settings=BenchSettings)
def bench(ctx):
    """bench.csv: CAVI's GEMM share against the machine's peak, one CAVI iteration at N x C,
    Gibbs vs VI time, LDA+KMEANS vs CAVI, dense SIFT images per second."""
    b = ctx.settings.bench
    rng = np.random.default_rng(ctx.seed(0))
    peaks = machine_peaks()
    X, src = _descriptors(ctx, b, rng)
    D = X.shape[1]
    rows = []

    def row(**kw):
        rows.append(dict(source=src, **kw))

    ip = np.arange(0, b.N + 1, b.doc_len)
    if ip[-1] != b.N:
        ip = np.append(ip, b.N)
    prior = NGPrior.from_data(X, 1.0, 32.0 * D)
    counts = (1, 2) if ctx.threads >= 2 else (1,)
    for n in counts:
        with threadpool_limits(limits=n):
            a = np.random.default_rng(0).standard_normal((1024, 1024))
            peak_n = 2.0 * 1024**3 / best_time(lambda a=a: a @ a, repeat=3) / 1e9
            a32 = a.astype(np.float32)
            peak32 = 2.0 * 1024**3 / best_time(lambda a=a32: a @ a, repeat=3) / 1e9
            row(what="numpy GEMM 1024^3 float64", threads=n, gflops=peak_n)
            row(what="numpy GEMM 1024^3 float32", threads=n, gflops=peak32)
            _cavi_rows(X, ip, b, prior, n, peak_n, row)
            _cavi_f32_rows(X, ip, b, prior, n, peak_n, peak32, row)
    # the rest compares methods at one thread each (numba and BLAS)
    with threadpool_limits(limits=1):
        _comparisons(X, ip, b, prior, D, rng, row)
    df = pd.DataFrame(rows)
    df["load_avg_1min"] = os.getloadavg()[0]
    write_bench(bench_long(df, peaks), ctx.output("csv"))


SETTINGS = ("source", "N", "C", "D", "K", "T", "el_gemm", "n_doc", "batch", "estimate")


def bench_group(what: str) -> str:
    """The bench of a row named ``what``: ``gemm_peak`` (numpy GEMM), ``cavi`` (the float64
    E l phase and CAVI iteration, its blocks and its extrapolation), ``cavi_float32`` (the
    same with the E l GEMM in float32), ``comparison`` (the methods at one thread)."""
    if what.startswith("numpy GEMM"):
        return "gemm_peak"
    if "float32" in what:
        return "cavi_float32"
    if what.startswith(("E l GEMM", "CAVI iteration at bench scale", "CAVI iteration block",
                        "CAVI iteration at N =")):  # fmt: skip
        return "cavi"
    return "comparison"


def bench_long(df: pd.DataFrame, peaks: dict) -> pd.DataFrame:
    """The wide rows (``what``, ``source``, sizes, timings) in the layout of
    :mod:`latentlab.bench`: bench :func:`bench_group`, method ``what``, settings
    :data:`SETTINGS`; the machine's measured peaks are metrics of every row
    (``gemm_gflops_machine``, ``copy_bandwidth_gbs_machine``, ``cpu_count``), its machine
    and processor names the note."""
    df = df.copy()
    df["bench"] = df["what"].map(bench_group)
    df = df.rename(columns={"what": "method"})
    df["gemm_gflops_machine"] = peaks["gemm_gflops"]
    df["copy_bandwidth_gbs_machine"] = peaks["copy_bandwidth_gbs"]
    df["cpu_count"] = peaks["cpu_count"]
    df["note"] = f"machine {peaks['machine']}, processor {peaks['processor']}"
    return long_format(df, "iwtm", settings=[c for c in SETTINGS if c in df], note="note")


BLOCKS = ("el_gemm", "el_topc", "local_kernel", "local_other", "cluster", "mapping",
          "topic_sticks", "master_sticks")  # fmt: skip
N_SCALED = ("el_gemm", "el_topc", "local_kernel", "local_other")  # O(N); the rest O(K C)


def _cavi_rows(X, ip, b, prior, threads, peak, row):
    """E l GEMM alone and with the top-C selection (best of ``gemm_reps``), one CAVI
    iteration at N x C (K = 2C) block by block, and its N-linear extrapolation to
    ``estimate_N`` (labelled an estimate), with ``threads`` numba and BLAS threads."""
    D = X.shape[1]
    cs = CaviSettings(T=b.T, C=b.C, K=2 * b.C, max_local=20)
    IWTMCavi(CaviSettings(T=b.T, C=8, K=16, max_local=20), prior, threads=threads).fit(
        X[: 4 * b.doc_len], ip[:5], 1
    )  # compile (or load) the numba kernels before anything is timed
    m = IWTMCavi(cs, prior, seed=0, threads=threads)
    t0 = time.perf_counter()
    m.initialize(X)
    t_init = time.perf_counter() - t0
    # E l: [x, |x|^2, 1] (N x (D+2)) @ W ((D+2) x C), contiguous float64, one call per chunk
    Xa = m.augment(X)
    W = m.el_weights()
    flops = 2.0 * b.N * (D + 2) * b.C
    t_best = np.inf
    for _ in range(b.gemm_reps):
        t0 = time.perf_counter()
        for a in range(0, len(Xa), m.chunk):
            Xa[a : a + m.chunk] @ W
        t_best = min(t_best, time.perf_counter() - t0)
    row(what="E l GEMM only (chunked, best of reps)", threads=threads, N=b.N, C=b.C, D=D,
        seconds=t_best, gflops=flops / t_best / 1e9, peak_gflops=peak,
        fraction_of_peak=flops / t_best / 1e9 / peak)  # fmt: skip
    t_sel, tm = _best_top_clusters(m, X, Xa, b.gemm_reps)
    row(what="E l GEMM + top-C selection (best of reps)", threads=threads, N=b.N, C=b.C, D=D,
        seconds=t_sel, gflops=flops / t_sel / 1e9, peak_gflops=peak,
        fraction_of_peak=flops / t_sel / 1e9 / peak, el_gemm_s=tm["el_gemm"],
        el_topc_s=tm["el_topc"])  # fmt: skip
    del Xa
    m.timing.clear()
    t0 = time.perf_counter()
    m.fit(X, ip, 1)
    t_it = time.perf_counter() - t0
    t0 = time.perf_counter()
    m.elbo(m.last_stats)
    t_elbo = time.perf_counter() - t0
    tm = dict(m.timing)
    tm["local_other"] = tm["local"] - tm["el_gemm"] - tm["el_topc"] - tm["local_kernel"]
    blocks = {k: tm.get(k, 0.0) for k in BLOCKS}
    common = dict(threads=threads, C=b.C, K=2 * b.C, D=D, T=b.T)
    row(what="CAVI iteration at bench scale", N=b.N, seconds=t_it, init_s=t_init, elbo_s=t_elbo,
        local_sweeps=m.sweeps, fraction_of_peak=flops / blocks["el_gemm"] / 1e9 / peak,
        **{f"{k}_s": v for k, v in blocks.items()}, **common)  # fmt: skip
    for k, v in blocks.items():
        row(what=f"CAVI iteration block: {k}", N=b.N, seconds=v, share=v / t_it, **common)
    f = b.estimate_N / b.N
    est = {k: v * (f if k in N_SCALED else 1.0) for k, v in blocks.items()}
    row(what=f"CAVI iteration at N = {b.estimate_N} (ESTIMATE: the O(N) blocks scaled "
        f"{f:.2f}x from N = {b.N}, the O(KC) blocks as measured)", N=b.estimate_N,
        seconds=sum(est.values()) + (t_it - sum(blocks.values())) * f, estimate=True,
        **{f"{k}_s": v for k, v in est.items()}, **common)  # fmt: skip


def _cavi_f32_rows(X, ip, b, prior, threads, peak64, peak32, row):
    """The float32 ranking of the top-C (``el_gemm = "float32"``: float32 GEMM, float64
    re-check at the boundary, the same selection): the E l phase alone (best of
    ``gemm_reps``) and one CAVI iteration block by block, as :func:`_cavi_rows`."""
    D = X.shape[1]
    cs = CaviSettings(T=b.T, C=b.C, K=2 * b.C, max_local=20, el_gemm="float32")
    IWTMCavi(CaviSettings(T=b.T, C=8, K=16, c_top=3, max_local=20, el_gemm="float32"), prior,
             threads=threads).fit(X[: 4 * b.doc_len], ip[:5], 1)  # fmt: skip
    m = IWTMCavi(cs, prior, seed=0, threads=threads)
    m.initialize(X)
    Xa = m.augment(X)
    flops = 2.0 * b.N * (D + 2) * b.C
    t_sel, tm = _best_top_clusters(m, X, Xa, b.gemm_reps)
    g = flops / tm["el_gemm"] / 1e9
    common = dict(threads=threads, N=b.N, C=b.C, D=D, el_gemm="float32")
    row(what="E l GEMM float32 + top-C selection with float64 re-check (best of reps)",
        seconds=t_sel, el_gemm_s=tm["el_gemm"], el_topc_s=tm["el_topc"], gflops=g,
        peak_gflops=peak32, fraction_of_peak=g / peak32, fraction_of_float64_peak=g / peak64,
        **common)  # fmt: skip
    del Xa
    m.timing.clear()
    t0 = time.perf_counter()
    m.fit(X, ip, 1)
    t_it = time.perf_counter() - t0
    tm = dict(m.timing)
    tm["local_other"] = tm["local"] - tm["el_gemm"] - tm["el_topc"] - tm["local_kernel"]
    blocks = {k: tm.get(k, 0.0) for k in BLOCKS}
    g = flops / blocks["el_gemm"] / 1e9
    row(what="CAVI iteration at bench scale, E l GEMM float32", seconds=t_it, K=2 * b.C, T=b.T,
        local_sweeps=m.sweeps, gflops=g, share=blocks["el_gemm"] / t_it, peak_gflops=peak32,
        fraction_of_peak=g / peak32, fraction_of_float64_peak=g / peak64,
        window_extra_per_datum=getattr(m, "f32_window_extra", 0) / b.N,
        **{f"{k}_s": v for k, v in blocks.items()}, **common)  # fmt: skip


def _comparisons(X, ip, b, prior, D, rng, row):
    """Method comparisons at one thread (E12, E13, E18, scikit-learn, dense SIFT)."""
    row = functools.partial(row, threads=1)
    # scikit-learn BGM vs our CAVI at equal N and C
    from sklearn.mixture import BayesianGaussianMixture

    Xs = X[: b.bgm_N]
    t0 = time.perf_counter()
    g = BayesianGaussianMixture(
        n_components=b.bgm_C,
        covariance_type="spherical",
        weight_concentration_prior_type="dirichlet_process",
        weight_concentration_prior=10.0,
        max_iter=b.iters,
        tol=0.0,
        random_state=0,
    ).fit(Xs)
    t_bgm = (time.perf_counter() - t0) / max(g.n_iter_, 1)
    m2 = IWTMCavi(CaviSettings(T=b.T, C=b.bgm_C, K=2 * b.bgm_C, max_local=20), prior, seed=0,
                  threads=1)  # fmt: skip
    t0 = time.perf_counter()
    m2.fit(Xs, np.arange(0, b.bgm_N + 1, b.doc_len), b.iters)
    t_iw = (time.perf_counter() - t0) / b.iters
    row(what="sklearn BGM iteration", N=b.bgm_N, C=b.bgm_C, D=D, seconds=t_bgm)
    row(what="IWTM CAVI iteration (same N, C)", N=b.bgm_N, C=b.bgm_C, D=D, T=b.T, seconds=t_iw)
    # E13: Gibbs sweep vs CAVI iteration on the same documents; E12: LDA+KMEANS vs CAVI
    n = max(1, b.vs_N // b.doc_len) * b.doc_len  # whole documents only
    Xg, ipg = X[:n], np.arange(0, n + 1, b.doc_len)
    yg = np.arange(len(ipg) - 1) % 2
    pg = NGPrior.from_data(Xg, 1.0, 1.0)
    t0 = time.perf_counter()
    IWTMGibbs(b.T, pg, seed=0).fit(Xg, ipg, yg, 2, GibbsSchedule(b.iters, 10**6, 10, 1))
    t_g = (time.perf_counter() - t0) / b.iters
    # the log-domain reference sweep from the same seed (same draws up to rounding)
    gr = IWTMGibbs(b.T, pg, seed=0).setup(Xg, ipg, yg, 2)
    gr.sweep(np.arange(2), reference=True)  # compile
    gr = IWTMGibbs(b.T, pg, seed=0).setup(Xg, ipg, yg, 2)
    t0 = time.perf_counter()
    gr.sweep(gr.rng.permutation(n), reference=True)
    for _ in range(1, b.iters):
        gr.sweep(np.arange(n), reference=True)
    t_r = (time.perf_counter() - t0) / b.iters
    row(what="Gibbs sweep, reference (log-domain) kernel", N=n, D=D, T=b.T, seconds=t_r,
        ratio=t_r / t_g)  # fmt: skip
    m3 = IWTMCavi(CaviSettings(T=b.T, C=b.vs_C, K=2 * b.vs_C), NGPrior.from_data(Xg, 1.0, 32.0 * D),
                  seed=0, threads=1)  # fmt: skip
    t0 = time.perf_counter()
    m3.fit(Xg, ipg, b.iters)
    t_v = (time.perf_counter() - t0) / b.iters
    row(what="Gibbs sweep", N=n, D=D, T=b.T, seconds=t_g)
    row(what="CAVI iteration", N=n, C=b.vs_C, D=D, T=b.T, seconds=t_v, ratio=t_g / t_v)
    t0 = time.perf_counter()
    km = P.kmeans_codebook(Xg, b.vs_C, 20, None, 0)
    from latentlab.data.featureset import FeatureSet

    fs = FeatureSet(ipg, Xg, yg, ["a", "b"])
    M = P.bow(fs, km.labels_, b.vs_C)
    P.lda_features(M, M[:1], b.T, 50, 0)
    t_lk = time.perf_counter() - t0
    row(what="LDA+KMEANS run (K-means 20 it + LDA 50 it)", N=n, C=b.vs_C, D=D, T=b.T,
        seconds=t_lk, ratio=t_lk / (t_v * 50))  # fmt: skip
    # SVI (ch. 6): a minibatch step costs O(|S|), not O(N_doc): the same |S| on two corpora
    from latentlab.models.iwtm.svi import IWTMSvi, SviSettings

    n_docs = len(ip) - 1
    for nd in (max(b.svi_batch, n_docs // 4), n_docs):
        Xc = X[: ip[nd]]
        ms = IWTMSvi(
            CaviSettings(T=b.T, C=b.vs_C, K=2 * b.vs_C, max_local=20),
            prior,
            SviSettings(rho=min(1.0, b.svi_batch / nd), batch=b.svi_batch),
            seed=0,
            threads=1,
        )
        ms.initialize(Xc)
        ms.fit(Xc, ip[: nd + 1], 1)  # compile / warm up
        t_best = np.inf
        for _ in range(b.iters):
            t0 = time.perf_counter()
            ms.fit(Xc, ip[: nd + 1], 1)
            t_best = min(t_best, time.perf_counter() - t0)
        row(what="SVI step, fixed minibatch", N=int(ip[nd]), C=b.vs_C, D=D, T=b.T,
            n_doc=nd, batch=ms.batch_size(nd), seconds=t_best)  # fmt: skip
    # dense SIFT images per second on synthetic 256x256 images
    from latentlab.data.parsers.scene15 import dense_sift

    imgs = rng.random((b.sift_images, 256, 256))
    t0 = time.perf_counter()
    for im in imgs:
        dense_sift(im, 10, 16)
    t_s = time.perf_counter() - t0
    row(what="dense SIFT 256x256 images/s (one core)", N=b.sift_images, seconds=t_s,
        images_per_s=b.sift_images / t_s)  # fmt: skip
