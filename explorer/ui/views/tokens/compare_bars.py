"""Two next-token distributions as paired bars: for each token of either run's top k, the baseline's bar
(grey) above the intervened run's (the highlight colour), each with its probability, and how the token's
probability and rank moved ("+0.120", "#3 → #1 ↑"). A legend row names the two colours.

It only draws what it is given (explorer.interventions.compare.token_moves); it knows nothing of the state.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from explorer.ui.preferences.palette_choice import bar_colour

BASELINE_COLOUR = QColor(140, 140, 140)  # the run without interventions: neutral grey on light and dark themes


def fmt_prob(p: float) -> str:
    return f"{p:.3f}" if p >= 0.001 or p == 0 else f"{p:.1e}"


@dataclass(frozen=True)
class PairedBar:
    label: str  # the token as it reads
    before: float  # baseline probability
    after: float  # intervened probability
    rank_before: int
    rank_after: int

    def move(self) -> str:
        """'+0.120 · #3 → #1 ↑': the change of probability and of rank."""
        delta = self.after - self.before
        change = f"{delta:+.3f}" if abs(delta) >= 0.0005 or delta == 0 else f"{delta:+.1e}"
        if self.rank_after == self.rank_before:
            return f"{change} · #{self.rank_after}"
        arrow = "↑" if self.rank_after < self.rank_before else "↓"
        return f"{change} · #{self.rank_before} → #{self.rank_after} {arrow}"


class CompareBars(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.items: list[PairedBar] = []
        self.legend = ("baseline", "intervened")  # the view sets translated words
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def palette_changed(self) -> None:
        self.update()

    def set_items(self, items: list[PairedBar]) -> None:
        self.items = items
        self.updateGeometry()
        self.update()

    def set_legend(self, baseline: str, intervened: str) -> None:
        self.legend = (baseline, intervened)
        self.update()

    def _bar_h(self) -> int:
        return self.fontMetrics().height() + 2

    def _row_h(self) -> int:
        return 2 * self._bar_h() + 6

    def sizeHint(self) -> QSize:
        return QSize(280, (len(self.items) + 1) * self._row_h() + 4 if self.items else 4)

    def minimumSizeHint(self) -> QSize:
        return QSize(140, self.sizeHint().height())

    def _colours(self) -> tuple[QColor, QColor, QColor]:
        pal = self.palette()
        return BASELINE_COLOUR, bar_colour(), pal.color(QPalette.ColorRole.Text)

    def paintEvent(self, event) -> None:
        if not self.items:
            return
        p = QPainter(self)
        fm = QFontMetrics(self.font())
        before_c, after_c, text = self._colours()
        self._paint_legend(p, fm, before_c, after_c, text)
        label_w = min(max(fm.horizontalAdvance(b.label) for b in self.items) + 12, self.width() // 4)
        move_w = max(fm.horizontalAdvance(b.move()) for b in self.items) + 8
        num_w = fm.horizontalAdvance("0.000e-00") + 6
        bar_w = max(10, self.width() - label_w - num_w - move_w - 8)
        top = max(max(b.before, b.after) for b in self.items) or 1.0  # one scale for both runs
        bh, rh = self._bar_h(), self._row_h()
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        for n, item in enumerate(self.items):
            y = 2 + (n + 1) * rh
            p.setPen(text)
            shown = fm.elidedText(item.label, Qt.TextElideMode.ElideRight, label_w - 6)
            p.drawText(QRectF(0, y, label_w - 6, 2 * bh), right, shown)
            for k, (prob, colour) in enumerate(((item.before, before_c), (item.after, after_c))):
                yk = y + k * bh
                length = bar_w * prob / top
                p.fillRect(QRectF(label_w, yk + 2, max(1.0, length), bh - 3), colour)
                p.setPen(text)
                p.drawText(QRectF(label_w + length + 4, yk, num_w, bh), left, fmt_prob(prob))
            p.drawText(QRectF(self.width() - move_w, y, move_w, 2 * bh), left, item.move())
        p.end()

    def _paint_legend(self, p: QPainter, fm: QFontMetrics, before_c: QColor, after_c: QColor, text: QColor) -> None:
        x, bh = 4.0, self._bar_h()
        for word, colour in zip(self.legend, (before_c, after_c)):
            p.fillRect(QRectF(x, 4, 2 * bh, bh - 3), colour)
            x += 2 * bh + 4
            p.setPen(text)
            p.drawText(QRectF(x, 2, fm.horizontalAdvance(word) + 4, bh), Qt.AlignmentFlag.AlignVCenter, word)
            x += fm.horizontalAdvance(word) + 16
