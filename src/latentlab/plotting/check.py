"""The figure rule as a check: text never overlaps, axes are labelled, panels hold data.

:func:`figure_problems` draws a matplotlib Figure and lists what breaks the figure rule
(docs/design.md) for figures read by people; :func:`check_figure` raises
:class:`FigureCheckError` on any.
``latentlab.outputs.write_figure`` calls it on every figure it writes (see
:func:`check_mode`), so the smoke pipeline fails on a figure a reviewer cannot read.

What is checked, after ``fig.canvas.draw()`` (window extents, in pixels):

* **overlap**: any two text artists of the figure whose boxes intersect by more than
  ``tol`` pixels both ways, within an axes and across axes. The texts are the suptitle
  and figure-level labels and texts, each visible axes' titles, axis labels, offset
  texts ("1e6"), the tick labels actually drawn (major and minor; ticks outside the view
  are not drawn and not checked), its texts/annotations, and each legend's whole box
  (a legend over data is fine, over any text it is not). A text rotated by an angle
  other than 0 or 90 degrees is boxed by its axis-aligned extent, which is larger than
  the text: slanted tick labels side by side count as overlapping (write them at 90).
* **label**: an axes whose x (or y) axis shows tick labels must say what the axis is:
  its own label, the label of an axes it shares that axis with (``sharex``/``sharey``:
  one label for a row or column of panels), or the figure's ``supxlabel``/``supylabel``.
  An axis that shows no tick labels (hidden, ``set_xticks([])``, an image shown with
  ``axis("off")``, a twin's shared axis) needs no label. A colorbar is an axes like any
  other: its long axis shows ticks, so it needs a label (the colour's quantity/units).
* **empty**: a visible axes with its axis on and no data: no line with a finite point,
  no non-empty collection, image, patch (bars) or table. An axes with ``axis("off")``
  that holds nothing is an unused grid slot the reader does not see and is skipped; one
  holding only texts or a table is a text/table panel and passes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

TOL_PX = 1.0  # overlaps up to this many pixels (anti-aliasing, rounding) are ignored
MODES = ("error", "warn", "off")


class FigureCheckError(ValueError):
    """A figure breaks the figure rule; the message lists every problem."""


@dataclass(frozen=True)
class _Box:
    what: str  # a readable name: "axes 2 (Accuracy) x tick label '10^1'"
    group: str  # boxes of one group never count as overlapping each other (default: one artist)
    x0: float
    y0: float
    x1: float
    y1: float


def check_mode() -> str:
    """``LATENTLAB_FIGCHECK``: ``error`` (default: a failing figure is not written and the
    step fails), ``warn`` (written, problems logged and recorded in its metadata) or ``off``."""
    mode = os.environ.get("LATENTLAB_FIGCHECK", "error").strip().lower() or "error"
    if mode not in MODES:
        raise FigureCheckError(f"LATENTLAB_FIGCHECK={mode!r}: expected one of {MODES}")
    return mode


def _axes_name(fig, ax) -> str:
    i = fig.axes.index(ax)
    title = ax.get_title() or ax.get_title("left") or ax.get_title("right")
    if _is_colorbar(ax):
        title = "colorbar"
    return f"axes {i}" + (f" ({title!r})" if title else "")


def _is_colorbar(ax) -> bool:
    return getattr(ax, "_colorbar", None) is not None or ax.get_label() == "<colorbar>"


def _shown(artist) -> bool:
    return artist is not None and artist.get_visible() and bool(str(artist.get_text()).strip())


def _drawn_tick_labels(axis) -> list:
    """The tick labels the last draw put on the canvas (ticks within the view interval)."""
    if not axis.get_visible():
        return []
    try:
        ticks = axis._update_ticks()  # the ticks that are drawn (matplotlib >= 3.1)
    except AttributeError:  # pragma: no cover - older matplotlib
        ticks = axis.get_major_ticks() + axis.get_minor_ticks()
    out = []
    for t in ticks:
        if not t.get_visible():
            continue
        out += [lab for lab in (t.label1, t.label2) if _shown(lab)]
    return out


def _box(artist, renderer, what: str, group: str) -> _Box | None:
    bb = artist.get_window_extent(renderer)
    if not (np.isfinite([bb.x0, bb.y0, bb.x1, bb.y1]).all()) or bb.width <= 0 or bb.height <= 0:
        return None
    return _Box(what, group, bb.x0, bb.y0, bb.x1, bb.y1)


def _text_boxes(fig, renderer) -> list[_Box]:
    boxes: list[_Box] = []

    def add(artist, what, group=None):
        if artist is None or not artist.get_visible():
            return
        if hasattr(artist, "get_text") and not _shown(artist):
            return
        b = _box(artist, renderer, what, group or str(id(artist)))
        if b is not None:
            boxes.append(b)

    for name in ("_suptitle", "_supxlabel", "_supylabel"):
        add(getattr(fig, name, None), f"figure {name.strip('_')}")
    for i, t in enumerate(fig.texts):
        add(t, f"figure text {i} {t.get_text()!r}")
    for i, leg in enumerate(fig.legends):
        add(leg, f"figure legend {i}")
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        name = _axes_name(fig, ax)
        for loc in ("center", "left", "right"):
            t = {"center": ax.title, "left": ax._left_title, "right": ax._right_title}[loc]
            add(t, f"{name} title {t.get_text()!r}")
        if ax.axison:
            for axis, xy in ((ax.xaxis, "x"), (ax.yaxis, "y")):
                if not axis.get_visible():
                    continue
                add(axis.label, f"{name} {xy} label {axis.label.get_text()!r}")
                add(axis.offsetText, f"{name} {xy} offset text {axis.offsetText.get_text()!r}")
                for lab in _drawn_tick_labels(axis):
                    add(lab, f"{name} {xy} tick label {lab.get_text()!r}")
        for t in ax.texts:
            add(t, f"{name} text {t.get_text()!r}")
        leg = ax.get_legend()
        if leg is not None:
            add(leg, f"{name} legend")
    return boxes


def _overlaps(boxes: list[_Box], tol: float) -> list[str]:
    if len(boxes) < 2:
        return []
    a = np.array([[b.x0, b.y0, b.x1, b.y1] for b in boxes])
    w = np.minimum(a[:, None, 2], a[None, :, 2]) - np.maximum(a[:, None, 0], a[None, :, 0])
    h = np.minimum(a[:, None, 3], a[None, :, 3]) - np.maximum(a[:, None, 1], a[None, :, 1])
    hit = np.triu((w > tol) & (h > tol), k=1)
    out = []
    for i, j in zip(*np.nonzero(hit), strict=True):
        if boxes[i].group == boxes[j].group:
            continue
        out.append(f"overlap: {boxes[i].what} and {boxes[j].what} ({w[i, j]:.0f}x{h[i, j]:.0f} px)")
    return out


def _has_data(ax) -> bool:
    for line in ax.lines:
        xy = np.asarray(line.get_xydata(), dtype=float)
        if xy.size and np.isfinite(xy).all(axis=-1).any():
            return True
    for c in ax.collections:
        offs = c.get_offsets()
        if (offs is not None and len(offs) and np.isfinite(np.asarray(offs, float)).any()) or (
            len(c.get_paths()) > 0
        ):
            return True
    return bool(ax.images or ax.patches or ax.tables)


def _label_problems(fig) -> list[str]:
    out = []
    sup = {
        "x": _shown(getattr(fig, "_supxlabel", None)),
        "y": _shown(getattr(fig, "_supylabel", None)),
    }
    for ax in fig.axes:
        if not ax.get_visible() or not ax.axison:
            continue
        for xy in ("x", "y"):
            axis = getattr(ax, f"{xy}axis")
            if not _drawn_tick_labels(axis) or sup[xy] or _shown(axis.label):
                continue
            shared = getattr(ax, f"get_shared_{xy}_axes")().get_siblings(ax)
            if any(_shown(getattr(s, f"{xy}axis").label) for s in shared if s is not ax):
                continue
            out.append(f"label: {_axes_name(fig, ax)} has {xy} tick labels but no {xy} label")
    return out


def _empty_problems(fig) -> list[str]:
    return [
        f"empty: {_axes_name(fig, ax)} has no data (no lines, collections, images, bars)"
        for ax in fig.axes
        if ax.get_visible() and ax.axison and not _is_colorbar(ax) and not _has_data(ax)
    ]


def figure_problems(fig, tol: float = TOL_PX) -> list[str]:
    """Every problem of ``fig`` (drawn first); empty when it follows the rule."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    return _overlaps(_text_boxes(fig, renderer), tol) + _label_problems(fig) + _empty_problems(fig)


def check_figure(fig, where: str = "figure", tol: float = TOL_PX) -> None:
    """Raise :class:`FigureCheckError` naming ``where`` and every problem of ``fig``."""
    problems = figure_problems(fig, tol)
    if problems:
        raise FigureCheckError(format_problems(where, problems))


def format_problems(where: str, problems: list[str], limit: int = 12) -> str:
    shown = problems[:limit]
    more = f"\n  ... and {len(problems) - limit} more" if len(problems) > limit else ""
    return (
        f"{where}: {len(problems)} figure problem(s) (docs/design.md: titles, labels, legends and "
        "ticks never overlap; axes say their units):\n  " + "\n  ".join(shown) + more
    )
