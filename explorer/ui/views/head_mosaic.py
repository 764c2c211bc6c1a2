"""The Model view's grid: every layer × every head as a small coloured map, painted by hand.

Hundreds of maps as pyqtgraph ViewBoxes would cost hundreds of scene items; here each map is one finished
RGBA image (coloured off the GUI thread, explorer.present.model_view) and a paint draws them all in a few
milliseconds. The grid turns to whichever way gives larger maps: layers down and heads across in a tall
panel, layers across in a wide one. The selected head is framed, the most notable heads of the chosen score
are outlined, the selected query token is a line across every map. Click a map, or walk the grid with the
arrow keys and press Enter, to open that head in the central view.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from explorer.ui.preferences.palette_choice import accent_colour

GAP = 2  # pixels between maps
MIN_TILE = 4
OUTLINE = QColor(230, 40, 40)  # the notable heads: red stands apart from viridis and the blue–red map's middle
# (the outline is the chosen palette's accent colour: explorer/ui/preferences/palette_choice.py; this is the standard
# one)


class HeadMosaic(QWidget):
    headClicked = Signal(int, int)  # layer, head
    # where in a map a click or the context menu fell: layer, head, and the point's place down and across the
    # map (0 … 1), which the view turns into a query and a key (“How is this made?”, issue 39)
    mapPressed = Signal(int, int, float, float)
    mapContextRequested = Signal(int, int, float, float, QPoint)  # … and the global position

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.layers, self.heads = 0, 0
        self.images: dict[tuple[int, int], QImage] = {}
        self.order: np.ndarray | None = None  # (L, H): the head shown in each column of a layer, when sorted
        self.marked: set[tuple[int, int]] = set()
        self.selected: tuple[int, int] | None = None
        self.cursor: tuple[int, int] = (0, 0)
        self.query: tuple[int, int] | None = None  # (token, tokens): the line across every map
        self.chosen: tuple[int, int, int, int, int] | None = None  # layer, head, row, column, n: “How is this made?”
        self.tip = lambda layer, head: ""  # the view says what a head's tooltip reads
        self.axis_words = ("layer", "head")  # translated by the view
        self._figure = False  # painting an exported figure: no keyboard cursor, a title
        self.title = ""  # the figure's title (the view sets it)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(120, 80)

    # ------------------------------------------------------------------ content
    def reset(self, layers: int, heads: int) -> None:
        """An empty grid of ``layers`` × ``heads``: maps arrive one layer at a time (``set_layer``)."""
        self.layers, self.heads = layers, heads
        self.images = {}
        self.order = None
        self.marked = set()
        self.chosen = None
        self.cursor = (min(self.cursor[0], max(layers - 1, 0)), min(self.cursor[1], max(heads - 1, 0)))
        self.update()

    def set_layer(self, layer: int, images: np.ndarray) -> None:
        """(H, t, t, 4) uint8 RGBA maps of one layer."""
        for h, rgba in enumerate(images):
            t_rows, t_cols = rgba.shape[:2]
            data = np.ascontiguousarray(rgba)
            self.images[(layer, h)] = QImage(
                data.data, t_cols, t_rows, 4 * t_cols, QImage.Format.Format_RGBA8888
            ).copy()
        self.update()

    def filled(self) -> int:
        return len(self.images)

    def set_order(self, order: np.ndarray | None) -> None:
        self.order = None if order is None else np.asarray(order, dtype=int)
        self.update()

    def set_marked(self, marked) -> None:
        self.marked = set(marked)
        self.update()

    def set_selected(self, layer: int | None, head: int | None) -> None:
        self.selected = None if layer is None or head is None else (layer, head)
        self.update()

    def set_chosen(self, chosen: tuple[int, int, int, int, int] | None) -> None:
        """Frame cell (row, column) of an n × n map: the one “How is this made?” explains."""
        self.chosen = chosen
        self.update()

    def set_query(self, token: int | None, tokens: int) -> None:
        self.query = None if token is None or tokens <= 0 else (token, tokens)
        self.update()

    # ------------------------------------------------------------------ geometry
    def _layout(self, width: int, height: int) -> tuple:
        """(layers down?, tile size, left margin, top margin, layers per block, block step) for a paint area of
        width × height. The layers may be cut into blocks, side by side (layers down) or one under the other
        (layers across), each with its own numbers: 30 layers × 9 heads in a side panel were 14 px maps in a
        column a third of its width (issue 38); two blocks of 15 layers across fill it with 20 px maps."""
        left, top = self._margins()
        label_w, label_h = left, top / 2  # a block's own layer numbers: beside it, or above it
        w, h = max(1.0, width - left - 2), max(1.0, height - top - 2)
        L, H = max(self.layers, 1), max(self.heads, 1)
        best = (0.0, True, 1)
        for blocks in range(1, L + 1):
            per = math.ceil(L / blocks)
            if blocks > 1 and math.ceil(L / per) < blocks:
                continue  # the same cut as fewer blocks
            down = min((w - (blocks - 1) * label_w) / (blocks * H), h / per)  # blocks side by side
            across = min(w / per, (h - (blocks - 1) * label_h) / (blocks * H))  # blocks one under the other
            for tile, layers_down in ((down, True), (across, False)):
                if tile > best[0] + 1e-9:
                    best = (tile, layers_down, blocks)
            if self._figure:
                break  # a figure is drawn at the size it asked for: one block
        raw, layers_down, blocks = best
        tile = max(MIN_TILE, math.floor(raw))
        per = math.ceil(L / blocks)
        step = H * tile + (label_w if layers_down else label_h)
        if not self._figure:  # the grid in the middle of a wide panel (its labels move with it)
            used = blocks * H * tile + (blocks - 1) * label_w if layers_down else per * tile
            left += max(0.0, (w - used) / 2)
        return layers_down, float(tile), float(left), float(top), per, float(step)

    def _margins(self) -> tuple[float, float]:
        """(left, top): room for the numbers and the axis words (and the title of a figure)."""
        fm = QFontMetrics(self._label_font())
        words = max(fm.horizontalAdvance(f"{w} ↓") for w in self.axis_words)
        left = max(fm.horizontalAdvance(str(max(self.layers, self.heads, 10))), words) + 8
        top = 2 * fm.height() + 4 + (self._title_height() if self._figure else 0)
        return float(left), float(top)

    def _title_height(self) -> int:
        return QFontMetrics(self.font()).height() + 6 if self.title else 0

    def _label_font(self) -> QFont:
        f = QFont(self.font())
        f.setPointSizeF(max(7.0, f.pointSizeF() * 0.85))
        return f

    def _rect(self, geometry, layer: int, column: int) -> QRectF:
        layers_down, tile, left, top, per, step = geometry
        block, within = divmod(layer, per)
        if layers_down:
            x, y = left + block * step + column * tile, top + within * tile
        else:
            x, y = left + within * tile, top + block * step + column * tile
        return QRectF(x + GAP / 2, y + GAP / 2, tile - GAP, tile - GAP)

    def head_at(self, pos) -> tuple[int, int] | None:
        """(layer, head) of the map under a point of the widget."""
        geometry = self._layout(self.width(), self.height())
        for layer in range(self.layers):
            for column in range(self.heads):
                if self._rect(geometry, layer, column).adjusted(-GAP, -GAP, GAP, GAP).contains(pos):
                    return layer, self.head_in(layer, column)
        return None

    def map_point(self, pos) -> tuple[int, int, float, float] | None:
        """(layer, head, down, across) of a point inside a map: its place as fractions of the map's side."""
        hit = self.head_at(pos)
        if hit is None:
            return None
        r = self.head_rect(*hit)
        down = min(max((pos.y() - r.top()) / max(r.height(), 1.0), 0.0), 0.999)
        across = min(max((pos.x() - r.left()) / max(r.width(), 1.0), 0.0), 0.999)
        return (*hit, down, across)

    def head_in(self, layer: int, column: int) -> int:
        return int(self.order[layer, column]) if self.order is not None else column

    def column_of(self, layer: int, head: int) -> int:
        return int(np.flatnonzero(self.order[layer] == head)[0]) if self.order is not None else head

    def head_rect(self, layer: int, head: int) -> QRectF:
        return self._rect(self._layout(self.width(), self.height()), layer, self.column_of(layer, head))

    # ------------------------------------------------------------------ painting
    def paintEvent(self, event) -> None:
        p = QPainter(self)
        self.paint(p, self.width(), self.height())
        p.end()

    def paint(self, p: QPainter, width: int, height: int) -> None:
        """The whole grid into ``p`` over width × height (the widget, or an exported figure)."""
        geometry = self._layout(width, height)
        self._axes(p, geometry)
        empty = self.palette().mid().color()
        for layer in range(self.layers):
            for column in range(self.heads):
                head = self.head_in(layer, column)
                r = self._rect(geometry, layer, column)
                image = self.images.get((layer, head))
                if image is None:
                    p.fillRect(r, empty)
                    continue
                if self._figure:  # scaled here, cell by cell: a viewer would smooth a small embedded image
                    image = image.scaled(
                        round(r.width()),
                        round(r.height()),
                        Qt.AspectRatioMode.IgnoreAspectRatio,
                        Qt.TransformationMode.FastTransformation,
                    )
                p.drawImage(r, image)
                self._numbers(p, r, head)
        self._overlays(p, geometry)

    def _axes(self, p: QPainter, geometry) -> None:
        layers_down, tile, left, top, per, step = geometry
        p.setPen(self.palette().windowText().color())
        y0 = 0.0
        if self._figure and self.title:
            p.setFont(self.font())
            p.drawText(QRectF(4, 2, 10_000, self._title_height()), Qt.AlignmentFlag.AlignLeft, self.title)
            y0 = float(self._title_height())
        p.setFont(self._label_font())
        fm = QFontMetrics(p.font())
        layer_word, head_word = self.axis_words
        down_word, across_word = (layer_word, head_word) if layers_down else (head_word, layer_word)
        p.drawText(QRectF(left, y0, 10_000, fm.height()), Qt.AlignmentFlag.AlignLeft, f"{across_word} →")
        p.drawText(
            QRectF(0, 0, left - 4, top), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom, f"{down_word} ↓"
        )
        for block in range(math.ceil(max(self.layers, 1) / per)):
            layers = range(block * per, min(self.layers, (block + 1) * per))
            heads = range(self.heads)
            rows, cols = (layers, heads) if layers_down else (heads, layers)
            dx, dy = (block * step, 0.0) if layers_down else (0.0, block * step)
            self._numbers_along(p, fm, rows, cols, (left + dx, top + dy, tile, y0 + fm.height() + dy), layers_down)

    def _numbers_along(self, p: QPainter, fm, rows, cols, at, layers_down: bool) -> None:
        """One block's numbers: its rows' on its left, its columns' above it (thinned to what fits)."""
        x, y, tile, y_cols = at
        sorted_heads = self.order is not None
        step = max(1, math.ceil(fm.height() / tile))
        for k, r in enumerate(rows):
            if k % step or (sorted_heads and not layers_down):
                continue  # sorted, rows are ranks, not heads: each map carries its head's number
            p.drawText(
                QRectF(x - 200, y + k * tile, 196, tile),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                str(r),
            )
        step = max(1, math.ceil((fm.horizontalAdvance("00") + 4) / tile))
        for k, c in enumerate(cols):
            if k % step or (sorted_heads and layers_down):
                continue
            p.drawText(QRectF(x + k * tile, y_cols, tile, fm.height() + 2), Qt.AlignmentFlag.AlignCenter, str(c))

    def _numbers(self, p: QPainter, r: QRectF, head: int) -> None:
        """Sorted, a map's column is its rank: its head's number goes in its corner (when it fits)."""
        if self.order is None or r.height() < 18:
            return
        p.setPen(QColor(0, 0, 0))
        p.drawText(r.adjusted(3, 2, 0, 0), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, str(head))
        p.setPen(QColor(255, 255, 255))
        p.drawText(r.adjusted(2, 1, 0, 0), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, str(head))

    def _overlays(self, p: QPainter, geometry) -> None:
        tile = geometry[1]
        if self.query is not None and tile >= 10:
            token, tokens = self.query
            p.setPen(QPen(QColor(255, 255, 255, 170), 1))
            for layer in range(self.layers):
                for column in range(self.heads):
                    r = self._rect(geometry, layer, column)
                    y = r.top() + (token + 0.5) / tokens * r.height()
                    p.drawLine(r.left(), y, r.right(), y)
        p.setBrush(Qt.BrushStyle.NoBrush)
        for layer, head in self.marked:
            if layer < self.layers and head < self.heads:
                p.setPen(QPen(accent_colour(), 2))
                p.drawRect(self._rect(geometry, layer, self.column_of(layer, head)).adjusted(-1, -1, 1, 1))
        if self.selected is not None and self.selected[0] < self.layers and self.selected[1] < self.heads:
            r = self._rect(geometry, self.selected[0], self.column_of(*self.selected)).adjusted(-1, -1, 1, 1)
            p.setPen(QPen(QColor(0, 0, 0), 3))
            p.drawRect(r)
            p.setPen(QPen(QColor(255, 255, 255), 1))
            p.drawRect(r)
        if self.chosen is not None and not self._figure and self.chosen[:2] in self.images:
            layer, head, i, j, n = self.chosen
            r, pen = self._rect(geometry, layer, self.column_of(layer, head)), QPen(accent_colour(), 2)
            side = r.width() / n
            p.setPen(pen)
            p.drawRect(QRectF(r.left() + j * side, r.top() + i * side, side, side).adjusted(-1, -1, 1, 1))
        if self.hasFocus() and self.layers and not self._figure:
            p.setPen(QPen(self.palette().highlight().color(), 1, Qt.PenStyle.DashLine))
            p.drawRect(self._rect(geometry, self.cursor[0], self.column_of(*self.cursor)).adjusted(-2, -2, 2, 2))

    # ------------------------------------------------------------------ mouse and keys
    def mouseMoveEvent(self, event) -> None:
        hit = self.head_at(event.position())
        text = self.tip(*hit) if hit is not None else ""
        QToolTip.showText(event.globalPosition().toPoint(), text, self) if text else QToolTip.hideText()
        super().mouseMoveEvent(event)

    def mousePressEvent(self, event) -> None:
        hit = self.head_at(event.position())
        if event.button() == Qt.MouseButton.LeftButton and hit is not None:
            self.cursor = hit
            self.mapPressed.emit(*self.map_point(event.position()))
            self.headClicked.emit(*hit)
        super().mousePressEvent(event)

    def contextMenuEvent(self, event) -> None:
        point = self.map_point(QPointF(event.pos()))
        if point is not None:
            self.mapContextRequested.emit(*point, event.globalPos())

    def keyPressEvent(self, event) -> None:
        if not self.layers:
            return super().keyPressEvent(event)
        layers_down = self._layout(self.width(), self.height())[0]
        layer, column = self.cursor[0], self.column_of(*self.cursor)
        moves = {Qt.Key.Key_Up: (-1, 0), Qt.Key.Key_Down: (1, 0), Qt.Key.Key_Left: (0, -1), Qt.Key.Key_Right: (0, 1)}
        key = event.key()
        if key in moves:
            dr, dc = moves[key]
            dl, dh = (dr, dc) if layers_down else (dc, dr)
            layer = min(max(layer + dl, 0), self.layers - 1)
            column = min(max(column + dh, 0), self.heads - 1)
            self.cursor = (layer, self.head_in(layer, column))
            r = self.head_rect(*self.cursor)
            QToolTip.showText(self.mapToGlobal(QPoint(int(r.right()), int(r.bottom()))), self.tip(*self.cursor), self)
            self.update()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.headClicked.emit(*self.cursor)
        else:
            super().keyPressEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(420, 360)

    # ------------------------------------------------------------------ figure
    def figure(self, tile_px: int = 40) -> QImage:
        """The grid as a picture with maps of ``tile_px`` pixels (layers down): for slides and hand-outs."""
        self._figure = True
        try:
            left, top = self._margins()
            title = QFontMetrics(self.font()).horizontalAdvance(self.title) + 8 if self.title else 0
        finally:
            self._figure = False
        width = int(max(left + self.heads * tile_px + 4, title))
        height = int(top + self.layers * tile_px + 4)
        image = QImage(width, height, QImage.Format.Format_ARGB32)
        image.fill(self.palette().window().color())
        p = QPainter(image)
        self.paint_figure(p, width, height)
        p.end()
        return image

    def paint_figure(self, p: QPainter, width: int, height: int) -> None:
        """``paint`` without what only the screen shows (the keyboard cursor)."""
        self._figure = True
        try:
            p.fillRect(QRectF(0, 0, width, height), self.palette().window().color())
            self.paint(p, width, height)
        finally:
            self._figure = False
