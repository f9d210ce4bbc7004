"""``latentlab claims check|report``: validate a ledger; gather the run's report."""

from __future__ import annotations


def _check(args) -> int:
    from latentlab.claims.ledger import read_claims

    for p in args.files:
        df = read_claims(p)
        counts = df["verdict"].value_counts().to_dict()
        print(f"{p}: {len(df)} claims {counts}")
    return 0


def _report(args) -> int:
    from latentlab.claims.report import build_report

    build_report(args.run, args.out, args.claims, args.figures, args.summaries)
    return 0


def register(sub) -> None:
    p = sub.add_parser("claims", help="claims ledgers and the run report")
    s = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    c = s.add_parser("check", help="validate claims.csv files (columns, verdicts, reasons)")
    c.add_argument("files", nargs="+")
    c.set_defaults(func=_check)
    r = s.add_parser("report", help="write results/{run}/REPORT.md from ledgers and figures")
    r.add_argument("--run", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--claims", nargs="*", default=[])
    r.add_argument("--figures", nargs="*", default=[])
    r.add_argument("--summaries", nargs="*", default=[])
    r.set_defaults(func=_report)
