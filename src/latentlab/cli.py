"""Command line: ``python -m latentlab <group> <command> ...``.

Groups are discovered, so a study adds commands without editing this file:

* ``latentlab.data.cli``                 -> ``latentlab data ...``
* ``latentlab.claims.cli``               -> ``latentlab claims ...`` / ``report``
* ``latentlab.plotting.cli``             -> ``latentlab figures check RUN_DIR``
* ``latentlab.rebuild``                  -> ``latentlab rebuild PUBLISHED_FILE ...``
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
    "latentlab.plotting.cli",
    "latentlab.rebuild",
]


def _group_modules() -> list[str]:
    mods = list(CORE_GROUPS)
    import latentlab.studies as studies

    for info in sorted(pkgutil.iter_modules(studies.__path__), key=lambda m: m.name):
        if info.ispkg:
            mods.append(f"latentlab.studies.{info.name}.cli")
    return mods


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="latentlab",
        description="latentlab: data preparation and study steps called by the Snakemake rules. "
        "Each group has its own --help.",
    )
    parser.add_argument("--version", action="version", version=latentlab.__version__)
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="group", metavar="GROUP")
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
    parser = build_parser()
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
