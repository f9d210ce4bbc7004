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
* **legend** (series distinguishable): within one legend, any two entries whose drawn
  handles look alike (the same colours, markers with the same fill, line style) are
  a problem: the reader cannot tell which curve is which (hdp_pcvb0 Fig 3's AS and AA).
  Colours closer than 0.05 in every RGBA channel count as the same; line width and
  marker size do not distinguish (too faint a difference). Entries whose handle draws
  nothing (a note written as a legend entry) are left out.
* **covers** (legend over data): a legend box (axes or figure legend) holding a data
  point: a vertex of a visible line, a scatter point or the end of a bar (the middle of
  its far edge: its value) of any panel, within that panel's view. The box is shrunk by
  the legend's border padding (``borderpad``, 0.4 em: about 5 px at 8 pt, 120 dpi), where
  no handle or text is drawn, so a point grazing the frame's edge covers nothing a reader
  needs; a point further in sits under an entry.
  Only vertices are tested (a straight segment crossing the box between two vertices is
  not), as the rule is about points the legend hides.
* **dataset**: a figure declares the data it shows with :func:`name_dataset` (the
  figure step, or the redraw function it shares), and each declared name must be written
  in the figure itself (case-insensitive): its suptitle, a panel title, an axis label, a
  tick label, a legend entry or a note. A figure with no declaration fails: a reviewer
  holding the PNG beside the document must read which corpus it is from the PNG alone.
* **errorbar**: a panel with error bars (``ax.errorbar``) needs a text of the figure that
  says what they are (:data:`ERROR_WORDS`: "sd", "standard error", "s.e.", "95 %
  interval", "min–max", "IQR", ...) in a legend entry, label, title or note.
* **shared**: panels that the document draws on shared axes are declared with
  :func:`declare_shared`; their limits on that axis must be equal (to 1e-9 of the span)
  and their scales (linear, log) the same, so their spreads can be compared by eye.

The rules in force are :data:`RULES`; ``write_png`` records them with the outcome, so
``latentlab figures check`` can tell a figure checked before a rule existed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

import numpy as np

TOL_PX = 1.0  # overlaps up to this many pixels (anti-aliasing, rounding) are ignored
MODES = ("error", "warn", "off")
# every rule, in the order of the module docstring; a record lists those it was checked by
RULES = ("overlap", "label", "empty", "legend", "covers", "dataset", "errorbar", "shared")
COLOUR_TOL = 0.05  # RGBA channels closer than this count as one colour (rule "legend")
# a dashed legend handle reads as dashed when this much of its gaps shows (points; 2.5 px at
# 120 dpi: a narrower gap is lost in anti-aliasing)
MIN_GAP_PT = 1.5
# what error bars are, as a figure may say it (rule "errorbar"); matched case-insensitively
ERROR_WORDS = re.compile(
    r"\bs\.?d\b|\bstd\b|standard deviation|standard error|\bs\.e\.|\bsem?\b"
    r"|\b\d{2}(\.\d)?\s?%\s*(ci\b|c\.i\.|interval|confidence|band|bars?|range)|\b9[059]\s?%"
    r"|confidence|credible|\bci\b|min\s*(?:[\u2013\u2014-]|to)\s*max|\biqr\b|quartile"
    r"|percentile|\brange (?:over|across)\b",
    re.IGNORECASE,
)
_DECLARED = "_latentlab_declared"  # the attribute of a Figure holding its declarations


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


def _declared(fig) -> dict:
    d = getattr(fig, _DECLARED, None)
    if d is None:
        d = {"datasets": [], "shared": []}
        setattr(fig, _DECLARED, d)
    return d


def name_dataset(fig, *names: str) -> None:
    """Declare the data ``fig`` shows (rule "dataset"): each name ("KOS", "20 Newsgroups",
    "synthetic") must also be written in the figure (a title, label, legend entry or note).
    Call it from the function that draws the figure, so its redraw declares it too."""
    if not names or not all(isinstance(n, str) and n.strip() for n in names):
        raise ValueError(f"name_dataset: expected one or more non-empty names, got {names!r}")
    d = _declared(fig)["datasets"]
    d += [n.strip() for n in names if n.strip() not in d]


def declare_shared(axes, which: str = "y") -> None:
    """Declare that ``axes`` (two or more panels of one figure) are drawn on one ``which``
    axis ("x" or "y") as the document draws them (rule "shared"): the check then requires
    equal limits and the same scale. Share them with ``sharey=`` or equal ``set_ylim``;
    this only declares it, so a later change that breaks it is caught."""
    axes = list(np.ravel(axes))
    if which not in ("x", "y"):
        raise ValueError(f"declare_shared: which must be 'x' or 'y', got {which!r}")
    if len(axes) < 2 or len({id(a.figure) for a in axes}) != 1:
        raise ValueError("declare_shared: expected two or more axes of one figure")
    _declared(axes[0].figure)["shared"].append((which, axes))


def declared_datasets(fig) -> list[str]:
    """The names :func:`name_dataset` declared on ``fig`` (for its metadata)."""
    return list(getattr(fig, _DECLARED, {}).get("datasets", []))


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


# ------------------------------------------------------------------ legends
def _legends(fig) -> list[tuple[str, object, list]]:
    """(name, legend, the axes whose data it may cover) for every drawn legend."""
    panels = [ax for ax in fig.axes if ax.get_visible() and not _is_colorbar(ax)]
    out = [(f"figure legend {i}", leg, panels) for i, leg in enumerate(fig.legends)]
    for ax in panels:
        leg = ax.get_legend()
        if leg is not None and leg.get_visible():
            # a twin axes shares the panel's area: its data counts as the panel's
            twins = [a for a in panels if a is ax or a.bbox.bounds == ax.bbox.bounds]
            out.append((f"{_axes_name(fig, ax)} legend", leg, twins))
    return out


def _legend_entries(leg) -> list[tuple[str, list]]:
    """(label, the artists its handle draws) for each entry of ``leg``."""
    from matplotlib.offsetbox import DrawingArea, HPacker, TextArea

    out = []

    def walk(box):
        kids = box.get_children()
        if (
            isinstance(box, HPacker)
            and len(kids) == 2
            and isinstance(kids[0], DrawingArea)
            and isinstance(kids[1], TextArea)
        ):
            out.append((kids[1].get_text(), list(kids[0].get_children())))
            return
        for k in kids:
            if hasattr(k, "get_children") and type(k).__module__ == "matplotlib.offsetbox":
                walk(k)

    walk(leg._legend_handle_box)
    return out


def _rgba(c) -> np.ndarray | None:
    from matplotlib.colors import to_rgba

    try:
        rgba = np.asarray(to_rgba(c), dtype=float)
    except (ValueError, TypeError):
        rgba = np.asarray(c, dtype=float).reshape(-1, 4)[0] if np.size(c) >= 4 else None
    return None if rgba is None or rgba[3] == 0 else rgba


def _has_line(a) -> bool:
    return a.get_linestyle() not in ("None", "", " ", "none") and a.get_linewidth() > 0


def _has_marker(a) -> bool:
    return a.get_marker() not in (None, "None", "", " ", "none") and a.get_markersize() > 0


def _marker_spans(artists) -> list[tuple[float, float]]:
    """x intervals (points, a legend handle's own units) that the entry's markers cover."""
    from matplotlib.lines import Line2D

    spans = []
    for a in artists:
        if not (isinstance(a, Line2D) and a.get_visible() and _has_marker(a)):
            continue
        xs = np.asarray(a.get_xdata(), dtype=float)
        every = a.get_markevery()
        if isinstance(every, (list, tuple)) and all(isinstance(i, int | np.integer) for i in every):
            xs = xs[list(every)]
        half = (a.get_markersize() + a.get_markeredgewidth()) / 2
        spans += [(x - half, x + half) for x in xs]
    return spans


def _gap_shown(line, spans) -> float:
    """Points of a dashed legend handle's gaps not hidden under a marker: a handle two em
    long with its marker in the middle hides the one gap of a '--' line at 7 pt (hdp_pcvb0
    Fig 3: dashed AS and solid AA looked the same)."""
    offset, seq = line._dash_pattern  # in points, scaled by the line width
    xs = np.asarray(line.get_xdata(), dtype=float)
    if not seq or not xs.size:
        return 0.0
    x0, x1 = float(xs.min()), float(xs.max())
    shown, pos, i = 0.0, x0 - float(offset or 0.0), 0
    while pos < x1:
        step = float(seq[i % len(seq)])
        if step <= 0:
            break
        if i % 2 == 1:  # a gap
            lo, hi = max(pos, x0), min(pos + step, x1)
            if hi > lo:
                hidden = sum(max(0.0, min(hi, b) - max(lo, a)) for a, b in spans)
                shown += max(0.0, (hi - lo) - hidden)
        pos += step
        i += 1
    return shown


def _look(a, spans=()) -> tuple[tuple, list] | None:
    """What an entry's artist shows: (discrete style, colours), or None if it draws nothing.
    ``spans``: where the entry's markers sit (a dash gap under a marker is not seen)."""
    from matplotlib.collections import Collection, PathCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    if not a.get_visible() or a.get_alpha() == 0:
        return None
    if isinstance(a, Line2D):
        ls, mk = _has_line(a), _has_marker(a)
        if not (ls or mk):
            return None
        dash = tuple(np.round(a._unscaled_dash_pattern[1] or (), 2)) if ls else None
        if ls and dash and _gap_shown(a, spans) < MIN_GAP_PT:
            dash = ()  # reads as a solid line
        mfc = _rgba(a.get_markerfacecolor()) if mk else None
        cols = [c for c in ((_rgba(a.get_color()) if ls else None), mfc) if c is not None]
        if mk:
            cols.append(_rgba(a.get_markeredgecolor()))
        return ("line", ls, dash, str(a.get_marker()) if mk else None, mfc is None), cols
    if isinstance(a, Collection):
        fc, ec = a.get_facecolor(), a.get_edgecolor()
        lw = np.ravel(a.get_linewidth())
        cols = [_rgba(fc[0]) if len(fc) else None]
        cols.append(_rgba(ec[0]) if len(ec) and lw.size and lw[0] > 0 else None)
        cols = [c for c in cols if c is not None]
        if not cols:
            return None
        shape = None
        if isinstance(a, PathCollection) and a.get_paths():
            shape = tuple(np.round(a.get_paths()[0].vertices, 2).ravel())
        dashes = tuple(str(d) for d in a.get_linestyle())
        return (type(a).__name__, shape, dashes, a.get_hatch()), cols
    if isinstance(a, Patch):
        fc = _rgba(a.get_facecolor()) if a.get_fill() else None
        ec = _rgba(a.get_edgecolor()) if a.get_linewidth() > 0 else None
        cols = [c for c in (fc, ec) if c is not None]
        if not cols:
            return None
        return ("patch", fc is None, str(a.get_linestyle()), a.get_hatch()), cols
    return (type(a).__name__,), []


def _entry_look(artists, in_legend: bool = True) -> list[tuple[tuple, list]]:
    spans = _marker_spans(artists) if in_legend else []
    looks = (_look(a, spans) for a in artists)
    return sorted((lk for lk in looks if lk is not None), key=lambda t: repr(t[0]))


def _alike(a, b) -> bool:
    if len(a) != len(b):
        return False
    for (da, ca), (db, cb) in zip(a, b, strict=True):
        if da != db or len(ca) != len(cb):
            return False
        if any(np.abs(x - y).max() >= COLOUR_TOL for x, y in zip(ca, cb, strict=True)):
            return False
    return True


def _legend_style_problems(fig) -> list[str]:
    out = []
    for name, leg, _ in _legends(fig):
        entries = [(lab, _entry_look(arts)) for lab, arts in _legend_entries(leg)]
        entries = [(lab, lk) for lab, lk in entries if lk]  # notes drawn as entries: no handle
        for i in range(len(entries)):
            for j in range(i + 1, len(entries)):
                if _alike(entries[i][1], entries[j][1]):
                    out.append(
                        f"legend: {name} entries {entries[i][0]!r} and {entries[j][0]!r} look "
                        "alike (same colour, marker and line style)"
                    )
    return out


def _data_points(ax) -> np.ndarray:
    """Display coordinates of the data points of ``ax`` within its view: the vertices of
    its visible lines, the offsets of its scatter collections and the ends of its bars."""
    from matplotlib.collections import PathCollection
    from matplotlib.container import BarContainer

    pts = []
    for line in ax.lines:
        if _look(line) is None:
            continue
        xy = np.asarray(line.get_xydata(), dtype=float)
        if xy.size:
            pts.append(line.get_transform().transform(xy))
    for c in ax.collections:
        if isinstance(c, PathCollection) and c.get_visible() and c.get_alpha() != 0:
            offs = np.asarray(c.get_offsets(), dtype=float)
            if offs.size:
                pts.append(c.get_offset_transform().transform(offs))
    for c in ax.containers:  # a bar's value is the middle of its far end
        if isinstance(c, BarContainer):
            for r in c.patches:
                if r.get_visible():
                    x, y, w, h = r.get_x(), r.get_y(), r.get_width(), r.get_height()
                    end = (x + w / 2, y + h) if c.orientation == "vertical" else (x + w, y + h / 2)
                    pts.append(r.get_transform().transform([end]))
    if not pts:
        return np.empty((0, 2))
    p = np.concatenate(pts)
    p = p[np.isfinite(p).all(axis=1)]
    bb = ax.bbox
    inside = (p[:, 0] >= bb.x0) & (p[:, 0] <= bb.x1) & (p[:, 1] >= bb.y0) & (p[:, 1] <= bb.y1)
    return p[inside]


def _legend_data_problems(fig, renderer) -> list[str]:
    out = []
    for name, leg, panels in _legends(fig):
        bb = leg.get_window_extent(renderer)
        pad = leg.borderpad * leg.prop.get_size_in_points() * fig.dpi / 72.0
        x0, y0, x1, y1 = bb.x0 + pad, bb.y0 + pad, bb.x1 - pad, bb.y1 - pad
        if x1 <= x0 or y1 <= y0:
            continue
        for ax in panels:
            p = _data_points(ax)
            n = int(((p[:, 0] > x0) & (p[:, 0] < x1) & (p[:, 1] > y0) & (p[:, 1] < y1)).sum())
            if n:
                out.append(
                    f"covers: {name} covers {n} data point(s) of {_axes_name(fig, ax)} "
                    "(move it off the data: another loc, or outside the panels)"
                )
    return out


# ------------------------------------------------------------------ what the figure says
def _figure_texts(fig, ticks: bool = True) -> list[str]:
    """Every visible text of ``fig``: suptitle and figure labels/texts, panel titles, axis
    labels, tick labels (with ``ticks``), notes, legend entries and titles."""
    arts = [getattr(fig, n, None) for n in ("_suptitle", "_supxlabel", "_supylabel")]
    arts += list(fig.texts)
    legs = list(fig.legends)
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        arts += [ax.title, ax._left_title, ax._right_title, *ax.texts]
        if ax.axison:
            for axis in (ax.xaxis, ax.yaxis):
                if axis.get_visible():
                    arts.append(axis.label)
                    if ticks:
                        arts += _drawn_tick_labels(axis)
        if ax.get_legend() is not None:
            legs.append(ax.get_legend())
    for leg in legs:
        if leg.get_visible():
            arts += [leg.get_title(), *leg.get_texts()]
    return [str(a.get_text()) for a in arts if _shown(a)]


def _dataset_problems(fig) -> list[str]:
    names = declared_datasets(fig)
    if not names:
        return [
            "dataset: the figure declares no dataset (plotting.name_dataset(fig, ...)) "
            "and a reviewer cannot tell which data it shows"
        ]
    text = "\n".join(_figure_texts(fig)).casefold()
    return [
        f"dataset: {n!r} is declared but no title, label, legend entry or note names it"
        for n in names
        if n.casefold() not in text
    ]


def _errorbar_problems(fig) -> list[str]:
    from matplotlib.container import ErrorbarContainer

    with_bars = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for c in ax.containers:
            if isinstance(c, ErrorbarContainer) and any(
                b.get_visible() and len(b.get_segments()) for b in c.lines[2]
            ):
                with_bars.append(_axes_name(fig, ax))
                break
    if not with_bars or any(ERROR_WORDS.search(t) for t in _figure_texts(fig, ticks=False)):
        return []
    return [
        f"errorbar: {', '.join(with_bars)} draw(s) error bars but no legend entry, label, "
        "title or note says what they are (sd, standard error, 95 % interval, min–max, IQR)"
    ]


def _shared_problems(fig) -> list[str]:
    out = []
    for which, axes in getattr(fig, _DECLARED, {}).get("shared", []):
        lims = np.array([a.get_xlim() if which == "x" else a.get_ylim() for a in axes])
        scales = {a.get_xscale() if which == "x" else a.get_yscale() for a in axes}
        span = float(np.abs(lims[0, 1] - lims[0, 0])) or 1.0
        if len(scales) > 1 or np.abs(lims - lims[0]).max() > 1e-9 * span:
            names = ", ".join(_axes_name(fig, a) for a in axes)
            shown = "; ".join(f"({lo:.4g}, {hi:.4g})" for lo, hi in lims)
            out.append(
                f"shared: {names} are declared to share {which} (as the document draws them) "
                f"but their {which} limits or scales differ: {shown}, {sorted(scales)}"
            )
    return out


def figure_problems(fig, tol: float = TOL_PX, rules=RULES) -> list[str]:
    """Every problem of ``fig`` (drawn first) under ``rules`` (default: all of
    :data:`RULES`); empty when it follows the rule."""
    unknown = set(rules) - set(RULES)
    if unknown:
        raise ValueError(f"figure_problems: unknown rule(s) {sorted(unknown)}; known: {RULES}")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    checks = {
        "overlap": lambda: _overlaps(_text_boxes(fig, renderer), tol),
        "label": lambda: _label_problems(fig),
        "empty": lambda: _empty_problems(fig),
        "legend": lambda: _legend_style_problems(fig),
        "covers": lambda: _legend_data_problems(fig, renderer),
        "dataset": lambda: _dataset_problems(fig),
        "errorbar": lambda: _errorbar_problems(fig),
        "shared": lambda: _shared_problems(fig),
    }
    return [p for r in RULES if r in rules for p in checks[r]()]


def check_record(fig, mode: str) -> dict:
    """Check ``fig`` under ``mode`` (:func:`check_mode`) and return the record that
    ``write_png`` keeps in the figure's metadata: the mode, the problems, the rules checked
    (:data:`RULES`; none when off) and the datasets the figure declared."""
    problems = figure_problems(fig) if mode != "off" else []
    return {
        "mode": mode,
        "problems": problems,
        "rules": list(RULES) if mode != "off" else [],
        "datasets": declared_datasets(fig),
    }


def check_figure(fig, where: str = "figure", tol: float = TOL_PX) -> None:
    """Raise :class:`FigureCheckError` naming ``where`` and every problem of ``fig``."""
    problems = figure_problems(fig, tol)
    if problems:
        raise FigureCheckError(format_problems(where, problems))


def format_problems(where: str, problems: list[str], limit: int = 12) -> str:
    shown = problems[:limit]
    more = f"\n  ... and {len(problems) - limit} more" if len(problems) > limit else ""
    return (
        f"{where}: {len(problems)} figure problem(s) (the figure rule, docs/design.md and "
        "latentlab.plotting.check):\n  " + "\n  ".join(shown) + more
    )
