"""The published run: the `real` run's figures, tables, ledgers and report, committed.

The workflow writes every run under ``results/{run}/`` (never committed); publishing copies
what a reader needs into ``published/{run}/``, a tree the workflow never writes, so on a
fresh clone Snakemake builds ``results/real/...`` instead of taking the committed copy as
its own up-to-date output (``latentlab rebuild`` then compares the two). A study folder
holds, at its top level, exactly what a reader needs (figure PNG + CSV, table CSV +
Markdown, ``claims.csv``, ``bench.csv``, ``bench_targets.csv`` and every ``.meta.json``);
model files live in subfolders and are not published (``.gitignore``). ``run_times.tsv``
records each study's wall time and ``PUBLISHED.json`` the provenance of the whole run.
``{run}/README.md`` (generated: :func:`run_readme`) counts the verdicts per study and data
kind and the misses by cause, and gives each study's time; the repository's README shows
the verdict counts per study (:func:`readme_summary`) between two markers.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pandas as pd

from latentlab.claims.ledger import CAUSES, JUDGED, VERDICTS, read_claims
from latentlab.claims.report import _md_table, misses_by_cause, overview
from latentlab.errors import DataError
from latentlab.provenance import COMMIT_ENV, CONFIG_ENV, machine

PUBLISHED_ROOT = "published"  # published/{run}/, beside results/{run}/ that the workflow writes
# the same rule as .gitignore's whitelist for published/real/*/
PUBLISHED_SUFFIXES = (".png", ".csv", ".md", ".meta.json")
UNPUBLISHED_SUFFIXES = ("_trace.csv", "_trace.meta.json")  # sampler traces: intermediate
# a study's subfolders that are published too: its readings sweeps (issue 37) and the
# evidence files its causes cite (same suffixes; .gitignore keeps the same whitelist)
PUBLISHED_SUBDIRS = ("readings", "evidence")
README_START = "<!-- published-overview:start -->"
README_END = "<!-- published-overview:end -->"
TIMES_COLUMNS = ["study", "start", "end", "wall_seconds", "cores", "command", "note"]


def study_dirs(run_dir: str | Path) -> list[Path]:
    """Study folders of a run that hold a ledger, in name order."""
    return sorted(p.parent for p in Path(run_dir).glob("*/claims.csv"))


def published_files(study_dir: Path) -> list[Path]:
    """The files of a study folder that are published (its top level and its
    :data:`PUBLISHED_SUBDIRS`, by suffix)."""
    dirs = [study_dir, *(study_dir / d for d in PUBLISHED_SUBDIRS if (study_dir / d).is_dir())]
    return sorted(
        p
        for d in dirs
        for p in d.iterdir()
        if p.is_file()
        and p.name.endswith(PUBLISHED_SUFFIXES)
        and not p.name.endswith(UNPUBLISHED_SUFFIXES)
    )


def ledgers(run_dir: str | Path) -> pd.DataFrame:
    """Every study's ledger of the run, with a ``study`` column."""
    frames = []
    for d in study_dirs(run_dir):
        df = read_claims(d / "claims.csv")
        df.insert(0, "study", d.name)
        frames.append(df)
    if not frames:
        raise DataError(run_dir, "no study ledgers (*/claims.csv)")
    return pd.concat(frames, ignore_index=True)


def read_times(run_dir: str | Path) -> pd.DataFrame:
    """``run_times.tsv``: one row per timed study run (the last row of a study counts)."""
    path = Path(run_dir) / "run_times.tsv"
    if not path.exists():
        raise DataError(path, "missing: run the studies with scripts/run_real.sh")
    t = pd.read_csv(path, sep="\t")
    missing = [c for c in TIMES_COLUMNS if c not in t.columns]
    if missing:
        raise DataError(path, f"lacks columns {missing}")
    return t.drop_duplicates("study", keep="last").reset_index(drop=True)


def copy_study(src_run: str | Path, dest_run: str | Path, study: str) -> list[Path]:
    """Publish one study: its published files under ``src_run`` (a workflow run folder,
    ``results/real``) replace those under ``dest_run`` (``published/real``); a file the
    study no longer writes is removed. A subfolder (readings, evidence) is replaced only
    when the run built it: its sweeps are targets of their own, often built apart from the
    study's run. A run that built only such subfolders (``<study>_readings``) publishes just
    them; the published ledger is left as it is (``scripts/reapply_causes.py`` refills its
    causes from the new sweeps). Returns the copied files."""
    src, dest = Path(src_run) / study, Path(dest_run) / study
    built = [d for d in PUBLISHED_SUBDIRS if (src / d).is_dir()]
    whole = (src / "claims.csv").exists()
    if not whole and not built:
        raise DataError(src, "no claims.csv: run the study (or its readings) before publishing it")
    dest.mkdir(parents=True, exist_ok=True)
    for old in published_files(dest):
        sub = old.parent.relative_to(dest)
        if (str(sub) == "." and whole) or (str(sub) != "." and (src / sub).is_dir()):
            old.unlink()
    copied = []
    for p in published_files(src):
        out = dest / p.relative_to(src)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(p, out)
        copied.append(out)
    return copied


def copy_summaries(src_run: str | Path, dest_run: str | Path) -> list[Path]:
    """Publish every dataset summary of ``src_run`` (``data/*/summary.json``)."""
    copied = []
    for p in sorted(Path(src_run).glob("data/*/summary.json")):
        out = Path(dest_run) / "data" / p.parent.name / "summary.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(p, out)
        copied.append(out)
    return copied


def _link(folder: str, name: str) -> str:
    return name if folder in ("", ".") else f"{folder}/{name}"


def overview_tables(run_dir: str | Path, link: str = ".") -> str:
    """Verdict counts per study and data kind, misses by cause and each study's time, in
    Markdown; ``link`` is the run folder relative to the page that shows them."""
    run_dir = Path(run_dir)
    led = ledgers(run_dir)
    ov = overview(led)
    times = read_times(run_dir).set_index("study")
    rows = []
    for s in sorted(ov.study.unique()):
        if s in times.index:
            r = times.loc[s]
            rows.append(
                {
                    "study": s,
                    "wall time": f"{r.wall_seconds / 60:.1f} min",
                    "cores": int(r.cores),
                    "conditions": r.note if isinstance(r.note, str) else "",
                }
            )
        else:
            rows.append({"study": s, "wall time": "not timed", "cores": "", "conditions": ""})
    report, reversals = _link(link, "REPORT.md"), _link(link, "REVERSALS.md")
    return "\n".join(
        [
            f"Verdicts of the published run ([{report}]({report})), per study and data kind:",
            "",
            _md_table(ov),
            "",
            "Misses (`not_reproduced`) by cause: our reduction of the document's settings, a "
            "stand-in corpus, a choice the document leaves open, genuine, or not known yet:",
            "",
            _md_table(misses_by_cause(led)),
            "",
            *(
                [
                    f"Results that reverse their document, and whether each is the method or "
                    f"a bug: [{reversals}]({reversals}).",
                    "",
                ]
                if (run_dir / "REVERSALS.md").exists()
                else []
            ),
            "Wall time of each study's run (`run_times.tsv`):",
            "",
            _md_table(pd.DataFrame(rows)),
        ]
    )


def run_readme(run_dir: str | Path, docs: str = "../../docs") -> str:
    """The whole ``{run_dir}/README.md``: what the folder holds, then
    :func:`overview_tables`; ``docs`` is the repository's ``docs/`` relative to the run."""
    run_dir = Path(run_dir)
    run = run_dir.name
    return "\n".join(
        [
            f"# The published `{run}` run",
            "",
            "<!-- generated by scripts/publish_run.py from the ledgers and run_times.tsv; "
            "do not edit -->",
            "",
            f"The workflow's `{run}` run, copied here from `results/{run}/` "
            "(`scripts/publish_run.py --copy-from`, which `scripts/run_real.sh` calls). Each "
            "study folder holds its figures (PNG + CSV), tables (CSV + Markdown), claims ledger "
            "(`claims.csv`) and benchmarks, each output with a `.meta.json` naming the commit, "
            "the config hash and the machine that produced it; `data/` holds the dataset "
            "summaries; `run_times.tsv` each study's timed run and `PUBLISHED.json` the files, "
            "commits and times of the whole run. No data and no model files.",
            "",
            "[REPORT.md](REPORT.md) puts every study's claims ledger and figures side by "
            "side, the document's number next to ours. One file rebuilt from the data and "
            f"compared with this copy: `python -m latentlab rebuild published/{run}/STUDY/FILE` "
            f"([{docs}/runs.md]({docs}/runs.md#rebuild-one-published-figure-or-table)).",
            "",
            overview_tables(run_dir),
            "",
        ]
    )


def verdict_summary(run_dir: str | Path) -> pd.DataFrame:
    """Per study, the verdicts of its empirical claims (every data kind but ``identity``),
    their misses by cause (issue 24) and its exact checks as passed / all."""
    led = ledgers(run_dir)
    rows = []
    for s, g in led.groupby("study", sort=True):
        emp, exact = g[g.data_kind != "identity"], g[g.data_kind == "identity"]
        counts = emp["verdict"].value_counts()
        row = {"study": s, **{v: int(counts.get(v, 0)) for v in VERDICTS}}
        row["misses by cause"] = _cause_counts(emp)
        row["at the highest ladder rung"] = _ladder_counts(emp)
        n_ok = int((exact["verdict"] == "reproduced").sum())
        row["exact checks"] = f"{n_ok}/{len(exact)}" if len(exact) else "-"
        rows.append(row)
    return pd.DataFrame(rows)


def _ladder_counts(df: pd.DataFrame) -> str:
    """The verdicts of the rows a ladder measured, at its highest rung (issue 40):
    '2 reproduced, 9 not_reproduced of 11'; '-' when no ladder measured one."""
    lv = df.get("ladder_verdict", pd.Series(dtype=str)).fillna("")
    lv = lv[lv != ""]
    if lv.empty:
        return "-"
    counts = lv.value_counts()
    parts = [f"{int(counts[v])} {v}" for v in JUDGED if counts.get(v, 0)]
    return ", ".join(parts) + f" of {len(lv)}"


def _cause_counts(df: pd.DataFrame) -> str:
    """'2 reduction, 17 genuine, 12 open': the not_reproduced rows per cause, in the order
    of ``CAUSES`` (a row without a cause counts as open); '-' without misses."""
    miss = df.loc[df["verdict"] == "not_reproduced", "cause"].fillna("").replace("", "open")
    counts = miss.value_counts()
    parts = [f"{int(counts[c])} {c}" for c in CAUSES if counts.get(c, 0)]
    return ", ".join(parts) if parts else "-"


def readme_summary(run_dir: str | Path) -> str:
    """The repository README's block: :func:`verdict_summary` between the markers."""
    return "\n".join([README_START, _md_table(verdict_summary(run_dir)), README_END])


def replace_block(text: str, block: str, path: str | Path = "README.md") -> str:
    """``text`` with the part between the markers replaced by ``block``."""
    a, b = text.find(README_START), text.find(README_END)
    if a < 0 or b < a:
        raise DataError(path, f"lacks the markers {README_START} ... {README_END}")
    return text[:a] + block + text[b + len(README_END) :]


def stamp_provenance(run_dir: str | Path, commit: str, config_sha256: str) -> int:
    """Add ``provenance`` to each published ``.meta.json`` that lacks it (outputs of a run
    made before the workflow recorded it); returns how many files were stamped."""
    n = 0
    for d in study_dirs(run_dir):
        for p in d.glob("*.meta.json"):
            meta = json.loads(p.read_text())
            if "provenance" in meta:
                continue
            meta["provenance"] = {
                "commit": commit,
                "config_sha256": config_sha256,
                "machine": dict(machine()),
                "stamped_by": "scripts/publish_run.py (run made before jobs recorded it)",
            }
            p.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
            n += 1
    return n


def run_provenance_env(study_dir: Path) -> dict:
    """Commit and config hash of a study's outputs (one ``.meta.json`` that records them),
    as the environment variables that :func:`latentlab.provenance.provenance` reads."""
    # the newest output of the study's jobs (bench_targets.csv is written from them)
    metas = [p for p in study_dir.glob("*.meta.json") if p.name != "bench_targets.meta.json"]
    for p in sorted(metas, key=lambda p: p.stat().st_mtime, reverse=True):
        prov = json.loads(p.read_text()).get("provenance", {})
        if prov.get("commit") and prov.get("config_sha256"):
            return {COMMIT_ENV: prov["commit"], CONFIG_ENV: prov["config_sha256"]}
    return {}


def check_published(run_dir: str | Path) -> list[str]:
    """Problems of a published run: unparsable ledgers, meta files without provenance,
    studies without a time. Empty when the run is complete."""
    problems = []
    run_dir = Path(run_dir)
    try:
        times = set(read_times(run_dir).study)
    except DataError as e:
        return [str(e)]
    for d in study_dirs(run_dir):
        try:
            read_claims(d / "claims.csv")
        except (DataError, ValueError) as e:
            problems.append(str(e))
        if d.name not in times:
            problems.append(f"{d.name}: no row in run_times.tsv")
        for p in d.glob("*.meta.json"):
            prov = json.loads(p.read_text()).get("provenance", {})
            lacks = [k for k in ("commit", "config_sha256", "machine") if k not in prov]
            if lacks:
                problems.append(f"{p}: provenance lacks {lacks}")
    return problems


def write_manifest(run_dir: str | Path) -> dict:
    """``PUBLISHED.json``: the studies, their files and times, when and where published."""
    run_dir = Path(run_dir)
    times = read_times(run_dir).set_index("study")
    studies = {}
    for d in study_dirs(run_dir):
        commits = {
            json.loads(p.read_text()).get("provenance", {}).get("commit", "unknown")
            for p in d.glob("*.meta.json")
        }
        wall = float(times.loc[d.name, "wall_seconds"]) if d.name in times.index else None
        studies[d.name] = {
            "files": [str(p.relative_to(d)) for p in published_files(d)],
            "commits": sorted(commits),
            "wall_seconds": wall,
        }
    manifest = {
        "run": run_dir.name,
        "published_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": dict(machine()),
        "studies": studies,
    }
    (run_dir / "PUBLISHED.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest
