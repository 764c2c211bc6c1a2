"""A lesson played full screen for a class, in the one slide window (``slide_window.py``): the step's title
and caption in large type, the question (and its answer on A), and the central tensor view large. → Space
PageDown go to the next step, ← PageUp back, Esc leaves. The main window follows every step (it is the same
state), and stays live underneath."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFont, QKeyEvent, QPalette
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from explorer.ui.bridge.lesson_player import LessonPlayer
from explorer.ui.classroom.lesson_bar import LessonBar, step_words
from explorer.ui.classroom.slide_window import BACK_KEYS, NEXT_KEYS, SlideWindow
from explorer.ui.words.plain_text import plain_label  # a lesson's words are text, never HTML

TITLE_SCALE, CAPTION_SCALE, SMALL_SCALE = 2.4, 1.7, 1.2  # × the application's font size
NAME = "LessonPresentation"  # the slide window's name, and its words' translation context


def _font(base: QFont, factor: float, bold: bool = False) -> QFont:
    font = QFont(base)
    font.setPointSizeF(base.pointSizeF() * factor)
    font.setBold(bold)
    return font


def show_for(
    player: LessonPlayer, bar: LessonBar, parent: QWidget | None = None, full_screen: bool = True
) -> SlideWindow:
    """The lesson's slides over ``parent`` (one window per main window, kept and reused), at its step."""
    window = SlideWindow.find(parent, NAME) or SlideWindow(player.state, LessonDeck(player, bar), parent)
    window.refresh()
    return window.open(full_screen)


class LessonDeck:
    """A lesson's steps: presentation of a lesson (the bar knows the language it is played in)."""

    name = NAME

    def __init__(self, player: LessonPlayer, bar: LessonBar) -> None:
        self.player, self.bar = player, bar

    def build(self, window: SlideWindow, lay: QVBoxLayout) -> None:
        base = window.font()
        for label in (window.title, window.where, window.caption):
            label.setTextFormat(Qt.TextFormat.PlainText)
        window.title.setFont(_font(base, TITLE_SCALE, bold=True))
        window.title.setWordWrap(True)
        for label in (window.where, window.leave, window.caption):
            label.setFont(_font(base, CAPTION_SCALE))
        window.question = _line(base, CAPTION_SCALE)
        window.answer = _line(base, CAPTION_SCALE)
        window.answer.setForegroundRole(QPalette.ColorRole.Link)
        window.note = _line(base, SMALL_SCALE)
        window.note.setWordWrap(False)
        window.note.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        window.tensor.setFont(_font(base, 1.3))
        lay.setContentsMargins(40, 24, 40, 16)
        for w in (window.caption, window.question, window.answer, window.note):
            lay.addWidget(w)
        lay.addWidget(window.tensor, 1)
        self.player.stepChanged.connect(window.refresh)
        self.player.lessonChanged.connect(lambda lesson: window.close() if lesson is None else window.refresh())

    def resized(self, window: SlideWindow) -> None:
        pass  # the type follows the application's font, not the screen

    def retranslate(self, window: SlideWindow) -> None:
        window.setWindowTitle(QCoreApplication.translate("LessonPresentation", "Attention Explorer — lesson"))

    def fill(self, window: SlideWindow) -> None:
        p = self.player
        if p.lesson is None or p.index < 0:
            return
        words = step_words(p, self.bar.language)
        window.title.setText(words["title"] or p.lesson.title_in(self.bar.language))
        window.where.setText(
            QCoreApplication.translate("LessonPresentation", "{i} / {n}").format(i=p.index + 1, n=p.count)
        )
        window.caption.setText(words["caption"])
        question = words["question"]
        window.question.setText(
            QCoreApplication.translate("LessonPresentation", "Question: {q}").format(q=question) if question else ""
        )
        window.question.setVisible(bool(question))
        window.answer.setText(QCoreApplication.translate("LessonPresentation", "Answer: {a}").format(a=words["answer"]))
        window.answer.setVisible(False)
        window.note.setText(words["notes"])
        window.note.setVisible(bool(words["notes"]))

    def step(self, window: SlideWindow, delta: int) -> None:
        self.player.next() if delta > 0 else self.player.previous()

    def key(self, window: SlideWindow, event: QKeyEvent) -> bool:
        key = event.key()
        if key in NEXT_KEYS or key in BACK_KEYS:
            self.step(window, 1 if key in NEXT_KEYS else -1)
        elif key == Qt.Key.Key_A and window.question.isVisible():
            window.answer.setVisible(True)
        else:
            return False
        return True


def _line(base: QFont, scale: float) -> QLabel:
    label = plain_label()
    label.setFont(_font(base, scale))
    label.setWordWrap(True)
    return label
