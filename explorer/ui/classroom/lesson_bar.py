"""The lesson bar above the views: the step's title, ← →, its caption, the question for the class and
"Show answer". It shows what the player says and asks the player to move; it never sets the state."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from explorer.ui.bridge.lesson_player import LessonPlayer
from explorer.ui.preferences.i18n import LANGUAGES as LANGUAGE_NAMES_LOCAL  # each language named in its own script
from explorer.ui.words.plain_text import plain_label  # a lesson's words are text, never HTML


def step_words(player: LessonPlayer, language: str) -> dict[str, str]:
    """The current step's title, caption, question, answer, and the notes (fallback language, skipped)."""
    assert player.lesson is not None
    step = player.lesson.steps[player.index]
    out, notes = {}, []
    for what in ("title", "caption", "question", "answer"):
        text, note = step.words(what, language)
        out[what] = text
        if note and what == "caption":
            other = next(code for code in step.caption)
            notes.append(
                QCoreApplication.translate(
                    "LessonBar", "This step has no caption in {language}: it is shown in {other}."
                ).format(
                    language=LANGUAGE_NAMES_LOCAL.get(language, language), other=LANGUAGE_NAMES_LOCAL.get(other, other)
                )
            )
    if player.note:
        notes.append(player.note)
    out["notes"] = "; ".join(dict.fromkeys(notes))
    return out


class LessonBar(QWidget):
    def __init__(self, player: LessonPlayer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("LessonBar")
        self.player = player
        self.language = "en"
        self.back = QToolButton(text="←", autoRaise=True)
        self.forward = QToolButton(text="→", autoRaise=True)
        self.back.clicked.connect(player.previous)
        self.forward.clicked.connect(player.next)
        self.counter = plain_label()
        self.title = plain_label()
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.title.setFont(font)
        self.close_button = QToolButton(text="✕", autoRaise=True)
        self.close_button.clicked.connect(player.close)
        self.caption = plain_label()
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = plain_label()
        self.note.setWordWrap(True)
        self.note.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.question = plain_label()
        self.question.setWordWrap(True)
        self.question.setForegroundRole(QPalette.ColorRole.Link)
        self.show_answer = QPushButton()
        self.show_answer.clicked.connect(self._reveal)
        self.answer = plain_label()
        self.answer.setWordWrap(True)

        # Two rows, so that the views keep their room on a 720-pixel screen: the step and its question on
        # the first, the caption (then the answer, and any note) on the second.
        top = QHBoxLayout()
        for w in (self.back, self.counter, self.forward):
            top.addWidget(w)
        top.addWidget(self.title)
        top.addSpacing(16)
        top.addWidget(self.question, 1)
        top.addWidget(self.show_answer)
        top.addWidget(self.close_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 0, 8, 2)
        lay.setSpacing(0)
        lay.addLayout(top)
        lay.addWidget(self.caption)
        lay.addWidget(self.answer)
        lay.addWidget(self.note)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        player.stepChanged.connect(self.refresh)
        player.lessonChanged.connect(lambda _l: self.refresh())
        self.retranslate()

    def set_language(self, language: str) -> None:
        self.language = language
        self.refresh()

    def retranslate(self) -> None:
        self.back.setToolTip(self.tr("Previous step"))
        self.forward.setToolTip(self.tr("Next step (from the lesson's state, whatever you changed)"))
        self.close_button.setToolTip(self.tr("Close the lesson"))
        self.show_answer.setText(self.tr("Show answer"))
        self.refresh()

    def _reveal(self) -> None:
        self.answer.setVisible(True)
        self.show_answer.setEnabled(False)

    def refresh(self, *_args) -> None:
        p = self.player
        if p.lesson is None or p.index < 0:
            return  # the toolbar that holds the bar is hidden (a widget in a toolbar is never hidden itself)
        words = step_words(p, self.language)
        self.counter.setText(self.tr("{i} / {n}").format(i=p.index + 1, n=p.count))
        self.title.setText(words["title"] or p.lesson.title_in(self.language))
        self.caption.setText(words["caption"])
        self.note.setText(words["notes"])
        self.note.setVisible(bool(words["notes"]))
        # Always laid out (empty when there is no question): it holds the title to the left.
        self.question.setText(self.tr("Question: {q}").format(q=words["question"]) if words["question"] else "")
        self.show_answer.setVisible(bool(words["answer"]))
        self.show_answer.setEnabled(True)
        self.answer.setText(words["answer"])
        self.answer.setVisible(False)
        self.back.setEnabled(p.index > 0)
        self.forward.setEnabled(p.index < p.count - 1)

    def changeEvent(self, event) -> None:
        from PySide6.QtCore import QEvent

        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
