"""iwtm speed at the ladder's top rung (issue 24, "Speed buys rungs"): one CAVI iteration
and Gibbs sweeps at the document's scale of 13 scenes x 100 images x all dense-SIFT
descriptors (~780k), measured, not extrapolated.

Descriptors: real dense SIFT (OpenCV, step 10 px, 16 px patches: the study's
``dense_sift``) of the first 100 images per class (sorted paths, train then test) of the
13 classes of the study's ``scene13`` from the mirror (``LATENTLAB_MIRROR`` or
``../shared/data``) at their original size, every descriptor kept, each dimension
standardised over the set (as the study's pool). Extracted once into ``--cache``.

Rows (``--out``, CSV; one row per measurement):

- ``peak``: numpy float64 and float32 GEMM (n x n @ n x n) at 1 and 2 threads;
- ``cavi``: one CAVI iteration (Ch. 5, C = 4000, K = 8000, T = 25, the document's
  truncation) per E l precision (``el_gemm`` float64 / float32) and thread count, block by
  block; the E l GEMM's share of the iteration and its GFLOP/s against the same
  precision's and float64's peak; whether the float32 fit equals the float64 one;
- ``gibbs``: Gibbs sweeps (Ch. 4 defaults: T = 25, alpha0 = 50, gamma = 1, dish cap 4000)
  with the fast and the reference (log-domain) sweep from the same seed: seconds per
  sweep and whether both took the same draws.

Run at ``nice -n 19``; ``load_avg_1min`` records what else ran and ``cpu_s`` the process's
CPU seconds (at one thread, what the step costs when the core is shared). Speed is
measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

SCENE13 = ["Bedroom", "Coast", "Forest", "Highway", "InsideCity", "Kitchen", "LivingRoom",
           "Mountain", "Office", "OpenCountry", "Street", "Suburb", "TallBuilding"]  # fmt: skip


def descriptors(cache: Path, per_class: int):
    """(X float64 standardised, indptr, labels) of the first ``per_class`` images per
    class, every dense-SIFT descriptor at the original image size (cached)."""
    if cache.exists():
        z = np.load(cache)
        return z["X"].astype(np.float64), z["indptr"], z["labels"]
    from PIL import Image

    from latentlab.data.parsers.scene15 import dense_sift

    root = Path(os.environ.get("LATENTLAB_MIRROR", "../shared/data")) / "scene15"
    descs, labels = [], []
    t0 = time.perf_counter()
    for y, cls in enumerate(SCENE13):
        paths = sorted((root / "train" / cls).glob("*.jpg")) + sorted(
            (root / "test" / cls).glob("*.jpg")
        )
        for p in paths[:per_class]:
            with Image.open(p) as im:
                g = np.asarray(im.convert("L"), dtype=np.float32) / 255.0
            descs.append(dense_sift(g)[0])
            labels.append(y)
    X = np.concatenate(descs).astype(np.float64)
    X = (X - X.mean(0)) / np.maximum(X.std(0), 1e-12)
    ip = np.concatenate([[0], np.cumsum([len(d) for d in descs])]).astype(np.int64)
    lab = np.array(labels, np.int64)
    np.savez(cache, X=X.astype(np.float32), indptr=ip, labels=lab)
    print(f"dense SIFT: {len(descs)} images, {len(X)} descriptors, "
          f"{time.perf_counter() - t0:.0f} s", flush=True)  # fmt: skip
    return X.astype(np.float32).astype(np.float64), ip, lab


def interleave(X, ip, lab, n_docs):
    """The first ``n_docs`` documents in the order image 1 of every class, image 2 of
    every class, ...: every class is present (the Gibbs slices need labelled documents
    of each class)."""
    rank = np.zeros(len(lab), np.int64)
    for c in np.unique(lab):
        rank[lab == c] = np.arange((lab == c).sum())
    order = np.lexsort((lab, rank))[:n_docs]
    X2 = np.concatenate([X[ip[d] : ip[d + 1]] for d in order])
    ip2 = np.concatenate([[0], np.cumsum(np.diff(ip)[order])]).astype(np.int64)
    return X2, ip2, lab[order]


def gemm_peak(n: int, dtype, reps: int = 3) -> float:
    a = np.random.default_rng(0).standard_normal((n, n)).astype(dtype)
    b = np.random.default_rng(1).standard_normal((n, n)).astype(dtype)
    a @ b
    best = min(_timed(lambda: a @ b) for _ in range(reps))
    return 2.0 * n**3 / best / 1e9


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


BLOCKS = ("el_gemm", "el_topc", "local_kernel", "local_other", "cluster", "mapping",
          "topic_sticks", "master_sticks")  # fmt: skip


def cavi_rows(X, ip, threads, peaks, a, row):
    from latentlab.models.iwtm.cavi import CaviSettings, IWTMCavi
    from latentlab.models.iwtm.normal_gamma import NGPrior

    N, D = X.shape
    prior = NGPrior.from_data(X, 1.0, 32.0 * D)  # ch. 5: beta0 = 1, chi1 = 32 D
    fits = {}
    for prec in a.precisions:
        s = CaviSettings(T=a.T, C=a.C, K=a.K, max_local=a.max_local, el_gemm=prec)
        small = CaviSettings(T=a.T, C=8, K=16, max_local=a.max_local, el_gemm=prec, c_top=3)
        IWTMCavi(small, prior, threads=threads).fit(X[: ip[4]], ip[:5], 1)  # compile
        m = IWTMCavi(s, prior, seed=0, threads=threads)
        t_init = _timed(lambda m=m: m.initialize(X))
        c0 = time.process_time()
        t_it = _timed(lambda m=m: m.fit(X, ip, 1))
        cpu_it = time.process_time() - c0
        tm = dict(m.timing)
        tm["local_other"] = tm["local"] - tm["el_gemm"] - tm["el_topc"] - tm["local_kernel"]
        flops = 2.0 * N * (D + 2) * a.C
        gf = flops / tm["el_gemm"] / 1e9
        pk = peaks[(threads, prec)]
        row(kind="cavi", what=f"CAVI iteration, E l GEMM in {prec}", threads=threads, N=N,
            C=a.C, K=a.K, D=D, T=a.T, max_local=a.max_local, el_gemm=prec, seconds=t_it,
            init_s=t_init, cpu_s=cpu_it, gemm_share=tm["el_gemm"] / t_it, gemm_gflops=gf,
            peak_gflops_same_precision=pk, fraction_of_peak=gf / pk,
            fraction_of_float64_peak=gf / peaks[(threads, "float64")],
            local_sweeps=m.sweeps,
            window_extra_per_datum=getattr(m, "f32_window_extra", 0) / N,
            f32_fallbacks=getattr(m, "f32_fallbacks", 0),
            **{f"{k}_s": tm.get(k, 0.0) for k in BLOCKS})  # fmt: skip
        fits[prec] = m
        print(f"cavi {prec} threads={threads}: {t_it:.1f} s/it, GEMM {tm['el_gemm']:.1f} s "
              f"({gf:.1f} GFLOP/s), topc {tm['el_topc']:.1f} s", flush=True)  # fmt: skip
    if {"float64", "float32"} <= set(fits):
        f64, f32 = fits["float64"], fits["float32"]
        e64, e32 = f64.elbo(f64.last_stats), f32.elbo(f32.last_stats)
        row(kind="cavi", what="float32 fit vs float64 fit after one iteration", threads=threads,
            N=N, C=a.C, same_map_idx=bool((f64.map_idx == f32.map_idx).all()),
            max_rel_alpha=float(np.abs(f32.last_stats.alpha_t / f64.last_stats.alpha_t - 1).max()),
            elbo_rel=abs(e32 - e64) / abs(e64),
            speedup=rows_seconds(fits, "float64") / rows_seconds(fits, "float32"))  # fmt: skip


def rows_seconds(fits, prec):
    return fits[prec].history[-1]["seconds"]


def gibbs_rows(X, ip, lab, n_docs, a, row):
    from latentlab.models.iwtm.gibbs import IWTMGibbs
    from latentlab.models.iwtm.normal_gamma import NGPrior

    Xg, ipg, y = interleave(X, ip, lab, n_docs)
    prior = NGPrior.from_data(Xg, 1.0, 1.0)  # ch. 4: beta0 = 1, shape a = 1
    idx = np.arange(len(Xg))
    # compile both kernels on a small slice first
    for ref in (False, True):
        g = IWTMGibbs(a.T, prior, 50.0, 1.0, 1.0, a.dish_cap, seed=0)
        g.setup(Xg[: ipg[2]], ipg[:3], np.array([0, 1]), 2)
        g.sweep(np.arange(ipg[2]), reference=ref)
    states = {}
    for kind in a.gibbs_kinds:
        ref = kind == "reference"
        g = IWTMGibbs(a.T, prior, 50.0, 1.0, 1.0, a.dish_cap, seed=0)
        g.setup(Xg, ipg, y, int(lab.max()) + 1)
        perm = g.rng.permutation(idx)
        times, cpus = [], []
        for s in range(1 + a.gibbs_sweeps):
            c0 = time.process_time()
            order = perm if s == 0 else idx
            times.append(_timed(lambda g=g, ref=ref, o=order: g.sweep(o, reference=ref)))
            cpus.append(time.process_time() - c0)
        states[kind] = (g.z.copy(), g.tab.copy())
        for s, t in enumerate(times):
            row(kind="gibbs", what=f"Gibbs sweep ({kind})", threads=1, N=len(Xg), D=X.shape[1],
                T=a.T, n_docs=n_docs, sweep=s, seconds=t, cpu_s=cpus[s],
                us_per_datum=1e6 * t / len(Xg), dishes=g.n_dishes(),
                tables=int((g.table_n > 0).sum()))  # fmt: skip
        print(f"gibbs {kind} N={len(Xg)}: " + ", ".join(f"{t:.1f}" for t in times) +
              f" s; dishes {g.n_dishes()}", flush=True)  # fmt: skip
    if len(states) == 2:
        same = all((states["fast"][j] == states["reference"][j]).all() for j in range(2))
        row(kind="gibbs", what="fast vs reference sweep: same draws", threads=1, N=len(Xg),
            same_draws=bool(same))  # fmt: skip


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--cache", default="/tmp/iwtm_scene13_all_desc.npz")
    ap.add_argument("--per-class", type=int, default=100)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--precisions", nargs="+", default=["float64", "float32"])
    ap.add_argument("--steps", nargs="+", default=["peak", "cavi", "gibbs"])
    ap.add_argument("--C", type=int, default=4000)
    ap.add_argument("--K", type=int, default=8000)
    ap.add_argument("--T", type=int, default=25)
    ap.add_argument("--max-local", type=int, default=20)
    ap.add_argument("--peak-n", type=int, default=3072)
    ap.add_argument("--gibbs-docs", type=int, nargs="+", default=[130])
    ap.add_argument("--gibbs-kinds", nargs="+", default=["fast", "reference"])
    ap.add_argument("--gibbs-sweeps", type=int, default=2)
    ap.add_argument("--dish-cap", type=int, default=4000)
    ap.add_argument("--note", default="")
    a = ap.parse_args()
    rows = []

    def row(**kw):
        rows.append(dict(kw, load_avg_1min=os.getloadavg()[0], note=a.note))

    X, ip, lab = descriptors(Path(a.cache), a.per_class)
    src = f"scene13 dense SIFT, {len(ip) - 1} images, all descriptors, original size"
    print(f"{src}: N = {len(X)}", flush=True)
    peaks = {}
    if "peak" in a.steps or "cavi" in a.steps:
        for n in a.threads:
            with threadpool_limits(limits=n):
                for prec in ("float64", "float32"):
                    peaks[(n, prec)] = gemm_peak(a.peak_n, np.dtype(prec))
                    row(kind="peak", what=f"numpy GEMM {a.peak_n}^3 {prec}", threads=n,
                        el_gemm=prec, gflops=peaks[(n, prec)])  # fmt: skip
                    print(f"peak {prec} threads={n}: {peaks[(n, prec)]:.1f}", flush=True)
    if "cavi" in a.steps:
        for n in a.threads:
            with threadpool_limits(limits=n):
                cavi_rows(X, ip, n, peaks, a, row)
    if "gibbs" in a.steps:
        with threadpool_limits(limits=1):
            for nd in a.gibbs_docs:
                gibbs_rows(X, ip, lab, min(nd, len(ip) - 1), a, row)
    df = pd.DataFrame(rows)
    df.insert(0, "source", src)
    df["machine"] = f"{platform.machine()} {os.cpu_count()} cpus"
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.exists():  # several invocations (steps, thread counts) append their rows
        df = pd.concat([pd.read_csv(out), df], ignore_index=True)
    df.to_csv(out, index=False)
    print(f"wrote {len(df)} rows to {out}")


if __name__ == "__main__":
    main()
