"""The one full-screen slide window, for a class: a title, where the slide is, a ✕, the slide's words, and
the central tensor view large. What the slides are comes from a deck: presentation mode walks the stages and
a generation (``presentation.StageDeck``), a lesson its steps (``lesson_present.LessonDeck``). The deck adds
its own lines, fills them, sizes the type and says what each key does; Esc leaves, whatever the deck.

The main window follows every slide (it is the same state) and stays live underneath.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from explorer.ui.views.tensor.tensor_view import TensorView

NEXT_KEYS = (
    Qt.Key.Key_Right,
    Qt.Key.Key_Space,
    Qt.Key.Key_PageDown,
    Qt.Key.Key_Down,
    Qt.Key.Key_Return,
    Qt.Key.Key_Enter,
)  # what a presentation clicker sends, and the keyboard's forward keys
BACK_KEYS = (Qt.Key.Key_Left, Qt.Key.Key_PageUp, Qt.Key.Key_Up, Qt.Key.Key_Backspace)
LEAVE_KEYS = (Qt.Key.Key_Escape, Qt.Key.Key_F5)


class Deck(Protocol):
    name: str  # the window's object name: one window per deck kind and main window

    def build(self, window: SlideWindow, lay: QVBoxLayout) -> None: ...  # its lines, the figure row

    def fill(self, window: SlideWindow) -> None: ...  # the slide's words

    def key(self, window: SlideWindow, event: QKeyEvent) -> bool: ...  # True: the deck took the key

    def step(self, window: SlideWindow, delta: int) -> None: ...  # the next (previous) slide

    def resized(self, window: SlideWindow) -> None: ...

    def retranslate(self, window: SlideWindow) -> None: ...


class SlideWindow(QWidget):
    @classmethod
    def find(cls, parent: QWidget | None, name: str) -> SlideWindow | None:
        return parent.findChild(SlideWindow, name) if parent is not None else None

    def __init__(self, state, deck: Deck, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName(deck.name)
        self.state, self.deck = state, deck
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.title = QLabel()
        self.where = QLabel()
        self.where.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.leave = QToolButton(text="✕", autoRaise=True)
        self.leave.clicked.connect(self.close)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.tensor = TensorView(state)
        # Every key belongs to the slides: the embedded view's boxes and maps are for the mouse only.
        for w in self.tensor.findChildren(QWidget):
            w.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.leave.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.where)
        top.addWidget(self.leave)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        deck.build(self, lay)
        deck.retranslate(self)

    def open(self, full_screen: bool = True) -> SlideWindow:
        self.showFullScreen() if full_screen else self.show()
        self.raise_()
        self.activateWindow()
        self.setFocus()
        return self

    def refresh(self, *_args) -> None:
        self.deck.fill(self)

    def step(self, delta: int) -> None:
        """The next (previous) slide, as the deck walks."""
        self.deck.step(self, delta)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.deck.resized(self)

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.deck.retranslate(self)
        super().changeEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.deck.key(self, event):
            return
        if event.key() in LEAVE_KEYS:
            self.close()
        else:
            super().keyPressEvent(event)
