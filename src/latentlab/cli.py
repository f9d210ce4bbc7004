"""Command line: ``python -m latentlab <group> <command> ...``.

Groups are discovered, so a study adds commands without editing this file:

* ``latentlab.data.cli``                 -> ``latentlab data ...``
* ``latentlab.claims.cli``               -> ``latentlab claims ...`` / ``report``
* ``latentlab.figures``                  -> ``latentlab figures check|redraw``
* ``latentlab.rebuild``                  -> ``latentlab rebuild PUBLISHED_FILE ...``
* ``latentlab.ladder``                   -> ``latentlab ladder collect|bench`` (rules/ladder.smk)
* ``latentlab.readings``                 -> ``latentlab readings collect|list`` (rules/readings.smk)
* ``latentlab.config_reference``         -> ``latentlab config reference`` (config/README.md)
* ``latentlab.studies_reference``        -> ``latentlab docs studies`` (docs/studies.md)
* ``latentlab.plan``                     -> ``latentlab plan --configfile=FILE --nodes N ...``
* ``latentlab.costs``                    -> ``latentlab costs [--write]`` (config/costs.csv)
* ``latentlab.studies.<study>.cli``      -> ``latentlab <study> ...``

Each such module defines ``register(subparsers)`` that adds one parser for its group
(with its own sub-commands) and sets ``func`` on every leaf parser. Heavy imports
(numba kernels) belong inside the handlers so that ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys

import latentlab

CORE_GROUPS = [
    "latentlab.data.cli",
    "latentlab.claims.cli",
    "latentlab.figures",
    "latentlab.rebuild",
    "latentlab.ladder",
    "latentlab.readings",
    "latentlab.config_reference",
    "latentlab.studies_reference",
    "latentlab.plan",
    "latentlab.costs",
]


def _group_modules() -> list[str]:
    mods = list(CORE_GROUPS)
    import latentlab.studies as studies

    for info in sorted(pkgutil.iter_modules(studies.__path__), key=lambda m: m.name):
        if info.ispkg:
            mods.append(f"latentlab.studies.{info.name}.cli")
    return mods


def _wanted(argv: list[str] | None) -> tuple[str | None, str | None]:
    """The group and step the command line names (its first two words; the top-level
    options take no value), or None."""
    words = [a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-")]
    return (words[0] if words else None), (words[1] if len(words) > 1 else None)


CORE_BY_NAME = {
    "data": "latentlab.data.cli",
    "claims": "latentlab.claims.cli",
    "figures": "latentlab.figures",
    "ladder": "latentlab.ladder",
    "readings": "latentlab.readings",
    "config": "latentlab.config_reference",
    "docs": "latentlab.studies_reference",
    "plan": "latentlab.plan",
    "costs": "latentlab.costs",
}


def _study_module(group: str | None) -> str | None:
    """The one module of ``group``: a core group's, or ``latentlab.studies.<group>.cli``
    when ``group`` names a study; else None."""
    if group in CORE_BY_NAME:
        return CORE_BY_NAME[group]
    if not group or not group.isidentifier():
        return None
    from importlib.util import find_spec

    name = f"latentlab.studies.{group}"
    if find_spec(name) is None or find_spec(f"{name}.cli") is None:
        return None
    return f"{name}.cli"


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with ``argv`` naming a study and a step (``latentlab hdp_pcvb0
    perplexity ...``), only that study's group is built, importing only the modules up to
    the one holding the step (each Snakemake job is one such process: importing every
    study costs seconds of CPU per job). Anything else builds every group."""
    group, step = _wanted(argv) if argv is not None else (None, None)
    only = _study_module(group)
    parser = argparse.ArgumentParser(
        prog="latentlab",
        description="latentlab: data preparation and study steps called by the Snakemake rules. "
        "Each group has its own --help.",
    )
    parser.add_argument("--version", action="version", version=latentlab.__version__)
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="group", metavar="GROUP")
    if only in CORE_GROUPS:
        importlib.import_module(only).register(sub)
        return parser
    if only is not None:
        importlib.import_module(only).register(sub, step=step)
        return parser
    for name in _group_modules():
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name == name:
                continue
            raise
        mod.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    from latentlab.errors import LatentlabError

    try:
        rc = args.func(args)
    except LatentlabError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return int(rc or 0)
