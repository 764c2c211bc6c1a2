"""Lessons: a sequence of steps, each a caption (in several languages), an optional question for the class,
and the part of the window's state it sets. Pure: no Qt. The format is documented in docs/lessons.md.

``read_lesson`` opens and validates a file (or ``builtin``), ``resolve`` folds steps 0..N into the complete
state step N shows, ``dump_lesson`` writes a lesson back as TOML.
"""

from explorer.lessons.model import (
    DEFAULT_START,
    Lesson,
    LessonError,
    LessonState,
    Step,
    resolve,
    resolve_all,
    skip_note,
)
from explorer.lessons.reader import BUILTIN, builtin_path, parse_lesson, read_lesson
from explorer.lessons.writer import dump_lesson, save_lesson

__all__ = [
    "BUILTIN",
    "DEFAULT_START",
    "Lesson",
    "LessonError",
    "LessonState",
    "Step",
    "builtin_path",
    "dump_lesson",
    "parse_lesson",
    "read_lesson",
    "resolve",
    "resolve_all",
    "save_lesson",
    "skip_note",
]
