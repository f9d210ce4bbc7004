"""``latentlab claims check|report|prove|ladder``: validate a ledger; gather the run's
report; show every row able to fail and able to pass; fill a written ledger's ladder
columns from the published ladders."""

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


def _prove(args) -> int:
    import pandas as pd

    from latentlab.claims.prove import CATEGORIES, K_REALISTIC, describe, prove_dir, summary

    proofs = prove_dir(args.dir)
    s = summary(proofs)
    with pd.option_context("display.width", 200, "display.max_columns", 40):
        print(s.set_index("study").T.to_string())
    flagged = [p for p in proofs if p.kind == "judged" and p.flag]
    for p in proofs if args.list else flagged:
        if p.kind == "judged":
            print(describe(p))
    judged = int(s["judged"].sum())
    c = {k: int(s[k].sum()) for k in CATEGORIES}
    flags = ", ".join(f"{int(s[f].sum())} {f}" for f in ("broken", "refused", "legacy", "missing"))
    print(
        f"{judged} judged rows: {c['realistic']} proven by a realistic counter-example "
        f"(the verdict flips within {K_REALISTIC:g} x the row's spread), {c['robust']} robust "
        f"beyond noise, {c['inconclusive']} inconclusive, {c['counter']} by a hand-written "
        f"counter-example, {c['nonfinite']} non-finite; {len(flagged)} flagged "
        f"({flags}); "
        f"{int(s['identity'].sum())} identity and {int(s['unjudged'].sum())} unjudged apart"
    )
    return 1 if flagged else 0


def _ladder(args) -> int:
    from pathlib import Path

    from latentlab.claims.ladders import apply_published

    for p in map(Path, args.files):
        lad = Path(args.ladders) / p.parent.name / "ladder.csv"
        if not lad.is_file():
            print(f"{p}: no ladder ({lad} does not exist): left as it is")
            continue
        print(f"{p}: {apply_published(p, lad)} rows judged at a ladder rung ({lad})")
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
    v = s.add_parser("prove", help="show how every judged row of every claims.csv under DIR "
                     "could have gone the other way; exit 1 on a flagged row")  # fmt: skip
    v.add_argument("dir")
    v.add_argument("--list", action="store_true", help="one line per judged row")
    v.set_defaults(func=_prove)
    lad = s.add_parser("ladder", help="fill the ladder columns of written <study>/claims.csv "
                       "files from LADDERS/<study>/ladder.csv (verdicts kept)")  # fmt: skip
    lad.add_argument("files", nargs="+")
    lad.add_argument("--ladders", default="published/ladder")
    lad.set_defaults(func=_ladder)
