"""Plays a lesson in the window: a thin QObject over the Session's LessonPosition
(explorer/session/lesson_position.py), which knows which step is shown and sets the session to it.

Each step is the fold of the steps before it over the window as it was when the lesson opened, so jumping,
going back, or pressing → after trying something in the window always shows the step as written. A step on
a real model that is not installed is skipped: its words are shown with a note, the window stays as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from explorer.lessons import Lesson, LessonState
from explorer.ui.state import AppState


class LessonPlayer(QObject):
    stepChanged = Signal(int)  # the step now shown (0-based)
    lessonChanged = Signal(object)  # Lesson or None (closed)

    def __init__(
        self, state: AppState, show_panel: Callable[[str], None] | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.state = state
        self._position = state.session.lesson
        state.lessonChanged.connect(self.lessonChanged)
        state.lessonStepChanged.connect(self.stepChanged)
        if show_panel is not None:
            state.panelWanted.connect(show_panel)  # a step brings its panel to the front

    lesson = property(lambda self: self._position.lesson)
    index = property(lambda self: self._position.index)
    start = property(
        lambda self: self._position.start, doc="The state the steps fold over (the window when the lesson opened)."
    )
    note = property(lambda self: self._position.note, doc="Why the current step was not applied, if it was not.")
    count = property(lambda self: self._position.count)

    def _call(self, name: str, *args: Any) -> None:
        getattr(self._position, name)(*args)
        self.state.emit_changes()

    def open(self, lesson: Lesson, step: int = 0, start: LessonState | None = None) -> None:
        """Play ``lesson`` from ``step``, folding its steps over ``start`` (default: the window as it is)."""
        self._call("open", lesson, step, start)

    def close(self) -> None:
        self._call("close")

    def replace_lesson(self, lesson: Lesson, index: int | None = None) -> None:
        """The lesson was edited (steps added, moved, deleted): show step ``index`` (default: the current
        one) without re-applying it; the window already shows what the teacher recorded or kept."""
        self._call("replace_lesson", lesson, index)

    def resolved(self, n: int | None = None) -> LessonState:
        return self._position.resolved(n)

    def go(self, n: int) -> None:
        self._call("go", n)

    def next(self) -> None:
        self._call("next")

    def previous(self) -> None:
        self._call("previous")
