"""A heatmap for one matrix: token labels on both axes, a colour bar, −∞ cells drawn apart, numbers in the
cells when they fit, a highlighted row and column, and click / hover signals with the cell (i, j).

Follows pyqtgraph's performance advice: one ImageItem of float32 C-contiguous data with explicit levels
(no auto-levels), row-major. A 1024×1024 map is one image and one overlay; text items exist only for
small matrices, so setting a big map costs a few milliseconds.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontInfo, QFontMetrics, QPainter, QPainterPath, QPixmap
from PySide6.QtWidgets import QApplication, QGraphicsPathItem, QGraphicsRectItem, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from explorer.present.explain import cell_text
from explorer.present.matrices import for_display

# Numbers are printed inside the cells of matrices up to this many rows and columns (the note's toy
# sizes always qualify); beyond it the text would be unreadable and the items would cost time.
TEXT_LIMIT = 16
MIN_FONT_PX = 9  # numbers smaller than this are not printed: 5–7 px digits cannot be read
MAX_FONT_PX = 15

# −∞ (a blocked cell) is not a value of the colour scale: it gets a neutral grey with dark hatching.
MASK_FILL = (200, 200, 204, 255)
MASK_HATCH = QColor(90, 90, 96)
# Hatching is drawn by Qt at screen resolution (crisp at any zoom) for maps up to this size; bigger maps
# get the plain grey image only, whose cost does not depend on the number of blocked cells.
HATCH_LIMIT = 64


@lru_cache(maxsize=2)
def colour_map(signed: bool) -> pg.ColorMap:
    """Diverging (blue–white–red, centred on 0 by symmetric levels) for signed data; sequential for ≥ 0."""
    return pg.colormap.get("CET-D1") if signed else pg.colormap.get("viridis")


def _overlay_lut() -> np.ndarray:
    lut = np.zeros((256, 4), dtype=np.uint8)  # 0: transparent (not blocked)
    lut[1] = MASK_FILL
    return lut


OVERLAY_LUT = _overlay_lut()


def hatch_brush() -> QBrush:
    return QBrush(MASK_HATCH, Qt.BrushStyle.BDiagPattern)


def blocked_path(blocked: np.ndarray) -> QPainterPath:
    """The blocked cells as a path of row runs (one rectangle per run, not per cell)."""
    path = QPainterPath()
    for i, row in enumerate(blocked):
        edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
        for start, stop in zip(edges[::2], edges[1::2]):
            path.addRect(QRectF(float(start), float(i), float(stop - start), 1.0))
    return path


def mask_swatch(size: int = 14) -> QPixmap:
    """The legend's sample of the −∞ cells."""
    pix = QPixmap(size, size)
    pix.fill(QColor(*MASK_FILL))
    p = QPainter(pix)
    p.fillRect(0, 0, size, size, hatch_brush())
    p.setPen(MASK_HATCH)
    p.drawRect(0, 0, size - 1, size - 1)
    p.end()
    return pix


def highlight_colour() -> QColor:
    return QApplication.palette().highlight().color()


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
        self.short: tuple[str, ...] = ()  # labels to fall back on when the whole ones do not fit (indices)
        self.selected: int | None = None
        self._px = base_px()
        self._widest = 0
        self._texts: list[tuple[QRectF, int, str, str, bool]] = []  # (rect, flags, drawn, whole, upright)
        self._arranged: tuple | None = None
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

    def set_short(self, short) -> None:
        """Shorter labels for a crowded axis (a map's key axis: its indices; the query axis names the tokens)."""
        short = tuple(short)
        if short != self.short:
            self.short = short
            self.picture = None
            self.update()

    def set_selected(self, index: int | None) -> None:
        if index != self.selected:
            self.selected = index
            self.picture = None
            self.update()

    def set_text_px(self, px: int) -> None:
        if px != self._px:
            self._px = px
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
        # the longest string is a good proxy for the widest; measuring 1024 labels on every paint is not
        self._widest = min(self._cap(fm), fm.horizontalAdvance(max(self.labels, key=len))) if self.labels else 0
        self._arranged = None
        if self.orientation in ("left", "right"):
            # reserve the room now: pyqtgraph would only widen the axis after a first, clipped paint
            self._reserve(self._widest + 6)
        else:
            self._reserve(fm.height())
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
        per_cell = abs(along(1.0) - along(0.0))
        per_label = per_cell * stride
        shown = self.labels
        widest = self._widest
        if horizontal and self.short and len(self.short) == len(self.labels) and self._widest + 6 > 2 * per_label:
            shown = self.short  # e.g. key indices: the query axis beside names the same tokens in full
            widest = QFontMetrics(self._font(self._px)).horizontalAdvance(max(self.short, key=len))
        px, upright, bands = self._arrange(per_label, horizontal, widest)
        font = self._font(px)
        if font != self.style["tickFont"]:
            self.style["tickFont"] = font
        fm = QFontMetrics(font)
        line = fm.height()
        gap = max(0, self.style["tickLength"]) + self.style["tickTextOffset"][0 if not horizontal else 1]
        cap = self._cap(fm)
        if horizontal and not upright:
            room = min(cap, per_label * bands - 4)  # a staggered label may use two cells' width
            depth = line
        else:
            # measured once per label set (set_labels), not per paint: a long input has a thousand labels
            longest = self._widest if shown is self.labels else fm.horizontalAdvance(max(shown, key=len))
            room = min(cap, longest + 2)
            if horizontal:  # upright labels take the plot's height: at most about a fifth of it, elided past
                room = min(room, max(fm.averageCharWidth() * 4, 0.2 * (vb.height() + self.height())))
            depth = room + 4
        self._reserve(depth * bands if horizontal else depth * bands)
        out = []
        for k, v in enumerate(values):
            whole = self.labels[int(v)]
            text = fm.elidedText(shown[int(v)], Qt.TextElideMode.ElideRight, max(1, int(room)))
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
            while px > MIN_TICK_PX and QFontMetrics(self._font(px)).height() + 1 > per_label:
                px -= 1
            if QFontMetrics(self._font(px)).height() + 1 <= per_label:
                return px, True, 1
            px = self._px
        elif line + 1 <= per_label:
            return px, False, 1
        # two staggered bands; a smaller font only when even two bands are too tight
        while px > MIN_TICK_PX and QFontMetrics(self._font(px)).height() + 1 > 2 * per_label:
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
        self.setToolTip(whole or "")


class MapLayers:
    """Everything that draws one matrix inside a ViewBox: the colour image, the −∞ overlay, the
    highlighted row and column, and (small matrices only) the numbers in the cells."""

    def __init__(self, vb: pg.ViewBox, text_limit: int = TEXT_LIMIT) -> None:
        self.vb = vb
        self.text_limit = text_limit
        self.min_px, self.max_px = MIN_FONT_PX, MAX_FONT_PX  # presentation mode raises both
        self.image = pg.ImageItem(axisOrder="row-major")
        self.overlay = pg.ImageItem(axisOrder="row-major")
        self.overlay.setZValue(1)
        vb.addItem(self.image)
        vb.addItem(self.overlay)
        self.overlay.hide()
        self._overlay_of: np.ndarray | None = None  # the blocked cells the overlay image shows
        self.hatch = QGraphicsPathItem()
        self.hatch.setPen(pg.mkPen(None))
        self.hatch.setBrush(hatch_brush())
        self.hatch.setZValue(1.5)
        vb.addItem(self.hatch)
        self._row = self._frame()
        self._col = self._frame()
        self._selected_frame = QGraphicsRectItem()
        self._selected_frame.setPen(pg.mkPen(highlight_colour(), width=3))
        self._selected_frame.setZValue(5)
        self._selected_frame.hide()
        vb.addItem(self._selected_frame)
        self._pool: list[pg.TextItem] = []
        self._shown: list[tuple | None] = []  # per pool item: (text, dark, i, j) it shows, None if hidden
        self._font_px: int | None = None
        self.texts: list[pg.TextItem] = []  # the pool's items in use, row by row
        self._pending_text: tuple | None = None  # numbers not drawn while the cells are too small
        self._hatch_key = None
        self.shape = (0, 0)
        self.has_blocked = False
        self.highlight: tuple[int | None, int | None] = (None, None)
        vb.sigResized.connect(self.fit_text)
        vb.sigRangeChanged.connect(self.fit_text)

    def _frame(self) -> list[QGraphicsRectItem]:
        """A dark outline with a white core: visible on every colour of both colour maps, in both themes."""
        items = []
        for pen, z in ((pg.mkPen(QColor(0, 0, 0), width=6), 3), (pg.mkPen(QColor(255, 255, 255), width=3), 4)):
            item = QGraphicsRectItem()
            item.setPen(pen)
            item.setBrush(Qt.BrushStyle.NoBrush)
            item.setZValue(z)
            item.hide()
            self.vb.addItem(item)
            items.append(item)
        return items

    def set_selected(self, selected: bool) -> None:
        """Frame the whole map in the palette's highlight colour (the selected head of a grid)."""
        rows, cols = self.shape
        pad = 0.04 * max(rows, cols, 1)
        self._selected_frame.setRect(QRectF(-pad, -pad, cols + 2 * pad, rows + 2 * pad))
        self._selected_frame.setVisible(selected)

    # ------------------------------------------------------------------ data
    def set_data(
        self,
        data: np.ndarray,
        levels: tuple[float, float],
        signed: bool,
        blocked: np.ndarray | None = None,
        extent: tuple[int, int] | None = None,
    ) -> None:
        """Draw ``data``; −∞ cells, and the cells ``blocked`` marks (e.g. the weights the mask set to 0),
        go under the grey overlay instead of the colour scale. ``extent``: the (rows, cols) of the matrix
        when ``data`` is a shrunk copy of it (a thumbnail): cells and hover keep the matrix's own indices."""
        rows, cols = extent if extent is not None else data.shape
        self.shape = (rows, cols)
        shown = for_display(data, levels[0])  # −∞ cells: a finite fill, hidden under the opaque overlay
        self.image.setColorMap(colour_map(signed))
        self.image.setImage(shown, levels=levels, autoLevels=False)
        self.image.setRect(QRectF(0, 0, cols, rows))
        blocked = np.isneginf(data) if blocked is None else (np.isneginf(data) | blocked)
        self.has_blocked = bool(blocked.any())
        if self.has_blocked:
            # The mask is the same from one map to the next (heads, layers, edits of one word): keep its image.
            if self._overlay_of is None or not np.array_equal(self._overlay_of, blocked):
                self._overlay_of = blocked
                self.overlay.setImage(blocked.view(np.uint8), autoLevels=False, levels=(0, 255), lut=OVERLAY_LUT)
            self.overlay.setRect(QRectF(0, 0, cols, rows))
            self.overlay.show()
        else:
            self._overlay_of = None
            self.overlay.hide()
            self.overlay.clear()
        small = self.has_blocked and max(blocked.shape) <= HATCH_LIMIT and extent is None
        key = (blocked.shape, blocked.tobytes()) if small else None
        if key != self._hatch_key:  # the mask rarely changes between traces: keep its path
            self._hatch_key = key
            self.hatch.setPath(blocked_path(blocked) if small else QPainterPath())
        self._set_text(data, levels, signed, blocked)
        self._place_highlight()

    def _set_text(self, data: np.ndarray, levels: tuple[float, float], signed: bool, blocked: np.ndarray) -> None:
        rows, cols = data.shape
        wanted = rows * cols if rows <= self.text_limit and cols <= self.text_limit else 0
        # A pool: items are created once, hidden when unused, and only touched where something changed —
        # text items are the costly part of a redraw (each change re-lays out a QGraphicsTextItem).
        while len(self._pool) < wanted:
            t = pg.TextItem(anchor=(0.5, 0.5))
            t.setZValue(2)
            self.vb.addItem(t)
            self._pool.append(t)
            self._shown.append(None)
        for k in range(wanted, len(self._pool)):
            if self._shown[k] is not None:
                self._pool[k].hide()
                self._shown[k] = None
        self.texts = self._pool[:wanted]
        self._pending_text = None
        if not wanted:
            return
        if not self._cells_fit_text(data):
            # Too small to read (the head grid's thumbnails): setting 100+ text items costs tens of ms
            # per redraw for nothing. Keep the data; fit_text fills them in if the map grows.
            for k, t in enumerate(self.texts):
                if self._shown[k] is not None:
                    t.hide()
                    self._shown[k] = None
            self._font_px = None
            self._pending_text = (data, levels, signed, blocked)
            return
        lo, hi = levels
        finite = np.isfinite(data)
        norm = np.clip((np.where(finite, data, lo) - lo) / ((hi - lo) or 1.0), 0, 1).astype(np.float64)
        rgba = colour_map(signed).map(norm.ravel(), mode=pg.ColorMap.FLOAT)
        lum = 0.299 * rgba[:, 0] + 0.587 * rgba[:, 1] + 0.114 * rgba[:, 2]
        longest = max((len(s[0]) for s in self._shown[:wanted] if s is not None), default=0)
        fresh = False
        for k, t in enumerate(self.texts):
            i, j = divmod(k, cols)
            dark_text = bool(lum[k] > 0.55 or blocked[i, j])  # grey hatching takes dark text too
            want = (cell_text(data[i, j]), dark_text, i, j)
            old = self._shown[k]
            fresh = fresh or old is None
            if old is None or old[:2] != want[:2]:
                t.setText(want[0], color=(0, 0, 0) if dark_text else (255, 255, 255))
            if old is None or old[2:] != want[2:]:
                t.setPos(j + 0.5, i + 0.5)
            self._shown[k] = want
        if fresh or longest != max(len(s[0]) for s in self._shown[:wanted]):
            self._font_px = None  # items shown again, or longer numbers: size them all again
        self.fit_text()

    def set_font_range(self, low: int, high: int) -> None:
        """The smallest and largest cell numbers (pixels); numbers that would be smaller are not printed."""
        if (low, high) != (self.min_px, self.max_px):
            self.min_px, self.max_px = low, max(low, high)
            self._font_px = None
            self.fit_text()

    def cell_font_px(self) -> int | None:
        """The pixel size of the numbers printed now (None when none are shown)."""
        return self._font_px or None

    def cell_texts(self) -> list[list[str]]:
        """The numbers printed in the cells, row by row (empty when the matrix is too large for text)."""
        rows, cols = self.shape
        if not self.texts:
            return []
        return [[self.texts[i * cols + j].textItem.toPlainText() for j in range(cols)] for i in range(rows)]

    def _cells_fit_text(self, data: np.ndarray) -> bool:
        """Would numbers of this matrix be readable in the cells as they are on screen now?"""
        try:
            px, py = self.vb.viewPixelSize()
        except Exception:  # not laid out yet: assume they fit, fit_text decides once it is
            return True
        if px <= 0 or py <= 0:
            return True
        longest = max((len(cell_text(v)) for v in data.ravel()[:64]), default=1) or 1
        return min(self.max_px, (1.0 / py) * 0.45, (1.0 / px) / (0.62 * longest + 0.4)) >= self.min_px

    def fit_text(self, *args) -> None:
        """Size the cell numbers to the cells on screen; hide them when a cell is too small to read."""
        if self._pending_text is not None and self._cells_fit_text(self._pending_text[0]):
            self._set_text(*self._pending_text)
            return
        if not self.texts or all(shown is None for shown in self._shown[: len(self.texts)]):
            return
        try:
            px, py = self.vb.viewPixelSize()
        except Exception:  # not laid out yet
            return
        if px <= 0 or py <= 0:
            return
        cell_w, cell_h = 1.0 / px, 1.0 / py
        longest = max(len(s[0]) for s in self._shown[: len(self.texts)]) or 1
        size = min(self.max_px, cell_h * 0.45, cell_w / (0.62 * longest + 0.4))
        visible = size >= self.min_px
        px_size = max(self.min_px, int(size)) if visible else 0
        if px_size == self._font_px:
            return
        self._font_px = px_size
        font = QFont()
        font.setPixelSize(max(self.min_px, px_size))
        for t in self.texts:
            if visible:
                t.setFont(font)
            t.setVisible(visible)

    # ------------------------------------------------------------------ highlight
    def set_highlight(self, row: int | None, col: int | None) -> None:
        self.highlight = (row, col)
        self._place_highlight()

    def _place_highlight(self) -> None:
        rows, cols = self.shape
        row, col = self.highlight
        for item in self._row:
            item.setVisible(row is not None and 0 <= row < rows)
            if row is not None:
                item.setRect(QRectF(0, row, cols, 1))
        for item in self._col:
            item.setVisible(col is not None and 0 <= col < cols)
            if col is not None:
                item.setRect(QRectF(col, 0, 1, rows))

    def highlighted(self) -> tuple[int | None, int | None]:
        """The (row, column) outlined now, read back from the drawn items."""
        row = int(self._row[0].rect().y()) if self._row[0].isVisible() else None
        col = int(self._col[0].rect().x()) if self._col[0].isVisible() else None
        return row, col

    def cell_at(self, scene_pos: QPointF) -> tuple[int, int] | None:
        if not self.vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = self.vb.mapSceneToView(scene_pos)
        i, j = int(math.floor(p.y())), int(math.floor(p.x()))
        rows, cols = self.shape
        return (i, j) if 0 <= i < rows and 0 <= j < cols else None


class Heatmap(QWidget):
    """One large map or matrix with its axes, colour bar and −∞ legend. Emits the cell under the mouse
    (``cellHovered``, (−1, −1) when it leaves) and the clicked cell (``cellClicked``)."""

    cellClicked = Signal(int, int)
    cellHovered = Signal(int, int)
    cellContextRequested = Signal(int, int, QPoint)  # query i, key j (−1, −1 off the cells), global position

    def __init__(
        self,
        parent: QWidget | None = None,
        colour_bar: bool = True,
        text_limit: int = TEXT_LIMIT,
        index_columns: bool = False,
        label_all: int = LABEL_ALL,
    ) -> None:
        super().__init__(parent)
        # The title is a wrapping label above the plot, not pyqtgraph's title item: that one asks for its
        # whole width and pushed the plot and its colour bar out of a narrow widget.
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.title.hide()
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setMinimumSize(120, 100)
        # label_all: up to this many rows (and token columns) every one is labelled; 0 thins them to what fits
        self.left, self.bottom = TokenAxis("left", label_all), TokenAxis("bottom", 0 if index_columns else label_all)
        self.plot = self.graphics.addPlot(axisItems={"left": self.left, "bottom": self.bottom})
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        vb = self.plot.getViewBox()
        vb.invertY(True)  # row 0 (the first token) at the top, as a matrix is written
        vb.setDefaultPadding(0.0)
        self.layers = MapLayers(vb, text_limit)
        self.bar = None
        self._bar_shows: tuple | None = None  # (signed, levels) the colour bar was last set to
        if colour_bar:
            self.bar = pg.ColorBarItem(values=(0, 1), colorMap=colour_map(False), interactive=False, width=14, colorMapMenu=False)
            self.bar.setImageItem(self.layers.image, insert_in=self.plot)
        self.legend = QWidget()
        self.swatch = QLabel()
        self.swatch.setPixmap(mask_swatch())
        self.legend_text = QLabel()
        self.legend_text.setWordWrap(True)
        leg = QHBoxLayout(self.legend)
        leg.setContentsMargins(6, 0, 6, 0)
        leg.addWidget(self.swatch)
        leg.addWidget(self.legend_text, 1)
        self.legend.hide()
        self.note = QLabel()  # a remark on the colour scale (e.g. clipped), under the map
        self.note.setWordWrap(True)
        self.note.setContentsMargins(6, 0, 6, 0)
        self.note.hide()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.title)
        lay.addWidget(self.graphics, 1)
        lay.addWidget(self.legend)
        lay.addWidget(self.note)
        self._text_px = base_px()
        self._axis_titles = ("", "")
        self._hovered: tuple[int, int] | None = None
        scene = self.graphics.scene()
        scene.sigMouseMoved.connect(self._moved)
        scene.sigMouseClicked.connect(self._clicked)
        self.graphics.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)  # the owner builds the menu
        self.graphics.customContextMenuRequested.connect(self._context)
        self.set_legend_text(self.tr("−∞ (masked)"))

    # ------------------------------------------------------------------ text size
    def set_text_px(self, px: int, cell_px: tuple[int, int] | None = None) -> None:
        """Every text of the figure from ``px`` pixels up: tick labels, axis titles, title, colour-bar ticks,
        legend and note; cell numbers between ``cell_px`` (smallest, largest). Presentation mode raises it."""
        self._text_px = px
        font = QFont(QApplication.font())
        font.setPixelSize(px)
        for axis in (self.left, self.bottom):
            axis.set_text_px(px)
        if self.bar is not None:
            self.bar.axis.setTickFont(font)
            self.bar.axis.setStyle(tickTextWidth=px * 3)
        for label in (self.legend_text, self.note):
            label.setFont(font)
        title = QFont(font)
        title.setPixelSize(round(px * 1.15))
        title.setBold(True)
        self.title.setFont(title)
        self.swatch.setPixmap(mask_swatch(max(14, px)))
        self.layers.set_font_range(*(cell_px or (MIN_FONT_PX, MAX_FONT_PX)))
        self.set_axis_titles(*self._axis_titles, self.title.text())

    def text_px(self) -> int:
        return self._text_px

    # ------------------------------------------------------------------ content
    @property
    def image(self) -> pg.ImageItem:
        return self.layers.image

    @property
    def overlay(self) -> pg.ImageItem:
        return self.layers.overlay

    def set_legend_text(self, text: str) -> None:
        self.legend_text.setText(text)

    def set_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def set_axis_titles(self, left: str, bottom: str, title: str = "") -> None:
        self._axis_titles = (left, bottom)
        style = {"font-size": f"{self._text_px}px"}
        self.plot.setLabel("left", left, **style)
        self.plot.setLabel("bottom", bottom, **style)
        self.title.setText(title)
        self.title.setVisible(bool(title))

    def set_matrix(
        self,
        data: np.ndarray,
        row_labels,
        col_labels,
        signed: bool,
        levels: tuple[float, float] | None = None,
        square: bool = False,
        blocked: np.ndarray | None = None,
    ) -> None:
        """Show ``data`` (rows, cols); −∞ cells go to the hatched overlay. ``levels`` default to the data's own."""
        if levels is None:
            from explorer.present.matrices import levels as data_levels

            levels = data_levels(data, signed)
        rows, cols = data.shape
        self.layers.set_data(data, levels, signed, blocked)
        if self.bar is not None and self._bar_shows != (signed, levels):  # an unchanged bar keeps its drawn axis
            self._bar_shows = (signed, levels)
            self.bar.setColorMap(colour_map(signed))
            self.bar.setLevels(levels)
        self.left.set_labels(row_labels)
        self.bottom.set_labels(col_labels)
        # a map's keys are its queries: when crowded, the key axis may show their indices only
        self.bottom.set_short([str(j) for j in range(cols)] if tuple(row_labels) == tuple(col_labels) else ())
        vb = self.plot.getViewBox()
        vb.setAspectLocked(square, ratio=1)
        if square:  # square cells: the free axis must be allowed to extend past the matrix
            vb.setLimits(xMin=None, xMax=None, yMin=None, yMax=None)
        else:
            vb.setLimits(xMin=0, xMax=cols, yMin=0, yMax=rows, minXRange=min(1, cols), minYRange=min(1, rows))
        vb.setRange(QRectF(0, 0, cols, rows), padding=0)
        self.legend.setVisible(self.layers.has_blocked)

    def set_highlight(self, row: int | None = None, col: int | None = None) -> None:
        self.layers.set_highlight(row, col)
        self.left.set_selected(row)  # past LABEL_ALL tokens the selected one is still labelled
        self.bottom.set_selected(col if col is not None else (row if self.left.labels == self.bottom.labels else None))

    # ------------------------------------------------------------------ mouse
    def _moved(self, pos: QPointF) -> None:
        cell = self.layers.cell_at(pos)
        if cell != self._hovered:
            self._hovered = cell
            self.cellHovered.emit(*(cell if cell is not None else (-1, -1)))

    def _clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        cell = self.layers.cell_at(event.scenePos())
        if cell is not None:
            self.cellClicked.emit(*cell)

    def _context(self, pos: QPoint) -> None:
        cell = self.layers.cell_at(self.graphics.mapToScene(pos))
        self.cellContextRequested.emit(*(cell if cell is not None else (-1, -1)), self.graphics.mapToGlobal(pos))

    def leaveEvent(self, event) -> None:
        if self._hovered is not None:
            self._hovered = None
            self.cellHovered.emit(-1, -1)
        super().leaveEvent(event)
