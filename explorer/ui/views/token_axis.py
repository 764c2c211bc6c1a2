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

from explorer.ui.plain_text import plain_tip

# Up to this many rows or columns on screen, every one is labelled (rotated, staggered or elided as needed);
# past it, labels are thinned to what fits, follow the zoom, and the selected token is always among them.
LABEL_ALL = 32
MIN_TICK_PX = 8  # tick labels are never drawn smaller than this, however many tokens share the axis
LABEL_CHARS_PX = 11  # a label is elided past about this many average characters (the tooltip has it whole)


def base_px() -> int:
    """The application font's size in pixels: the figures' text starts from it."""
    return QFontInfo(QApplication.font()).pixelSize() or 12


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
        self._arranged_depth = 0  # what the last paint's arrangement of key labels reserved (_layout)
        self._arranged_bands, self._arranged_px = 1, 0  # and in how many columns, at what size, the query labels
        self._texts: list[tuple[QRectF, int, str, str, bool]] = []  # (rect, flags, drawn, whole, upright)
        self._latch = _Latch()
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
        font = QFont(QApplication.font())
        font.setPixelSize(max(1, int(px)))
        return font

    def _measure(self) -> None:
        fm = QFontMetrics(self._font(self._px))
        self._widest = min(self._cap(fm), _widest(fm, self.labels)) if self.labels else 0
        if self.orientation in ("left", "right"):
            # reserve the room now, as the paint will (_layout, _room): pyqtgraph would only widen the axis
            # after a first, clipped paint, and 2 px less for a capped label moved the map after its paint
            arranged = QFontMetrics(self._font(self._arranged_px or self._px))
            self._reserve((min(self._cap(arranged), self._widest + 2) + 4) * self._arranged_bands)
        else:
            # at least a line; more stays until the paint arranges the new labels (_layout): reset to one line
            # here, every new sentence resized the plot twice (one line, then two staggered bands) and the
            # map jumped 14 px and was painted again
            self._reserve(max(fm.height(), self._arranged_depth))
        self.picture = None
        self.update()

    def _cap(self, fm: QFontMetrics) -> int:
        return fm.averageCharWidth() * LABEL_CHARS_PX

    def _reserve(self, across: float) -> None:
        across = int(math.ceil(across))
        key = "tickTextWidth" if self.orientation in ("left", "right") else "tickTextHeight"
        if across != self.style[key]:
            self.style[key] = across  # pyqtgraph sizes the axis from it (autoExpandTextSpace is off)
            self._adjustSize()

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
        stride = 1
        if hi - lo > self.label_all:
            fm = QFontMetrics(self._font(self._px))
            need = fm.height() + 2 if self.orientation in ("left", "right") else self._widest + 16
            per_cell = max(size, 1.0) / max(maxVal - minVal, 1e-9)  # pixels per row/column on screen
            stride = max(1, math.ceil(need / per_cell))
        start = lo + (-lo) % stride
        cells = list(range(start, hi, stride))
        sel = self.selected
        if stride > 1 and sel is not None and lo <= sel < hi:
            cells = sorted([c for c in cells if abs(c - sel) >= stride] + [sel])
        return [(float(stride), [i + 0.5 for i in cells])]

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
        along = lambda v: self._along(vb, v, horizontal)  # noqa: E731
        per_label = abs(along(1.0) - along(0.0)) * stride
        outside = (self.labels, self._px, stride, _size(self.parentItem()))
        px, upright, bands = self._latch.hold(
            outside, self._arrange(per_label, horizontal, self._widest), self._need(horizontal)
        )
        font = self._font(px)
        if font != self.style["tickFont"]:
            self.style["tickFont"] = font
        fm = QFontMetrics(font)
        line = fm.height()
        gap = max(0, self.style["tickLength"]) + self.style["tickTextOffset"][0 if not horizontal else 1]
        room, depth = self._room(fm, vb, horizontal, upright, per_label, bands)
        self._arranged_depth, self._arranged_bands, self._arranged_px = math.ceil(depth * bands), bands, px
        self._reserve(depth * bands)
        out = []
        for k, v in enumerate(values):
            whole = self.labels[int(v)]
            text = fm.elidedText(whole, Qt.TextElideMode.ElideRight, max(1, int(room)))
            pos = along(v)
            band = k % bands if stride == 1 else 0
            if horizontal and not upright:
                rect = QRectF(pos - room / 2, gap + band * line, room, line)
                flags = int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
            elif horizontal:  # upright: reads bottom to top, its end at the axis
                rect = QRectF(pos - line / 2, gap + band * depth, line, room)
                flags = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            else:
                right = self.width() - gap - band * depth
                rect = QRectF(right - room, pos - line / 2, room, line)
                flags = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            out.append((rect, flags, text, whole, horizontal and upright))
        return out

    def _room(
        self, fm: QFontMetrics, vb, horizontal: bool, upright: bool, per_label: float, bands: int
    ) -> tuple[float, float]:
        """How long a label may be (along its own direction) and how deep one band of them is."""
        cap = self._cap(fm)
        if horizontal and not upright:
            return min(cap, per_label * bands - 4), fm.height()  # a staggered label may use two cells' width
        # measured once per label set (set_labels), not per paint: a long input has a thousand labels
        room = min(cap, self._widest + 2)
        if horizontal:  # upright labels take the plot's height: at most about a fifth of it, elided past
            room = min(room, max(fm.averageCharWidth() * 4, 0.2 * (vb.height() + self.height())))
        return room, room + 4

    def _need(self, horizontal: bool):
        """The smallest label spacing (pixels) at which an arrangement (px, upright, bands) fits."""

        def need(arrangement) -> float:
            px, upright, bands = arrangement
            if horizontal and not upright:
                return (self._widest + 6) / bands
            return (QFontMetrics(self._font(px)).height() + 1) / bands

        return need

    def _along(self, vb, v: float, horizontal: bool) -> float:
        scene = vb.mapViewToScene(QPointF(v, v))
        local = self.mapFromScene(scene)
        return local.x() if horizontal else local.y()

    def _arrange(self, per_label: float, horizontal: bool, widest: int) -> tuple[int, bool, int]:
        """Font size, upright or not, and how many staggered lines (or columns) the labels need."""
        px = self._px
        fm = QFontMetrics(self._font(px))
        line = fm.height()
        if horizontal:
            if widest + 6 <= per_label:
                return px, False, 1
            if widest + 6 <= 2 * per_label:
                return px, False, 2
            # upright, one band: a smaller font before a second band (height is what a map lacks most)
            while px > self.smallest and QFontMetrics(self._font(px)).height() + 1 > per_label:
                px -= 1
            if QFontMetrics(self._font(px)).height() + 1 <= per_label:
                return px, True, 1
            px = self._px
        elif line + 1 <= per_label:
            return px, False, 1
        # two staggered bands; a smaller font only when even two bands are too tight
        while px > self.smallest and QFontMetrics(self._font(px)).height() + 1 > 2 * per_label:
            px -= 1
        return px, horizontal, 2

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


def _size(item) -> tuple[int, int]:
    if item is None:
        return (0, 0)
    size = item.size()
    return (round(size.width()), round(size.height()))


def _widest(fm: QFontMetrics, labels) -> int:
    """Pixel width of the widest label. The longest string alone is not it ("3  pen" is as long as "0 This" and
    wider, and was elided to "3 p…"): the longest few are measured, never a thousand labels per paint."""
    return max(fm.horizontalAdvance(s) for s in sorted(labels, key=len)[-32:])
