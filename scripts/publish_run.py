"""Finish a published run (latentlab.claims.publish): bench_targets.csv per study,
PUBLISHED.json, the run's README.md (verdicts per study and data kind, misses by cause, run
times: published/real/README.md) and the verdict counts per study in the repository's
README.md (between its published-overview markers); or check that all of it is current.

    python scripts/publish_run.py --copy-from results/real scvb0 tir
                                                   # publish studies the workflow just
                                                   # rebuilt (scripts/run_real.sh does)
    python scripts/publish_run.py                  # after scripts/run_real.sh
    python scripts/publish_run.py --check          # what CI runs: exit 1 on any problem
    python scripts/publish_run.py --stamp-commit C --stamp-config config/real.yaml
                                                   # outputs of a run made before the
                                                   # workflow recorded provenance
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from latentlab.bench_targets import write as write_bench_targets
from latentlab.claims import publish
from latentlab.provenance import COMMIT_ENV, config_sha256_from_files, source_commit

ROOT = Path(__file__).resolve().parents[1]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--run-dir", default="published/real", help="the published run")
    p.add_argument(
        "--copy-from",
        metavar="DIR",
        help="copy the named studies' outputs and every dataset summary from the workflow's "
        "run folder DIR (results/real) into --run-dir, then stop",
    )
    p.add_argument("studies", nargs="*", help="with --copy-from: the studies to publish")
    p.add_argument("--benchmarks", default=None, help="default: benchmarks/{run}")
    p.add_argument(
        "--readme",
        default="README.md",
        help="the repository README whose marked block gets the verdict counts per study",
    )
    p.add_argument("--check", action="store_true", help="only check; write nothing")
    p.add_argument("--stamp-commit")
    p.add_argument(
        "--stamp-config",
        nargs="+",
        metavar="YAML",
        help="the run's config files (their hash is stamped)",
    )
    p.add_argument("--stamp-schema", default="config/schema.yaml")
    a = p.parse_args(argv)
    run_dir = ROOT / a.run_dir
    readme = ROOT / a.readme
    if a.copy_from:
        for s in a.studies:
            n = len(publish.copy_study(ROOT / a.copy_from, run_dir, s))
            print(f"published {n} files of {s} into {a.run_dir}/{s}")
        n = len(publish.copy_summaries(ROOT / a.copy_from, run_dir))
        print(f"published {n} dataset summaries into {a.run_dir}/data")
        return 0
    if a.studies:
        p.error("studies are named only with --copy-from")
    os.environ.setdefault(COMMIT_ENV, source_commit(ROOT))
    run_readme = run_dir / "README.md"
    page = publish.run_readme(run_dir, docs=os.path.relpath(ROOT / "docs", run_dir))
    block = publish.readme_summary(run_dir)
    text = readme.read_text()
    if a.check:
        problems = publish.check_published(run_dir)
        if not run_readme.exists() or run_readme.read_text() != page:
            problems.append(f"{run_readme}: missing or stale (run scripts/publish_run.py)")
        if publish.replace_block(text, block, readme) != text:
            problems.append(f"{readme}: verdict counts are stale (run scripts/publish_run.py)")
        for line in problems:
            print(line, file=sys.stderr)
        print(f"{run_dir}: {len(publish.study_dirs(run_dir))} studies, {len(problems)} problems")
        return 1 if problems else 0
    bench_root = Path(a.benchmarks) if a.benchmarks else ROOT / "benchmarks" / run_dir.name
    if a.stamp_commit:
        sha = (
            config_sha256_from_files(a.stamp_config, a.stamp_schema)
            if a.stamp_config
            else "unknown"
        )
        n = publish.stamp_provenance(run_dir, a.stamp_commit, sha)
        print(f"stamped provenance into {n} .meta.json files")
    for d in publish.study_dirs(run_dir):
        if (bench_root / d.name).is_dir():
            # the study's jobs share one commit and config hash: bench_targets.csv takes them
            os.environ.update(publish.run_provenance_env(d))
            write_bench_targets(bench_root / d.name, d / "bench_targets.csv", study=d.name)
    publish.write_manifest(run_dir)
    run_readme.write_text(page)
    readme.write_text(publish.replace_block(text, block, readme))
    problems = publish.check_published(run_dir)
    for line in problems:
        print(line, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
