"""The numbers printed in a small map's cells, drawn by one graphics item in one paint.

A pyqtgraph TextItem per cell (144 of them for a 12-token map) made every redraw pay per cell: creating them
(0.8 ms each at start), re-laying out a rich-text document on each new number, a Python paint call and a
view-transform callback per cell on every repaint. This item keeps the strings and their colours and draws
them with plain drawText at screen size, centred in their cells.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QTransform
from PySide6.QtWidgets import QGraphicsItem

DARK, LIGHT = QColor(0, 0, 0), QColor(255, 255, 255)


class CellNumbers(QGraphicsItem):
    """Cell (i, j) spans view coordinates [j, j+1] × [i, i+1]; its text is drawn at ``font_px`` pixels."""

    def __init__(self) -> None:
        super().__init__()
        self._rows = self._cols = 0
        self._texts: list[str] = []  # row-major
        self._dark: list[bool] = []  # dark text (bright cell) or light text
        self._font = QFont()
        self._font_px = 0  # 0: not drawn (cells too small to read)
        self.setZValue(2)

    def set_cells(self, rows: int, cols: int, texts: list[str], dark: list[bool]) -> None:
        if (rows, cols, texts, dark) == (self._rows, self._cols, self._texts, self._dark):
            return  # the same numbers: nothing to lay out or repaint
        if (rows, cols) != (self._rows, self._cols):
            self.prepareGeometryChange()
        self._rows, self._cols, self._texts, self._dark = rows, cols, texts, dark
        self.update()

    def clear(self) -> None:
        self.set_cells(0, 0, [], [])

    def set_font_px(self, px: int) -> None:
        if px != self._font_px:
            self._font_px = px
            if px:
                self._font = QFont()
                self._font.setPixelSize(px)
            self.update()

    # ------------------------------------------------------------------ reading back (tests, exports)
    def font_px(self) -> int:
        return self._font_px

    def shown(self) -> bool:
        """Are numbers drawn now (some cells, big enough to read)?"""
        return bool(self._texts) and self._font_px > 0 and self.isVisible()

    def texts(self) -> list[list[str]]:
        return [self._texts[i * self._cols : (i + 1) * self._cols] for i in range(self._rows)]

    def colours(self) -> list[QColor]:
        """The colour of each cell's number, row-major."""
        return [DARK if d else LIGHT for d in self._dark]

    # ------------------------------------------------------------------ drawing
    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self._cols, self._rows)

    def paint(self, painter, _option, _widget=None) -> None:
        if not self._font_px or not self._texts:
            return
        to_screen = painter.worldTransform()
        w = abs(to_screen.m11()) + abs(to_screen.m21())  # one cell's width and height on screen
        h = abs(to_screen.m22()) + abs(to_screen.m12())
        painter.save()
        painter.setWorldTransform(QTransform())  # text at screen size, not stretched with the cells
        painter.setFont(self._font)
        align = int(Qt.AlignmentFlag.AlignCenter)
        for k, text in enumerate(self._texts):
            i, j = divmod(k, self._cols)
            c = to_screen.map(QPointF(j + 0.5, i + 0.5))
            painter.setPen(DARK if self._dark[k] else LIGHT)
            painter.drawText(QRectF(c.x() - w / 2, c.y() - h / 2, w, h), align, text)
        painter.restore()
