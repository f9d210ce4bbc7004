"""Shared benchmark helpers: machine peaks, peak memory, timing.

Studies write their ``bench.csv`` with these so numbers are comparable across studies:
``machine_peaks()`` measures the machine's arithmetic peak (numpy float64 GEMM) and its
memory bandwidth (a large array copy), against which a kernel's achieved throughput is
reported as a fraction. Speed is measured here and written to files, never asserted in tests.
"""

from __future__ import annotations

import functools
import os
import platform
import resource
import time
from collections.abc import Callable

import numpy as np


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far (MB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def best_time(fn: Callable[[], object], repeat: int = 3, min_time: float = 0.0) -> float:
    """Best wall time (s) over ``repeat`` calls (after the first, which warms up JIT caches)."""
    fn()
    best = float("inf")
    t_total = 0.0
    n = 0
    while n < repeat or t_total < min_time:
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        best = min(best, dt)
        t_total += dt
        n += 1
    return best


@functools.cache
def machine_peaks(n: int = 1024, copy_mb: int = 256) -> dict:
    """Measured float64 GEMM GFLOP/s (all BLAS threads) and copy bandwidth in GB/s.

    Bandwidth counts bytes read + written by ``np.copyto`` on arrays far larger than cache.
    """
    a = np.random.default_rng(0).standard_normal((n, n))
    b = np.random.default_rng(1).standard_normal((n, n))
    t = best_time(lambda: a @ b, repeat=3)
    gflops = 2.0 * n**3 / t / 1e9
    m = copy_mb * 1024 * 1024 // 8
    src = np.ones(m)
    dst = np.empty(m)
    tc = best_time(lambda: np.copyto(dst, src), repeat=3)
    bandwidth = 2.0 * m * 8 / tc / 1e9
    return {
        "gemm_gflops": gflops,
        "copy_bandwidth_gbs": bandwidth,
        "cpu_count": os.cpu_count(),
        "machine": platform.machine(),
        "processor": platform.processor() or platform.machine(),
    }
