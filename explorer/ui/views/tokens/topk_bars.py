"""The next-token view's bars: the top k tokens of one position, longest = most likely, each with its
probability printed beside its bar. It only draws the (id, label, probability) rows it is given."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from explorer.ui.preferences.palette_choice import bar_colour


def _is_how(event) -> bool:
    """Ctrl+H, the window's “How is this made?” key (explorer/ui/menus/actions.py)."""
    return event.key() == Qt.Key.Key_H and event.modifiers() == Qt.KeyboardModifier.ControlModifier


def fmt_prob(p: float) -> str:
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


class TopKBars(QWidget):
    """Horizontal bars, one per token, longest = most likely; each row: token, bar, probability. A click or
    ↑ ↓ chooses a row, which Ctrl+H and the context menu ask “How is this made?” about."""

    howAsked = Signal(int)  # the chosen row (Ctrl+H while the bars have the focus)
    contextRequested = Signal(int, QPoint)  # the row under the pointer, global position
    rowHovered = Signal(int)  # the row under the pointer (the view's hover line and its link)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.items: list[tuple[int, str, float]] = []  # (id, label, probability), most likely first
        self.chosen: int | None = None  # the row clicked or walked to
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self._hovered: int | None = None

    def palette_changed(self) -> None:
        self.update()

    def set_items(self, items: list[tuple[int, str, float]]) -> None:
        self.items = items
        if self.chosen is not None and self.chosen >= len(items):
            self.chosen = None
        self.updateGeometry()
        self.update()

    def _row_height(self) -> int:
        return self.fontMetrics().height() + 6

    def sizeHint(self) -> QSize:
        return QSize(240, max(1, len(self.items)) * self._row_height() + 4)

    def minimumSizeHint(self) -> QSize:
        return QSize(120, self.sizeHint().height())

    def row_at(self, y: float) -> int | None:
        n = int((y - 2) // self._row_height())
        return n if 0 <= n < len(self.items) else None

    def mouseMoveEvent(self, event) -> None:
        row = self.row_at(event.position().y())
        if row is not None and row != self._hovered:
            self.rowHovered.emit(row)
        self._hovered = row
        super().mouseMoveEvent(event)

    def leaveEvent(self, event) -> None:
        self._hovered = None
        super().leaveEvent(event)

    def mousePressEvent(self, event) -> None:
        self.chosen = self.row_at(event.position().y())
        self.update()

    def contextMenuEvent(self, event) -> None:
        row = self.row_at(event.pos().y())
        if row is not None:
            self.chosen = row
            self.update()
            self.contextRequested.emit(row, event.globalPos())

    def event(self, e) -> bool:
        # Ctrl+H is the window's shortcut for the central map: with a bar chosen here, the bars answer it.
        if e.type() == QEvent.Type.ShortcutOverride and self.chosen is not None and _is_how(e):
            e.accept()
            return True
        return super().event(e)

    def keyPressEvent(self, event) -> None:
        if self.chosen is not None and _is_how(event):
            self.howAsked.emit(self.chosen)
        elif event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down) and self.items:
            step = -1 if event.key() == Qt.Key.Key_Up else 1
            self.chosen = 0 if self.chosen is None else min(max(self.chosen + step, 0), len(self.items) - 1)
            self.update()
        else:
            super().keyPressEvent(event)

    def paintEvent(self, event) -> None:
        if not self.items:
            return
        p = QPainter(self)
        pal = self.palette()
        fm = QFontMetrics(self.font())
        rh = self._row_height()
        label_w = min(max(fm.horizontalAdvance(label) for _, label, _ in self.items) + 12, self.width() // 3)
        num_w = fm.horizontalAdvance("0.000e-00") + 6
        bar_w = max(10, self.width() - label_w - num_w - 8)
        top = max(prob for _, _, prob in self.items) or 1.0  # bars relative to the likeliest; numbers say the rest
        bar = bar_colour()  # the chosen palette's (View → Colours)
        faint = QColor(bar)
        faint.setAlpha(150)
        text = pal.color(QPalette.ColorRole.Text)
        for n, (_, label, prob) in enumerate(self.items):
            y = 2 + n * rh
            if n == self.chosen:
                p.setPen(pal.color(QPalette.ColorRole.Highlight))
                p.drawRect(QRectF(0.5, y + 0.5, self.width() - 1, rh - 1))
            p.setPen(text)
            shown = fm.elidedText(label, Qt.TextElideMode.ElideRight, label_w - 6)
            p.drawText(
                QRectF(0, y, label_w - 6, rh), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, shown
            )
            length = bar_w * prob / top
            p.fillRect(QRectF(label_w, y + 3, max(1.0, length), rh - 6), bar if n == 0 else faint)
            p.setPen(text)
            p.drawText(
                QRectF(label_w + length + 4, y, num_w, rh),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                fmt_prob(prob),
            )
        p.end()
