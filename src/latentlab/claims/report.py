"""``results/{run}/REPORT.md``: every study's claims ledger and figures, paper next to ours."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from latentlab.claims.ledger import CAUSES, COLUMNS, DATA_KINDS, VERDICTS, read_claims
from latentlab.claims.readings import read_sweep

# the document is the section heading, so each study table leaves its column out; the
# machine-readable rule stays in claims.csv (its human form is the tolerance column)
LEDGER_COLUMNS = [c for c in COLUMNS if c not in ("document", "rule")]


def _natural(path: Path) -> list:
    """Sort key that puts fig4_2 before fig4_10."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", Path(path).stem)]


def _document_order(path: Path) -> tuple:
    """Sort key in the document's numbering: table3_1, fig3_3_signtest, table3_4, sec5_6_1
    (the numbers first, then the name)."""
    nums = tuple(int(t) for t in re.findall(r"\d+", Path(path).stem))
    return (nums, _natural(path))


def study_tables(folder: Path) -> list[Path]:
    """The Markdown tables a study wrote beside its ledger, in document order: every
    ``*.md`` of the folder but the benchmark's (``bench*.md``: wall-clock measurements, in
    bench.csv) and a figure's. A table need not be called ``table*``: iwtm's ``sec5_6_1``
    (Sec. 5.6.1's numbers) and tir's ``fig3_3_signtest`` (the sign test of Fig 3.3) are
    tables too (issue 40: REPORT.md left them out)."""
    return sorted(
        (
            t
            for t in Path(folder).glob("*.md")
            if not t.stem.startswith("bench") and not t.with_suffix(".png").exists()
        ),
        key=_document_order,
    )


def _md_escape(s: str) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def _md_table(df: pd.DataFrame) -> str:
    head = "| " + " | ".join(df.columns) + " |"
    sep = "|" + "|".join("---" for _ in df.columns) + "|"
    rows = ["| " + " | ".join(_md_escape(v) for v in r) + " |" for r in df.itertuples(index=False)]
    return "\n".join([head, sep, *rows])


def _verdict_counts(df: pd.DataFrame) -> str:
    counts = df["verdict"].value_counts()
    return ", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS)


def overview(allc: pd.DataFrame) -> pd.DataFrame:
    """Verdict counts per study and data kind: exact checks (``identity``) apart from
    empirical claims on real, substitute and synthetic data."""
    ov = (
        allc.groupby(["study", "data_kind"])["verdict"]
        .value_counts()
        .unstack(fill_value=0)
        .reindex(columns=list(VERDICTS), fill_value=0)
        .reset_index()
    )
    order = {k: i for i, k in enumerate(DATA_KINDS)}
    ov = ov.sort_values(["study", "data_kind"], key=lambda c: c.map(order).fillna(c))
    ov.columns.name = None
    return ov.reset_index(drop=True)


def misses_by_cause(allc: pd.DataFrame) -> pd.DataFrame:
    """Per study, the ``not_reproduced`` rows counted by cause (issue 24); a ledger written
    before the cause column counts its misses as ``open``."""
    miss = allc[allc["verdict"] == "not_reproduced"].copy()
    miss["cause"] = miss["cause"].replace("", "open")
    t = (
        miss.groupby("study")["cause"]
        .value_counts()
        .unstack(fill_value=0)
        .reindex(index=sorted(allc["study"].unique()), columns=list(CAUSES), fill_value=0)
        .fillna(0)
        .astype(int)
    )
    t.insert(0, "misses", t.sum(axis=1))
    t.columns.name = None
    return t.reset_index().rename(columns={"index": "study"})


def _cause_lines(df: pd.DataFrame) -> list[str]:
    """A study's misses grouped by cause: the row ids (dataset) and the evidence."""
    miss = df[df["verdict"] == "not_reproduced"]
    if miss.empty:
        return []
    lines = ["Misses by cause:", ""]
    for cause in CAUSES:
        g = miss[miss["cause"].replace("", "open") == cause]
        if g.empty:
            continue
        items = []
        for ev, h in g.groupby("evidence", sort=False):
            ids = ", ".join(f"{r.claim_id} ({r.dataset})" if r.dataset else r.claim_id
                            for r in h.itertuples())  # fmt: skip
            items.append(f"{ids}" + (f": {ev}" if ev else ""))
        lines.append(f"- **{cause}** ({len(g)}): " + "; ".join(items))
    return [*lines, ""]


def _readings_lines(base: Path, folder: Path) -> list[str]:
    """The study's readings sweeps (``<study>/readings/<reading>.csv``, issue 37): per
    sweep, every row whose verdict differs between the options, as written (the published
    option) and under each other reading, with the sweep's figure and file."""
    sweeps = sorted(Path(folder).glob("readings/*.csv"), key=_natural)
    if not sweeps:
        return []
    lines = [
        "### Readings sweeps",
        "",
        "Each option of a reading the document leaves open, run on this run's data, split "
        "and seeds for the rows it touches (issue 37). The ledger above keeps the published "
        "option's verdict; here are the rows whose verdict changes with the reading.",
        "",
    ]
    for csv in sweeps:
        t = read_sweep(csv)
        published = t.loc[t.published.str.lower() == "true", "option"]
        pub = published.iloc[0] if len(published) else ""
        options = list(dict.fromkeys(t.option))
        name = csv.stem
        lines += [f"#### `{name}`: options {', '.join(f'`{o}`' for o in options)} "
                  f"(published: `{pub}`)", ""]  # fmt: skip
        rows, missed = [], []
        for (cid, ds), g in t.groupby(["claim_id", "dataset"], sort=False):
            by = dict(zip(g.option, g.verdict, strict=True))
            if set(by.values()) == {"not_reproduced"}:
                missed.append(f"{cid} ({ds})")
            if len(set(by.values())) < 2:
                continue
            vals = dict(zip(g.option, g.our_value, strict=True))
            rows.append({"row": cid, "dataset": ds, **{
                (f"{o} (published)" if o == pub else o): f"{by.get(o, '')} ({vals.get(o, '')})"
                for o in options
            }})  # fmt: skip
        if rows:
            lines += [_md_table(pd.DataFrame(rows).fillna("")), ""]
        else:
            lines += ["No row changes verdict with the reading.", ""]
        if missed:
            lines += [f"Not reproduced under every option: {', '.join(missed)}.", ""]
        rel = csv.relative_to(base) if csv.is_relative_to(base) else csv
        png = rel.with_suffix(".png")
        lines += [f"Numbers: [{rel}]({rel})", ""]
        if csv.with_suffix(".png").exists():
            lines += [f"Figure: [{png}]({png})", ""]
    return lines


def _rung_figure_lines(base: Path, study: str) -> list[str]:
    """The study's figures drawn at ladder rungs (config/ladder.yaml: a rung's own
    ``targets``, e.g. the document's figure at the document's settings), found beside the
    run: ``<run>/../ladder/<study>/<rung>/<study>/*.png`` (issue 40)."""
    lad = base.parent / "ladder" / study
    pngs = sorted(lad.glob(f"*/{study}/*.png"), key=_natural) if lad.is_dir() else []
    if not pngs:
        return []
    lines = [
        "### At the ladder's rungs (toward the document's settings)",
        "",
        "The same figure step drawn from a ladder rung's own runs (config/ladder.yaml, "
        "docs/runs.md, Ladders; each rung's settings are in its ladder.csv); the figure of "
        "the same name above is drawn at this run's settings. A rung named `*_doc` runs the "
        "document's own settings.",
        "",
    ]
    for f in pngs:
        rung = f.parent.parent.name
        rel = Path("..") / f.relative_to(base.parent)
        csv = rel.with_suffix(".csv")
        lines += [f"#### {f.stem}, rung `{rung}`", "", f"![{f.stem} ({rung})]({rel})", ""]
        lines += [f"Numbers: [{csv}]({csv})", ""]
    return lines


def build_report(
    run: str,
    out: str | Path,
    claims: list[str | Path],
    figures: list[str | Path] = (),
    summaries: list[str | Path] = (),
) -> str:
    """Write the Markdown report to ``out`` and return its text.

    ``claims`` are the studies' claims.csv files (the study is the parent folder name);
    ``figures`` PNG files (each is listed with its CSV); ``summaries`` dataset summary.json.
    """
    out = Path(out)
    base = out.parent
    lines = [f"# latentlab report: run `{run}`", ""]
    lines += [
        "Each study's claims ledger puts the document's number next to ours with a verdict "
        "computed from the stated tolerance and the noise of our replicates (`n_rep` "
        "replicates, their `spread`): `reproduced` (the document's effect holds beyond the "
        "noise), `not_reproduced` (the opposite holds beyond it), `inconclusive` (the noise "
        "covers both; the note says how many replicates would decide), `not_testable` "
        "(public data cannot test it: private data, human studies) or `not_run` (public data "
        "this run's config leaves out; the note names the config that runs it). The "
        "`reading` column names the reading of the document a row's number uses, where the "
        "document leaves a choice open (issue 37). The data kind "
        "says what a row was judged on: `real`, `substitute` (a public stand-in for the "
        "document's data), `synthetic`, or `identity` (an exact mathematical check, counted "
        "apart from empirical claims). Figures are listed with the CSV of the numbers they plot.",
        "",
    ]
    if (base / "REVERSALS.md").exists():  # the published run's page of issue 22's cases
        lines += [
            "**Read [REVERSALS.md](REVERSALS.md) first**: the results that reverse their "
            "document, each checked on data with a known answer (bug or stands).",
            "",
        ]
    frames = []
    for path in claims:
        df = read_claims(path)
        df.insert(0, "study", Path(path).parent.name)
        frames.append(df)
    if frames:
        allc = pd.concat(frames, ignore_index=True)
        lines += ["## Overview", ""]
        lines += [_md_table(overview(allc)), ""]
        lines += [
            "Why the misses miss (`cause` column, per study): `reduction` (our smaller "
            "settings), `substitute` (a stand-in corpus), `ambiguity` (a choice the document "
            "leaves open), `reading` (another reading of the document reproduces it: the "
            "evidence names the readings sweep), `genuine`, `open` (not known yet).",
            "",
            _md_table(misses_by_cause(allc)),
            "",
        ]
    if summaries:
        lines += ["## Datasets", ""]
        rows = []
        for s in summaries:
            d = json.loads(Path(s).read_text())
            keep = {
                k: v
                for k, v in d.items()
                if isinstance(v, (int, float, str)) and k != "content_sha256"
            }
            rows.append({"dataset": Path(s).parent.name, **keep})
        lines += [_md_table(pd.DataFrame(rows).fillna("")), ""]
    figs_by_study: dict[str, list[Path]] = {}
    for f in figures:
        figs_by_study.setdefault(Path(f).parent.name, []).append(Path(f))
    for path, df in zip(claims, frames, strict=True):
        study = Path(path).parent.name
        doc = df["document"].iloc[0] if len(df) else ""
        lines += [f"## Study `{study}`", "", f"Document: {doc}.", ""]
        lines += [f"Claims: {_verdict_counts(df)}.", ""]
        lines += _cause_lines(df)
        lines += [_md_table(df[LEDGER_COLUMNS]), ""]
        # tables are written beside the ledger before it; shown inline, in document order
        for t in study_tables(Path(path).parent):
            lines += [f"### {t.stem}", "", t.read_text().rstrip(), ""]
        for f in sorted(figs_by_study.get(study, []), key=_natural):
            rel = f.relative_to(base) if f.is_relative_to(base) else f
            csv = rel.with_suffix(".csv")
            lines += [f"### {f.stem}", "", f"![{f.stem}]({rel})", ""]
            lines += [f"Numbers: [{csv}]({csv})", ""]
        lines += _readings_lines(base, Path(path).parent)
        lines += _rung_figure_lines(base, study)
    text = "\n".join(lines).rstrip() + "\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(out)
    return text
