"""Shared figure style: call :func:`figure` instead of ``plt.subplots`` in studies.

Importing this module selects the non-interactive Agg backend and sets the project's
matplotlib style for the process (every study step is its own process), so labels and
legends added after :func:`figure` returns get the same style.
"""

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
plt.rcParams.update(STYLE)


def figure(nrows: int = 1, ncols: int = 1, width: float = 4.0, height: float = 3.0, **kw):
    """A (fig, axes) pair in the project style; ``width`` and ``height`` are per panel (in)."""
    return plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), **kw)
