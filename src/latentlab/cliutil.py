"""Small helpers shared by the CLI modules, and the console message of a failed job (the
Snakefile's ``onerror``)."""

from __future__ import annotations

import argparse
import json
import re


def add_params_arg(parser: argparse.ArgumentParser) -> None:
    """``--params JSON``: the rule's parameters (a JSON object, usually the study's config
    section plus ``run`` and ``seed``), passed as one shell-quoted string by the rule."""
    parser.add_argument(
        "--params", type=json.loads, default={}, help="JSON object of the step's parameters"
    )


def name_value(item: str, what: str = "NAME=PATH") -> tuple[str, str]:
    """``NAME=VALUE`` of a command-line list (``--ledger rung=path``), or a ConfigError
    naming ``what`` was expected."""
    from latentlab.errors import ConfigError

    name, sep, value = item.partition("=")
    if not sep or not name:
        raise ConfigError("command line", f"expected {what}, got {item!r}")
    return name, value


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


# ---------------------------------------------------------------- a failed job's message
# Snakemake's report of a failed job names its log: "    log: PATH (check log file(s) for
# error details)" (several logs: comma-separated), in its own log and on the console.
_FAILED_LOG = re.compile(r"^\s*log: (.+?) \(check log file\(s\) for error details\)\s*$", re.M)
TAIL_LINES = 6
TAIL_WIDTH = 300


def logs_of_failed_jobs(snakemake_log: str) -> list[str]:
    """The log files of the jobs a Snakemake log reports as failed, in order, once each."""
    out: list[str] = []
    for m in _FAILED_LOG.finditer(snakemake_log):
        for p in m.group(1).split(", "):
            if p and p not in out:
                out.append(p)
    return out


def why_it_failed(log_text: str, max_lines: int = TAIL_LINES) -> list[str]:
    """The lines of a failed job's log that say why: from the last ``error: `` line (how
    ``python -m latentlab`` reports bad input: the file or key and the problem) to the end;
    else a traceback's last lines (where, and the exception); else the log's last lines."""
    lines = [ln.rstrip() for ln in log_text.splitlines() if ln.strip()]
    errors = [i for i, ln in enumerate(lines) if ln.startswith("error: ")]
    if errors:
        tail = lines[errors[-1] :]
    elif any(ln.startswith("Traceback (most recent call last)") for ln in lines):
        tail = lines[-3:]
    else:
        tail = lines
    tail = tail[-max_lines:]
    return [ln if len(ln) <= TAIL_WIDTH else ln[: TAIL_WIDTH - 3] + "..." for ln in tail]


def failed_jobs_message(log_paths: list[str]) -> str:
    """What each failed job's log says about its failure, for the console (the Snakefile's
    ``onerror``): Snakemake itself only names the log files."""
    from pathlib import Path

    if not log_paths:
        return ""
    out = ["Why the failed job(s) stopped (the end of each log; the whole log is the file):"]
    for p in log_paths:
        path = Path(p)
        if not path.is_file():
            out += [f"  {p}: not written (the job stopped before its command ran)"]
            continue
        lines = why_it_failed(path.read_text(encoding="utf-8", errors="replace"))
        out += [f"  {p}:"] + [f"    {ln}" for ln in (lines or ["(empty)"])]
    return "\n".join(out)
