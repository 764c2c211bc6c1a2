"""Where the parts of one map go inside its box: titles, the labelled axes, the cells, the colour bar, the
legend and the note. Pure arithmetic on sizes; ``map_draw.py`` turns the layout into primitives."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.handouts.text import ASCENT, DESCENT, elide, text_width, wrap
from explorer.present import axis_labels as rule
from explorer.present import figure
from explorer.present.axis_labels import MIN_TICK_PX, AxisLabels, AxisRoom
from explorer.present.hatching import blocked_cells

LINE = 1.3  # line height, in ems
SMALLEST = MIN_TICK_PX / 12  # a crowded axis's labels shrink as far as the window's do from its usual 12 px
AVERAGE_CHAR = 0.62  # an average character's width, in ems (what the label rule cuts long tokens by)


class PrintMeasure:
    """The label rule's measurements (explorer/present/axis_labels.py) in print's font widths."""

    def width(self, text: str, px: float) -> float:
        return text_width(text, px)

    def line(self, px: float) -> float:
        return (ASCENT + DESCENT) * px

    def char(self, px: float) -> float:
        return AVERAGE_CHAR * px

    def elide(self, text: str, px: float, room: float) -> str:
        return elide(text, px, room)


PRINT_MEASURE = PrintMeasure()


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
    vector_limit: int | None = None  # cells a side drawn as vector squares at most (None: map_draw's limit)

    def all_blocked(self) -> np.ndarray:
        return blocked_cells(self.data, self.blocked)


@dataclass(frozen=True)
class Axis:
    """One axis's labels as the shared rule laid them out, and the room they take across the axis."""

    labels: AxisLabels
    gap: float  # from the cells' edge to the labels (the tick and a little air)

    @property
    def depth(self) -> float:
        return self.gap + self.labels.depth * self.labels.arrangement.bands

    @property
    def size(self) -> float:
        return self.labels.arrangement.px


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


def axis_labels(labels, where: AxisRoom, horizontal: bool, selected: int | None) -> AxisLabels:
    """The window's label rule (explorer/present/axis_labels.py) for one axis, in print's font widths."""
    return rule.lay_out(labels, where, horizontal, PRINT_MEASURE, selected)


def _room(n: int, per_cell: float, extent: float, px: float) -> AxisRoom:
    return AxisRoom(0, n, per_cell, extent, px, px * SMALLEST)


def left_axis(labels, cell_h: float, px: float, selected: int | None) -> Axis:
    return Axis(axis_labels(labels, _room(len(labels), cell_h, 0.0, px), False, selected), px * 0.6)


def bottom_axis(spec: MapSpec, cell_w: float, px: float, extent: float = 0.0) -> Axis:
    """The key axis; ``extent``: the map's height with the axis (upright labels take about a fifth of it)."""
    selected = spec.highlight[1] if spec.highlight[1] is not None else spec.highlight[0]
    labels = spec.col_labels
    return Axis(axis_labels(labels, _room(len(labels), cell_w, extent, px), True, selected), px * 0.5)


def _left_room(spec: MapSpec, px: float, bands: int = 1) -> float:
    """The row labels' room at full size (they only shrink), in ``bands`` columns."""
    widest = rule.widest(PRINT_MEASURE, px, spec.row_labels)
    return (min(rule.label_cap(PRINT_MEASURE, px), widest + 2) + 4) * bands + px * 0.6


def bar_ticks(spec: MapSpec, height: float, px: float) -> tuple[tuple[float, str], ...]:
    """The colour bar's numbers, by the window's rule (explorer/present/figure.py)."""
    return figure.bar_ticks(spec.levels, figure.bar_tick_count(height, px))


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
    """The room the colour bar and its tick labels take beside the map (the widest numbers it may show)."""
    ticks_w = max(text_width(text, px) for _v, text in figure.bar_ticks(spec.levels, 6))
    return px * 0.8 + px * 1.0 + px * 0.5 + ticks_w + px * 0.3


def title_lines(spec: MapSpec, width: float, px: float) -> tuple[str, ...]:
    return tuple(wrap(spec.title, px * 1.05, width, bold=True, max_lines=3)) if spec.title else ()


def layout(spec: MapSpec, box: Box, px: float) -> MapLayout:
    rows, cols = spec.data.shape
    titles = title_lines(spec, box.w, px)
    shown_lines = max(len(titles), spec.title_room if spec.title else 0)
    top = box.y + (shown_lines * px * 1.05 * LINE + px * 0.4 if shown_lines else 0.0)
    y_title_w = px * LINE if spec.y_title else 0.0
    bar_w = px * 1.0
    right_w = bar_width(spec, px) if (spec.colour_bar or spec.bar_room) else px * 0.3
    blocked = bool(spec.all_blocked().any())
    legend_lines = tuple(wrap(spec.legend, px, box.w - px * 1.8, max_lines=3)) if (spec.legend and blocked) else ()
    note_lines = tuple(wrap(spec.note, px, box.w, max_lines=3)) if spec.note else ()
    under = (px * LINE if spec.x_title else 0.0) + (len(legend_lines) + len(note_lines)) * px * LINE
    under += px * 0.4 if (legend_lines or note_lines) else 0.0
    # the labels' room depends on the cells' size and the cells' on the labels' room: first as if the labels
    # lie flat in one band, then as they are
    depth, left_bands = px * LINE + px * 0.3, 1
    for _ in range(3):
        room_w = max(box.w - y_title_w - _left_room(spec, px, left_bands) - right_w, px)
        room_h = None if box.h is None else max(box.y + box.h - top - depth - under, px)
        cell_w, cell_h = _cells(spec, room_w, room_h, px)
        bottom = bottom_axis(spec, cell_w, px, rows * cell_h + depth)
        left = left_axis(spec.row_labels, cell_h, px, spec.highlight[0])
        if bottom.depth <= depth + 1e-6 and left.labels.arrangement.bands <= left_bands:
            break
        depth, left_bands = max(depth, bottom.depth), max(left_bands, left.labels.arrangement.bands)
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
