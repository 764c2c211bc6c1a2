"""A map for the keyboard and a screen reader: Tab reaches it, the arrow keys walk it cell by cell (the hover
explanation follows the focused cell), Enter selects the cell as a click does, and the focused cell is what
the map's accessible name says ("query 3 pen, key 1 is, weight 0.15, row sum 1"), so a screen reader reads
it at each step. The focused cell is outlined in black and white (visible on every palette's colours).

Attached to every ``Heatmap`` (``heatmap.access``); it also keeps the matrix shown, which View → As table lists.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QRectF, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsRectItem

from explorer.present.cell_words import WORDS, announce_cell

_MOVES = {
    Qt.Key.Key_Left: (0, -1),
    Qt.Key.Key_Right: (0, 1),
    Qt.Key.Key_Up: (-1, 0),
    Qt.Key.Key_Down: (1, 0),
}
_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
_JUMPS = (Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown)


class MapAccess(QObject):
    """The keyboard cursor and the spoken cell of one heatmap."""

    changed = Signal()  # a new matrix is shown (an open table follows it)

    def __init__(self, heatmap) -> None:
        super().__init__(heatmap)
        self.map = heatmap
        self.view = heatmap.graphics
        self.view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.view.installEventFilter(self)
        self.data: np.ndarray | None = None
        self.row_labels: tuple[str, ...] = ()
        self.block = 1  # tokens a side of each cell: more than 1 on a long map's overview
        self.col_labels: tuple[str, ...] = ()
        self.cell: tuple[int, int] | None = None
        self._frames = []
        vb = heatmap.plot.getViewBox()
        for colour, width, style, z in (
            (QColor(0, 0, 0), 5, Qt.PenStyle.SolidLine, 8),
            (QColor(255, 255, 255), 2, Qt.PenStyle.DashLine, 9),
        ):
            item = QGraphicsRectItem()
            item.setPen(pg.mkPen(colour, width=width, style=style))
            item.setBrush(Qt.BrushStyle.NoBrush)
            item.setZValue(z)
            item.hide()
            vb.addItem(item)
            self._frames.append(item)
        self.retranslate()

    # ------------------------------------------------------------------ words
    def words(self) -> dict[str, str]:
        return {
            "query": self.tr("query"),
            "key": self.tr("key"),
            "row": self.tr("row"),
            "column": self.tr("column"),
            "weight": self.tr("weight"),
            "value": self.tr("value"),
            "row sum": self.tr("row sum"),
            "masked": self.tr("masked, minus infinity"),
        }

    def retranslate(self) -> None:
        self.view.setAccessibleDescription(
            self.tr(
                "Arrow keys move from cell to cell, Home and End go to the row's ends, Enter selects the cell's "
                "token; View → As table lists every number."
            )
        )
        self._announce()

    def title(self) -> str:
        return self.map.title.text() or self.tr("Map")

    # ------------------------------------------------------------------ content
    def set_matrix(self, data: np.ndarray, row_labels, col_labels, block: int = 1) -> None:
        """``block``: the tokens a side of each cell (a long map's overview draws blocks over the tokens' axes)."""
        self.data, self.block = data, block
        self.row_labels, self.col_labels = tuple(row_labels), tuple(col_labels)
        if self.cell is not None:
            rows, cols = data.shape
            self.cell = (min(self.cell[0], rows - 1), min(self.cell[1], cols - 1)) if rows and cols else None
        self._place()
        self._announce()
        self.changed.emit()

    def announcement(self) -> str:
        """What the map says now: the focused cell, or what the map is."""
        if self.data is None or self.cell is None:
            return self.tr("Map: {title}").format(title=self.title()) if self.map.title.text() else self.tr("Map")
        return announce_cell(self.data, *self.cell, self.row_labels, self.col_labels, {**WORDS, **self.words()})

    def _announce(self) -> None:
        text = self.announcement()
        if self.view.accessibleName() != text:
            self.view.setAccessibleName(text)  # Qt tells assistive technology: the name changed

    def _place(self) -> None:
        show = self.cell is not None and self.data is not None and self.view.hasFocus()
        for item in self._frames:
            item.setVisible(show)
            if show:
                b = self.block
                item.setRect(QRectF(self.cell[1] * b, self.cell[0] * b, b, b))

    # ------------------------------------------------------------------ keys
    def move_to(self, i: int, j: int) -> None:
        """Put the keyboard's cell at (i, j) (clamped), outline it, say it, and explain it as a hover does."""
        if self.data is None or not self.data.size:
            return
        rows, cols = self.data.shape
        self.cell = (max(0, min(rows - 1, i)), max(0, min(cols - 1, j)))
        self._place()
        self._announce()
        self.map.cellHovered.emit(self.cell[0] * self.block, self.cell[1] * self.block)  # a block: its first token

    def _key(self, event) -> bool:
        key, mods = event.key(), event.modifiers()
        if mods & (
            Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.MetaModifier
        ):
            return False  # Alt+arrows and Ctrl shortcuts stay the window's
        if self.data is None or not self.data.size:
            return False
        i, j = self.cell if self.cell is not None else self._start()
        rows, cols = self.data.shape
        if key in _MOVES:
            di, dj = _MOVES[key]
            self.move_to(i + di, j + dj)
        elif key in _JUMPS:
            target = {
                Qt.Key.Key_Home: (i, 0),
                Qt.Key.Key_End: (i, cols - 1),
                Qt.Key.Key_PageUp: (0, j),
                Qt.Key.Key_PageDown: (rows - 1, j),
            }[key]
            self.move_to(*target)
        elif key in _ENTER:
            self.cell = (i, j)
            self.map.cellClicked.emit(i, j)
        else:
            return False
        return True

    def _start(self) -> tuple[int, int]:
        """Where the cursor starts: the highlighted row and key if any (the selected token), else the top left."""
        row, col = self.map.layers.highlight
        rows, cols = self.data.shape
        i = row if row is not None and 0 <= row < rows else 0
        j = col if col is not None and 0 <= col < cols else 0
        return i, j

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if kind == QEvent.Type.ShortcutOverride:
            if not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier and (
                event.key() in _MOVES or event.key() in _ENTER or event.key() in _JUMPS
            ):
                event.accept()  # the map's own keys win over the window's arrow shortcuts while it has focus
                return True
        elif kind == QEvent.Type.KeyPress:
            return self._key(event)
        elif kind == QEvent.Type.FocusIn:
            if event.reason() == Qt.FocusReason.MouseFocusReason:
                self._place()  # a click selects its own cell; the outline shows where the keys go on from
            elif self.data is not None and self.data.size:
                self.move_to(*(self.cell if self.cell is not None else self._start()))
        elif kind == QEvent.Type.LanguageChange:
            self.retranslate()
        elif kind == QEvent.Type.FocusOut:
            self._place()
            self.map.cellHovered.emit(-1, -1)
        return False
