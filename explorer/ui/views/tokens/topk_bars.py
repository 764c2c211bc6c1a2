"""The next-token view's bars: the top k tokens of one position, longest = most likely, each with its
probability printed beside its bar. It only draws the (id, label, probability) rows it is given."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from explorer.ui.preferences.palette_choice import bar_colour


def fmt_prob(p: float) -> str:
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


class TopKBars(QWidget):
    """Horizontal bars, one per token, longest = most likely; each row: token, bar, probability."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.items: list[tuple[int, str, float]] = []  # (id, label, probability), most likely first
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def palette_changed(self) -> None:
        self.update()

    def set_items(self, items: list[tuple[int, str, float]]) -> None:
        self.items = items
        self.updateGeometry()
        self.update()

    def _row_height(self) -> int:
        return self.fontMetrics().height() + 6

    def sizeHint(self) -> QSize:
        return QSize(240, max(1, len(self.items)) * self._row_height() + 4)

    def minimumSizeHint(self) -> QSize:
        return QSize(120, self.sizeHint().height())

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
