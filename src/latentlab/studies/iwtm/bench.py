"""iwtm bench: GEMM share of the CAVI expected log-likelihood vs the machine's GEMM peak,
one CAVI iteration, scikit-learn BayesianGaussianMixture side by side, Gibbs vs VI time
at equal data (E13), one LDA+KMEANS run vs CAVI (E12), dense SIFT images per second.
Writes bench.csv (never a timed test). With ``bench.dataset`` set the descriptors are the
run's real ones (rows tiled when N exceeds them); otherwise standard normal."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from latentlab.bench import machine_peaks
from latentlab.models.iwtm.cavi import CaviSettings, IWTMCavi
from latentlab.models.iwtm.gibbs import GibbsSchedule, IWTMGibbs
from latentlab.models.iwtm.normal_gamma import NGPrior

from . import pipeline as P
from .study import STUDY, BenchSettings


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
    b = ctx.settings.bench
    rng = np.random.default_rng(ctx.seed(0))
    peaks = machine_peaks()
    peak = float(peaks.get("gemm_gflops", np.nan))
    X, src = _descriptors(ctx, b, rng)
    D = X.shape[1]
    rows = []

    def row(**kw):
        rows.append(dict(source=src, **kw))

    ip = np.arange(0, b.N + 1, b.doc_len)
    if ip[-1] != b.N:
        ip = np.append(ip, b.N)
    prior = NGPrior.from_data(X, 1.0, 32.0 * D)
    m = IWTMCavi(CaviSettings(T=b.T, C=b.C, K=2 * b.C, max_local=20), prior, seed=0)
    m.initialize(X)
    # E l: [x, |x|^2, 1] (N x (D+2)) @ W ((D+2) x C), contiguous float64, one call per chunk
    Xa = m.augment(X)
    W = m.el_weights()
    t_best = np.inf
    for _ in range(b.gemm_reps):
        t0 = time.perf_counter()
        for a in range(0, len(Xa), m.chunk):
            Xa[a : a + m.chunk] @ W
        t_best = min(t_best, time.perf_counter() - t0)
    gf = 2.0 * b.N * (D + 2) * b.C / t_best / 1e9
    row(what="E l GEMM only (chunked, best of reps)", N=b.N, C=b.C, D=D, seconds=t_best,
        gflops=gf, peak_gflops=peak, fraction_of_peak=gf / peak)  # fmt: skip
    m.timing.clear()
    t0 = time.perf_counter()
    m.top_clusters(X, Xa)
    t_el = time.perf_counter() - t0
    gf2 = 2.0 * b.N * (D + 2) * b.C / t_el / 1e9
    row(what="E l GEMM + top-C selection", N=b.N, C=b.C, D=D, seconds=t_el, gflops=gf2,
        peak_gflops=peak, fraction_of_peak=gf2 / peak, el_gemm_s=m.timing["el_gemm"],
        el_topc_s=m.timing["el_topc"])  # fmt: skip
    m.timing.clear()
    t0 = time.perf_counter()
    m.fit(X, ip, 1)
    t_it = time.perf_counter() - t0
    row(what="CAVI iteration", N=b.N, C=b.C, D=D, T=b.T, seconds=t_it,
        el_gemm_s=m.timing.get("el_gemm"), el_topc_s=m.timing.get("el_topc"),
        local_s=m.timing.get("local"))  # fmt: skip
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
    m2 = IWTMCavi(CaviSettings(T=b.T, C=b.bgm_C, K=2 * b.bgm_C, max_local=20), prior, seed=0)
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
    m3 = IWTMCavi(CaviSettings(T=b.T, C=b.vs_C, K=2 * b.vs_C), NGPrior.from_data(Xg, 1.0, 32.0 * D),
                  seed=0)  # fmt: skip
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
    df = pd.DataFrame(rows)
    df["machine"] = str(peaks)
    df.to_csv(ctx.output("csv"), index=False)
