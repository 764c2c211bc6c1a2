"""The axes of a heatmap: one tick per row or column (the cell's centre), labelled with its token.

Up to ``LABEL_ALL`` cells on screen every cell is labelled with its token (staggered or upright as needed,
a very long token elided); past it labels are thinned to what fits. The labels' layout is computed when the
axis picture is regenerated (labels or range changed), not on every paint.

A layout that makes room for its labels changes the plot it labels: the map's square cells grow or shrink,
which may call for another arrangement of the labels, which makes other room, and so on. The key axis once
flipped between token labels and indices several times a second on an idle window (issue 22). An axis
therefore never takes back room it reserved while nothing outside it changed (``_Latch``): the arrangement
can only move towards more room, a finite walk that ends.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFont, QFontInfo, QFontMetrics
from PySide6.QtWidgets import QApplication

from explorer.present import axis_labels as rule
from explorer.present.axis_labels import LABEL_ALL, MIN_TICK_PX, AxisLabels, AxisRoom
from explorer.ui.words.plain_text import plain_tip


def base_px() -> int:
    """The application font's size in pixels: the figures' text starts from it."""
    return QFontInfo(QApplication.font()).pixelSize() or 12


def tick_font(px: float) -> QFont:
    font = QFont(QApplication.font())
    font.setPixelSize(max(1, int(px)))
    return font


class FontMeasure:
    """The label rule's measurements (explorer/present/axis_labels.py) in the window's fonts."""

    def __init__(self) -> None:
        self._metrics: dict[tuple[int, str], QFontMetrics] = {}

    def metrics(self, px: float) -> QFontMetrics:
        font = tick_font(px)
        key = (font.pixelSize(), font.key())  # the application's font changes with the language and text size
        fm = self._metrics.get(key)
        if fm is None:
            if len(self._metrics) > 64:
                self._metrics.clear()
            fm = self._metrics[key] = QFontMetrics(font)
        return fm

    def width(self, text: str, px: float) -> float:
        return self.metrics(px).horizontalAdvance(text)

    def line(self, px: float) -> float:
        return self.metrics(px).height()

    def char(self, px: float) -> float:
        return self.metrics(px).averageCharWidth()

    def elide(self, text: str, px: float, room: float) -> str:
        return self.metrics(px).elidedText(text, Qt.TextElideMode.ElideRight, max(1, int(room)))


FONT_MEASURE = FontMeasure()


class TokenAxis(pg.AxisItem):
    """An axis whose ticks are the rows or columns themselves (cell centres), labelled with token strings.

    Up to ``LABEL_ALL`` cells on screen every cell is labelled: key labels are staggered on two lines or
    turned upright when they do not fit side by side, query labels stagger in two columns, and a long token
    is elided (hover it for the whole token). Past that, labels are thinned so that they never overlap,
    whatever the zoom, and the selected token is always labelled.
    """

    def __init__(self, orientation: str, label_all: int = LABEL_ALL) -> None:
        super().__init__(orientation)
        self.label_all = label_all  # 0: an index axis (dimensions), thinned like any numeric axis
        self.labels: tuple[str, ...] = ()
        self.selected: int | None = None
        self._px = base_px()
        self.smallest = MIN_TICK_PX  # a crowded axis shrinks its labels down to this, never below
        self._widest = 0
        self._index = ""  # the widest position a crowded key axis shows instead of its labels
        self._arranged_depth = 0  # what the last paint's arrangement of key labels reserved (_layout)
        self._arranged_bands, self._arranged_px = 1, 0  # and in how many columns, at what size, the query labels
        self._texts: list[tuple[QRectF, int, str, str, bool]] = []  # (rect, flags, drawn, whole, upright)
        self.arranged: AxisLabels | None = None  # the labels the last paint drew, as the shared rule decided
        self.arranged_in: AxisRoom | None = None  # and the room it decided them for
        self._latch = _Latch()
        self.on_reserved = None  # called when the axis takes other room
        self.enableAutoSIPrefix(False)
        self.setStyle(autoExpandTextSpace=False)
        self.setTickFont(self._font(self._px))

    # ------------------------------------------------------------------ content
    def set_labels(self, labels) -> None:
        labels = tuple(labels)
        if labels == self.labels:  # a new map of the same tokens: the cached tick picture still holds
            return
        self.labels = labels
        self._measure()

    def set_selected(self, index: int | None) -> None:
        if index != self.selected:
            self.selected = index
            self.picture = None
            self.update()

    def set_text_px(self, px: int, smallest: int = MIN_TICK_PX) -> None:
        """Labels at ``px`` pixels, never smaller than ``smallest`` (a slide's labels keep their size)."""
        self.smallest = min(smallest, px)
        if px != self._px:
            self._px, self._arranged_px = px, 0  # the last arrangement's size was for the old text size
            self.setTickFont(self._font(px))
            self._measure()

    def text_px(self) -> int:
        return self._px

    @staticmethod
    def _font(px: int) -> QFont:
        return tick_font(px)

    def _measure(self) -> None:
        self._widest = rule.widest(FONT_MEASURE, self._px, self.labels)
        # a crowded key axis may show positions instead (never an index axis, whose labels are positions)
        self._index = rule.index_text(self.labels) if self.orientation == "bottom" and self.label_all else ""
        if self.orientation in ("left", "right"):
            # reserve the room now, as the paint will (_layout, rule.room): pyqtgraph would only widen the axis
            # after a first, clipped paint, and 2 px less for a capped label moved the map after its paint
            arranged = self._arranged_px or self._px
            self._reserve((min(rule.label_cap(FONT_MEASURE, arranged), self._widest + 2) + 4) * self._arranged_bands)
        else:
            # at least a line; more stays until the paint arranges the new labels (_layout): reset to one line
            # here, every new sentence resized the plot twice (one line, then two staggered bands) and the
            # map jumped 14 px and was painted again
            self._reserve(max(FONT_MEASURE.line(self._px), self._arranged_depth))
        self.picture = None
        self.update()

    def _reserve(self, across: float) -> None:
        across = int(math.ceil(across))
        key = "tickTextWidth" if self.orientation in ("left", "right") else "tickTextHeight"
        if across != self.style[key]:
            self.style[key] = across  # pyqtgraph sizes the axis from it (autoExpandTextSpace is off)
            self._adjustSize()
            if self.on_reserved is not None:
                self.on_reserved()  # a square map's margins follow in the same layout pass (square_hug.py)

    # ------------------------------------------------------------------ which cells
    def _visible(self, minVal: float, maxVal: float) -> tuple[int, int]:
        minVal, maxVal = sorted((minVal, maxVal))  # an inverted axis (rows top-down) passes them reversed
        return max(0, int(math.floor(minVal))), min(len(self.labels), int(math.ceil(maxVal)))

    def tickValues(self, minVal: float, maxVal: float, size: float):
        n = len(self.labels)
        if n == 0:
            return []
        lo, hi = self._visible(minVal, maxVal)
        if hi <= lo:
            return []
        minVal, maxVal = sorted((minVal, maxVal))
        horizontal = self.orientation in ("top", "bottom")
        need = rule.thinning_need(FONT_MEASURE, self._px, horizontal, self._widest)
        per_cell = max(size, 1.0) / max(maxVal - minVal, 1e-9)  # pixels per row/column on screen
        stride = rule.stride(hi - lo, self.label_all, need, per_cell)
        return [(float(stride), [i + 0.5 for i in rule.labelled_cells(lo, hi, stride, self.selected)])]

    def tickStrings(self, values, scale, spacing):
        return [self.labels[int(v)] if 0 <= int(v) < len(self.labels) else "" for v in values]

    # ------------------------------------------------------------------ drawing
    def generateDrawSpecs(self, p):
        show = self.style["showValues"]
        self.style["showValues"] = False  # pyqtgraph draws the line and ticks; the labels are laid out here
        try:
            axis_spec, tick_specs, _ = super().generateDrawSpecs(p)
        finally:
            self.style["showValues"] = show
        self._texts = self._layout() if show else []
        return axis_spec, tick_specs, [(rect, flags, text) for rect, flags, text, _whole, _up in self._texts]

    def _layout(self) -> list:
        vb = self.linkedView()
        if vb is None or not self.labels:
            return []
        horizontal = self.orientation in ("top", "bottom")
        lo_v, hi_v = vb.viewRange()[0 if horizontal else 1]
        length = self.width() if horizontal else self.height()
        ticks = self.tickValues(lo_v, hi_v, length)
        if not ticks:
            return []
        stride, values = ticks[0]
        stride = int(stride)
        along = lambda v: self._along(vb, v, horizontal)  # noqa: E731
        per_cell = abs(along(1.0) - along(0.0))
        per_label = per_cell * stride
        smallest = min(self.smallest, self._px)
        outside = (self.labels, self._px, stride, _size(_outermost(self)))
        extent = vb.height() + self.height()  # upright labels take at most about a fifth of the plot's height
        arrangement = self._latch.hold(
            outside,
            rule.arrange(per_label, horizontal, self._widest, self._px, smallest, FONT_MEASURE, self._index, extent),
            lambda a: rule.need(a, horizontal, self._widest, FONT_MEASURE, self._index),
        )
        px, upright, bands = arrangement.px, arrangement.upright, arrangement.bands
        font = self._font(px)
        if font != self.style["tickFont"]:
            self.style["tickFont"] = font
        line = FONT_MEASURE.line(px)
        gap = max(0, self.style["tickLength"]) + self.style["tickTextOffset"][0 if not horizontal else 1]
        # the room of the labels at their full size, even when drawn smaller: an axis that narrowed with its font
        # widened the cells, which then fitted a larger font, which widened the axis… (a cycle, _Latch)
        room, depth = rule.room(arrangement, horizontal, per_label, self._widest, extent, FONT_MEASURE)
        self._arranged_depth, self._arranged_bands, self._arranged_px = math.ceil(depth * bands), bands, px
        self._reserve(depth * bands)
        cells = [int(v) for v in values]
        self.arranged = rule.labels_drawn(self.labels, cells, arrangement, room, depth, stride, FONT_MEASURE)
        self.arranged_in = AxisRoom(*self._visible(lo_v, hi_v), per_cell, extent, self._px, smallest)
        out = []
        for v, text, whole, band in zip(values, self.arranged.texts, self.arranged.whole, self.arranged.bands):
            pos = along(v)
            if horizontal and not upright:
                # positions (digits: no descenders) stagger closer than a line, their second row against the first
                step = line * rule.ROW_PITCH if arrangement.index else line
                rect = QRectF(pos - room / 2, gap + band * step, room, step)
                flags = int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop) | int(Qt.TextFlag.TextDontClip)
            elif horizontal:  # upright: reads bottom to top, its end at the axis
                rect = QRectF(pos - line / 2, gap + band * depth, line, room)
                flags = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            else:  # rows closer than a line (rule.row_pitch): each rect its cell's height, the text not clipped
                right = self.width() - gap - band * depth
                tall = min(line, per_label * bands)
                rect = QRectF(right - room, pos - tall / 2, room, tall)
                flags = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter) | int(Qt.TextFlag.TextDontClip)
            out.append((rect, flags, text, whole, horizontal and upright))
        return out

    def _along(self, vb, v: float, horizontal: bool) -> float:
        scene = vb.mapViewToScene(QPointF(v, v))
        local = self.mapFromScene(scene)
        return local.x() if horizontal else local.y()

    def drawPicture(self, p, axisSpec, tickSpecs, textSpecs):
        p.setRenderHint(p.RenderHint.Antialiasing, False)
        p.setRenderHint(p.RenderHint.TextAntialiasing, True)
        pen, p1, p2 = axisSpec
        p.setPen(pen)
        p.drawLine(p1, p2)
        for pen, p1, p2 in tickSpecs:
            p.setPen(pen)
            p.drawLine(p1, p2)
        p.setFont(self.style["tickFont"])
        p.setPen(self.textPen())
        for rect, flags, text, _whole, upright in self._texts:
            if upright:
                p.save()
                p.translate(rect.center().x(), rect.top())
                p.rotate(-90)
                p.drawText(QRectF(-rect.height(), -rect.width() / 2, rect.height(), rect.width()), flags, text)
                p.restore()
            else:
                p.drawText(rect, flags, text)

    # ------------------------------------------------------------------ reading back, tooltips
    def drawn(self) -> list[tuple[QRectF, str, str]]:
        """What the last paint drew: (rect in the axis, text drawn, the whole label)."""
        return [(rect, text, whole) for rect, _f, text, whole, _u in self._texts]

    def label_at(self, pos: QPointF) -> str | None:
        for rect, _f, _text, whole, _u in self._texts:
            if rect.contains(pos):
                return whole
        return None

    def hoverEvent(self, ev) -> None:
        if ev.isExit():
            self.setToolTip("")
            return
        whole = self.label_at(ev.pos())
        self.setToolTip(plain_tip(whole or ""))


class _Latch:
    """Keeps an axis from chasing its own layout. While everything outside the axis is unchanged (its labels,
    font, stride and the plot's size), each new arrangement was caused by the room the axis itself reserved
    (or by its neighbour's). After ``MAX_CHANGES`` such changes the axis settles for the arrangement seen that
    fits the smallest cells, and keeps it until something outside changes."""

    MAX_CHANGES = 4

    def __init__(self) -> None:
        self.outside: tuple | None = None
        self.arrangement: tuple | None = None
        self.seen: list[tuple] = []
        self.changes = 0  # arrangement changes since the last outside change (read by tests)
        self.settled = False

    def hold(self, outside: tuple, arrangement: tuple, need) -> tuple:
        """The arrangement to draw; ``need(arrangement)``: the smallest cell (pixels) it fits."""
        if outside != self.outside or self.arrangement is None:
            self.outside, self.arrangement, self.seen, self.changes, self.settled = (
                outside,
                arrangement,
                [arrangement],
                0,
                False,
            )
        elif arrangement != self.arrangement and not self.settled:
            self.changes += 1
            self.seen.append(arrangement)
            if self.changes >= self.MAX_CHANGES:
                self.settled = True
                self.arrangement = min(self.seen, key=need)
            else:
                self.arrangement = arrangement
        return self.arrangement


def _outermost(item):
    """The layout that holds the plot: its size is the widget's, whatever room the plot itself is given (a
    square map's plot shrinks to its cells, square_hug.py, so the plot's own size follows the axes)."""
    while item is not None and item.parentItem() is not None:
        item = item.parentItem()
    return item


def _size(item) -> tuple[int, int]:
    if item is None:
        return (0, 0)
    size = item.size()
    return (round(size.width()), round(size.height()))
