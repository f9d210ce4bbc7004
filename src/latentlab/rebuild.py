"""``latentlab rebuild``: rebuild a published figure or table from the data and compare it
with the published copy.

    python -m latentlab rebuild published/real/scvb0/fig4_3.png [more ...] [--cores 2]

A published file ``published/{run}/{study}/{name}`` is the workflow's output
``results/{run}/{study}/{name}`` of the config whose ``run`` is ``{run}``
(``config/{run}.yaml``). The command runs Snakemake on those targets with ``--forceall``
(the target and everything it is built from, the dataset included, rerun; ``--reuse``
reruns only the targets' own jobs over the intermediate files already built), then compares
the numbers: a figure's or table's CSV (a ``.png`` / ``.md`` stands for its ``.csv``), a
dataset's ``summary.json``, and every other published CSV of the study that this rebuild
rewrote. Tolerances (:mod:`latentlab.claims.diff`): ``published/volatile.yaml`` (what moves
between runs of the published configuration, with the reason), then
``tests/golden/volatile.yaml`` (what depends on the wall clock). Exit code 0 when every
compared file agrees, 1 when one differs (each differing row printed) or the build fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import yaml

from latentlab.claims import diff
from latentlab.errors import DataError

PUBLISHED = "published"
PUBLISHED_VOLATILE = "published/volatile.yaml"
GOLDEN_VOLATILE = "tests/golden/volatile.yaml"
STANDS_FOR_CSV = (".png", ".md", ".meta.json")  # a figure's / table's numbers are its CSV


@dataclass
class Target:
    """One published file and the workflow output that rebuilds it."""

    published: Path  # absolute path of the published file
    run: str  # published/{run}/...
    rel: str  # {study}/{name} under the run folder
    build: str  # results/{run}/{rel}, relative to the workflow root
    compare: str  # the file compared, relative to the run folder
    study: str = field(init=False)

    def __post_init__(self):
        self.study = self.rel.split("/", 1)[0]


def find_root(start: Path) -> Path:
    """The workflow root: the first folder up from ``start`` holding a Snakefile and
    ``published/``."""
    for d in [start, *start.parents]:
        if (d / "Snakefile").is_file() and (d / PUBLISHED).is_dir():
            return d
    raise DataError(start, "not inside a latentlab checkout (no Snakefile with published/)")


def _compared_file(rel: str) -> str:
    for suffix in STANDS_FOR_CSV:
        if rel.endswith(suffix):
            return rel[: -len(suffix)] + ".csv"
    return rel


def resolve(path: str | Path, root: Path) -> Target:
    """The :class:`Target` of a published file (its path absolute, or relative to ``root``
    or else to the current folder)."""
    p = Path(path)
    candidates = [p] if p.is_absolute() else [root / p, Path.cwd() / p]
    found = next((c.resolve() for c in candidates if c.exists()), None)
    if found is None:
        raise DataError(path, f"no such published file (under {root / PUBLISHED})")
    try:
        parts = found.relative_to(root / PUBLISHED).parts
    except ValueError:
        raise DataError(
            path, f"not a published file: give a path under {root / PUBLISHED}/RUN/"
        ) from None
    if len(parts) < 3 or found.is_dir():
        raise DataError(path, "name one file of a study or dataset: published/RUN/STUDY/FILE")
    run, rel = parts[0], "/".join(parts[1:])
    compare = _compared_file(rel)
    if not (root / PUBLISHED / run / compare).exists():
        raise DataError(path, f"no published numbers to compare with ({compare} is missing)")
    return Target(found, run, rel, f"results/{run}/{rel}", compare)


def config_for(run: str, root: Path) -> Path:
    """The config file of a run: ``config/{run}.yaml``, or the one whose ``run`` is it."""
    cfgs = sorted((root / "config").glob("*.yaml"))
    preferred = root / "config" / f"{run}.yaml"
    for c in ([preferred] if preferred in cfgs else []) + cfgs:
        data = yaml.safe_load(c.read_text()) or {}
        if isinstance(data, dict) and data.get("run") == run:
            return c
    raise DataError(root / "config", f"no config file with run: {run}")


def snakemake_command(
    config: Path, targets: list[str], cores: int, reuse: bool, dry_run: bool, root: Path
) -> list[str]:
    """The Snakemake call that rebuilds ``targets`` (workflow-relative paths)."""
    cmd = [sys.executable, "-m", "snakemake", "--cores", str(cores)]
    cmd += [f"--configfile={config.relative_to(root)}", "--rerun-incomplete"]
    cmd += ["--force" if reuse else "--forceall"]
    if dry_run:
        cmd += ["--dry-run"]
    return cmd + targets


def _summary_frame(path: Path) -> pd.DataFrame:
    """A JSON file as ``key, value`` rows (nested keys joined by dots), all strings."""

    def flat(obj, prefix=""):
        if isinstance(obj, dict):
            for k, v in obj.items():
                yield from flat(v, f"{prefix}{k}.")
        else:
            yield prefix[:-1], json.dumps(obj) if isinstance(obj, list | type(None)) else str(obj)

    rows = list(flat(json.loads(Path(path).read_text())))
    return pd.DataFrame(rows, columns=["key", "value"], dtype=str)


def read_table(path: Path) -> pd.DataFrame:
    return _summary_frame(path) if path.suffix == ".json" else diff.read_csv(path)


def describe_rule(rule: dict | None) -> str:
    """What a tolerance rule relaxes, in words."""
    if not rule:
        return f"numbers to {diff.RTOL:g} relative, text exactly"
    if rule.get("shape_only"):
        return "rows and columns only (every number depends on the run's timing)"
    parts = [f"numbers to {rule.get('rtol', diff.RTOL):g} relative"]
    if "atol" in rule:
        parts[-1] += f" / {rule['atol']:g} absolute"
    if rule.get("columns"):
        parts.append(f"not compared: {', '.join(rule['columns'])}")
    for col, values in (rule.get("rows") or {}).items():
        parts.append(f"rows not compared: {col} in {values}")
    if rule.get("machine_sensitive"):
        parts.append("sampler numbers may move (verdicts exact)")
    return "; ".join(parts)


def _provenance(run_dir: Path, rel: str) -> dict:
    stem = rel[: -len(".csv")] if rel.endswith(".csv") else rel
    meta = run_dir / f"{stem}.meta.json"
    if not meta.exists():
        return {}
    return json.loads(meta.read_text()).get("provenance", {})


@dataclass
class Outcome:
    rel: str
    status: str  # SAME, MOVED, DIFF, MISSING
    rule: dict | None
    lines: list[str]


def compare_one(published_run: Path, built_run: Path, rel: str, volatiles, strict) -> Outcome:
    """Compare ``rel`` of the published run with the rebuilt one."""
    rule = diff.rule_for(rel, *volatiles)
    built = built_run / rel
    if not built.exists():
        return Outcome(rel, "MISSING", rule, [f"the rebuild did not write {built}"])
    problems, moved = diff.diff_frames(
        read_table(published_run / rel),
        read_table(built),
        rule,
        names=("published", "rebuilt"),
        lenient=not strict,
    )
    if problems:
        return Outcome(rel, "DIFF", rule, problems + moved)
    if moved:
        return Outcome(rel, "MOVED", rule, moved)
    return Outcome(rel, "SAME", rule, [])


def rebuilt_since(built_run: Path, study: str, published_run: Path, t0: float) -> list[str]:
    """The study's published CSVs whose rebuilt copy was written after ``t0``."""
    out = []
    for p in sorted((published_run / study).glob("*.csv")):
        b = built_run / study / p.name
        if b.exists() and b.stat().st_mtime >= t0:
            out.append(f"{study}/{p.name}")
    return out


def report(outcomes: list[Outcome], out=None) -> int:
    """Print the comparison; the number of files that differ or are missing."""
    out = out or sys.stdout
    width = max(len(o.rel) for o in outcomes)
    for o in outcomes:
        print(f"{o.status:8s}{o.rel:{width}s}  ({describe_rule(o.rule)})", file=out)
        for line in o.lines:
            print(f"          {line}", file=out)
    bad = sum(o.status in ("DIFF", "MISSING") for o in outcomes)
    moved = sum(o.status == "MOVED" for o in outcomes)
    print(
        f"rebuild: {len(outcomes) - bad}/{len(outcomes)} files agree with the published run"
        + (f" ({moved} with sampler numbers moved, verdicts equal)" if moved else ""),
        file=out,
    )
    return bad


def _provenance_lines(targets: list[Target], root: Path, commit: str) -> list[str]:
    lines = []
    for t in targets:
        prov = _provenance(root / PUBLISHED / t.run, t.compare)
        if not prov:
            continue
        pub = str(prov.get("commit", "unknown"))
        cpu = prov.get("machine", {}).get("cpu", "unknown")
        line = f"{t.rel}: published by commit {pub[:12]} on {cpu}"
        if "unknown" not in (pub, commit) and pub.split("+")[0] != commit.split("+")[0]:
            line += (
                f"; this checkout is {commit[:12]}: a difference may come from the code since "
                f"(git log {pub[:12]}..HEAD -- src/latentlab/studies/{t.study} rules)"
            )
        lines.append(line)
    return lines


def run_snakemake(cmd: list[str], root: Path) -> int:
    """Run the Snakemake call in the workflow folder; its exit code."""
    return subprocess.run(cmd, cwd=root, check=False).returncode


def run(args) -> int:
    from latentlab.provenance import machine, source_commit

    first = Path(args.paths[0])
    start = first.resolve().parent if first.exists() else Path.cwd()
    root = find_root(Path(args.root).resolve() if args.root else start)
    targets = [resolve(p, root) for p in args.paths]
    runs = {t.run for t in targets}
    if len(runs) > 1:
        raise DataError(args.paths[0], f"name files of one published run at a time, not {runs}")
    run_name = runs.pop()
    config = config_for(run_name, root)
    cmd = snakemake_command(
        config, [t.build for t in targets], args.cores, args.reuse, args.dry_run, root
    )
    print("rebuild: " + " ".join(["snakemake", *cmd[3:]]), flush=True)
    if not os.environ.get("LATENTLAB_MIRROR"):
        print("rebuild: LATENTLAB_MIRROR is not set: datasets come from upstream", flush=True)
    t0 = time.time()
    rc = run_snakemake(cmd, root)
    seconds = time.time() - t0
    if rc != 0:
        print(f"rebuild: snakemake failed (exit code {rc}): nothing compared", file=sys.stderr)
        return 1
    if args.dry_run:
        return 0
    print(f"rebuild: built in {seconds:.0f} s on {machine()['cpu']} ({machine()['cores']} cores)")
    for line in _provenance_lines(targets, root, source_commit(root)):
        print(f"rebuild: {line}")
    published_run, built_run = root / PUBLISHED / run_name, root / "results" / run_name
    volatiles = [diff.load_volatile(root / PUBLISHED_VOLATILE)]
    volatiles.append(diff.load_volatile(root / GOLDEN_VOLATILE))
    rels = list(dict.fromkeys(t.compare for t in targets))
    for study in dict.fromkeys(t.study for t in targets):
        if study != "data":
            rels += [r for r in rebuilt_since(built_run, study, published_run, t0) if r not in rels]
    outcomes = [compare_one(published_run, built_run, r, volatiles, args.strict) for r in rels]
    return 1 if report(outcomes) else 0


def register(sub) -> None:
    p = sub.add_parser(
        "rebuild",
        help="rebuild published figures/tables from the data and compare with the published ones",
        description=__doc__.split("\n\n")[0],
    )
    p.add_argument("paths", nargs="+", help="published files, e.g. published/real/scvb0/fig4_3.png")
    p.add_argument("--cores", type=int, default=2)
    p.add_argument(
        "--reuse",
        action="store_true",
        help="rerun only the targets' own jobs, over intermediate files already built",
    )
    p.add_argument("--dry-run", "-n", action="store_true", help="show the jobs; build nothing")
    p.add_argument(
        "--strict",
        action="store_true",
        help="compare sampler numbers too (a rebuild on the machine that published)",
    )
    p.add_argument("--root", help="the workflow's folder (default: found from the current one)")
    p.set_defaults(func=run)
