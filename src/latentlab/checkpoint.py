"""A long single fit's checkpoint: its state saved atomically every few minutes beside the
job's output, so that a job killed mid-way (out of time on a cluster, cancelled) resumes
where it stopped and ends with the same bits as an uninterrupted run (issue 39).

The state is whatever the fit needs to continue (the model's attributes, its random
generator, the loop's position), pickled to ``<output>.ckpt`` through a temporary file
and a rename. Like :class:`latentlab.outputs.UnitStore` the file is stamped with the job's
key (study, step, run, seed, wildcards, settings, inputs' sha256, source commit): a
checkpoint with another stamp, or written from a ``+dirty`` or unknown commit, is never
read. ``LATENTLAB_CHECKPOINT_SECONDS`` sets the interval between saves (default 600;
0 saves at every opportunity, which the tests and the SLURM check use)."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import time
import uuid
from pathlib import Path

ENV = "LATENTLAB_CHECKPOINT_SECONDS"
DEFAULT_SECONDS = 600.0


def interval() -> float:
    """Seconds between saves: ``LATENTLAB_CHECKPOINT_SECONDS`` or 600."""
    from latentlab.errors import ConfigError

    raw = os.environ.get(ENV)
    if raw is None or raw == "":
        return DEFAULT_SECONDS
    try:
        v = float(raw)
    except ValueError:
        raise ConfigError(ENV, f"not a number: {raw!r}") from None
    if v < 0:
        raise ConfigError(ENV, f"must be >= 0, got {v}")
    return v


def stamp(key: dict) -> str:
    """sha256 of the key; a ``+dirty`` or unknown commit gets a fresh random stamp, so
    its checkpoints are never reused."""
    from latentlab.outputs import _jsonable

    blob = json.dumps(_jsonable(key), sort_keys=True, default=str)
    commit = str(key.get("commit", "unknown"))
    if commit == "unknown" or commit.endswith("+dirty"):
        blob += uuid.uuid4().hex
    return hashlib.sha256(blob.encode()).hexdigest()


class Checkpoint:
    """``load()`` the saved state (None when there is none for this key), ``due()`` when
    the interval has passed since the last save (or the start), ``save(state)``,
    ``clear()`` once the job's output is written. ``every`` overrides the environment."""

    def __init__(self, output: str | Path, key: dict, every: float | None = None):
        output = Path(output)
        self.path = output.with_name(output.name + ".ckpt")
        self.stamp = stamp(key)
        self.every = interval() if every is None else float(every)
        self._last = time.monotonic()
        self.saves = 0

    def load(self):
        """The state of the last save of this job, or None (absent, another job's stamp,
        or unreadable: a partial file is never left, but a foreign one may be)."""
        if not self.path.exists():
            return None
        try:
            with open(self.path, "rb") as f:
                blob = pickle.load(f)
        except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError):
            return None
        if not isinstance(blob, dict) or blob.get("stamp") != self.stamp:
            return None
        return blob["state"]

    def due(self) -> bool:
        return time.monotonic() - self._last >= self.every

    def save(self, state) -> None:
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        tmp.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            pickle.dump({"stamp": self.stamp, "state": state}, f, protocol=pickle.HIGHEST_PROTOCOL)
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(self.path)
        self._last = time.monotonic()
        self.saves += 1

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


class NoCheckpoint:
    """The do-nothing checkpoint (a fit called without one)."""

    saves = 0

    def load(self):
        return None

    def due(self) -> bool:
        return False

    def save(self, state) -> None:
        pass

    def clear(self) -> None:
        pass
