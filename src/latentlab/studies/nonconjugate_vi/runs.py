"""Computation steps of ``nonconjugate_vi``: raw results on disk (figures and tables read
them). Single-threaded BLAS throughout: the work is many small solves, parallelised over
processes where it helps; threaded BLAS on a shared 2-core machine is 10-100x slower here."""

from __future__ import annotations

import functools

from latentlab.outputs import UnitStore, write_table
from latentlab.studies.nonconjugate_vi.study import (
    STUDY,
    BenchSettings,
    Fig2Settings,
    Fig6Settings,
    SweepSettings,
    Table1Settings,
    Table2Settings,
)


def single_blas(fn):
    @functools.wraps(fn)
    def run(ctx):
        from threadpoolctl import threadpool_limits

        with threadpool_limits(1):
            return fn(ctx)

    return run


def _source(ctx, name):
    """The canonical file of real dataset ``name`` (a rule input), None for synthetic."""
    return ctx.inputs.get(name, [None])[0]


@STUDY.run("sweep", settings=SweepSettings)
@single_blas
def sweep(ctx) -> None:
    """CTM EM over K x seeds x methods for corpus ``{corpus}`` (Fig. 5 data)."""
    from latentlab.studies.nonconjugate_vi.ctm import ctm_sweep

    spec = ctx.settings.ctm.corpus(ctx.wildcards["corpus"])
    units = UnitStore(ctx.output("csv"), ctx.unit_key())  # an interrupted sweep resumes
    df, meta = ctm_sweep(ctx, spec, _source(ctx, spec.name), units)
    write_table(df, ctx.output("csv"), meta=ctx.meta(**meta))
    units.close()


@STUDY.run("fig2_traces", settings=Fig2Settings)
@single_blas
def fig2_traces(ctx) -> None:
    """Fig. 2 traces (two documents) and the monotonicity count over test documents (C7)."""
    from latentlab.studies.nonconjugate_vi.ctm import fig2_traces as compute

    traces, mono, meta = compute(ctx, _source(ctx, ctx.settings.fig2.corpus))
    write_table(traces, ctx.output("traces"), meta=ctx.meta(**meta))
    write_table(mono, ctx.output("monotone"), meta=ctx.meta(**meta))


@STUDY.run("fig6_history", settings=Fig6Settings)
@single_blas
def fig6_history(ctx) -> None:
    """Fig. 6 history: bound and held-out likelihood per EM iteration with wall time."""
    from latentlab.studies.nonconjugate_vi.ctm import fig6_history as compute

    df, meta = compute(ctx, _source(ctx, ctx.settings.fig6.corpus))
    write_table(df, ctx.output("history"), meta=ctx.meta(**meta))


@STUDY.run("table1_problems", settings=Table1Settings)
@single_blas
def table1_problems(ctx) -> None:
    """Table 1 raw rows: every (dataset, problem, method)."""
    from latentlab.studies.nonconjugate_vi.blr import table1_problems as compute

    df, meta = compute(ctx)
    write_table(df, ctx.output("problems"), meta=ctx.meta(**meta))


@STUDY.run("table2_splits", settings=Table2Settings)
@single_blas
def table2_splits(ctx) -> None:
    """Table 2 raw rows: every (split, setting, method)."""
    from latentlab.studies.nonconjugate_vi.blr import table2_splits as compute

    df, meta = compute(ctx)
    write_table(df, ctx.output("splits"), meta=ctx.meta(**meta))


@STUDY.run("bench", settings=BenchSettings)
@single_blas
def bench(ctx) -> None:
    """bench.csv: CTM E-step and EM-iteration times, tomotopy CTModel, BLR fit times."""
    from latentlab.bench import write_bench
    from latentlab.studies.nonconjugate_vi.blr import bench_blr
    from latentlab.studies.nonconjugate_vi.ctm import bench_ctm

    ctm_path = _source(ctx, ctx.settings.bench.corpus)
    rows = bench_ctm(ctx, ctm_path) + bench_blr(ctx)
    write_bench(bench_long(rows), ctx.output("csv"), meta=ctx.meta(threads=1))


# the metric each unit of a timing row measures (bench.csv, latentlab.bench layout)
BENCH_METRICS = {"s": "seconds", "nats/word": "heldout_ll_per_word"}


def bench_long(rows: list[dict]):
    """The rows of ``bench_ctm``/``bench_blr`` (``what, method, K, dataset, data_kind,
    value, unit, n`` and ``rep``, the repeat of a repeated timing, 0 if none) in the layout
    of :mod:`latentlab.bench`: ``what`` is the bench, ``rep`` its ``repeat``, the data set,
    its kind, K (none for BLR) and ``n`` (documents, tokens or iterations, as the bench
    says) the settings, the value a metric named after its unit."""
    import pandas as pd

    from latentlab.bench import long_format

    wide = [
        {
            "bench": r["what"],
            "method": r["method"],
            "dataset": r["dataset"],
            "data_kind": r["data_kind"],
            "K": r["K"] or None,
            "repeat": r.get("rep", 0),
            "n": r["n"],
            BENCH_METRICS[r["unit"]]: r["value"],
        }
        for r in rows
    ]
    return long_format(
        pd.DataFrame(wide),
        "nonconjugate_vi",
        settings=("dataset", "data_kind", "K", "n"),
        units={"heldout_ll_per_word": "nats/word"},
    )
