"""Shared figure style: call :func:`figure` instead of ``plt.subplots`` in studies."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

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


def figure(nrows: int = 1, ncols: int = 1, width: float = 4.0, height: float = 3.0, **kw):
    """A (fig, axes) pair in the project style; size is per panel, in inches."""
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), **kw)
    for ax in fig.axes:
        for k, v in STYLE.items():
            if k == "axes.grid" and v:
                ax.grid(True, alpha=STYLE["grid.alpha"])
        ax.spines["top"].set_visible(False)
        ax.spines["right"].set_visible(False)
    return fig, axes
