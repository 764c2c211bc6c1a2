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

# Reading and writing a lesson file are imported when first used: the window starts with the model above
# only (the reader checks every setting against the model catalogue: 0.02 s of a start).
_LATER = {
    "BUILTIN": "reader",
    "builtin_path": "reader",
    "parse_lesson": "reader",
    "read_lesson": "reader",
    "dump_lesson": "writer",
    "save_lesson": "writer",
}


def __getattr__(name: str):
    if name not in _LATER:
        raise AttributeError(f"module 'explorer.lessons' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"explorer.lessons.{_LATER[name]}"), name)


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
