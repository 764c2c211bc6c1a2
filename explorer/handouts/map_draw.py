"""One map or matrix as drawing primitives, laid out by ``map_layout``: cells (vector squares up to
``VECTOR_LIMIT`` a side, one nearest-neighbour picture beyond), the hatching of blocked cells as clipped
segments, the numbers where they fit, the selected row and column, axes, colour bar, legend and note.
The rules are the window's (explorer/ui/views/map/map_layers.py): the same colours, limits and text sizes."""

from __future__ import annotations

import dataclasses

import numpy as np

from explorer.handouts import colours as col
from explorer.handouts.hatching import hatch_segments
from explorer.handouts.map_layout import LINE, Box, MapLayout, MapSpec, layout, title_lines
from explorer.handouts.scene import Image, Line, Rect, Text
from explorer.handouts.text import ASCENT, CENTRE_TO_BASELINE, elide
from explorer.present.figure import NUMBERS_UP_TO
from explorer.present.hatching import blocked_runs, hatched
from explorer.present.number_format import map_format

VECTOR_LIMIT = 128  # cells as vector squares up to this many rows and columns (the classroom E); a picture beyond
BAR_STEPS = 128


def draw_map(spec: MapSpec, box: Box, px: float, theme: col.Theme) -> tuple[list, MapLayout]:
    """The primitives of one map, and its layout (``bottom_y`` says how much of the box it used)."""
    lay = layout(spec, box, px)
    return draw_laid_out(spec, lay, box, theme), lay


def draw_row(specs: list[MapSpec], extra: list[float], box: Box, px: float, theme: col.Theme) -> tuple[list, float]:
    """Maps side by side in ``box`` with cells of one size: each as wide as the others plus its ``extra``
    (room for an axis title or a colour bar), titles on one level; (items, the lowest map's bottom)."""
    gap = px * 1.2
    base = (box.w - (len(specs) - 1) * gap - sum(extra)) / len(specs)
    widths = [base + e for e in extra]
    room = max(len(title_lines(s, w, px)) for s, w in zip(specs, widths))
    items: list = []
    bottom, x = box.y, box.x
    for spec, w in zip(specs, widths):
        part, lay = draw_map(dataclasses.replace(spec, title_room=room), Box(x, box.y, w, box.h), px, theme)
        items += part
        bottom = max(bottom, lay.bottom_y)
        x += w + gap
    return items, bottom


def draw_laid_out(spec: MapSpec, lay: MapLayout, box: Box, theme: col.Theme) -> list:
    """The primitives of one map laid out by the caller (a grid of heads places its maps itself); the title
    is centred on ``box``."""
    px = lay.px
    items: list = []
    for k, line in enumerate(lay.title_lines):
        items.append(
            Text(box.x + box.w / 2, lay.title_y + k * px * 1.05 * LINE, line, px * 1.05, theme.ink, "middle", bold=True)
        )
    blocked = spec.all_blocked()
    rgb = col.colours(spec.data, spec.levels, spec.signed)
    items += _cells(lay, rgb, blocked, VECTOR_LIMIT if spec.vector_limit is None else spec.vector_limit)
    hatch = hatched(blocked)
    if hatch is not None:
        spacing = max(px * 0.35, min(px * 0.7, min(lay.cell_w, lay.cell_h) / 3))
        width = max(0.5, px * 0.07)
        items += [
            Line(*s, col.MASK_HATCH, width)
            for s in hatch_segments(blocked_runs(hatch), lay.x, lay.y, lay.cell_w, lay.cell_h, spacing)
        ]
    items += _numbers(spec, lay, rgb, blocked)
    items += _highlight(spec, lay)
    items += _axes(spec, lay, theme)
    if lay.bar_x is not None:
        items += _colour_bar(spec, lay, theme)
    items += _below(spec, lay, box, theme)
    return items


def _cells(lay: MapLayout, rgb: np.ndarray, blocked: np.ndarray, limit: int) -> list:
    rows, cols = blocked.shape
    if rows > limit or cols > limit:
        pixels = np.array(rgb, dtype=np.uint8, copy=True)
        pixels[blocked] = (200, 200, 204)
        return [Image(lay.x, lay.y, lay.w, lay.h, pixels)]
    # each square reaches a little into its right and lower neighbours (drawn after it): anti-aliased edges
    # of touching squares would otherwise let the paper show through as hairlines
    over_w, over_h = lay.cell_w * 0.04, lay.cell_h * 0.04
    items = []
    for i in range(rows):
        for j in range(cols):
            fill = col.MASK_FILL if blocked[i, j] else col.hex_colour(rgb[i, j])
            w = lay.cell_w + (over_w if j < cols - 1 else 0.0)
            h = lay.cell_h + (over_h if i < rows - 1 else 0.0)
            items.append(Rect(lay.x + j * lay.cell_w, lay.y + i * lay.cell_h, w, h, fill))
    return items


def _numbers(spec: MapSpec, lay: MapLayout, rgb: np.ndarray, blocked: np.ndarray) -> list:
    rows, cols = spec.data.shape
    if rows > NUMBERS_UP_TO or cols > NUMBERS_UP_TO:
        return []
    number = map_format(spec.data)  # the window's format: the map's range chooses the decimals
    texts = [[number(v) for v in row] for row in spec.data]
    longest = max((len(t) for row in texts for t in row), default=1) or 1
    size = min(lay.px * 1.2, lay.cell_h * 0.45, lay.cell_w / (0.62 * longest + 0.4))
    if size < lay.px * 0.55:
        return []  # too small to read: the window prints none either
    dark = col.dark_text(rgb) | blocked
    items = []
    for i in range(rows):
        for j in range(cols):
            cx = lay.x + (j + 0.5) * lay.cell_w
            cy = lay.y + (i + 0.5) * lay.cell_h + CENTRE_TO_BASELINE * size
            items.append(Text(cx, cy, texts[i][j], size, "#000000" if dark[i, j] else "#ffffff", "middle"))
    return items


def _highlight(spec: MapSpec, lay: MapLayout) -> list:
    """The selected row (query token) and column (key): a dark frame with a white core, as in the window."""
    items = []
    row, column = spec.highlight
    outer, inner = max(1.0, lay.px * 0.3), max(0.5, lay.px * 0.14)
    rects = []
    if row is not None and 0 <= row < lay.rows:
        rects.append((lay.x, lay.y + row * lay.cell_h, lay.w, lay.cell_h))
    if column is not None and 0 <= column < lay.cols:
        rects.append((lay.x + column * lay.cell_w, lay.y, lay.cell_w, lay.h))
    for width, colour in ((outer, "#000000"), (inner, "#ffffff")):
        items += [Rect(x, y, w, h, None, colour, width) for x, y, w, h in rects]
    return items


def _axes(spec: MapSpec, lay: MapLayout, theme: col.Theme) -> list:
    px = lay.px
    tick = px * 0.3
    items: list = [
        Line(lay.x, lay.y, lay.x, lay.y + lay.h, theme.axis, max(0.5, px * 0.06)),
        Line(lay.x, lay.y + lay.h, lay.x + lay.w, lay.y + lay.h, theme.axis, max(0.5, px * 0.06)),
    ]
    items += _left_labels(lay, theme, tick)
    items += _bottom_labels(lay, theme, tick)
    if spec.y_title:
        x = lay.x - lay.left.depth - px * 0.35
        items.append(
            Text(x, lay.y + lay.h / 2, elide(spec.y_title, px, max(lay.h, px * 8)), px, theme.ink, "middle", rotate=-90)
        )
    if spec.x_title:
        items.append(Text(lay.x + lay.w / 2, lay.below_y + px * 0.95, spec.x_title, px, theme.ink, "middle"))
    return items


def _left_labels(lay: MapLayout, theme: col.Theme, tick: float) -> list:
    """The row labels the shared rule chose (explorer/present/axis_labels.py), right-aligned in their band."""
    labels, px = lay.left.labels, lay.px
    size = labels.arrangement.px
    items: list = []
    for i, text, band in zip(labels.cells, labels.texts, labels.bands):
        y = lay.y + (i + 0.5) * lay.cell_h
        items.append(Line(lay.x - tick, y, lay.x, y, theme.axis, max(0.5, px * 0.06)))
        right = lay.x - tick - px * 0.2 - band * labels.depth
        items.append(Text(right, y + CENTRE_TO_BASELINE * size, text, size, theme.ink, "end"))
    return items


def _bottom_labels(lay: MapLayout, theme: col.Theme, tick: float) -> list:
    """The key labels the shared rule chose: flat on staggered lines, or upright (its end at the axis)."""
    labels, px = lay.bottom.labels, lay.px
    size = labels.arrangement.px
    base = lay.y + lay.h
    items: list = []
    for j, text, band in zip(labels.cells, labels.texts, labels.bands):
        x = lay.x + (j + 0.5) * lay.cell_w
        items.append(Line(x, base, x, base + tick, theme.axis, max(0.5, px * 0.06)))
        top = base + lay.bottom.gap + band * labels.depth
        if labels.arrangement.upright:  # reads bottom to top, its end at the axis
            items.append(Text(x + CENTRE_TO_BASELINE * size, top, text, size, theme.ink, "end", rotate=-90))
        else:
            items.append(Text(x, top + size * ASCENT, text, size, theme.ink, "middle"))
    return items


def _colour_bar(spec: MapSpec, lay: MapLayout, theme: col.Theme) -> list:
    return colour_bar(spec, lay.bar_x, lay.y, lay.bar_w, lay.h, lay.ticks, lay.px, theme)


def colour_bar(spec: MapSpec, x: float, top: float, w: float, h: float, ticks, px: float, theme: col.Theme) -> list:
    """The colour scale of ``spec``'s levels as a bar ``w`` × ``h`` at (x, top), its ``ticks`` beside it."""
    lo, hi = spec.levels
    step = h / BAR_STEPS
    values = hi - (np.arange(BAR_STEPS) + 0.5) * (hi - lo) / BAR_STEPS  # top: the highest value
    rgb = col.colours(values, spec.levels, spec.signed)
    items: list = [
        Rect(x, top + k * step, w, step + (step * 0.5 if k < BAR_STEPS - 1 else 0.0), col.hex_colour(rgb[k]))
        for k in range(BAR_STEPS)
    ]
    items.append(Rect(x, top, w, h, None, theme.axis, max(0.5, px * 0.06)))
    for v, label in ticks:
        y = top + (hi - v) / ((hi - lo) or 1.0) * h
        items.append(Line(x + w, y, x + w + px * 0.3, y, theme.axis, max(0.5, px * 0.06)))
        items.append(Text(x + w + px * 0.5, y + CENTRE_TO_BASELINE * px, label, px, theme.ink, "start"))
    return items


def _below(spec: MapSpec, lay: MapLayout, box: Box, theme: col.Theme) -> list:
    y = lay.below_y + (lay.px * LINE if spec.x_title else 0.0) + lay.px * 0.4
    return legend_and_note(box.x, y, lay.legend_lines, lay.note_lines, lay.px, theme)


def legend_and_note(x: float, y: float, legend_lines, note_lines, px: float, theme: col.Theme) -> list:
    """The hatched swatch with its legend, then the note, from (x, y) down."""
    box = Box(x, y, 0.0)
    items: list = []
    if legend_lines:
        s = px
        items.append(Rect(box.x, y, s, s, col.MASK_FILL))
        runs = [(0, 0, 1)]
        items += [
            Line(*seg, col.MASK_HATCH, max(0.5, px * 0.07)) for seg in hatch_segments(runs, box.x, y, s, s, s / 3)
        ]
        items.append(Rect(box.x, y, s, s, None, col.MASK_HATCH, max(0.5, px * 0.06)))
        for k, line in enumerate(legend_lines):
            items.append(Text(box.x + s * 1.6, y + k * px * LINE + px * 0.85, line, px, theme.ink))
        y += len(legend_lines) * px * LINE
    for k, line in enumerate(note_lines):
        items.append(Text(box.x, y + k * px * LINE + px * 0.85, line, px, theme.faint))
    return items
