"""Where the parts of one map go inside its box: titles, the labelled axes, the cells, the colour bar, the
legend and the note. Pure arithmetic on sizes; ``map_draw.py`` turns the layout into primitives."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.handouts.text import nice_ticks, text_width, tick_text, wrap

LABEL_CHARS = 12  # a tick label is cut past about this many average characters (as the window's axes)
LINE = 1.3  # line height, in ems


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float | None = None  # None: as tall as the map needs


@dataclass(frozen=True)
class MapSpec:
    """One map or matrix as the central view draws it (data with −∞ kept; ``blocked`` marks further cells
    drawn as blocked, e.g. the weights the mask set to 0)."""

    data: np.ndarray
    row_labels: tuple[str, ...]
    col_labels: tuple[str, ...]
    signed: bool
    levels: tuple[float, float]
    blocked: np.ndarray | None = None
    title: str = ""
    y_title: str = ""
    x_title: str = ""
    square: bool = False
    highlight: tuple[int | None, int | None] = (None, None)
    legend: str = ""  # said beside the hatched swatch when a cell is blocked
    note: str = ""
    colour_bar: bool = True
    bar_room: bool = False  # keep the colour bar's room without drawing it (maps side by side, one bar)
    title_room: int = 0  # lines kept for the title at least (maps side by side start level)

    def all_blocked(self) -> np.ndarray:
        b = np.isneginf(self.data)
        return b if self.blocked is None else (b | self.blocked)


@dataclass(frozen=True)
class Axis:
    """The labels of one axis: which cells are labelled, the texts, their size, upright or not, depth."""

    cells: tuple[int, ...]
    texts: tuple[str, ...]
    size: float
    upright: bool
    depth: float  # room the labels take across the axis


@dataclass(frozen=True)
class MapLayout:
    px: float  # the text size everything starts from
    title_lines: tuple[str, ...]
    title_y: float  # baseline of the first title line
    x: float  # the cells' top left
    y: float
    cell_w: float
    cell_h: float
    rows: int
    cols: int
    left: Axis
    bottom: Axis
    bar_x: float | None  # the colour bar's left edge (None: no bar)
    bar_w: float
    ticks: tuple[tuple[float, str], ...]
    below_y: float  # top of what is under the bottom labels (x title, legend, note)
    legend_lines: tuple[str, ...]
    note_lines: tuple[str, ...]
    bottom_y: float  # the lowest point used

    @property
    def w(self) -> float:
        return self.cols * self.cell_w

    @property
    def h(self) -> float:
        return self.rows * self.cell_h


def _label_width(labels, size: float) -> float:
    longest = sorted(labels, key=len)[-32:]
    return min(max((text_width(s, size) for s in longest), default=0.0), LABEL_CHARS * 0.62 * size)


def _thinned(n: int, cell: float, size: float, selected: int | None) -> tuple[int, ...]:
    """Which of n cells carry a label when each label needs ``size`` × 1.1 along the axis."""
    stride = max(1, math.ceil(size * 1.1 / max(cell, 1e-9)))
    cells = list(range(0, n, stride))
    if stride > 1 and selected is not None and 0 <= selected < n:
        cells = sorted([c for c in cells if abs(c - selected) >= stride] + [selected])
    return tuple(cells)


def left_axis(labels, cell_h: float, px: float, selected: int | None) -> Axis:
    size = max(px * 0.6, min(px, cell_h * 0.85))
    cells = _thinned(len(labels), cell_h, size, selected)
    return Axis(cells, tuple(labels[c] for c in cells), size, False, _label_width(labels, size) + px * 0.6)


def bottom_axis(spec: MapSpec, cell_w: float, px: float) -> Axis:
    labels = spec.col_labels
    selected = spec.highlight[1] if spec.highlight[1] is not None else spec.highlight[0]
    if _label_width(labels, px) + px * 0.4 <= cell_w:
        return Axis(tuple(range(len(labels))), tuple(labels), px, False, px * LINE + px * 0.3)
    if tuple(spec.row_labels) == tuple(labels):  # a map's keys are its queries: their indices will do
        short = tuple(str(j) for j in range(len(labels)))
        if _label_width(short, px) + px * 0.4 <= cell_w:
            return Axis(tuple(range(len(labels))), short, px, False, px * LINE + px * 0.3)
        labels = short
    size = max(px * 0.6, min(px, cell_w * 0.85))
    cells = _thinned(len(labels), cell_w, size, selected)
    return Axis(cells, tuple(labels[c] for c in cells), size, True, _label_width(labels, size) + px * 0.6)


def bar_ticks(spec: MapSpec, height: float, px: float) -> tuple[tuple[float, str], ...]:
    lo, hi = spec.levels
    most = int(max(3, min(7, height / (px * 2.2))))
    return tuple((v, tick_text(v)) for v in nice_ticks(lo, hi, most) if lo - 1e-12 <= v <= hi + 1e-12)


def _cells(spec: MapSpec, room_w: float, room_h: float | None, px: float) -> tuple[float, float]:
    rows, cols = spec.data.shape
    cell_w = room_w / max(cols, 1)
    if room_h is None:  # the natural height: square cells, or rows tall enough to read (at most as tall as wide)
        if spec.square:  # at most as tall as wide: a column of five cells is five squares, not five pages
            cell_w = min(cell_w, room_w / max(rows, 1))
            return cell_w, cell_w
        return cell_w, min(max(cell_w, px * 1.4), room_w / max(rows, 1))
    cell_h = room_h / max(rows, 1)
    if spec.square:
        cell_w = cell_h = min(cell_w, cell_h)
    return cell_w, cell_h


def bar_width(spec: MapSpec, px: float) -> float:
    """The room the colour bar and its tick labels take beside the map."""
    ticks_w = max(text_width(tick_text(v), px) for v in (spec.levels[0], spec.levels[1], -abs(spec.levels[1])))
    return px * 0.8 + px * 1.0 + px * 0.5 + ticks_w + px * 0.3


def title_lines(spec: MapSpec, width: float, px: float) -> tuple[str, ...]:
    return tuple(wrap(spec.title, px * 1.05, width, bold=True, max_lines=3)) if spec.title else ()


def layout(spec: MapSpec, box: Box, px: float) -> MapLayout:
    rows, cols = spec.data.shape
    titles = title_lines(spec, box.w, px)
    shown_lines = max(len(titles), spec.title_room if spec.title else 0)
    top = box.y + (shown_lines * px * 1.05 * LINE + px * 0.4 if shown_lines else 0.0)
    y_title_w = px * LINE if spec.y_title else 0.0
    left_w = _label_width(spec.row_labels, px) + px * 0.6  # the row labels at full size (they only shrink)
    bar_w = px * 1.0
    right_w = bar_width(spec, px) if (spec.colour_bar or spec.bar_room) else px * 0.3
    room_w = max(box.w - y_title_w - left_w - right_w, px)
    blocked = bool(spec.all_blocked().any())
    legend_lines = tuple(wrap(spec.legend, px, box.w - px * 1.8, max_lines=3)) if (spec.legend and blocked) else ()
    note_lines = tuple(wrap(spec.note, px, box.w, max_lines=3)) if spec.note else ()
    under = (px * LINE if spec.x_title else 0.0) + (len(legend_lines) + len(note_lines)) * px * LINE
    under += px * 0.4 if (legend_lines or note_lines) else 0.0
    # the bottom labels' depth depends on the cells' width: first as if they lie flat, then as they are
    depth = px * LINE + px * 0.3
    for _ in range(2):
        room_h = None if box.h is None else max(box.y + box.h - top - depth - under, px)
        cell_w, cell_h = _cells(spec, room_w, room_h, px)
        bottom = bottom_axis(spec, cell_w, px)
        if bottom.depth <= depth + 1e-6:
            break
        depth = bottom.depth
    left = left_axis(spec.row_labels, cell_h, px, spec.highlight[0])
    x = box.x + y_title_w + left.depth + max(0.0, (room_w - cols * cell_w) / 2)  # a square map sits in the middle
    map_h = rows * cell_h
    below = top + map_h + bottom.depth
    end = below + under
    return MapLayout(
        px=px,
        title_lines=titles,
        title_y=box.y + px * 1.05 * 0.95,
        x=x,
        y=top,
        cell_w=cell_w,
        cell_h=cell_h,
        rows=rows,
        cols=cols,
        left=left,
        bottom=bottom,
        bar_x=(x + cols * cell_w + px * 0.8) if spec.colour_bar else None,
        bar_w=bar_w,
        ticks=bar_ticks(spec, map_h, px) if spec.colour_bar else (),
        below_y=below,
        legend_lines=legend_lines,
        note_lines=note_lines,
        bottom_y=end,
    )
