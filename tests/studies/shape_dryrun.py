"""Helper for the per-study test that a claims tolerance change reruns only the claims:
the shell command of every job of ``snakemake -n`` (with ``--forceall``, so the answer does
not depend on what is on disk), by rule; Snakemake reruns a job whose command (its
``--params``) changed."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def job_commands(target: str, override: dict | None, tmp_path: Path) -> dict[str, list[str]]:
    """{rule: sorted shell commands} of the dry run of ``target`` on the smoke config, with
    ``override`` (a config fragment) written to a file given after config/config.yaml."""
    args = ["snakemake", "-n", "-p", "--forceall", "--nolock", "--rerun-incomplete", "--cores", "1"]
    if override is not None:
        extra = tmp_path / "override.yaml"
        extra.write_text(yaml.safe_dump(override))
        args += ["--configfile", "config/config.yaml", str(extra)]
    args += ["--", target]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), MPLBACKEND="Agg")
    out = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:] + out.stdout[-3000:]
    jobs: dict[str, list[str]] = {}
    rule = None
    for line in out.stdout.splitlines():
        m = re.match(r"^(?:local)?rule (\S+):$", line.strip())
        if m:
            rule = m.group(1)
        elif line.startswith("Shell command: ") and rule:
            jobs.setdefault(rule, []).append(line[len("Shell command: ") :])
    return {r: sorted(c) for r, c in jobs.items()}


def rules_changed(target: str, override: dict, tmp_path: Path) -> set[str]:
    base = job_commands(target, None, tmp_path)
    new = job_commands(target, override, tmp_path)
    assert set(base) == set(new)
    return {r for r in base if base[r] != new[r]}
