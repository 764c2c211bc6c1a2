"""A lesson being played: which lesson, which step is shown, what the window was when it opened, and why a
step was not applied. Plain Python held by the Session (explorer/ui/lesson_player.py re-emits).

Each step is the fold of the steps before it over the window as it was when the lesson opened
(``start``), so jumping, going back, or pressing → after trying something in the window always shows the
step as written. A step on a real model that is not installed is skipped: its words are shown with a
note, the window stays as it is.
"""

from __future__ import annotations

from collections.abc import Callable

from explorer.lessons import Lesson, LessonState, resolve, skip_note


class LessonPosition:
    def __init__(
        self, emit: Callable[..., None], read: Callable[[], LessonState], apply: Callable[[LessonState], object]
    ) -> None:
        self._emit = emit  # ("lesson", Lesson | None), ("lesson_step", index)
        self._read = read  # the window as a step would set it
        self._apply = apply  # set the window to a step
        self.lesson: Lesson | None = None
        self.index = -1
        self.start: LessonState = LessonState()
        self.note: str | None = None  # why the current step was not applied, if it was not

    @property
    def count(self) -> int:
        return len(self.lesson.steps) if self.lesson else 0

    def open(self, lesson: Lesson, step: int = 0, start: LessonState | None = None) -> None:
        """Play ``lesson`` from ``step``, folding its steps over ``start`` (default: the window as it is)."""
        self.lesson = lesson
        self.start = start or self._read()
        self.index = -1
        self._emit("lesson", lesson)
        self.go(step)

    def close(self) -> None:
        self.lesson, self.index, self.note = None, -1, None
        self._emit("lesson", None)

    def replace_lesson(self, lesson: Lesson, index: int | None = None) -> None:
        """The lesson was edited (steps added, moved, deleted): show step ``index`` (default: the current
        one) without re-applying it; the window already shows what the teacher recorded or kept."""
        if self.lesson is None:
            self.start = self._read()
        self.lesson = lesson
        self.index = min(self.index if index is None else index, len(lesson.steps) - 1)
        self._emit("lesson", lesson)
        self._emit("lesson_step", self.index)

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
            self._apply(target)
        self.index = n
        self._emit("lesson_step", n)

    def next(self) -> None:
        if self.index < self.count - 1:
            self.go(self.index + 1)

    def previous(self) -> None:
        if self.index > 0:
            self.go(self.index - 1)
