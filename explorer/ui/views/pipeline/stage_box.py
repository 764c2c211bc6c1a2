"""The pipeline's parts: a stage box (symbol, shape, note; the selected one filled with the highlight colour),
the arrow between boxes, and the diagram that keeps its height equal to what its width needs."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QAbstractButton, QLabel, QSizePolicy, QWidget

# The boxes' text scales tried, largest first, until the whole pipeline fits one row: a second row would be
# hidden by the pipeline dock (at 1280 px the Japanese notes made the last softmax box wrap out of sight).
BOX_SCALES = (1.0, 0.93, 0.86, 0.8, 0.74)


def box_scales() -> tuple[float, ...]:
    """BOX_SCALES, and under large type (View → Text size above 100 %) smaller ones, down to the boxes' size
    at 100 %: the pipeline keeps one row and its height goes to the map, never smaller than it was."""
    from explorer.ui.preferences import text_size

    floor = BOX_SCALES[-1] / max(1.0, text_size.scale())
    extra = tuple(round(BOX_SCALES[-1] * 0.92**k, 3) for k in range(1, 12))
    return (
        BOX_SCALES
        + tuple(s for s in extra if s >= floor - 1e-9)
        + ((round(floor, 3),) if floor < BOX_SCALES[-1] else ())
    )


class StageBox(QAbstractButton):
    """One stage: its symbol, its shape, and a short note (heads, scaling, mask). Drawn with the palette so
    both themes work; the selected stage is filled with the highlight colour."""

    PAD = 5  # 18 stages (with the norms) fit one row at 1280 px; a smaller scale shrinks it too

    def __init__(self, key: str, symbol: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = key
        self.symbol = symbol
        self.shape_text = ""
        self.note = ""
        self.edge = ""  # the full edge label with real shapes (tooltip, detail line)
        self.selected = False
        self.scale = 1.0  # text and padding, below 1 when the row must shrink to fit (BOX_SCALES)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # set_selected: only the selected stage's box takes Tab
        # One Tab stop for the whole pipeline (← → walk its stages, as the window's keys do): 18 stops for
        # its boxes kept the map beyond 30 presses of Tab (issue 38). explorer/ui/access/keyboard_order.py
        # still orders every box of the group, so that the one that takes Tab sits where the pipeline stands.
        self.setProperty("rovingTab", True)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def set_content(self, shape_text: str, note: str, edge: str) -> None:
        if (shape_text, note, edge) != (self.shape_text, self.note, self.edge):
            self.shape_text, self.note, self.edge = shape_text, note, edge
            self.updateGeometry()
            self.update()

    def set_scale(self, scale: float) -> None:
        if scale != self.scale:
            self.scale = scale
            self.updateGeometry()
            self.update()

    def _pad(self) -> int:
        return max(2, round(self.PAD * self.scale))

    def set_selected(self, selected: bool) -> None:
        # TabFocus only (a click must not take Space away from Play), and only on the selected box
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus if selected else Qt.FocusPolicy.NoFocus)
        if selected != self.selected:
            self.selected = selected
            self.update()

    def _fonts(self) -> tuple[QFont, QFont]:
        # A little larger than the window's text: the diagram is what a class looks at.
        bold = QFont(self.font())
        bold.setPointSizeF(self.font().pointSizeF() * 1.1 * self.scale)
        bold.setBold(True)
        small = QFont(self.font())
        small.setPointSizeF(max(7.0 * min(1.0, self.scale / 0.86), self.font().pointSizeF() * 0.9 * self.scale))
        return bold, small

    def _lines(self) -> list[tuple[str, bool]]:
        lines = [(self.symbol, True), (self.shape_text, False)]
        if self.note:
            lines.append((self.note, False))
        return lines

    def sizeHint(self) -> QSize:
        bold, small = self._fonts()
        fb, fs = QFontMetrics(bold), QFontMetrics(small)
        width = max(fb.horizontalAdvance(self.symbol), *(fs.horizontalAdvance(t) for t, _ in self._lines()[1:]))
        height = fb.height() + 2 * fs.height()  # always room for a note, so boxes line up
        return QSize(width + 2 * self._pad(), height + 2 * self._pad() - 2)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        rect = QRectF(self.rect()).adjusted(1, 1, -1, -1)
        if self.selected:
            fill, text, border = (
                pal.color(QPalette.ColorRole.Highlight),
                pal.color(QPalette.ColorRole.HighlightedText),
                pal.color(QPalette.ColorRole.Highlight),
            )
        else:
            fill, text, border = (
                pal.color(QPalette.ColorRole.Base),
                pal.color(QPalette.ColorRole.Text),
                pal.color(QPalette.ColorRole.Mid),
            )
        if self.underMouse() and not self.selected:
            border = pal.color(QPalette.ColorRole.Highlight)
        p.setPen(QPen(border, 2 if self.selected or self.hasFocus() else 1))
        p.setBrush(fill)
        p.drawRoundedRect(rect, 6, 6)
        bold, small = self._fonts()
        y = self._pad() - 1
        for text_line, is_bold in self._lines():
            font = bold if is_bold else small
            fm = QFontMetrics(font)
            p.setFont(font)
            p.setPen(text)
            p.drawText(QRectF(0, y, self.width(), fm.height()), Qt.AlignmentFlag.AlignCenter, text_line)
            y += fm.height()
        p.end()

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):  # Enter shows the stage, as Space does
            self.click()
            return
        super().keyPressEvent(event)

    def enterEvent(self, event) -> None:
        self.update()
        super().enterEvent(event)

    def leaveEvent(self, event) -> None:
        self.update()
        super().leaveEvent(event)


class Diagram(QWidget):
    """Holds the wrapping row of boxes and keeps its height equal to what its width needs (docks do not
    follow height-for-width on their own). ``shrink(width)``, when set, first makes the boxes small enough
    for one row where it can."""

    shrink = None

    def fit(self) -> None:
        if self.shrink is not None:
            self.shrink(max(1, self.width()))
        self.layout().invalidate()
        height = self.heightForWidth(max(1, self.width()))
        if height > 0 and height != self.minimumHeight():
            self.setFixedHeight(height)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit()


def arrow() -> QLabel:
    a = QLabel("→")
    a.setAlignment(Qt.AlignmentFlag.AlignCenter)
    a.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    a.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
    return a
