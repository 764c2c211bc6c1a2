"""A lesson played full screen for a class: the step's title and caption in large type, the question (and
its answer on A), and the central tensor view large. → Space PageDown go to the next step, ← PageUp back,
Esc leaves. The main window follows every step (it is the same state), and stays live underneath."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QKeyEvent, QPalette
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QVBoxLayout, QWidget

from explorer.ui.lesson_bar import LessonBar, step_words
from explorer.ui.lesson_player import LessonPlayer
from explorer.ui.plain_text import plain_label  # a lesson's words are text, never HTML
from explorer.ui.views.tensor_view import TensorView

TITLE_SCALE, CAPTION_SCALE, SMALL_SCALE = 2.4, 1.7, 1.2  # × the application's font size

_NEXT = (Qt.Key.Key_Right, Qt.Key.Key_Space, Qt.Key.Key_PageDown, Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter)
_BACK = (Qt.Key.Key_Left, Qt.Key.Key_PageUp, Qt.Key.Key_Up, Qt.Key.Key_Backspace)


def _font(base: QFont, factor: float, bold: bool = False) -> QFont:
    font = QFont(base)
    font.setPointSizeF(base.pointSizeF() * factor)
    font.setBold(bold)
    return font


class LessonPresentation(QWidget):
    @classmethod
    def show_for(
        cls, player: LessonPlayer, bar: LessonBar, parent: QWidget | None = None, full_screen: bool = True
    ) -> LessonPresentation:
        existing = parent.findChild(LessonPresentation) if parent is not None else None
        window = existing or cls(player, bar, parent)
        window.refresh()
        window.showFullScreen() if full_screen else window.show()
        window.raise_()
        window.activateWindow()
        window.setFocus()
        return window

    def __init__(self, player: LessonPlayer, bar: LessonBar, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("LessonPresentation")
        self.player, self.bar = player, bar  # the bar knows the language the lesson is played in
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        base = self.font()
        self.title = plain_label()
        self.title.setFont(_font(base, TITLE_SCALE, bold=True))
        self.title.setWordWrap(True)
        self.counter = plain_label()
        self.counter.setFont(_font(base, CAPTION_SCALE))
        self.counter.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.leave = QToolButton(text="✕", autoRaise=True)
        self.leave.setFont(_font(base, CAPTION_SCALE))
        self.leave.clicked.connect(self.close)
        self.caption = plain_label()
        self.caption.setFont(_font(base, CAPTION_SCALE))
        self.caption.setWordWrap(True)
        self.question = plain_label()
        self.question.setFont(_font(base, CAPTION_SCALE))
        self.question.setWordWrap(True)
        self.answer = plain_label()
        self.answer.setFont(_font(base, CAPTION_SCALE))
        self.answer.setWordWrap(True)
        self.answer.setForegroundRole(QPalette.ColorRole.Link)
        self.note = plain_label()
        self.note.setFont(_font(base, SMALL_SCALE))
        self.note.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.tensor = TensorView(player.state)
        self.tensor.setFont(_font(base, 1.3))
        for w in self.tensor.findChildren(QWidget):
            w.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.leave.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.counter)
        top.addWidget(self.leave)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(40, 24, 40, 16)
        lay.addLayout(top)
        lay.addWidget(self.caption)
        lay.addWidget(self.question)
        lay.addWidget(self.answer)
        lay.addWidget(self.note)
        lay.addWidget(self.tensor, 1)
        player.stepChanged.connect(self.refresh)
        player.lessonChanged.connect(lambda lesson: self.close() if lesson is None else self.refresh())
        self.setWindowTitle(self.tr("Attention Explorer — lesson"))

    def refresh(self, *_args) -> None:
        p = self.player
        if p.lesson is None or p.index < 0:
            return
        words = step_words(p, self.bar.language)
        self.title.setText(words["title"] or p.lesson.title_in(self.bar.language))
        self.counter.setText(self.tr("{i} / {n}").format(i=p.index + 1, n=p.count))
        self.caption.setText(words["caption"])
        self.question.setText(self.tr("Question: {q}").format(q=words["question"]) if words["question"] else "")
        self.question.setVisible(bool(words["question"]))
        self.answer.setText(self.tr("Answer: {a}").format(a=words["answer"]))
        self.answer.setVisible(False)
        self.note.setText(words["notes"])
        self.note.setVisible(bool(words["notes"]))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in _NEXT:
            self.player.next()
        elif key in _BACK:
            self.player.previous()
        elif key == Qt.Key.Key_A and self.question.isVisible():
            self.answer.setVisible(True)
        elif key in (Qt.Key.Key_Escape, Qt.Key.Key_F5):
            self.close()
        else:
            super().keyPressEvent(event)
