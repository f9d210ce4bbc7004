"""``latentlab nonconjugate_vi <step>``: the steps the rules of rules/nonconjugate_vi.smk call.

Wang & Blei (JMLR 2013), seed 002: Figs. 2, 5a/5b, 6a/6b, Tables 1, 2, bench.csv, claims.csv.
"""

from __future__ import annotations

from latentlab.cliutil import add_params_arg


def _single_blas(fn):
    """Run a handler with single-threaded BLAS: the work is many small solves, parallelised over
    processes where it helps; threaded BLAS on a shared 2-core machine is 10-100x slower here."""

    def run(a):
        from threadpoolctl import threadpool_limits

        with threadpool_limits(1):
            return fn(a)

    return run


def _sweep(a):
    from latentlab.studies.nonconjugate_vi.ctm_runs import ctm_sweep

    ctm_sweep(a.params, a.corpus, a.out)


def _fig5(a):
    from latentlab.studies.nonconjugate_vi.ctm_runs import fig5

    fig5(
        a.params, a.sweeps, {"png_a": a.png_a, "csv_a": a.csv_a, "png_b": a.png_b, "csv_b": a.csv_b}
    )


def _fig2(a):
    from latentlab.studies.nonconjugate_vi.ctm_runs import fig2

    fig2(a.params, {"png": a.png, "csv": a.csv, "monotone": a.monotone})


def _fig6(a):
    from latentlab.studies.nonconjugate_vi.ctm_runs import fig6

    fig6(a.params, {"png_a": a.png_a, "csv_a": a.csv_a, "png_b": a.png_b, "csv_b": a.csv_b})


def _table1(a):
    from latentlab.studies.nonconjugate_vi.blr_runs import table1

    table1(a.params, {"csv": a.csv, "md": a.md, "problems": a.problems})


def _table2(a):
    from latentlab.studies.nonconjugate_vi.blr_runs import table2

    table2(a.params, {"csv": a.csv, "md": a.md, "splits": a.splits, "tests": a.tests})


def _bench(a):
    import pandas as pd

    from latentlab.outputs import write_table
    from latentlab.studies.nonconjugate_vi.blr_runs import bench_blr
    from latentlab.studies.nonconjugate_vi.ctm_runs import bench_ctm

    rows = bench_ctm(a.params) + bench_blr(a.params)
    write_table(
        pd.DataFrame(rows), a.out, meta={"settings": a.params.get("bench", {}), "threads": 1}
    )


def _claims(a):
    from latentlab.studies.nonconjugate_vi.claims import build_claims

    build_claims(
        a.params,
        {
            "fig2_monotone": a.fig2_monotone,
            "sweeps": a.sweeps,
            "fig6a": a.fig6a,
            "fig6b": a.fig6b,
            "bench": a.bench,
            "table1": a.table1,
            "table2": a.table2,
            "table2_tests": a.table2_tests,
        },
        a.out,
    )


def register(sub) -> None:
    p = sub.add_parser("nonconjugate_vi", help="Wang & Blei 2013: Laplace / delta-method VI")
    s = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    c = s.add_parser("sweep", help="CTM EM over K x seeds x methods for one corpus (Fig. 5 data)")
    add_params_arg(c)
    c.add_argument("--corpus", required=True)
    c.add_argument("--out", required=True)
    c.set_defaults(func=_single_blas(_sweep))

    c = s.add_parser("fig5", help="Fig. 5a/5b from the sweep CSVs")
    add_params_arg(c)
    c.add_argument("--sweeps", nargs="+", required=True)
    for k in ("png-a", "csv-a", "png-b", "csv-b"):
        c.add_argument(f"--{k}", required=True)
    c.set_defaults(func=_single_blas(_fig5))

    c = s.add_parser("fig2", help="Fig. 2: Eq. 21 per per-document iteration")
    add_params_arg(c)
    for k in ("png", "csv", "monotone"):
        c.add_argument(f"--{k}", required=True)
    c.set_defaults(func=_single_blas(_fig2))

    c = s.add_parser("fig6", help="Fig. 6a/6b: bound and held-out vs wall-clock time")
    add_params_arg(c)
    for k in ("png-a", "csv-a", "png-b", "csv-b"):
        c.add_argument(f"--{k}", required=True)
    c.set_defaults(func=_single_blas(_fig6))

    c = s.add_parser("table1", help="Table 1: BLR on Yeast and Scene")
    add_params_arg(c)
    for k in ("csv", "md", "problems"):
        c.add_argument(f"--{k}", required=True)
    c.set_defaults(func=_single_blas(_table1))

    c = s.add_parser("table2", help="Table 2: School, separate/pooled/hierarchical")
    add_params_arg(c)
    for k in ("csv", "md", "splits", "tests"):
        c.add_argument(f"--{k}", required=True)
    c.set_defaults(func=_single_blas(_table2))

    c = s.add_parser("bench", help="bench.csv: CTM and BLR timings")
    add_params_arg(c)
    c.add_argument("--out", required=True)
    c.set_defaults(func=_single_blas(_bench))

    c = s.add_parser("claims", help="claims.csv from every output")
    add_params_arg(c)
    c.add_argument("--sweeps", nargs="+", required=True)
    for k in (
        "fig2-monotone",
        "fig6a",
        "fig6b",
        "bench",
        "table1",
        "table2",
        "table2-tests",
        "out",
    ):
        c.add_argument(f"--{k}", required=True)
    c.set_defaults(func=_single_blas(_claims))
