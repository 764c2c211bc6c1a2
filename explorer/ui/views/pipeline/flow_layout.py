"""A layout that places widgets left to right and wraps to a new line when the width runs out.

Qt has none built in. Items are centred vertically in their line. An item wider than the whole width that
can trade width for height (a nested wrapping group) gets a line of its own at the full width.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = 2, line_spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._h, self._v = spacing, line_spacing
        self.setContentsMargins(0, 0, 0, 0)

    # ------------------------------------------------------------------ QLayout interface
    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._place(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, apply=True)

    def sizeHint(self) -> QSize:
        """Everything on one line: what the layout would like when there is room."""
        m = self.contentsMargins()
        visible = [i for i in self._items if not i.isEmpty()]
        width = sum(i.sizeHint().width() for i in visible) + self._h * max(0, len(visible) - 1)
        height = max((i.sizeHint().height() for i in visible), default=0)
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QSize:
        m = self.contentsMargins()
        size = QSize()
        for item in self._items:
            if not item.isEmpty():
                size = size.expandedTo(item.minimumSize())
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    # ------------------------------------------------------------------ placing
    def _place(self, rect: QRect, apply: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        width = max(1, area.width())
        lines: list[list[tuple[QLayoutItem, QSize]]] = [[]]
        x = 0
        for item in self._items:
            if item.isEmpty():
                continue
            hint = item.sizeHint()
            if hint.width() > width and item.hasHeightForWidth():
                hint = QSize(width, item.heightForWidth(width))
            w = min(hint.width(), width)
            if lines[-1] and x + w > width:
                lines.append([])
                x = 0
            lines[-1].append((item, QSize(w, hint.height())))
            x += w + self._h
        y = area.y()
        for line in lines:
            if not line:
                continue
            line_height = max(s.height() for _, s in line)
            if apply:
                x = area.x()
                for item, size in line:
                    top = y + (line_height - size.height()) // 2
                    item.setGeometry(QRect(QPoint(x, top), size))
                    x += size.width() + self._h
            y += line_height + self._v
        return y - self._v - area.y() + m.top() + m.bottom() if any(lines) else m.top() + m.bottom()
