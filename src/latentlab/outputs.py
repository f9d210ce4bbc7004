"""Writing a study's outputs the way DESIGN.md names them.

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
    """Check ``fig`` (:mod:`latentlab.plotting.check`: no overlapping text, labelled axes,
    no empty panel) and write it as PNG; returns the check's record for the metadata.

    Under ``LATENTLAB_FIGCHECK=error`` (the default) a failing figure is not written and the
    error lists its problems; under ``warn`` it is written and its problems are logged and
    recorded (``figure_check`` in the metadata); ``off`` skips the check.
    """
    import logging

    import matplotlib.pyplot as plt

    from latentlab.plotting.check import (
        FigureCheckError,
        check_mode,
        figure_problems,
        format_problems,
    )

    png_path = Path(png_path)
    mode = check_mode()
    problems = figure_problems(fig) if mode != "off" else []
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
    return {"mode": mode, "problems": problems}


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
