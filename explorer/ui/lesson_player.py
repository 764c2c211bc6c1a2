"""Plays a lesson in the window: which step is shown, and setting the window to it.

Each step is the fold of the steps before it over the window as it was when the lesson opened, so jumping,
going back, or pressing → after trying something in the window always shows the step as written. A step on
a real model that is not installed is skipped: its words are shown with a note, the window stays as it is.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Signal

from explorer.lessons import Lesson, LessonState, resolve, skip_note
from explorer.ui import lesson_state
from explorer.ui.state import AppState


class LessonPlayer(QObject):
    stepChanged = Signal(int)  # the step now shown (0-based)
    lessonChanged = Signal(object)  # Lesson or None (closed)

    def __init__(self, state: AppState, show_panel: Callable[[str], None] | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.show_panel = show_panel
        self.lesson: Lesson | None = None
        self.index = -1
        self.start: LessonState = LessonState()
        self.note: str | None = None  # why the current step was not applied, if it was not

    def open(self, lesson: Lesson, step: int = 0, start: LessonState | None = None) -> None:
        """Play ``lesson`` from ``step``, folding its steps over ``start`` (default: the window as it is)."""
        self.lesson = lesson
        self.start = start or lesson_state.capture(self.state)
        self.index = -1
        self.lessonChanged.emit(lesson)
        self.go(step)

    def close(self) -> None:
        self.lesson, self.index, self.note = None, -1, None
        self.lessonChanged.emit(None)

    def replace_lesson(self, lesson: Lesson, index: int | None = None) -> None:
        """The lesson was edited (steps added, moved, deleted): show step ``index`` (default: the current
        one) without re-applying it; the window already shows what the teacher recorded or kept."""
        if self.lesson is None:
            self.start = lesson_state.capture(self.state)
        self.lesson = lesson
        self.index = min(self.index if index is None else index, len(lesson.steps) - 1)
        self.lessonChanged.emit(lesson)
        self.stepChanged.emit(self.index)

    @property
    def count(self) -> int:
        return len(self.lesson.steps) if self.lesson else 0

    def resolved(self, n: int | None = None) -> LessonState:
        assert self.lesson is not None
        return resolve(self.lesson, self.index if n is None else n, self.start)

    def go(self, n: int) -> None:
        if self.lesson is None or not self.lesson.steps:
            return
        n = max(0, min(self.count - 1, n))
        target = self.resolved(n)
        self.note = skip_note(target)
        if self.note is None:
            lesson_state.apply(self.state, target, self.show_panel)
        self.index = n
        self.stepChanged.emit(n)

    def next(self) -> None:
        if self.index < self.count - 1:
            self.go(self.index + 1)

    def previous(self) -> None:
        if self.index > 0:
            self.go(self.index - 1)
