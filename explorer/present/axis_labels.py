"""The one rule for a map's token axes, on screen and on paper: which rows or columns carry a label, at what
size, flat or upright, in how many staggered bands, and where a long token is cut.

Up to ``LABEL_ALL`` cells every cell is labelled: key labels are staggered on two lines or turned upright
when they do not fit side by side; where even upright they would have to shrink, they show their position
only ("17"), flat and at full size (the query axis beside names every token, the hover has the whole label:
at 28 tokens on a 1280×720 screen upright labels were 5–7 px, issue 38). Query labels stay in one column
next to the cells, a smaller font before a second, staggered column (a second column put the labels 60–140
px from their row). A long token is elided past the width of ``LABEL_CHARS`` digits.
Past that, labels are thinned so that they never overlap, and the selected token is always labelled.

The rule measures text through a ``TextMeasure``: the window passes its fonts' metrics
(explorer/ui/views/map/token_axis.py), print its own widths (explorer/handouts/map_layout.py). Both draw the
``AxisLabels`` this module returns, so the label rule cannot differ between screen and paper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

# Up to this many rows or columns, every one is labelled (rotated, staggered or elided as needed); past it,
# labels are thinned to what fits and the selected token is always among them.
LABEL_ALL = 32
MIN_TICK_PX = 8  # tick labels are never drawn smaller than this, however many tokens share the axis
# Upright key labels shrink no further than this before showing positions: 12 px is the application font at
# 100 % and a 9 px cap height, what a class reads from the back (issue 38)
READABLE_KEY_PX = 12
ROW_PITCH = 0.88  # query labels' spacing, in lines (their ink is about 0.86 of a Latin line)
# A second row of key labels starts at most this far below the first (px): with the tick's few pixels it stays
# within the 24 px of the cells that issue 38 allows every label; at 200 % text two rows of 24 px labels put
# the second 26 px from its cells (its text shrinks instead, to 18 px: still larger than at 100 %)
BAND_STEP = 19
LABEL_CHARS = 11  # a label is elided past the width of this many digits (the tooltip has it whole)
WIDEST_OF = 32  # the widest label is looked for among this many longest (never a thousand per paint)


class TextMeasure(Protocol):
    """How wide and tall text of ``px`` pixels is, in the renderer's own fonts."""

    def width(self, text: str, px: float) -> float: ...

    def line(self, px: float) -> float: ...  # one line's height

    def char(self, px: float) -> float: ...  # an average character's width

    def elide(self, text: str, px: float, room: float) -> str: ...  # cut with "…" to fit ``room``


@dataclass(frozen=True)
class Arrangement:
    px: float  # the labels' text size
    upright: bool  # key labels turned to read bottom to top
    bands: int  # staggered lines (key axis) or columns (query axis)
    index: bool = False  # key labels show the position only (the query axis names the token, the hover too)


@dataclass(frozen=True)
class AxisLabels:
    """The labels one axis draws: the labelled cells, their texts as drawn and whole, the arrangement, how
    long one label may be (``room``, along its own direction) and how deep one band is across the axis."""

    cells: tuple[int, ...]
    texts: tuple[str, ...]
    whole: tuple[str, ...]
    arrangement: Arrangement
    room: float
    depth: float
    stride: int = 1

    @property
    def bands(self) -> tuple[int, ...]:
        """Each label's band: neighbours alternate while every cell is labelled, a thinned axis uses one."""
        n = self.arrangement.bands if self.stride == 1 else 1
        return tuple(k % n for k in range(len(self.cells)))

    def decisions(self) -> tuple:
        """What a reader sees: which cells, the texts, upright or not, each label's band (the size aside)."""
        return (self.cells, self.texts, self.arrangement.upright, self.bands)


def label_cap(measure: TextMeasure, px: float) -> float:
    """The longest a label may be, in pixels: ``LABEL_CHARS`` digits. Digits, not the font's average
    character, which is narrower than a word's letters: "8  students" was cut to "8  stude…" (issue 38)."""
    return measure.width("0" * LABEL_CHARS, px)


def widest(measure: TextMeasure, px: float, labels) -> float:
    """The widest label in pixels, at most the cap. The longest string alone is not it ("3  pen" is as long as
    "0 This" and wider, and was elided to "3 p…"): the longest few are measured."""
    if not labels:
        return 0
    longest = sorted(labels, key=len)[-WIDEST_OF:]
    return min(label_cap(measure, px), max(measure.width(s, px) for s in longest))


def index_text(labels) -> str:
    """The widest position a key axis may show instead of its labels ("27" of "27 word")."""
    return max((str(label).split(" ")[0] for label in labels), key=len, default="")


def stride(count: int, label_all: int, need: float, per_cell: float) -> int:
    """Every ``stride``-th of ``count`` cells on view is labelled: all of them up to ``label_all``, else as
    many as leave ``need`` pixels to each label when a cell is ``per_cell`` pixels."""
    if count <= label_all:
        return 1
    return max(1, math.ceil(need / max(per_cell, 1e-9)))


def thinning_need(measure: TextMeasure, px: float, horizontal: bool, widest_px: float) -> float:
    """The room a label of a thinned axis takes along it: a line (query axis), its width and a gap (keys)."""
    return widest_px + 16 if horizontal else measure.line(px) + 2


def labelled_cells(lo: int, hi: int, step: int, selected: int | None) -> tuple[int, ...]:
    """The cells from ``lo`` to ``hi`` (past the last) that carry a label; the selected one always does."""
    start = lo + (-lo) % step
    cells = list(range(start, hi, step))
    if step > 1 and selected is not None and lo <= selected < hi:
        cells = sorted([c for c in cells if abs(c - selected) >= step] + [selected])
    return tuple(cells)


def arrange(
    per_label: float,
    horizontal: bool,
    widest_px: float,
    px: float,
    smallest: float,
    measure: TextMeasure,
    index: str = "",
    extent: float = math.inf,
) -> Arrangement:
    """Font size, upright or not, and how many staggered lines (or columns) labels ``per_label`` pixels apart
    need; ``index``: the widest position a crowded key axis may show instead (none: it never does), also
    where upright labels would be cut (``extent``: the plot's height with the axis)."""
    if horizontal:
        if widest_px + 6 <= per_label:
            return Arrangement(px, False, 1)
        if widest_px + 6 <= 2 * per_label:
            return Arrangement(_banded_px(measure, px, smallest, 1.0), False, 2)
        small = px
        while small > max(smallest, READABLE_KEY_PX) and measure.line(small) + 1 > per_label:
            small -= 1
        whole = widest_px * small / px + 2 <= upright_cap(measure, small, extent)  # upright and not cut
        if measure.line(small) + 1 <= per_label and (whole or not index):
            return Arrangement(small, True, 1)
        if index:  # the positions, flat, at full size if they fit in one or two lines, else as large as fits
            if measure.width(index, px) + 6 <= per_label:
                return Arrangement(px, False, 1, True)
            small = _banded_px(measure, px, smallest, ROW_PITCH)
            while small > smallest and measure.width(index, small) + 6 > 2 * per_label:
                small -= 1
            return Arrangement(max(small, smallest), False, 2, True)
        # upright, one band: a smaller font before a second band (height is what a map lacks most)
        small = px
        while small > smallest and measure.line(small) + 1 > per_label:
            small -= 1
        small = max(small, smallest)
        if measure.line(small) + 1 <= per_label:
            return Arrangement(small, True, 1)
    else:  # one column next to the cells, a smaller font before a second column
        small = px
        while small > smallest and row_pitch(measure, small) > per_label:
            small -= 1
        if row_pitch(measure, small) <= per_label:
            return Arrangement(small, False, 1)
    # two staggered bands; a smaller font only when even two bands are too tight
    pitch = (lambda size: measure.line(size) + 1) if horizontal else (lambda size: row_pitch(measure, size))
    small = px
    while small > smallest and pitch(small) > 2 * per_label:
        small -= 1
    return Arrangement(max(small, smallest), horizontal, 2)


def _banded_px(measure: TextMeasure, px: float, smallest: float, pitch: float) -> float:
    """The largest text size up to ``px`` (not under ``smallest``) whose second row of key labels, ``pitch``
    lines below the first, starts within ``BAND_STEP`` of it."""
    small = px
    while small > smallest and measure.line(small) * pitch > BAND_STEP:
        small -= 1
    return max(small, smallest)


def row_pitch(measure: TextMeasure, px: float) -> float:
    """How far apart query labels may be: their ink (ascenders to descenders, about 0.86 of a Latin line, less
    of a Japanese one), not the font's whole line. At 28 tokens a whole line cost the labels 2 px of size
    at 1280×720, and a slide's second column of labels 134 px of distance to their row."""
    return ROW_PITCH * measure.line(px)


def upright_cap(measure: TextMeasure, px: float, extent: float) -> float:
    """How long an upright key label may be: about a fifth of the plot's height (``extent``), the map's."""
    return max(measure.char(px) * 4, 0.2 * extent)


def need(arrangement: Arrangement, horizontal: bool, widest_px: float, measure: TextMeasure, index: str = "") -> float:
    """The smallest label spacing (pixels) at which ``arrangement`` fits."""
    if arrangement.index:
        return (measure.width(index, arrangement.px) + 6) / arrangement.bands
    if horizontal and not arrangement.upright:
        return (widest_px + 6) / arrangement.bands
    if not horizontal:
        return row_pitch(measure, arrangement.px) / arrangement.bands
    return (measure.line(arrangement.px) + 1) / arrangement.bands


def room(
    arrangement: Arrangement,
    horizontal: bool,
    per_label: float,
    widest_px: float,
    extent: float,
    measure: TextMeasure,
) -> tuple[float, float]:
    """How long a label may be (along its own direction) and how deep one band of them is; ``extent``: the
    plot's height with the axis (upright labels take at most about a fifth of it)."""
    px, upright, bands = arrangement.px, arrangement.upright, arrangement.bands
    cap = label_cap(measure, px)
    if horizontal and not upright:
        return min(cap, per_label * bands - 4), measure.line(px)  # a staggered label may use two cells' width
    length = min(cap, widest_px + 2)
    if horizontal:
        length = min(length, upright_cap(measure, px, extent))
    return length, length + 4


def labels_drawn(
    labels, cells, arrangement: Arrangement, length: float, depth: float, step: int, measure: TextMeasure
) -> AxisLabels:
    """The labels of ``cells`` as drawn: each cut with "…" past ``length`` (its position only, when the
    arrangement says so)."""
    cells = tuple(int(c) for c in cells)
    whole = tuple(labels[c] for c in cells)
    if arrangement.index:
        texts = tuple(str(w).split(" ")[0] for w in whole)
    else:
        texts = tuple(measure.elide(w, arrangement.px, max(1, int(length))) for w in whole)
    return AxisLabels(cells, texts, whole, arrangement, length, depth, step)


@dataclass(frozen=True)
class AxisRoom:
    """Where an axis is drawn: the cells on view (``lo`` to ``hi``), how far apart their centres are, the
    plot's height with the axis (``extent``), the text size and the smallest it may shrink to."""

    lo: int
    hi: int
    per_cell: float
    extent: float
    px: float
    smallest: float = MIN_TICK_PX


def lay_out(
    labels,
    where: AxisRoom,
    horizontal: bool,
    measure: TextMeasure,
    selected: int | None = None,
    label_all: int = LABEL_ALL,
) -> AxisLabels:
    """The whole rule for one axis drawn once (print; the window keeps its arrangement steady across paints)."""
    px = where.px
    widest_px = widest(measure, px, labels)
    step = stride(where.hi - where.lo, label_all, thinning_need(measure, px, horizontal, widest_px), where.per_cell)
    cells = labelled_cells(where.lo, where.hi, step, selected)
    per_label = where.per_cell * step
    index = index_text(labels) if horizontal and label_all else ""
    arrangement = arrange(per_label, horizontal, widest_px, px, min(where.smallest, px), measure, index, where.extent)
    length, depth = room(arrangement, horizontal, per_label, widest_px, where.extent, measure)
    return labels_drawn(labels, cells, arrangement, length, depth, step, measure)
