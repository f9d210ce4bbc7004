"""Shared figure style: call :func:`figure` instead of ``plt.subplots`` in studies.

A figure step also says what the figure check (:mod:`latentlab.plotting.check`) cannot
guess: :func:`name_dataset` (the data shown, which the figure must name) and
:func:`declare_shared` (panels the document draws on one axis).

Importing this module selects the non-interactive Agg backend and sets the project's
matplotlib style for the process (every study step is its own process), so labels and
legends added after :func:`figure` returns get the same style.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from latentlab.plotting.check import declare_shared, name_dataset  # noqa: E402, F401

STYLE = {
    "figure.dpi": 120,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "font.size": 9,
    "legend.fontsize": 8,
    "legend.frameon": False,
}
plt.rcParams.update(STYLE)


def figure(nrows: int = 1, ncols: int = 1, width: float = 4.0, height: float = 3.0, **kw):
    """A (fig, axes) pair in the project style; ``width`` and ``height`` are per panel (in).

    The layout is matplotlib's constrained layout unless ``layout=`` says otherwise: it
    keeps titles, labels and colour bars of neighbouring panels apart (docs/design.md), which
    :mod:`latentlab.plotting.check` verifies on every written figure. A later
    ``fig.tight_layout()`` replaces it."""
    kw.setdefault("layout", "constrained")
    return plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), **kw)


def log_ticks(ax, values, extra=(), axis: str = "x", min_ratio: float = 2.0) -> None:
    """Label a log axis at the ``values`` plotted (e.g. the K of a sweep), plus each of
    ``extra`` (a single model's own K) that is not within ``min_ratio`` of a labelled one,
    and drop the minor-tick labels matplotlib prints on an axis spanning about one decade
    ("3x10^1 4x10^1 6x10^1", run into each other)."""
    from matplotlib.ticker import NullFormatter

    vals = sorted({float(v) for v in values if np.isfinite(v) and v > 0})
    for v in sorted({float(v) for v in extra if np.isfinite(v) and v > 0}):
        if all(max(v, u) / min(v, u) >= min_ratio for u in vals):
            vals = sorted([*vals, v])
    ax_ = ax.xaxis if axis == "x" else ax.yaxis
    ax_.set_ticks(vals, [f"{v:.0f}" if v >= 10 else f"{v:.2g}" for v in vals])
    ax_.set_minor_formatter(NullFormatter())


def measured_axis(ax, axis: str = "x") -> None:
    """Readable tick labels on a linear axis whose span is measured (wall-clock seconds):
    at most five round values in their shortest form ("0.005 0.01 0.015", not matplotlib's
    "0.0050 0.0075 0.0100 ...", which run into each other on a narrow panel when the fits
    were fast). Call it after plotting (it reads the axis limits)."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    ax_ = ax.xaxis if axis == "x" else ax.yaxis
    ax_.set_major_locator(MaxNLocator(nbins=4, steps=[1, 2, 5, 10]))
    ax_.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.6g}"))


def log_axis(ax, axis: str = "x") -> None:
    """Readable tick labels on a log axis whatever its span: under a factor 5, three round
    values; under two decades, labels at 1, 2 and 5 per decade ("20 50 100 200") instead of
    matplotlib's minor labels ("3x10^1 4x10^1 6x10^1", which run into each other); longer,
    the decades only. Call it after plotting (it reads the axis limits)."""
    from matplotlib.ticker import (
        FuncFormatter,
        LogFormatterSciNotation,
        LogLocator,
        MaxNLocator,
        NullFormatter,
    )

    ax_ = ax.xaxis if axis == "x" else ax.yaxis
    lo, hi = ax.get_xlim() if axis == "x" else ax.get_ylim()
    span = np.log10(max(lo, hi) / min(lo, hi)) if lo > 0 and hi > 0 else np.inf
    if span < 2:
        if span < 0.7:  # under a factor 5: a few round values
            ax_.set_major_locator(MaxNLocator(nbins=3, steps=[1, 2, 5, 10]))
        else:
            ax_.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax_.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    else:  # decades, as 10^k
        ax_.set_major_locator(LogLocator(base=10))
        ax_.set_major_formatter(LogFormatterSciNotation())
    ax_.set_minor_formatter(NullFormatter())


def scaled_axis(ax, axis: str = "y", min_exp: int = 4) -> int:
    """Write a linear axis of large values in units of 10^k (k a multiple of 3) and say so
    in its label ("log prior (x10^6)"), instead of matplotlib's offset text ("1e6"), which
    sits above the panel where the title or suptitle is. Call it after plotting and after
    the label is set; returns k (0: the values are small enough to print as they are)."""
    from matplotlib.ticker import FuncFormatter

    lo, hi = ax.get_xlim() if axis == "x" else ax.get_ylim()
    top = max(abs(lo), abs(hi))
    k = 3 * int(np.floor(np.log10(top) / 3)) if np.isfinite(top) and top >= 10.0**min_exp else 0
    ax_ = ax.xaxis if axis == "x" else ax.yaxis
    if k == 0:
        ax_.get_major_formatter().set_useOffset(False)
        return 0
    ax_.set_major_formatter(FuncFormatter(lambda v, _: f"{v / 10.0**k:g}"))
    ax_.set_label_text(f"{ax_.get_label_text()} (×10$^{{{k}}}$)")
    return k
