"""Writing a study's outputs the way docs/design.md names them.

Every figure is written with the CSV of the numbers it plots, every table as CSV and
Markdown, and both with a ``.meta.json`` sidecar recording the settings that produced
them (config values, seeds, the ambiguity choices). Writes are atomic: a killed job
never leaves a half-written output that Snakemake would take as done.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd


def _atomic_path(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.with_name(f".{path.name}.tmp{os.getpid()}{path.suffix}")


def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, Path):
        return str(x)
    return x


def write_json(obj, path: str | Path) -> None:
    path = Path(path)
    tmp = _atomic_path(path)
    tmp.write_text(json.dumps(_jsonable(obj), indent=2, sort_keys=True) + "\n")
    tmp.replace(path)


def write_csv(df: pd.DataFrame, path: str | Path) -> None:
    path = Path(path)
    tmp = _atomic_path(path)
    df.to_csv(tmp, index=False)
    tmp.replace(path)


def _check_finite(df: pd.DataFrame, path: Path, allow_nan: bool) -> None:
    if allow_nan:
        return
    num = df.select_dtypes(include=[np.number])
    if len(num.columns) and not np.isfinite(num.to_numpy(dtype=float)).all():
        cols = [c for c in num.columns if not np.isfinite(num[c].to_numpy(dtype=float)).all()]
        raise FloatingPointError(f"{path}: non-finite values in columns {cols}; not written")


def write_table(
    df: pd.DataFrame,
    csv_path: str | Path,
    md_path: str | Path | None = None,
    meta: dict | None = None,
    allow_nan: bool = False,
    floatfmt: str = ".4g",
) -> None:
    """Table as CSV (+ Markdown, + metadata). Refuses NaN/inf unless ``allow_nan``."""
    csv_path = Path(csv_path)
    _check_finite(df, csv_path, allow_nan)
    write_csv(df, csv_path)
    if md_path is not None:
        md_path = Path(md_path)
        tmp = _atomic_path(md_path)
        tmp.write_text(df.to_markdown(index=False, floatfmt=floatfmt) + "\n")
        tmp.replace(md_path)
    if meta is not None:
        write_json(meta, csv_path.with_suffix(".meta.json"))


def write_png(fig, png_path: str | Path) -> dict:
    """Check ``fig`` (:mod:`latentlab.plotting.check`: the figure rule) and write it as PNG;
    returns the check's record for the metadata (mode, problems, rules, datasets).

    Under ``LATENTLAB_FIGCHECK=error`` (the default) a failing figure is not written and the
    error lists its problems; under ``warn`` it is written and its problems are logged and
    recorded (``figure_check`` in the metadata); ``off`` skips the check.
    """
    import logging

    import matplotlib.pyplot as plt

    from latentlab.plotting.check import (
        FigureCheckError,
        check_mode,
        check_record,
        format_problems,
    )

    png_path = Path(png_path)
    mode = check_mode()
    record = check_record(fig, mode)
    problems = record["problems"]
    if problems:
        msg = format_problems(str(png_path), problems)
        if mode == "error":
            plt.close(fig)
            raise FigureCheckError(
                msg + "\n(LATENTLAB_FIGCHECK=warn writes it anyway, to look at it)"
            )
        logging.getLogger("latentlab.figures").warning(msg)
    tmp = _atomic_path(png_path)
    fig.savefig(tmp, dpi=120, bbox_inches="tight", format="png")
    plt.close(fig)
    tmp.replace(png_path)
    return record


def write_figure(
    fig,
    png_path: str | Path,
    df: pd.DataFrame,
    csv_path: str | Path,
    meta: dict | None = None,
    allow_nan: bool = False,
) -> None:
    """Figure as PNG with the CSV of its numbers (+ metadata); NaN refused as in tables.

    The figure is checked before anything is written (:func:`write_png`); the check's
    record goes into the metadata (``figure_check``).
    """
    from latentlab.plotting.check import check_mode

    png_path, csv_path = Path(png_path), Path(csv_path)
    _check_finite(df, csv_path, allow_nan)
    check_mode()  # a bad LATENTLAB_FIGCHECK stops before anything is written
    record = write_png(fig, png_path)
    write_csv(df, csv_path)
    if meta is not None:
        meta = {**meta, "figure_check": record}
        write_json(meta, csv_path.with_suffix(".meta.json"))


class UnitStore:
    """The finished units of a long job (one fit of a sweep, say), kept beside its output in
    ``<output>.units/`` so that when the job is interrupted (killed, or out of time on a
    cluster) its rerun continues where it stopped instead of starting again.

    A unit is a JSON row, written atomically by whichever process finished it. The store is
    stamped with ``key`` (the step's settings, seeds, inputs and source commit): a store
    with another stamp is another job's and is emptied, and so is one whose commit is
    ``+dirty`` or unknown (its code cannot be named, so its units are never reused).
    :meth:`close` removes the store once the output is written."""

    def __init__(self, output: str | Path, key: dict):
        import hashlib
        import shutil
        import uuid

        output = Path(output)
        self.dir = output.with_name(output.name + ".units")
        blob = json.dumps(_jsonable(key), sort_keys=True, default=str)
        commit = str(key.get("commit", "unknown"))
        if commit == "unknown" or commit.endswith("+dirty"):
            blob += uuid.uuid4().hex
        self.stamp = hashlib.sha256(blob.encode()).hexdigest()
        stamp_file = self.dir / "STAMP"
        if self.dir.exists() and (
            not stamp_file.exists() or stamp_file.read_text().strip() != self.stamp
        ):
            shutil.rmtree(self.dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        stamp_file.write_text(self.stamp + "\n")

    def path(self, name: str) -> Path:
        return self.dir / f"{name}.json"

    def get(self, name: str) -> dict | None:
        """The finished unit ``name``, or None."""
        p = self.path(name)
        return json.loads(p.read_text()) if p.exists() else None

    def close(self) -> None:
        import shutil

        shutil.rmtree(self.dir, ignore_errors=True)


def write_unit(path: str | Path, row: dict) -> dict:
    """Write one finished unit (:class:`UnitStore`; atomic, from any worker) and return it."""
    path = Path(path)
    tmp = _atomic_path(path)
    tmp.write_text(json.dumps(_jsonable(row)))  # in the row's order: the CSV's columns
    tmp.replace(path)
    return row
