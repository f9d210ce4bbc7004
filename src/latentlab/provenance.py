"""Where an output came from: source commit, config hash and machine (``.meta.json``).

The workflow computes the commit and the config hash once at start-up
(``rules/common.smk``) and hands them to every job through environment variables, so a
job on a cluster node records the same values as the head process; the machine is the
one the job ran on.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
from functools import lru_cache
from pathlib import Path

COMMIT_ENV = "LATENTLAB_COMMIT"
CONFIG_ENV = "LATENTLAB_CONFIG_SHA256"
# paths whose uncommitted changes make a run's outputs differ from the commit's code
SOURCE_PATHS = ("src", "rules", "config", "Snakefile", "scripts")


def config_sha256(config: dict) -> str:
    """SHA-256 of the merged config as canonical JSON, without ``data.mirror`` (a local
    path to the same checksummed files, which does not change any result)."""
    cfg = json.loads(json.dumps(config, default=str))
    if isinstance(cfg.get("data"), dict):
        cfg["data"].pop("mirror", None)
    blob = json.dumps(cfg, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()


def config_sha256_from_files(paths: list[str | Path], schema: str | Path) -> str:
    """:func:`config_sha256` of config files merged in order, completed from their base and
    validated against the schema (its defaults filled in), as the workflow does at start-up
    (latentlab.runconfig; ``schema`` is ``<root>/config/schema.yaml``)."""
    import yaml
    from snakemake.utils import update_config

    from latentlab import runconfig

    cfg: dict = {}
    for p in paths:
        update_config(cfg, yaml.safe_load(Path(p).read_text()) or {})
    root = Path(schema).resolve().parent.parent
    return config_sha256(runconfig.load(cfg, [str(p) for p in paths], root))


def source_commit(root: str | Path) -> str:
    """``git rev-parse HEAD`` of ``root`` with ``+dirty`` when the source has uncommitted
    changes; ``unknown`` outside a git checkout."""

    def git(*args):
        return subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
        ).stdout.strip()

    try:
        head = git("rev-parse", "HEAD")
        dirty = git("status", "--porcelain", "--", *SOURCE_PATHS)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


@lru_cache(maxsize=1)
def machine() -> dict:
    """The machine a job ran on: CPU model, cores, memory, OS and library versions (read
    from the installed distributions' metadata: importing numba and scipy only to name their
    versions cost every figure and table job about a CPU second, issue 23)."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gb = None
    try:
        mem_gb = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        pass
    return {
        "host": platform.node(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "mem_gb": mem_gb,
        "os": platform.platform(),
        "python": platform.python_version(),
        "numpy": _version("numpy"),
        "scipy": _version("scipy"),
        "numba": _version("numba"),
    }


def _version(dist: str) -> str:
    """Installed version of distribution ``dist`` (``"not installed"`` if absent)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "not installed"


def provenance() -> dict:
    """Commit and config hash from the workflow's environment, and this machine."""
    return {
        "commit": os.environ.get(COMMIT_ENV, "unknown"),
        "config_sha256": os.environ.get(CONFIG_ENV, "unknown"),
        "machine": dict(machine()),
    }
