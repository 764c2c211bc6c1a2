"""Token chips ("pen · 17") for every sentence of the batch, painted by one widget.

One widget that lays the chips out itself and paints only the visible ones stays fast for thousands of
tokens, where one QLabel per token would take seconds to build. It knows nothing of the state: it shows
rows of chips, highlights a selected chip and emits ``chipClicked(row, token)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from explorer.ui.words.plain_text import plain_tip

# Unknown tokens: an amber that reads on light and dark backgrounds alike (drawn translucent over Base).
UNKNOWN_COLOUR = QColor(230, 140, 0)


@dataclass(frozen=True)
class Chip:
    text: str  # the token's piece, whitespace made visible
    token_id: int
    unknown: bool
    tooltip: str


class ChipCanvas(QWidget):
    chipClicked = Signal(int, int)  # row (sentence), token position
    moveRequested = Signal(int)  # -1 / +1: arrow keys step the selection
    chipDoubleClicked = Signal(int, int)  # row, token: edit that token
    deleteRequested = Signal()  # the Delete key: remove the selected token

    PAD_X, PAD_Y, GAP, ROW_GAP, LABEL_W = 6, 3, 4, 8, 22

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[list[Chip]] = []
        self._rects: list[list[QRect]] = []
        self._labels: list[QRect] = []
        self._layout_width: tuple | None = None
        self._height = 0
        self._layouts: dict[tuple, tuple] = {}  # (width, font) → (rects, labels, height) for the current chips
        self._selected: tuple[int, int] | None = None
        self._key: tuple[int, int] | None = None
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)  # QScrollArea asks heightForWidth: the chips wrap to the width
        self.setSizePolicy(policy)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(False)

    # ------------------------------------------------------------------ data
    def set_rows(self, rows: list[list[Chip]]) -> None:
        self._rows = rows
        self._sizes_key = None  # new chips: measure again
        self._layouts.clear()
        self._layout_width = None
        self._relayout(self.width())
        self.updateGeometry()
        self.update()

    def rows(self) -> list[list[Chip]]:
        return self._rows

    def set_selected(self, chip: tuple[int, int] | None, key: tuple[int, int] | None = None) -> None:
        if (chip, key) == (self._selected, self._key):
            return
        self._selected, self._key = chip, key
        self.update()

    def selected(self) -> tuple[int, int] | None:
        return self._selected

    def chip_rect(self, row: int, token: int) -> QRect:
        self._relayout(self.width())
        return self._rects[row][token]

    # ------------------------------------------------------------------ layout
    def _chip_size(self, fm: QFontMetrics, chip: Chip) -> QSize:
        w = fm.horizontalAdvance(chip.text) + fm.horizontalAdvance(f" · {chip.token_id}")
        return QSize(w + 2 * self.PAD_X, fm.height() + 2 * self.PAD_Y)

    def _compute(self, width: int) -> tuple[list[list[QRect]], list[QRect], int]:
        fm = self.fontMetrics()
        width = max(width, self.LABEL_W + 60)
        # Chip sizes do not depend on the width: measure each text once per font, not on every relayout
        # (layouts ask several widths; 2,000 chips measured 14 times took most of a second).
        key = (fm.height(), fm.averageCharWidth())
        if getattr(self, "_sizes_key", None) != key:
            measured: dict[tuple[str, int], QSize] = {}  # a long text repeats its tokens: measure each once
            self._sizes = [
                [
                    measured.get((c.text, c.token_id))
                    or measured.setdefault((c.text, c.token_id), self._chip_size(fm, c))
                    for c in chips
                ]
                for chips in self._rows
            ]
            self._sizes_key = key
        rects: list[list[QRect]] = []
        labels: list[QRect] = []
        y = 2
        show_labels = len(self._rows) > 1
        x0 = self.LABEL_W if show_labels else 2
        for chips, sizes in zip(self._rows, self._sizes):
            x, line_h, row_rects = x0, fm.height() + 2 * self.PAD_Y, []
            labels.append(QRect(0, y, self.LABEL_W - 4, line_h))
            for _chip, size in zip(chips, sizes):
                if x > x0 and x + size.width() > width - 2:
                    x, y = x0, y + line_h + self.GAP
                row_rects.append(QRect(QPoint(x, y), size))
                x += size.width() + self.GAP
            rects.append(row_rects)
            y += line_h + self.ROW_GAP
        return rects, labels, y

    def _relayout(self, width: int) -> None:
        fm = self.fontMetrics()
        key = (width, fm.height(), fm.averageCharWidth())  # a new font moves every chip
        if key == self._layout_width:
            return
        # Qt's layouts ask a few widths in turn (heightForWidth, sizeHint, the real width): keep each answer.
        cached = self._layouts.get(key)
        if cached is None:
            cached = self._layouts[key] = self._compute(width)
            if len(self._layouts) > 8:
                self._layouts.pop(next(iter(self._layouts)))
        self._rects, self._labels, self._height = cached
        self._layout_width = key

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        self._relayout(width)
        return self._height

    def sizeHint(self) -> QSize:
        return QSize(400, self.heightForWidth(max(self.width(), 400)))

    def minimumSizeHint(self) -> QSize:
        return QSize(100, self.fontMetrics().height() + 2 * self.PAD_Y + 4)

    def resizeEvent(self, event) -> None:
        self._relayout(event.size().width())
        super().resizeEvent(event)

    # ------------------------------------------------------------------ painting
    def paintEvent(self, event: QPaintEvent) -> None:
        self._relayout(self.width())
        p = QPainter(self)
        pal = self.palette()
        fm = self.fontMetrics()
        clip = event.rect()
        text_c = pal.color(QPalette.ColorRole.Text)
        dim_c = pal.color(QPalette.ColorRole.PlaceholderText)
        base = pal.color(QPalette.ColorRole.Base)
        border = pal.color(QPalette.ColorRole.Mid)
        hi, hi_text = pal.color(QPalette.ColorRole.Highlight), pal.color(QPalette.ColorRole.HighlightedText)
        unknown_fill = QColor(UNKNOWN_COLOUR)
        unknown_fill.setAlpha(70)
        if len(self._rows) > 1:
            p.setPen(dim_c)
            for b, r in enumerate(self._labels):
                if r.intersects(clip):
                    p.drawText(r, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, str(b + 1))
        for b, (chips, rects) in enumerate(zip(self._rows, self._rects)):
            for i, (chip, r) in enumerate(zip(chips, rects)):
                if not r.intersects(clip):
                    continue
                selected = self._selected == (b, i)
                fill = hi if selected else (unknown_fill if chip.unknown else base)
                edge = UNKNOWN_COLOUR if chip.unknown else border
                pen = QPen(hi if self._key == (b, i) else edge, 2 if (self._key == (b, i) or chip.unknown) else 1)
                if chip.unknown:
                    pen.setStyle(Qt.PenStyle.DashLine)
                p.setPen(pen)
                p.setBrush(fill)
                p.drawRoundedRect(r.adjusted(0, 0, -1, -1), 5, 5)
                x = r.x() + self.PAD_X
                baseline = r.y() + self.PAD_Y + fm.ascent()
                p.setPen(hi_text if selected else text_c)
                p.drawText(x, baseline, chip.text)
                p.setPen(hi_text if selected else dim_c)
                p.drawText(x + fm.horizontalAdvance(chip.text), baseline, f" · {chip.token_id}")
        p.end()

    # ------------------------------------------------------------------ interaction
    def chip_at(self, pos: QPoint) -> tuple[int, int] | None:
        self._relayout(self.width())
        for b, rects in enumerate(self._rects):
            if not rects or pos.y() < rects[0].top() or pos.y() > rects[-1].bottom():
                continue
            for i, r in enumerate(rects):
                if r.contains(pos):
                    return b, i
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        hit = self.chip_at(event.position().toPoint())
        if hit is not None and event.button() == Qt.MouseButton.LeftButton:
            self.chipClicked.emit(*hit)
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        hit = self.chip_at(event.position().toPoint())
        if hit is not None and event.button() == Qt.MouseButton.LeftButton:
            self.chipDoubleClicked.emit(*hit)
            return
        super().mouseDoubleClickEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self._selected is not None:
            self.deleteRequested.emit()
            return
        step = {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1}.get(Qt.Key(event.key()))
        if step is not None:
            self.moveRequested.emit(step)
            return
        super().keyPressEvent(event)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            hit = self.chip_at(event.pos())
            if hit is None:
                QToolTip.hideText()
                event.ignore()
            else:
                b, i = hit
                QToolTip.showText(event.globalPos(), plain_tip(self._rows[b][i].tooltip), self, self._rects[b][i])
            return True
        return super().event(event)
