"""Small helpers shared by the CLI modules."""

from __future__ import annotations

import argparse
import json


def add_params_arg(parser: argparse.ArgumentParser) -> None:
    """``--params JSON``: the rule's parameters (a JSON object, usually the study's config
    section plus ``run`` and ``seed``), passed as one shell-quoted string by the rule."""
    parser.add_argument(
        "--params", type=json.loads, default={}, help="JSON object of the step's parameters"
    )


def write_generated(text: str, args: argparse.Namespace, made_by: str, command: str) -> int:
    """Write a generated file (``args.root`` / ``args.out``), or with ``args.check`` say
    whether the committed one is ``text``: exit status 1, naming the file, when it is not.
    ``made_by`` says what gives the file ("the settings give"), ``command`` what writes it."""
    from pathlib import Path

    out = Path(args.root) / args.out
    if args.check:
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            print(f"{args.out} is not what {made_by}: run `{command}`")
            return 1
        print(f"{args.out} is current")
        return 0
    out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(text.splitlines())} lines)")
    return 0


def add_generated_args(parser: argparse.ArgumentParser, out: str, func) -> None:
    """``--root``, ``--out`` (default ``out``) and ``--check`` of a command that writes a
    generated file with :func:`write_generated`; ``func`` runs it."""
    parser.add_argument("--root", default=".", help="repository root (default: .)")
    parser.add_argument("--out", default=out, help=f"relative to the root (default: {out})")
    parser.add_argument("--check", action="store_true", help="fail if the file is not current")
    parser.set_defaults(func=func)
