"""iwtm bench: GEMM share of the CAVI expected log-likelihood vs the machine's GEMM peak,
one CAVI iteration, scikit-learn BayesianGaussianMixture side by side, Gibbs vs VI time
at equal data, dense SIFT images per second. Writes bench.csv (never a timed test)."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from latentlab.bench import machine_peaks
from latentlab.models.iwtm.cavi import CaviSettings, IWTMCavi
from latentlab.models.iwtm.gibbs import GibbsSchedule, IWTMGibbs
from latentlab.models.iwtm.normal_gamma import NGPrior

from .study import STUDY, BenchSettings


@STUDY.run("bench", settings=BenchSettings)
def bench(ctx):
    b = ctx.settings.bench
    rng = np.random.default_rng(ctx.seed(0))
    rows = []
    peaks = machine_peaks()
    peak = float(peaks.get("gemm_gflops", np.nan))
    # synthetic documents of 200 descriptors
    X = rng.normal(size=(b.N, b.D))
    ip = np.arange(0, b.N + 1, 200)
    prior = NGPrior.from_data(X, 1.0, 32.0 * b.D)
    m = IWTMCavi(CaviSettings(T=b.T, C=b.C, K=2 * b.C, max_local=20), prior, seed=0)
    m.initialize(X)
    t0 = time.perf_counter()
    m.top_clusters(X)
    t_el = time.perf_counter() - t0
    gf = 2.0 * b.N * b.D * b.C / t_el / 1e9
    rows.append(
        dict(
            what="E l (GEMM + top-C) all data",
            N=b.N,
            C=b.C,
            D=b.D,
            seconds=t_el,
            gflops=gf,
            peak_gflops=peak,
            fraction_of_peak=gf / peak,
        )
    )
    t0 = time.perf_counter()
    m.fit(X, ip, 1)
    t_it = time.perf_counter() - t0
    rows.append(
        dict(
            what="CAVI iteration",
            N=b.N,
            C=b.C,
            D=b.D,
            T=b.T,
            seconds=t_it,
            el_gemm_s=m.timing.get("el_gemm"),
            local_s=m.timing.get("local"),
        )
    )
    # scikit-learn BGM vs our CAVI at equal N and C
    from sklearn.mixture import BayesianGaussianMixture

    Xs = X[: b.bgm_N]
    t0 = time.perf_counter()
    g = BayesianGaussianMixture(
        n_components=b.bgm_C,
        covariance_type="spherical",
        weight_concentration_prior_type="dirichlet_process",
        weight_concentration_prior=10.0,
        max_iter=5,
        tol=0.0,
        random_state=0,
    ).fit(Xs)
    t_bgm = (time.perf_counter() - t0) / max(g.n_iter_, 1)
    m2 = IWTMCavi(CaviSettings(T=b.T, C=b.bgm_C, K=2 * b.bgm_C, max_local=20), prior, seed=0)
    t0 = time.perf_counter()
    m2.fit(Xs, np.arange(0, b.bgm_N + 1, 200), 3)
    t_iw = (time.perf_counter() - t0) / 3
    rows.append(dict(what="sklearn BGM iteration", N=b.bgm_N, C=b.bgm_C, D=b.D, seconds=t_bgm))
    rows.append(
        dict(
            what="IWTM CAVI iteration (same N, C)", N=b.bgm_N, C=b.bgm_C, D=b.D, T=b.T, seconds=t_iw
        )
    )
    # Gibbs vs VI per iteration at equal data (a small slice)
    Xg = X[:4000, :16]
    ipg = np.arange(0, 4001, 200)
    yg = np.arange(len(ipg) - 1) % 2
    pg = NGPrior.from_data(Xg, 1.0, 1.0)
    t0 = time.perf_counter()
    IWTMGibbs(b.T, pg, seed=0).fit(Xg, ipg, yg, 2, GibbsSchedule(5, 100, 10, 1))
    t_g = (time.perf_counter() - t0) / 5
    m3 = IWTMCavi(CaviSettings(T=b.T, C=200, K=400), NGPrior.from_data(Xg, 1.0, 32.0 * 16), seed=0)
    t0 = time.perf_counter()
    m3.fit(Xg, ipg, 5)
    t_v = (time.perf_counter() - t0) / 5
    rows.append(dict(what="Gibbs sweep (4000 x 16)", N=4000, D=16, T=b.T, seconds=t_g))
    rows.append(dict(what="CAVI iteration (4000 x 16, C=200)", N=4000, D=16, T=b.T, seconds=t_v))
    # dense SIFT images per second on synthetic 256x256 images
    from latentlab.data.parsers.scene15 import dense_sift

    imgs = rng.random((b.sift_images, 256, 256))
    t0 = time.perf_counter()
    for im in imgs:
        dense_sift(im, 10, 16)
    t_s = time.perf_counter() - t0
    rows.append(
        dict(
            what="dense SIFT 256x256 images/s (one core)",
            N=b.sift_images,
            seconds=t_s,
            images_per_s=b.sift_images / t_s,
        )
    )
    df = pd.DataFrame(rows)
    df["machine"] = str(peaks)
    df.to_csv(ctx.output("csv"), index=False)
