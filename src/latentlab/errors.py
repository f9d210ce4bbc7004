"""Exceptions with messages that name the file (or setting) and the problem."""

from __future__ import annotations

from pathlib import Path


class LatentlabError(Exception):
    """Base class of every error latentlab raises on purpose."""


class DataError(LatentlabError, ValueError):
    """Bad input data: the message names the file and what is wrong with it."""

    def __init__(self, path: str | Path | None, problem: str):
        self.path = None if path is None else str(path)
        self.problem = problem
        where = f"{self.path}: " if self.path else ""
        super().__init__(f"{where}{problem}")


class ChecksumError(DataError):
    """A file's sha256 differs from the pinned one."""

    def __init__(self, path: str | Path, expected: str, actual: str, what: str = "sha256"):
        self.expected = expected
        self.actual = actual
        super().__init__(
            path,
            f"{what} mismatch: expected {expected}, got {actual}. "
            "The file is corrupt, truncated or not the pinned version; delete it and fetch again.",
        )


class ConfigError(LatentlabError, ValueError):
    """A bad setting: the message names the key and the allowed values."""

    def __init__(self, key: str, problem: str):
        self.key = key
        super().__init__(f"config {key}: {problem}")


class MissingInput(ConfigError):
    """A step asked for an input the rule did not give (in a ladder rung's partial run, the
    claims that need it become not_run rows)."""

    def __init__(self, where: str, name: str, given):
        super().__init__(where, f"no input named {name!r} (the rule gave {sorted(given)})")
        self.name = name


class DivergenceError(LatentlabError, FloatingPointError):
    """A run produced a non-finite statistic; names the iteration and the statistic."""

    def __init__(self, statistic: str, iteration: int, detail: str = ""):
        self.statistic = statistic
        self.iteration = iteration
        extra = f" ({detail})" if detail else ""
        super().__init__(f"non-finite value in {statistic} at iteration {iteration}{extra}")
