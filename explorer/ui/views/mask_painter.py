"""The hand-painted mask: a C×C grid (rows = queries, columns = keys) where clicking or dragging toggles
cells between allowed and blocked. The painting goes to the state as an explicit MaskSpec when the mouse
is released; the Session grows it causally with the text so that typing more keeps what was painted.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QMouseEvent, QPainter, QPalette, QPen
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from explorer.analysis.token_text import visible
from explorer.config import MaskSpec
from explorer.present.token_parts import readable_tokens
from explorer.ui.views.base import View


class MaskGrid(QWidget):
    """Paints the top-left C×C of a boolean matrix with token labels; emits edits, holds no state of its own
    beyond the drag in progress."""

    cellsPainted = Signal()  # a press-drag-release finished: the matrix changed

    MIN_CELL, MAX_CELL, LABEL_MAX = 10, 34, 70

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._matrix = np.zeros((0, 0), dtype=bool)
        self._labels: list[str] = []
        self._C = 0
        self._drag_value: bool | None = None
        self._changed = False
        self._query: int | None = None
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def set_data(self, matrix: np.ndarray, labels: list[str], C: int, query: int | None) -> None:
        self._matrix, self._labels, self._C, self._query = matrix, labels, C, query
        self.updateGeometry()
        self.update()

    def matrix(self) -> np.ndarray:
        return self._matrix

    # ------------------------------------------------------------------ geometry
    def _label_w(self) -> int:
        fm = self.fontMetrics()
        widest = max((fm.horizontalAdvance(t) for t in self._labels[: self._C]), default=0)
        return min(widest + 6, self.LABEL_MAX)

    def _cell(self, width: int) -> int:
        if self._C == 0:
            return self.MAX_CELL
        return max(self.MIN_CELL, min(self.MAX_CELL, (width - self._label_w() - 2) // self._C))

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._label_w() + self._cell(width) * self._C + 2

    def sizeHint(self) -> QSize:
        w = self._label_w() + self.MAX_CELL * max(self._C, 1) + 2
        return QSize(w, self.heightForWidth(w))

    def minimumSizeHint(self) -> QSize:
        w = self._label_w() + self.MIN_CELL * max(self._C, 1) + 2
        return QSize(w, self.heightForWidth(w))

    def cell_rect(self, i: int, j: int) -> QRect:
        """Query i (row), key j (column)."""
        lw, c = self._label_w(), self._cell(self.width())
        return QRect(lw + j * c, lw + i * c, c, c)

    def cell_at(self, pos: QPoint) -> tuple[int, int] | None:
        lw, c = self._label_w(), self._cell(self.width())
        i, j = (pos.y() - lw) // c, (pos.x() - lw) // c
        if pos.x() < lw or pos.y() < lw or not (0 <= i < self._C and 0 <= j < self._C):
            return None
        return int(i), int(j)

    # ------------------------------------------------------------------ painting
    def paintEvent(self, event) -> None:
        p = QPainter(self)
        pal = self.palette()
        lw, c, C = self._label_w(), self._cell(self.width()), self._C
        allowed = QColor(pal.color(QPalette.ColorRole.Highlight))
        blocked = QBrush(pal.color(QPalette.ColorRole.Mid), Qt.BrushStyle.BDiagPattern)  # hatched, never a "colour"
        base = pal.color(QPalette.ColorRole.Base)
        grid = QPen(pal.color(QPalette.ColorRole.Mid), 1)
        fm = self.fontMetrics()
        for i in range(C):
            for j in range(C):
                r = QRect(lw + j * c, lw + i * c, c, c)
                if self._matrix[i, j]:
                    p.fillRect(r, allowed)
                else:
                    p.fillRect(r, base)
                    p.fillRect(r, blocked)
        p.setPen(grid)
        for k in range(C + 1):
            p.drawLine(lw, lw + k * c, lw + C * c, lw + k * c)
            p.drawLine(lw + k * c, lw, lw + k * c, lw + C * c)
        if self._query is not None and self._query < C:
            p.setPen(QPen(pal.color(QPalette.ColorRole.Text), 2))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(QRect(lw, lw + self._query * c, C * c, c))
        p.setPen(pal.color(QPalette.ColorRole.Text))
        for k in range(C):
            text = fm.elidedText(self._labels[k] if k < len(self._labels) else "·", Qt.TextElideMode.ElideRight, lw - 4)
            p.drawText(
                QRect(0, lw + k * c, lw - 4, c), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text
            )
            p.save()  # key labels run upwards above their column
            p.translate(lw + k * c, lw - 4)
            p.rotate(-90)
            p.drawText(QRect(0, 0, lw - 4, c), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
            p.restore()
        p.end()

    # ------------------------------------------------------------------ mouse: click toggles, drag paints
    def _apply(self, pos: QPoint) -> None:
        cell = self.cell_at(pos)
        if cell is None or self._drag_value is None:
            return
        if self._matrix[cell] != self._drag_value:
            self._matrix[cell] = self._drag_value
            self._changed = True
            self.update(self.cell_rect(*cell))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        cell = self.cell_at(event.position().toPoint())
        if cell is None or event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        self._drag_value = not bool(self._matrix[cell])  # the first cell decides: the drag paints that value
        self._changed = False
        self._apply(event.position().toPoint())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._drag_value is not None:
            self._apply(event.position().toPoint())

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._drag_value is not None:
            self._apply(event.position().toPoint())
            self._drag_value = None
            if self._changed:
                self.cellsPainted.emit()


class MaskPainter(View):
    """Grid plus "start from causal", "allow all", "clear". The painting lives in the Session (with its growth
    rules, explorer/session/mask_growth.py); this view draws it and sends what is painted."""

    def __init__(self, state, parent=None) -> None:
        super().__init__(state, parent)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.grid = MaskGrid()
        self.grid.cellsPainted.connect(self._send)
        self.causal_button = QPushButton()
        self.allow_button = QPushButton()
        self.clear_button = QPushButton()
        self.causal_button.clicked.connect(lambda: self._paint(start="causal"))
        self.allow_button.clicked.connect(lambda: self._paint(start="all_allowed"))
        self.clear_button.clicked.connect(lambda: self._paint(start="all_blocked"))
        buttons = QGridLayout()  # two rows: the controls dock is narrow
        buttons.addWidget(self.causal_button, 0, 0, 1, 2)
        buttons.addWidget(self.allow_button, 1, 0)
        buttons.addWidget(self.clear_button, 1, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.caption)
        lay.addWidget(self.grid)
        lay.addLayout(buttons)
        self.retranslate()
        state.maskPainted.connect(lambda _m: self._refresh())  # adopted from a request (a session, a lesson)
        state.traceChanged.connect(lambda _t: self._refresh())
        state.selectionChanged.connect(lambda _s: self._refresh())

    def retranslate(self) -> None:
        self.caption.setText(self.tr("Query (row) attends to key (column). Click or drag to block or allow cells."))
        self.grid.setToolTip(
            self.tr("Coloured: allowed. Hatched: blocked. Drag to paint several cells with the first cell's new value.")
        )
        self.causal_button.setText(self.tr("Start from causal"))
        self.causal_button.setToolTip(self.tr("Each token sees itself and the tokens before it"))
        self.allow_button.setText(self.tr("Allow all"))
        self.allow_button.setToolTip(self.tr("Every token sees every token, the future too"))
        self.clear_button.setText(self.tr("Clear"))
        self.clear_button.setToolTip(
            self.tr("Block every cell, then paint the ones to allow (a row with nothing allowed gets weights 0)")
        )

    # ------------------------------------------------------------------ the matrix (the Session's)
    def matrix(self) -> np.ndarray | None:
        return self.state.painted

    def spec(self) -> MaskSpec:
        """The painted mask as a spec to send (starting from causal when nothing is painted yet)."""
        return MaskSpec.explicit(self.state.painted_for_trace())

    def _send(self) -> None:
        self._paint(matrix=self.grid.matrix())

    def _paint(self, **how) -> None:
        self.state.paint(**how)
        self._refresh()

    def _refresh(self) -> None:
        trace = self.state.trace
        if trace is None:
            return
        matrix = self.state.painted_for_trace()
        sel = self.state.selection
        row = trace.rows[min(sel.row, trace.B - 1)]
        labels = [visible(t) for t in readable_tokens(tuple(row.tokens))]
        self.grid.set_data(matrix.copy(), labels, trace.C, sel.token)  # the grid edits its own copy
