"""Write a lesson as TOML a teacher can read and edit: words first, then what the step sets.

A writer of our own, because a lesson uses only strings, whole numbers, numbers, booleans and lists of
rows (a painted mask); what it writes is read back by ``tomllib`` (tests/core/test_lessons.py).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from explorer.lessons.model import Lesson, LessonError
from explorer.lessons.reader import FORMAT_VERSION, STATE_KEYS, WORD_KEYS
from explorer.util.fileio import atomic_path


def _string(text: str) -> str:
    body = "".join(
        "\\\\"
        if c == "\\"
        else '\\"'
        if c == '"'
        else c
        if c == "\n" or ord(c) >= 0x20 and c != "\x7f"
        else f"\\u{ord(c):04x}"
        for c in text
    )
    if "\n" not in text:
        return f'"{body}"'
    return f'"""\n{body}"""'  # a newline right after """ is not part of the string


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise LessonError(f"cannot write the number {v} in a lesson")
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, (list, tuple)):
        if v and isinstance(v[0], (list, tuple)):  # painted mask: one row per line
            return "[\n" + "".join(f"  {_value([int(x) for x in row])},\n" for row in v) + "]"
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise LessonError(f"cannot write {v!r} in a lesson")


def _words(key: str, texts: dict[str, str]) -> list[str]:
    return [f"{key}.{lang} = {_string(text)}" for lang, text in texts.items()]


def dump_lesson(lesson: Lesson) -> str:
    out = [f"format = {FORMAT_VERSION}", f"languages = {_value(list(lesson.languages))}"]
    out += _words("title", lesson.title) + _words("description", lesson.description)
    for step in lesson.steps:
        out += ["", "[[steps]]"]
        for key in WORD_KEYS:
            out += _words(key, getattr(step, key))
        for key in STATE_KEYS:
            if key in step.settings:
                value = step.settings[key]
                out.append(f"{key} = {_value('none' if value is None else value)}")
    return "\n".join(out) + "\n"


def save_lesson(lesson: Lesson, path: str | Path) -> None:
    data = dump_lesson(lesson).encode("utf-8")
    with atomic_path(path, LessonError) as tmp:
        tmp.write_bytes(data)
