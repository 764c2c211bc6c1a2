"""Every head of one layer at once (``TraceResult.heads``, ``figure --all-heads``), as BertViz's head view
and the window's grid of heads show them: the stage's title, then one small map per head in the window's
order (rows of ⌈√H⌉, explorer/ui/views/map/head_grid.py), each titled "head h", on the colour levels every
head of the layer shares (each map is the stage figure's own panel of that head, so its colours are the
figure's), token labels on the grid's outer edge only, one colour bar, one legend.

A grid has many cells: they are vector squares up to as many as one 64-token map holds, pictures beyond
(one pixel per cell in a notebook), so that a 512-token layer of 9 heads stays under 2 MB."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from explorer import names
from explorer.errors import ConfigError
from explorer.handouts import colours as col
from explorer.handouts.map_draw import colour_bar, draw_laid_out, legend_and_note
from explorer.handouts.map_layout import (
    LINE,
    Axis,
    Box,
    MapLayout,
    MapSpec,
    bar_ticks,
    bar_width,
    bottom_axis,
    left_axis,
)
from explorer.handouts.scene import Scene, Text
from explorer.handouts.stage_figure import Frame, check_selection, header, spec_of, stage_title
from explorer.handouts.text import elide, text_width, wrap
from explorer.handouts.words import ENGLISH, FigureWords
from explorer.present import figure, matrices
from explorer.present.axis_labels import Arrangement, AxisLabels
from explorer.session.request import Selection

VECTOR_CELLS = 64 * 64  # the whole grid's cells as vector squares up to this many; pictures beyond


def check_heads(trace, sel: Selection, columns: int | None) -> None:
    """One line for what a grid of heads cannot draw: a stage without maps, a sentence the window shows one
    head of at a time, a column count that is not 1 … H."""
    check_selection(trace, sel)
    if sel.stage not in names.PAIRWISE_STAGES:
        raise ConfigError(
            f"stage {sel.stage} has no map per head; every head is drawn for {', '.join(names.PAIRWISE_STAGES)}"
        )
    if matrices.shows_one_head(trace, sel.row):
        raise ConfigError(
            f"sentence {sel.row} has more than {matrices.GRID_MAX_TOKENS} tokens: draw one head at a time (map)"
        )
    heads = trace.config.H
    if columns is not None and (isinstance(columns, bool) or not isinstance(columns, int) or not 1 <= columns <= heads):
        raise ConfigError(f"columns must be a whole number from 1 to {heads}, got {columns!r}")


def heads_scene(
    trace, sel: Selection, frame: Frame, words: FigureWords = ENGLISH, theme: str = "light", columns=None
) -> Scene:
    """The figure of every head of ``sel.layer`` at ``sel.stage``; ``columns``: maps per row (None: ⌈√H⌉)."""
    check_heads(trace, sel, columns)
    th = col.theme(theme)
    px = frame.text_px()
    scene = Scene(frame.width, frame.height or 0.0, background=th.paper)
    head_items, top = header(trace, sel, frame.width, px, words, th)
    scene.extend(head_items)
    pad = px * 0.5
    box = Box(pad, top, frame.width - 2 * pad, None if frame.height is None else frame.height - top - pad)
    specs = head_specs(trace, sel, words)
    items, bottom = draw_grid(specs, box, px, th, columns or math.ceil(math.sqrt(len(specs))))
    scene.extend(items)
    if frame.height is None:
        scene.height = float(math.ceil(bottom + px * 0.6))
    scene.title = stage_title(trace, sel, words)
    return scene


def head_specs(trace, sel: Selection, words: FigureWords) -> list[MapSpec]:
    """Each head's map: the stage figure's panel of that head (its levels shared by the layer's heads),
    titled "head h", its axis titles, colour bar, legend and note drawn once for the grid."""
    n = trace.rows[sel.row].length
    limit = n if trace.config.H * n * n <= VECTOR_CELLS else 0
    specs = []
    for h in range(trace.config.H):
        spec = spec_of(figure.head_panel(trace, dataclasses.replace(sel, head=h)), words)
        specs.append(dataclasses.replace(spec, title=words["head"].format(h=h), colour_bar=False, vector_limit=limit))
    return specs


@dataclass(frozen=True)
class Grid:
    """Where the maps go: ``columns`` per row, each ``side`` square, the first one's cells at (x, y)."""

    columns: int
    rows: int
    side: float
    gap: float  # between columns (room for the key labels at the maps' ends)
    row_gap: float
    title_h: float  # a map's title line above its cells
    x: float
    y: float
    left: Axis  # the first column's row labels
    bottom: Axis  # the key labels under each column's lowest map

    def origin(self, h: int) -> tuple[float, float]:
        r, c = divmod(h, self.columns)
        return self.x + c * (self.side + self.gap), self.y + r * (self.title_h + self.side + self.row_gap)


def grid_of(specs: list[MapSpec], box: Box, px: float, columns: int, under: float) -> Grid:
    """The maps' size: as wide as the box allows beside the row labels and the colour bar (and, for a box of
    fixed height, as tall); the row labels' room follows the cells' size, so it is found in a few rounds."""
    spec, n = specs[0], len(specs[0].row_labels)
    rows = math.ceil(len(specs) / columns)
    gap = row_gap = px * 0.8
    title_h = px * 1.05 * LINE + px * 0.4
    depth, bottom_depth = 0.0, px * LINE + px * 0.3
    for _ in range(5):
        side = max(px, (box.w - px * LINE - depth - (columns - 1) * gap - bar_width(spec, px)) / columns)
        if box.h is not None:  # a fixed size: the grid's rows fit its height too
            side = max(px, min(side, (box.h - rows * title_h - (rows - 1) * row_gap - bottom_depth - under) / rows))
        left = left_axis(spec.row_labels, side / n, px, spec.highlight[0])
        bottom = bottom_axis(spec, side / n, px, side + bottom_depth)
        # flat key labels at a map's ends reach past it: the gap keeps them off the next map's labels
        need = max(gap, overhang(bottom, side / n, side) + px * 0.5) if columns > 1 else gap
        if left.depth <= depth + 1e-6 and bottom.depth <= bottom_depth + 1e-6 and need <= gap + 1e-6:
            break
        depth, bottom_depth, gap = max(depth, left.depth), max(bottom_depth, bottom.depth), need
    used = px * LINE + depth + columns * side + (columns - 1) * gap + bar_width(spec, px)
    x = box.x + px * LINE + depth + max(0.0, (box.w - used) / 2)  # a grid the height limits sits in the middle
    return Grid(columns, rows, side, gap, row_gap, title_h, x, box.y + title_h, left, bottom)


def overhang(bottom: Axis, cell: float, side: float) -> float:
    """How far the key labels reach past the map's left edge plus past its right edge."""
    labels = bottom.labels
    if labels.arrangement.upright:
        return labels.arrangement.px  # half a line each side
    half = [text_width(t, labels.arrangement.px) / 2 for t in labels.texts]
    centres = [(j + 0.5) * cell for j in labels.cells]
    left = max((w - c for w, c in zip(half, centres)), default=0.0)
    right = max((c + w - side for w, c in zip(half, centres)), default=0.0)
    return max(0.0, left) + max(0.0, right)


def _no_labels(axis: Axis) -> Axis:
    """An inner edge of the grid: the axis line without labels (its neighbour's labels say the tokens)."""
    quiet = AxisLabels((), (), (), Arrangement(axis.size, False, 1), 0.0, 0.0)
    return Axis(quiet, axis.gap)


def draw_grid(specs: list[MapSpec], box: Box, px: float, theme: col.Theme, columns: int) -> tuple[list, float]:
    """Every head's map, then the shared axis titles, colour bar, legend and note; returns the items and their
    bottom."""
    spec = specs[0]
    legend = tuple(wrap(spec.legend, px, box.w - px * 1.8, max_lines=3)) if spec.all_blocked().any() else ()
    note = tuple(wrap(spec.note, px, box.w, max_lines=3)) if spec.note else ()
    under = px * LINE + (len(legend) + len(note)) * px * LINE + px * 0.4
    grid = grid_of(specs, box, px, columns, under)
    n, cell = len(spec.row_labels), grid.side / len(spec.row_labels)
    items: list = []
    lowest = grid.y
    for h, head_spec in enumerate(specs):
        x, y = grid.origin(h)
        outer_left, outer_bottom = h % columns == 0, h + columns >= len(specs)
        left = grid.left if outer_left else _no_labels(grid.left)
        bottom = grid.bottom if outer_bottom else _no_labels(grid.bottom)
        end = y + grid.side + bottom.depth
        lay = MapLayout(px, (head_spec.title,), y - grid.title_h + px * 1.05 * 0.95, x, y, cell, cell, n, n, left,
                        bottom, None, 0.0, (), end, (), (), end)  # fmt: skip
        items += draw_laid_out(dataclasses.replace(head_spec, x_title="", y_title=""), lay, Box(x, y, grid.side), theme)
        lowest = max(lowest, end)
    items += _shared(spec, grid, box, px, theme, lowest)
    y = lowest + px * LINE + px * 0.4
    items += legend_and_note(box.x, y, legend, note, px, theme)
    return items, y + (len(legend) + len(note)) * px * LINE


def _shared(spec: MapSpec, grid: Grid, box: Box, px: float, theme: col.Theme, lowest: float) -> list:
    """The query axis's title beside the grid, the key axis's under it, one colour bar right of it."""
    right = grid.x + grid.columns * grid.side + (grid.columns - 1) * grid.gap
    top, height = grid.y, (grid.rows - 1) * (grid.title_h + grid.side + grid.row_gap) + grid.side
    middle = (grid.x + right) / 2
    x_title = grid.x - grid.left.depth - px * 0.35  # as a single map's (explorer/handouts/map_draw.py)
    items: list = [
        Text(x_title, top + height / 2, elide(spec.y_title, px, height), px, theme.ink, "middle", rotate=-90),
        Text(middle, lowest + px * 0.95, spec.x_title, px, theme.ink, "middle"),
    ]
    ticks = bar_ticks(spec, height, px)
    items += colour_bar(spec, right + px * 0.8, top, px * 1.0, height, ticks, px, theme)
    return items
