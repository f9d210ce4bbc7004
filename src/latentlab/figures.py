"""``latentlab figures check RUN_DIR``: every figure of a run passed the figure check;
``latentlab figures redraw PNG``: draw a figure again from its own CSV and metadata.

This command sits above the layers it reads (the figure check of
:mod:`latentlab.plotting.check`, :mod:`latentlab.outputs`, the studies' redraw functions),
so that ``plotting`` imports nothing else of latentlab (docs/design.md "Layers").

``write_figure`` checks each figure as it is drawn (:mod:`latentlab.plotting.check`)
and records the outcome in the figure's ``.meta.json`` (``figure_check``). This command
reads those records after a run (CI: after the smoke pipeline) and fails on a PNG that
has no record (written before the check existed, or not through ``write_figure``), was
written with the check off, was written with problems under ``LATENTLAB_FIGCHECK=warn``, or
was checked before one of today's rules existed (its record's ``rules`` lack one of
:data:`latentlab.plotting.check.RULES`).
"""

from __future__ import annotations

import json
from pathlib import Path

# the rules of a record that names none (written before records listed their rules)
FIRST_RULES = ("overlap", "label", "empty")


def figure_records(run_dir: Path) -> list[tuple[Path, str]]:
    """(png, problem) for every figure under ``run_dir`` that did not pass; [] when all did."""
    from latentlab.plotting.check import RULES  # lazily: the package imports matplotlib

    bad = []
    pngs = sorted(run_dir.rglob("*.png"))
    for png in pngs:
        meta_path = png.with_suffix(".meta.json")
        if not meta_path.exists():
            bad.append((png, f"no {meta_path.name} beside it (not written by write_figure)"))
            continue
        try:
            rec = json.loads(meta_path.read_text()).get("figure_check")
        except json.JSONDecodeError as e:
            bad.append((png, f"{meta_path.name} is not JSON ({e})"))
            continue
        if rec is None:
            bad.append((png, "not checked (no figure_check in its metadata)"))
        elif rec.get("mode") == "off":
            bad.append((png, "written with LATENTLAB_FIGCHECK=off"))
        elif rec.get("problems"):
            probs = rec["problems"]
            bad.append((png, f"{len(probs)} problem(s): " + "; ".join(probs[:3])))
        elif missing := [r for r in RULES if r not in rec.get("rules", FIRST_RULES)]:
            bad.append(
                (
                    png,
                    f"checked before the rule(s) {', '.join(missing)} existed: redraw it "
                    "(latentlab figures redraw) or rebuild it",
                )  # fmt: skip
            )
    return bad


def _check(args) -> int:
    bad = []
    n = 0
    for d in args.run_dirs:
        d = Path(d)
        if not d.is_dir():
            print(f"error: {d}: not a directory (a run's results, e.g. results/smoke)")
            return 1
        n += len(list(d.rglob("*.png")))
        bad += figure_records(d)
    for png, why in bad:
        print(f"{png}: {why}")
    print(f"{n} figures, {n - len(bad)} passed the figure check, {len(bad)} did not")
    return 1 if bad or n == 0 else 0


def redraw(png: Path) -> dict:
    """Draw ``png`` again from its CSV and ``.meta.json`` through the study's redraw
    function (``Study.redraw``), check it and write the PNG and the metadata's check record;
    the CSV is read, never rewritten. Returns the record."""
    import pandas as pd

    from latentlab.errors import ConfigError
    from latentlab.outputs import write_json, write_png
    from latentlab.provenance import provenance, source_commit
    from latentlab.studies.shape import load_study

    meta_path, csv_path = png.with_suffix(".meta.json"), png.with_suffix(".csv")
    for p in (meta_path, csv_path):
        if not p.exists():
            raise ConfigError(str(png), f"{p.name} is missing: a figure is redrawn from both")
    meta = json.loads(meta_path.read_text())
    study = load_study(meta["study"])
    fn = study.redraws.get(meta["step"])
    if fn is None:
        raise ConfigError(
            str(png),
            f"{meta['study']} {meta['step']} has no redraw function (it draws from the run's "
            "intermediate data): rebuild it with snakemake",
        )
    record = write_png(fn(pd.read_csv(csv_path), meta), png)
    redrawn = {"how": "latentlab figures redraw (from the figure's CSV)", **provenance()}
    if redrawn["commit"] == "unknown":  # outside the workflow: the checkout's own commit
        redrawn["commit"] = source_commit(Path(__file__).resolve().parents[2])
    redrawn.pop("config_sha256", None)  # no config is read
    write_json({**meta, "figure_check": record, "redrawn": redrawn}, meta_path)
    return record


def _redraw(args) -> int:
    from latentlab.errors import LatentlabError
    from latentlab.plotting.check import FigureCheckError

    failed = 0
    for p in args.pngs:
        try:
            rec = redraw(Path(p))
        except (LatentlabError, FigureCheckError) as e:
            print(f"error: {e}")
            failed += 1
            continue
        how = "passed" if not rec["problems"] else f"{len(rec['problems'])} problem(s)"
        print(f"{p}: redrawn from its CSV (figure check {rec['mode']}: {how})")
    return 1 if failed else 0


def register(sub) -> None:
    p = sub.add_parser("figures", help="figures of a run: the figure check's records")
    s = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    c = s.add_parser(
        "check",
        help="fail unless every PNG under the run directories passed the figure check "
        "(recorded in its .meta.json by write_figure)",
    )
    c.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    c.set_defaults(func=_check)
    r = s.add_parser(
        "redraw",
        help="draw figures again from their own CSV and .meta.json (figures with a redraw "
        "function), check them and replace the PNG",
    )
    r.add_argument("pngs", nargs="+", metavar="PNG")
    r.set_defaults(func=_redraw)
