"""Plays a lesson in the window: the part of the Qt bridge for the Session's LessonPlay
(explorer/session/records.py; its rules are explorer/session/rules_lessons.py), which knows which step is
shown and sets the session to it.

Each step is the fold of the steps before it over the window as it was when the lesson opened, so jumping,
going back, or pressing → after trying something in the window always shows the step as written. A step on
a real model that is not installed is skipped: its words are shown with a note, the window stays as it is.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from explorer.lessons import Lesson, LessonState, resolve
from explorer.session.actions import (
    CloseLesson,
    GoToLessonStep,
    NextLessonStep,
    OpenLesson,
    PreviousLessonStep,
    ReplaceLesson,
)
from explorer.ui.bridge.state import AppState


class LessonPlayer(QObject):
    stepChanged = Signal(int)  # the step now shown (0-based)
    lessonChanged = Signal(object)  # Lesson or None (closed)

    def __init__(
        self, state: AppState, show_panel: Callable[[str], None] | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.state = state
        state.lessonChanged.connect(self.lessonChanged)
        state.lessonStepChanged.connect(self.stepChanged)
        if show_panel is not None:
            state.panelWanted.connect(show_panel)  # a step brings its panel to the front

    @property
    def lesson(self) -> Lesson | None:
        return self.state.session.lesson.lesson

    @property
    def index(self) -> int:
        return self.state.session.lesson.index

    @property
    def start(self) -> LessonState:
        """The state the steps fold over (the window when the lesson opened)."""
        return self.state.session.lesson.start

    @property
    def note(self) -> str | None:
        """Why the current step was not applied, if it was not."""
        return self.state.session.lesson.note

    @property
    def count(self) -> int:
        return self.state.session.lesson.count

    def open(self, lesson: Lesson, step: int = 0, start: LessonState | None = None) -> None:
        """Play ``lesson`` from ``step``, folding its steps over ``start`` (default: the window as it is)."""
        self.state.dispatch(OpenLesson(lesson, step, start))

    def close(self) -> None:
        self.state.dispatch(CloseLesson())

    def replace_lesson(self, lesson: Lesson, index: int | None = None) -> None:
        """The lesson was edited (steps added, moved, deleted): show step ``index`` (default: the current
        one) without re-applying it; the window already shows what the teacher recorded or kept."""
        self.state.dispatch(ReplaceLesson(lesson, index))

    def resolved(self, n: int | None = None) -> LessonState:
        play = self.state.session.lesson
        assert play.lesson is not None
        return resolve(play.lesson, play.index if n is None else n, play.start)

    def go(self, n: int) -> None:
        self.state.dispatch(GoToLessonStep(n))

    def next(self) -> None:
        self.state.dispatch(NextLessonStep())

    def previous(self) -> None:
        self.state.dispatch(PreviousLessonStep())
