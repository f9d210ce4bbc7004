"""Throughput of the annealing kernels (token-level Gibbs updates per second, one thread,
K = 50) against the machine's measured copy bandwidth and GEMM peak. ``updates_per_s`` is
per CPU-second of the (single-threaded) kernel; the wall-clock rate and the 1-minute load
average are recorded beside it because the machine is shared.

Work model per token update of the convex-path kernel at K topics (an estimate, stated in
the output): reads 4K doubles (two Phi rows, n_k, alpha_b) = 32K bytes, ~6K flops
(mix 3, (n+alpha) x row 2, total 1). The rows live in L1/L2 cache, so the bandwidth
fraction compares against DRAM copy bandwidth only as an upper-bound reference.

bench.csv has the layout of :mod:`latentlab.bench`: bench ``kernel`` (method: the path,
settings K and doc_len) and ``rule`` (method: the rule's benchmark file, its wall seconds
and peak memory from Snakemake).
"""

from __future__ import annotations

import os
import time

import numpy as np
import pandas as pd

from latentlab.bench import long_format, write_bench

from .study import STUDY, BenchSettings


def kernel_throughput(K=50, V=5000, N=200, n_docs=4, n_temps=400, seed=0) -> list[dict]:
    import numba

    from latentlab.bench import machine_peaks
    from latentlab.evaluation import ais

    numba.set_num_threads(1)
    rng = np.random.default_rng(seed)
    phi = rng.dirichlet(np.full(V, 0.05), size=K).T
    phi2 = 0.95 * phi + 0.05 * rng.dirichlet(np.full(V, 0.05), size=K).T
    a1 = np.full(K, 0.1)
    a2 = rng.gamma(2.0, 0.05, K) + 0.01
    m1 = ais.TopicModel(phi, a1)
    m2 = ais.TopicModel(phi2, a1)
    m2b = ais.TopicModel(phi2, a2)
    docs = [rng.integers(0, V, N) for _ in range(n_docs)]
    cases = {
        "ratio-AIS convex (same alpha)": lambda: ais.ratio_ais(m1, m2, docs, n_temps, burn=0),
        "ratio-AIS convex (alpha differs)": lambda: ais.ratio_ais(m1, m2b, docs, n_temps, burn=0),
        "ratio-AIS geometric": lambda: ais.ratio_ais(m1, m2, docs, n_temps, "geometric", burn=0),
        "standard AIS (Wallach path)": lambda: ais.standard_ais(m1, docs, n_temps),
        "left-to-right": lambda: ais.left_to_right(m1, docs, n_temps=n_temps),
    }
    peaks = machine_peaks()
    load = os.getloadavg()[0]  # the machine is shared: record how busy it was
    rows = []
    for name, fn in cases.items():
        fn()
        best = np.inf
        best_cpu = np.inf
        upd = 0
        for _ in range(5):
            t0, c0 = time.perf_counter(), time.process_time()
            e = fn()
            best = min(best, time.perf_counter() - t0)
            best_cpu = min(best_cpu, time.process_time() - c0)
            upd = int(e.updates.sum())
        # On a shared machine wall time includes time the process waited for a core;
        # CPU time (one thread) is the kernel's own speed. Fractions use the CPU-time rate.
        rate = upd / max(best_cpu, 1e-9)
        flops = 6 * K * rate
        bytes_ = 32 * K * rate
        rows.append(
            {
                "bench": "kernel",
                "method": name,
                "K": K,
                "doc_len": N,
                "threads": 1,
                "updates": upd,
                "seconds": best,
                "cpu_seconds": best_cpu,
                "updates_per_s_wall": upd / best,
                "updates_per_s": rate,
                "goal_updates_per_s": 20e6,
                "meets_goal": bool(rate >= 20e6),
                "est_gflops": flops / 1e9,
                "frac_gemm_peak": flops / 1e9 / peaks["gemm_gflops"],
                "est_gbytes_per_s_l1": bytes_ / 1e9,
                "frac_copy_bandwidth": bytes_ / 1e9 / peaks["copy_bandwidth_gbs"],
                "gemm_gflops_machine": peaks["gemm_gflops"],
                "copy_bandwidth_gbs_machine": peaks["copy_bandwidth_gbs"],
                "loadavg_1min": load,
                "cpu_count": peaks["cpu_count"],
            }
        )
    return rows


def wall_times(tsvs: list[str]) -> list[dict]:
    """Wall time of each rule from its Snakemake benchmark file."""
    rows = []
    for p in tsvs:
        try:
            t = pd.read_csv(p, sep="\t")
        except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError):
            continue
        if "s" in t.columns and len(t):
            rows.append(
                {
                    "bench": "rule",
                    "method": p.rsplit("/", 1)[-1].removesuffix(".tsv"),
                    "seconds": float(t["s"].iloc[0]),
                    "max_rss_mb": float(t["max_rss"].iloc[0]) if "max_rss" in t.columns else np.nan,
                }
            )
    return rows


@STUDY.run("bench", settings=BenchSettings)
def bench(ctx):
    """Kernel throughput + the wall times of the study's rules (input ``tsv``) -> bench.csv."""
    b = ctx.settings.bench
    rows = kernel_throughput(K=b.K, N=b.doc_len, n_temps=b.n_temps)
    rows += wall_times([str(p) for p in ctx.inputs.get("tsv", [])])
    long = long_format(pd.DataFrame(rows), "ais_eval", settings=("K", "doc_len"))
    write_bench(long, ctx.output("csv"))
