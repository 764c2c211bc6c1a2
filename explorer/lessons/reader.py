"""Open a lesson file and refuse anything wrong in it with one line naming the file, the line and the key.

A lesson is data, never code: it is read with ``tomllib`` (no includes, no evaluation), every key must be
one this module knows, and no value is a path. A model is named, never located: a preset, or a real model
the app knows by name (``smollm2``); the app finds the latter where it is installed. Steps are then checked
against the model they run: sizes the model accepts, a layer, head, sentence and token that exist, a
painted mask that covers the text, and the memory budget.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

from explorer.config import MaskSpec, RunOptions, check_memory
from explorer.errors import ConfigError
from explorer.lessons.model import (
    DEFAULT_START,
    LANGUAGES,
    MODEL_KEYS,
    Lesson,
    LessonError,
    LessonState,
    Step,
)
from explorer.lessons.setting_values import check_setting
from explorer.util.paths import resource
from explorer.util.printable import quoted, shown
from explorer.util.reading import kind_of
from explorer.weights.presets import PRESETS, preset_config, preset_tokenizer

BUILTIN = "builtin"
MAX_BYTES = 1024 * 1024  # a lesson of hundreds of steps is a few hundred kB; anything larger is not one
MAX_STEPS = 1000
MAX_WORDS = 2_000  # characters of a title, caption, question or answer (the built-in lesson's longest: 245)
MAX_KEY_DEPTH = 16  # parts of a dotted key (a lesson's deepest: caption.en); tomllib takes O(n²) in them
MAX_VALUE_DEPTH = 32  # lists and tables inside each other; a lesson nests 5 deep (steps → step → mask → row)
_BARE = re.compile(r"[A-Za-z0-9_-]+")
FORMAT_VERSION = 1

WORD_KEYS = ("title", "caption", "question", "answer")
TOP_KEYS = ("format", "title", "description", "languages", "steps")
STATE_KEYS = (
    "preset",
    "model",
    "weights",
    "seed",
    "text",
    *MODEL_KEYS,
    "mask",
    "scaling",
    "temperature",
    "stage",
    "layer",
    "head",
    "row",
    "token",
    "key",
    "cell",
    "panel",
)
RESERVED = {"interventions": "interventions are not supported yet (the key is reserved for a later version)"}


def builtin_path() -> Path:
    return resource("lessons", "builtin.toml")


def read_lesson(path: str | Path, check_runs: bool = True) -> Lesson:
    """Open ``path`` (or ``builtin``) and validate it; LessonError with one line otherwise."""
    if str(path) == BUILTIN:
        return parse_lesson(builtin_path().read_text(encoding="utf-8"), BUILTIN, check_runs)
    return parse_lesson(_lesson_text(Path(path)), str(path), check_runs)


def _lesson_text(p: Path) -> str:
    """The file's text: a regular file only (a FIFO waited forever, /dev/zero never ended), at most MAX_BYTES."""
    name = shown(str(p))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(p, flags)
    except IsADirectoryError:
        raise LessonError(f"{name}: is a folder; a lesson is one .toml file") from None
    except OSError as exc:
        raise LessonError(f"{name}: cannot read the lesson: {exc.strerror or exc}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise LessonError(f"{name}: is a folder; a lesson is one .toml file")
        raise LessonError(f"{name}: not a lesson file ({kind_of(mode)}, not a regular file)")
    os.set_blocking(fd, True)
    with os.fdopen(fd, "rb") as fh:
        try:
            data = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            raise LessonError(f"{name}: cannot read the lesson: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise LessonError(f"{name}: larger than {MAX_BYTES // 1024} kB; a lesson is a small text file")
    if b"\x00" in data:
        raise LessonError(f"{name}: not a lesson file (binary data, not TOML text)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise LessonError(f"{name}: not a lesson file (not UTF-8 text)") from None


def parse_lesson(text: str, filename: str = "<lesson>", check_runs: bool = True) -> Lesson:
    line = _deep_key_line(text)
    if line:
        raise LessonError(
            f"{shown(filename)}:{line}: a key of more than {MAX_KEY_DEPTH} dotted parts; a lesson's keys have "
            "at most 2 (caption.en)"
        )
    import tomllib  # here: the window starts without it (it reads a lesson only when one is opened)

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        where = line.group(1) if line else "1"
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)).strip() or "not TOML"
        raise LessonError(f"{shown(filename)}:{where}: not valid TOML: {reason}") from None
    except RecursionError:  # [[[[…]]]] 20,000 deep was a RecursionError traceback
        data = None
    # Whether tomllib recursed too deep depends on the interpreter's recursion limit (another test or a host
    # program may raise it); a depth no lesson needs is refused by one rule however the parse went.
    if data is None or _nesting(data) > MAX_VALUE_DEPTH:
        raise LessonError(f"{shown(filename)}:1: not valid TOML: lists or tables nested too deeply")
    lesson = _Reader(text, filename).lesson(data)
    if check_runs:
        check_steps_run(lesson, text)
    return lesson


def _nesting(value: object) -> int:
    """How deep lists and tables nest in a parsed document (iteratively: a parsed value may be deep)."""
    deepest, todo = 0, [(value, 0)]
    while todo:
        item, depth = todo.pop()
        deepest = max(deepest, depth)
        if depth <= MAX_VALUE_DEPTH:  # past the limit the answer is known; stop walking
            children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
            todo.extend((child, depth + 1) for child in children)
    return deepest


def _deep_key_line(text: str) -> int | None:
    """The first line whose key has more than MAX_KEY_DEPTH dotted parts, found before tomllib sees it (it
    takes time and memory growing with the square of the parts: 30,000 took 40 s and 5 GB). A key starts its
    line (``a.b.c = 1`` or ``[a.b.c]``); the scan is linear."""
    for n, line in enumerate(text.split("\n"), 1):
        if line.count(".") < MAX_KEY_DEPTH:
            continue
        i, depth, end = len(line) - len(line.lstrip(" \t[")), 0, len(line)
        while i < end:
            if line[i] in "\"'":
                close = line.find(line[i], i + 1)
                if close < 0:
                    break
                i = close + 1
            else:
                m = _BARE.match(line, i)
                if not m:
                    break
                i = m.end()
            while i < end and line[i] in " \t":
                i += 1
            if i < end and line[i] == ".":
                depth += 1
                i += 1
                while i < end and line[i] in " \t":
                    i += 1
                continue
            if depth >= MAX_KEY_DEPTH and i < end and line[i] in "=]":
                return n
            break
    return None


class _Reader:
    def __init__(self, text: str, filename: str) -> None:
        self.text, self.filename = text, filename
        self.lines = text.splitlines()
        # The line of each [[steps]] header, to find a key's line within its step.
        self.headers = [i for i, l in enumerate(self.lines) if re.match(r"\s*\[\[\s*\"?steps\"?\s*\]\]", l)]

    # ------------------------------------------------------------------ errors with a line
    def fail(self, step: int | None, key: str, message: str) -> LessonError:
        line = key_line(self.lines, self.headers, step, key)
        where = f"step {step + 1}: {shown(key)}" if step is not None else shown(key)
        return LessonError(f"{shown(self.filename)}:{line}: {where}: {message}")

    # ------------------------------------------------------------------ structure
    def lesson(self, data: dict[str, Any]) -> Lesson:
        for key in data:
            if key not in TOP_KEYS:
                raise self.fail(None, key, f"unknown key (a lesson has {', '.join(TOP_KEYS)})")
        version = data.get("format", FORMAT_VERSION)
        if version != FORMAT_VERSION:
            raise self.fail(None, "format", f"this app reads lesson format {FORMAT_VERSION}, got {quoted(version)}")
        languages = data.get("languages", ["en"])
        if not isinstance(languages, list) or not languages or any(l not in LANGUAGES for l in languages):
            raise self.fail(None, "languages", f"must be a list of {' and '.join(LANGUAGES)}, got {quoted(languages)}")
        if "title" not in data:
            raise self.fail(None, "title", "missing: a lesson has a title")
        title = self.words(None, "title", data["title"], languages)
        description = self.words(None, "description", data.get("description", {}), languages)
        steps = data.get("steps")
        if not isinstance(steps, list) or not steps or not all(isinstance(s, dict) for s in steps):
            raise self.fail(None, "steps", "a lesson needs at least one [[steps]] table")
        if len(steps) > MAX_STEPS:
            raise self.fail(None, "steps", f"at most {MAX_STEPS} steps, got {len(steps)}")
        return Lesson(
            title,
            tuple(self.step(i, s, languages) for i, s in enumerate(steps)),
            tuple(languages),
            description,
            self.filename,
        )

    def words(self, step: int | None, key: str, value: Any, languages: list[str]) -> dict[str, str]:
        """A string (in the lesson's first language) or a table of language → string."""
        plain = isinstance(value, str)  # `caption = "…"`: a mistake in it is said of `caption`, on its line
        if plain:
            value = {languages[0]: value}
        if not isinstance(value, dict):
            raise self.fail(
                step, key, f"must be text, or one text per language ({key}.en, {key}.ja), got {quoted(value)}"
            )
        for lang, text in value.items():
            if lang not in LANGUAGES:
                raise self.fail(step, f"{key}.{lang}", f"unknown language (use {', '.join(LANGUAGES)})")
            if not isinstance(text, str):
                raise self.fail(step, f"{key}.{lang}", f"must be text, got {quoted(text)}")
            if len(text) > MAX_WORDS:  # a 1 MB caption crashed QPainter (exit 139)
                raise self.fail(
                    step, key if plain else f"{key}.{lang}", f"at most {MAX_WORDS:,} characters, got {len(text):,}"
                )
        return dict(value)

    def step(self, i: int, raw: dict[str, Any], languages: list[str]) -> Step:
        for key in raw:
            if key in RESERVED:
                raise self.fail(i, key, RESERVED[key])
            if key not in WORD_KEYS and key not in STATE_KEYS:
                raise self.fail(i, key, "unknown key (see docs/lessons.md for the keys a step can set)")
        if "caption" not in raw:
            raise self.fail(i, "caption", "missing: every step has a caption")
        words = {k: self.words(i, k, raw.get(k, {}), languages) for k in WORD_KEYS}
        if not any(t.strip() for t in words["caption"].values()):
            raise self.fail(i, "caption", "is empty")
        if "preset" in raw and "model" in raw:
            raise self.fail(i, "model", "a step names a preset or a model, not both")
        settings: dict[str, Any] = {}
        for key in STATE_KEYS:
            if key in raw:
                settings.update(check_setting(i, key, raw[key], self.fail))
        return Step(words["caption"], words["title"], words["question"], words["answer"], settings)


def key_line(lines: list[str], headers: list[int], step: int | None, key: str) -> int:
    """1-based line of ``key`` in step ``step`` (or before the first step), else of the step's header."""
    if step is None:
        lo, hi = 0, headers[0] if headers else len(lines)
    elif step < len(headers):
        lo, hi = headers[step], headers[step + 1] if step + 1 < len(headers) else len(lines)
    else:  # steps written inline (steps = [{...}]): the line of `steps`
        return key_line(lines, headers, None, "steps")
    head, _, rest = key.partition(".")
    for name in (head, "cell") if head in ("token", "key") else (head,):  # `cell = [q, k]` sets both
        tail = rf'\s*\.\s*"?{re.escape(rest)}"?' if rest else ""
        pattern = re.compile(rf'^\s*"?{re.escape(name)}"?{tail}\s*[=.]')
        for n in range(lo, hi):
            if pattern.match(lines[n]):
                return n + 1
    return (lo + 1) if step is not None else 1


# ---------------------------------------------------------------------------------- can each step run?


def check_steps_run(lesson: Lesson, text: str = "") -> None:
    """Every step's model can be built and can run its text within the memory budget, and what it selects
    exists. A real model (sizes fixed by its file) is checked where it is opened, not here."""
    from explorer.trace.run import split_batch

    reader = _Reader(text, lesson.source)
    state: LessonState = DEFAULT_START
    for i, step in enumerate(lesson.steps):
        state = step.apply(state)
        set_here = list(step.settings)

        def blame(*candidates: str, set_here: list[str] = set_here) -> str:
            for c in candidates:
                if c in set_here:
                    return c
            return next((k for k in set_here if k in ("preset", "model")), candidates[0])

        if state.model is not None:
            sized = [k for k in set_here if k in MODEL_KEYS]
            if sized:
                raise reader.fail(
                    i, sized[0], f"a real model's sizes are fixed by its file; {state.model} cannot change them"
                )
            continue
        try:
            config = preset_config(state.preset, **state.size_overrides())
        except ConfigError as exc:
            raise reader.fail(i, blame(*MODEL_KEYS, "preset"), f"the model cannot run: {exc}") from None
        tok = preset_tokenizer(PRESETS[state.preset].tokenizer)
        lengths = [len(tok.encode(s)) for s in split_batch(state.text)]
        if not lengths or max(lengths) == 0:
            raise reader.fail(i, blame("text"), "there is no text to trace")
        mask = MaskSpec.explicit(state.mask) if isinstance(state.mask, tuple) else MaskSpec.parse(state.mask)
        if mask.kind == "explicit" and len(state.mask) < max(lengths):
            raise reader.fail(
                i,
                blame("mask", "text"),
                f"the painted mask is {len(state.mask)}×{len(state.mask)} but the text has {max(lengths)} tokens",
            )
        try:
            check_memory(config, len(lengths), max(lengths), RunOptions(mask=mask))
        except ConfigError as exc:
            raise reader.fail(i, blame(*MODEL_KEYS, "text"), str(exc)) from None
        for key, value, limit, what in (
            ("layer", state.layer, config.layers, "layers"),
            ("head", state.head, config.heads, "heads"),
            ("row", state.row, len(lengths), "sentences"),
        ):
            if value >= limit:
                raise reader.fail(
                    i, blame(key), f"{key} {value} does not exist: the model has {limit} {what} (counted from 0)"
                )
        length = lengths[state.row]
        for key, value in (("token", state.token), ("key", state.key)):
            if value is not None and value >= length:
                raise reader.fail(
                    i,
                    blame(key, "cell"),
                    f"{key} {value} does not exist: sentence {state.row} has {length} tokens (counted from 0)",
                )
