"""bench.csv (the layout of :mod:`latentlab.bench`): DRIFT sweeps per second against N, T
and K (K fixed so that the cost is controlled), the speed-up of independent chains on 2
processes and LFRM_LDA sweeps. Benches ``scale_N``/``scale_T``/``scale_K``,
``chains_1_process``/``chains_2_processes`` (method ``DRIFT``; ``K_plus``: the mean K⁺ at
the last sweep, a metric) and ``lfrm_lda_sweep`` (method ``LFRM_LDA``); settings N, T, K,
chains, sweeps, documents, tokens."""

from __future__ import annotations

import os
import time

import numpy as np
import pandas as pd

from latentlab.bench import long_format, peak_rss_mb, write_bench
from latentlab.models.drift import lfrm_lda as lm
from latentlab.models.drift.sampler import Data, init_state, run_chains, step
from latentlab.models.drift.synthetic import drift_dataset, lfrm_lda_dataset

from .fitting import hyper_of
from .study import STUDY, BenchSettings


def _data(N, T, K, seed):
    rng = np.random.default_rng(seed)
    W = np.full((K, K), -0.5)
    np.fill_diagonal(W, 2.5)
    _, Y, _, _ = drift_dataset(N, T, W, -2.0, 3.0, 3.0, 1.0, rng)
    return Data.from_networks(Y)


def _sweeps_per_second(data, hyper, sweeps, seed):
    rng = np.random.default_rng(seed)
    st = init_state(data, hyper, rng)
    st, eta, _ = step(st, data, hyper, rng)  # compile / warm up
    t0 = time.perf_counter()
    for it in range(sweeps):
        st, eta, _ = step(st, data, hyper, rng, eta, it)
    return sweeps / (time.perf_counter() - t0)


@STUDY.run("bench", settings=BenchSettings)
def bench(ctx):
    """bench.csv: DRIFT sweeps per second against N, T and K, the speed-up of independent
    chains, LFRM_LDA sweeps."""
    b = ctx.settings.bench
    sweeps = b["sweeps"][0]
    rows = []
    base = {"N": b["N"][0], "T": b["T"][0], "K": b["K"][0]}
    for axis in ("N", "T", "K"):
        for v in b[axis]:
            p = {**base, axis: v}
            hyper = hyper_of(ctx.settings.hyper, p["K"])
            data = _data(p["N"], p["T"], p["K"], ctx.seed(0))
            sps = _sweeps_per_second(data, hyper, sweeps, ctx.seed(1))
            rows.append(
                {
                    "bench": f"scale_{axis}",
                    "method": "DRIFT",
                    **p,
                    "sweeps_per_s": sps,
                    "dyad_steps_per_s": sps * p["T"] * p["N"] * (p["N"] - 1) / 2,
                }
            )
    rows += _parallel_rows(b, ctx)
    rows += _lfrm_lda_rows(b, ctx)
    df = pd.DataFrame(rows)
    load = os.getloadavg()[0]
    df["load_avg_1m"] = df["load_avg_1m"].fillna(load) if "load_avg_1m" in df else load
    df["peak_rss_mb"] = peak_rss_mb()
    settings = ("N", "T", "K", "chains", "sweeps", "documents", "tokens")
    write_bench(long_format(df, "drift", settings=settings), ctx.output("csv"))


def _parallel_rows(b, ctx):
    """Independent chains on 1 and on 2 worker processes at a realistic chain length: the
    synthetic protocol's DRIFT fit (``bench.par_N`` actors, ``bench.par_T`` steps, K⁺
    unconstrained, ``bench.par_sweeps`` burn-in sweeps per chain, ``bench.par_chains``
    chains). Wall seconds of ``run_chains`` (fork, kernel warm-up and result pickling
    included) and the CPU seconds of this process plus its waited-for children."""
    import resource

    def cpu():
        r = [resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
        return sum(x.ru_utime + x.ru_stime for x in r)

    N, T, sweeps, chains = b["par_N"][0], b["par_T"][0], b["par_sweeps"][0], b["par_chains"][0]
    rng = np.random.default_rng(ctx.seed(2))
    W = np.full((3, 3), -1.0)
    np.fill_diagonal(W, 3.0)
    _, Y, _, _ = drift_dataset(N, T, W, -2.0, 3.0, 3.0, 1.0, rng)
    data = Data.from_networks(Y)
    hyper = hyper_of(ctx.settings.hyper)
    run_chains(data, hyper, ctx.seed(3), 1, 1, 1, 1, 1)  # compile / warm up
    rows, t = [], {}
    for procs in (1, 2):
        load = os.getloadavg()[0]  # the other jobs sharing the cores
        c0, t0 = cpu(), time.perf_counter()
        _, tr = run_chains(data, hyper, ctx.seed(3), chains, sweeps, 1, 1, procs)
        t[procs] = time.perf_counter() - t0
        rows.append(
            {
                "bench": f"chains_{procs}_process" + ("es" if procs > 1 else ""),
                "method": "DRIFT",
                "N": N,
                "T": T,
                "K_plus": float(np.mean([r[-1]["K"] for r in tr])),  # K⁺ at the last sweep
                "chains": chains,
                "sweeps": sweeps + 1,  # burn-in + the recorded sample
                "seconds": t[procs],
                "cpu_seconds": cpu() - c0,
                "speedup": t[1] / t[procs],
                "load_avg_1m": load,
            }
        )
    return rows


def _lfrm_lda_rows(b, ctx):
    """LFRM_LDA sweeps per second (Appendix A.2: tokens, Z, W, ε, empirical Bayes,
    re-alignment) on Enron-like text networks of ``bench.text_N`` nodes and
    ``bench.text_K`` features (Poisson link, an edge document of ~30 tokens per edge)."""
    rows = []
    sweeps = b["sweeps"][0]
    for N, K in zip(b["text_N"], b["text_K"], strict=True):
        rng = np.random.default_rng(ctx.seed(4))
        d = lfrm_lda_dataset(N, K, 500, "poisson", 1.5, -0.5, -1.5, 0.3, False, True, 0, 30,
                             0.8, 0.6, 2.0, 0.05, 1.0, rng)  # fmt: skip
        data = lm.TextNetwork(d["Y"], d["O"], d["ptr"], d["w"], d["snd"], d["rcv"], d["V"],
                              d["allowed"])  # fmt: skip
        hyper = lm.TextHyper(link="poisson")
        rng = np.random.default_rng(ctx.seed(5))
        st = lm.init_state(data, hyper, rng)
        st, eta, _ = lm.step(st, data, hyper, rng)  # compile / warm up
        t0 = time.perf_counter()
        for _ in range(sweeps):
            st, eta, _ = lm.step(st, data, hyper, rng, eta)
        dt = (time.perf_counter() - t0) / sweeps
        rows.append(
            {
                "bench": "lfrm_lda_sweep",
                "method": "LFRM_LDA",
                "N": N,
                "K": K,
                "documents": data.D,
                "tokens": len(data.w),
                "seconds_per_sweep": dt,
                "sweeps_per_s": 1.0 / dt,
            }
        )
    return rows
