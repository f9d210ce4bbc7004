"""Shared benchmark helpers: the one ``bench.csv`` layout, machine peaks, peak memory, timing.

Every study writes its ``bench.csv`` through :func:`write_bench`, in one long format: one
row per measured number, with these columns (:data:`COLUMNS`):

==========  ==============================================================================
study       the study that measured it (``scvb0``, ``tir``, ...)
bench       what kind of measurement: a group of rows measured the same way
            (``throughput``, ``scale_N``, ``kernel``, ``ctm_estep_per_doc``, ...)
method      the algorithm, configuration or library measured (``SCVB0``, ``pcvb0_AS``)
settings    the rest of what identifies the measurement, ``key=value`` pairs joined by
            ``;`` in a fixed order (``dataset=kos;K=20``); empty when there is none.
            Keys are identifiers; a value never holds ``;`` (:func:`format_settings`,
            :func:`parse_settings`, which reads ints and floats back as numbers)
threads     threads the measurement ran with (empty: not recorded / not applicable)
repeat      which repetition (0: a single measurement, or the best / mean of several,
            as the metric's name says)
metric      the quantity (``seconds``, ``tokens_per_s``, ``peak_rss_mb``, ...)
value       its number (a boolean is 1 or 0 with unit ``bool``)
unit        ``s``, ``MB``, ``1/s``, ``GFLOP/s``, ``GB/s``, ``bool``, ``lines``, ...
            (:func:`unit_of` names them from the metric), or empty: a count, a ratio, a
            fraction, a load average or a log-likelihood
note        free text about the measurement (a library's status, a caveat), the same on
            every row of one measurement
==========  ==============================================================================

The rows of one measurement share ``study, bench, method, settings, threads, repeat,
note``; :func:`bench_wide` turns a file back into one row per measurement with its
settings and metrics as columns, which is how the claims and figures read it
(:func:`read_bench`). A measurement that could not be taken (a library not installed) is
one row with an empty ``metric`` and ``value`` and its reason in ``note``. Studies build
their measurements as a wide table (one row each, any columns) and name which columns
identify it (:func:`long_format`); the rest are its metrics.

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
import pandas as pd

COLUMNS = (
    "study",
    "bench",
    "method",
    "settings",
    "threads",
    "repeat",
    "metric",
    "value",
    "unit",
    "note",
)
ID_COLUMNS = ("study", "bench", "method", "settings", "threads", "repeat", "note")

# unit of a metric by the end of its name (the first match wins); an explicit ``units``
# entry of :func:`long_format` overrides it
_UNIT_SUFFIXES = (
    ("_per_s_wall", "1/s"),
    ("_per_s", "1/s"),
    ("_gbs_machine", "GB/s"),
    ("_gbs", "GB/s"),
    ("gbytes_per_s_l1", "GB/s"),
    ("gflops_machine", "GFLOP/s"),
    ("gflops", "GFLOP/s"),
    ("_mb", "MB"),
    ("seconds", "s"),
    ("seconds_per_sweep", "s"),
    ("_s", "s"),
)


def unit_of(metric: str) -> str:
    """The unit a metric's name implies (``seconds``, ``*_s``, ``sec_*``, ``seconds_*`` -> s;
    ``*_mb`` -> MB; ``*_per_s`` -> 1/s; ``*gflops`` -> GFLOP/s; ``*_gbs`` -> GB/s); empty
    for counts, ratios and the like."""
    for suffix, unit in _UNIT_SUFFIXES:
        if metric.endswith(suffix):
            return unit
    if metric.startswith(("sec_", "seconds_")):  # sec_per_iter, seconds_to_target
        return "s"
    return ""


def _scalar(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return int(v) if float(v).is_integer() and abs(v) < 2**53 else float(v)
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    return v


def format_settings(items) -> str:
    """``key=value;key=value`` from a mapping or pairs (missing values left out; a float
    that is an integer written as one)."""
    pairs = items.items() if isinstance(items, dict) else items
    out = []
    for k, v in pairs:
        if v is None or (isinstance(v, float) and np.isnan(v)):
            continue
        v = _scalar(v)
        text = str(v)
        if ";" in text or "=" in str(k) or ";" in str(k):
            raise ValueError(f"bench setting {k}={text!r}: keys and values may not hold ';'")
        out.append(f"{k}={text}")
    return ";".join(out)


def _number(text: str):
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def parse_settings(text) -> dict:
    """The mapping :func:`format_settings` wrote (ints and floats read back as numbers)."""
    if text is None or (isinstance(text, float) and np.isnan(text)) or text == "":
        return {}
    out = {}
    for part in str(text).split(";"):
        k, _, v = part.partition("=")
        out[k] = _number(v)
    return out


def long_format(
    df: pd.DataFrame,
    study: str,
    *,
    settings=(),
    note: str | None = None,
    units: dict | None = None,
) -> pd.DataFrame:
    """The long layout of a wide table of measurements (one row each).

    ``df`` has a ``bench`` and a ``method`` column, optionally ``threads``, ``repeat`` and
    the ``note`` column named here; ``settings`` names the columns that identify the
    measurement beyond those (their values go into the ``settings`` cell, in this order);
    every other column is a metric (NaN: not measured in that row). ``units`` overrides
    :func:`unit_of` per metric.
    """
    units = units or {}
    settings = list(settings)
    for c in ("bench", "method"):
        if c not in df.columns:
            raise ValueError(f"bench table of {study} has no {c!r} column")
    ids = {"bench", "method", "threads", "repeat", *settings, *([note] if note else [])}
    metrics = [c for c in df.columns if c not in ids]
    rows = []
    for rec in df.to_dict("records"):
        threads = rec.get("threads")
        threads = None if threads is None or pd.isna(threads) else int(threads)
        base = {
            "study": study,
            "bench": str(rec["bench"]),
            "method": "" if pd.isna(rec["method"]) else str(rec["method"]),
            "settings": format_settings([(k, rec.get(k)) for k in settings]),
            "threads": threads,
            "repeat": int(rec["repeat"]) if "repeat" in rec and pd.notna(rec["repeat"]) else 0,
        }
        text = rec.get(note) if note else None
        text = "" if text is None or (isinstance(text, float) and np.isnan(text)) else str(text)
        n = 0
        for m in metrics:
            v = rec[m]
            if v is None or (isinstance(v, float) and np.isnan(v)):
                continue
            unit = units.get(m, unit_of(m))
            if isinstance(v, (bool, np.bool_)):
                v, unit = float(v), "bool"
            rows.append({**base, "metric": m, "value": float(v), "unit": unit, "note": text})
            n += 1
        if n == 0:
            rows.append({**base, "metric": "", "value": np.nan, "unit": "", "note": text})
    out = pd.DataFrame(rows, columns=list(COLUMNS))
    out["threads"] = out["threads"].astype("Int64")
    return out


def write_bench(long: pd.DataFrame, path, meta: dict | None = None, md_path=None) -> None:
    """Write a study's ``bench.csv`` in the one layout (:func:`long_format`), atomically,
    with its ``.meta.json`` (``meta``) and a Markdown copy (``md_path``) when given."""
    from latentlab.outputs import write_table

    check_bench(long, path)
    write_table(long[list(COLUMNS)], path, md_path, meta=meta, allow_nan=True, floatfmt=".6g")


def check_bench(long: pd.DataFrame, where="bench.csv") -> None:
    """Refuse a table that is not in the one layout: its columns, a number missing (NaN)
    on a measured row (``inf`` is kept), a row with no metric that gives no reason, a
    repeated row."""
    if list(long.columns) != list(COLUMNS):
        raise ValueError(f"{where}: columns {list(long.columns)}, expected {list(COLUMNS)}")
    empty = long["metric"].isna() | (long["metric"].astype(str) == "")
    # +-inf is a value (scvb0's seconds_to_target of a target never reached); NaN is not
    bad = ~empty & pd.to_numeric(long["value"], errors="coerce").isna()
    if bad.any():
        raise ValueError(f"{where}: missing value in rows {list(long.index[bad])[:5]}")
    no_reason = empty & (long["note"].fillna("").astype(str) == "")
    if no_reason.any():
        raise ValueError(
            f"{where}: rows {list(long.index[no_reason])[:5]} have no metric and no note"
        )
    key = long[["study", "bench", "method", "settings", "threads", "repeat", "metric"]].astype(str)
    dup = key.duplicated()
    if dup.any():
        raise ValueError(f"{where}: repeated measurement rows {list(long.index[dup])[:5]}")


def read_bench(path) -> pd.DataFrame:
    """A ``bench.csv`` in the one layout (refused in any other)."""
    text = ("study", "bench", "method", "settings", "metric", "unit", "note")
    long = pd.read_csv(path, keep_default_na=False, na_values=[""], dtype=dict.fromkeys(text, str))
    if list(long.columns) != list(COLUMNS):
        raise ValueError(
            f"{path}: not the bench.csv layout of latentlab.bench (columns {list(long.columns)})"
        )
    for c in ("settings", "note", "metric", "unit", "method"):
        long[c] = long[c].fillna("").astype(str)
    long["threads"] = long["threads"].astype("Int64")
    return long


def bench_wide(long, bench: str | None = None) -> pd.DataFrame:
    """One row per measurement: ``bench, method, threads, repeat, note``, the settings as
    columns (numbers where they parse), then the metrics as columns, in file order.
    ``long`` is a long table or a path; ``bench`` keeps one kind of measurement."""
    if not isinstance(long, pd.DataFrame):
        long = read_bench(long)
    if bench is not None:
        long = long[long["bench"] == bench]
    groups: dict = {}
    for rec in long.to_dict("records"):
        threads = rec["threads"]
        key = (rec["bench"], rec["method"], rec["settings"], None if pd.isna(threads) else
               int(threads), int(rec["repeat"]), rec["note"])  # fmt: skip
        if key not in groups:
            groups[key] = {
                "bench": rec["bench"],
                "method": rec["method"],
                "threads": key[3],
                "repeat": key[4],
                "note": rec["note"],
                **parse_settings(rec["settings"]),
            }
        if rec["metric"]:
            groups[key][rec["metric"]] = float(rec["value"])
    out = pd.DataFrame(list(groups.values()))
    if len(out):
        out["threads"] = out["threads"].astype("Int64")
        given: dict = {}
        for s in long["settings"].unique():
            for k, v in parse_settings(s).items():
                given.setdefault(k, []).append(v)
        for k, vals in given.items():  # a setting that is an integer wherever given stays one
            if all(isinstance(v, int) for v in vals):
                out[k] = out[k].astype("Int64")
    return out


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
