"""The inline editor a double-clicked token chip opens: a line edit laid over the chip. Enter replaces the
token by what was typed (an empty text removes it), Escape or a click elsewhere leaves it unchanged."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit, QWidget


class TokenEditor(QLineEdit):
    committed = Signal(int, int, str)  # row, token, the typed text ("" removes the token)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.target: tuple[int, int] | None = None
        self.returnPressed.connect(self._commit)
        # Focus went elsewhere: nothing changes (Return also ends editing, with the focus still here).
        self.editingFinished.connect(lambda: self.hasFocus() or self.close_editor())
        self.hide()

    def open_at(self, row: int, token: int, rect: QRect, text: str) -> None:
        self.target = (row, token)
        self.setText(text)
        width = max(rect.width() + 40, self.fontMetrics().horizontalAdvance(text) + 40, 120)
        self.setGeometry(rect.x(), rect.y(), width, max(rect.height(), self.sizeHint().height()))
        self.show()
        self.raise_()
        self.setFocus(Qt.FocusReason.OtherFocusReason)
        self.selectAll()

    def _commit(self) -> None:
        target, self.target = self.target, None
        self.hide()
        if target is not None:
            self.committed.emit(*target, self.text())

    def close_editor(self) -> None:
        self.target = None
        self.hide()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close_editor()
            return
        super().keyPressEvent(event)
