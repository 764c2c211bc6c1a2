"""Issue 26 item 2: lesson files are read with bounds. Whatever a lesson holds (markup, control characters,
nesting, odd keys), reading it either gives the words exactly as written or one LessonError line that names
the file and the key safely; a FIFO, deep nesting and a key of 30,000 dotted parts are refused before
anything is parsed."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.lessons import read_lesson
from explorer.lessons.model import LessonError
from explorer.lessons.reader import MAX_KEY_DEPTH, MAX_WORDS, STATE_KEYS, WORD_KEYS, parse_lesson

# Words a teacher (or a prankster) may write: markup that Qt would render, resource loads, escape sequences,
# direction marks, anything else.
MARKUP = st.sampled_from(
    [
        "<b>bold</b>",
        '<img src="/dev/zero">',
        "<img src='file:///etc/passwd'>",
        "<table><tr><td>x</td></tr></table>",
        "\x1b[31m",
        "\u202e",
        "&amp;",
        "<a href='x'>l</a>",
        "\n",
        "\t",
        "\r",
    ]
)
WORDS = st.lists(MARKUP | st.text(max_size=20), max_size=6).map("".join)
SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)


def toml_string(s: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, except that TOML has no escaped surrogates."""
    return json.dumps(s, ensure_ascii=True)


def _one_safe_line(exc: LessonError) -> str:
    message = str(exc)
    assert message.isprintable() and "\n" not in message, repr(message)  # no newline, no ESC reaches a terminal
    return message


@SETTINGS
@given(title=WORDS.filter(str.strip), caption=WORDS.filter(str.strip), question=WORDS, answer=WORDS)
def test_lesson_words_with_markup_and_control_characters_are_kept_as_written(title, caption, question, answer):
    text = (
        f"title = {toml_string(title)}\n[[steps]]\ncaption = {toml_string(caption)}\n"
        f"question = {toml_string(question)}\nanswer = {toml_string(answer)}\n"
    )
    try:
        lesson = parse_lesson(text, "hostile.toml", check_runs=False)
    except LessonError as exc:
        _one_safe_line(exc)
        return
    step = lesson.steps[0]
    assert lesson.title["en"] == title and step.caption["en"] == caption
    assert step.question.get("en", "") == question and step.answer.get("en", "") == answer


# Keys a step does not know: a step key with a whole number (D = 1) is a valid lesson, as hypothesis found
# once under load (key "D", depth 0).
KEYS = st.text(min_size=1, max_size=30).filter(lambda k: k not in STATE_KEYS and k not in WORD_KEYS)


@SETTINGS
@given(key=KEYS, depth=st.integers(0, 40), filename=st.text(min_size=1, max_size=30))
def test_any_key_nesting_and_file_name_is_one_safe_line(key, depth, filename):
    value = "[" * depth + "1" + "]" * depth
    text = f'title = "t"\n[[steps]]\ncaption = "c"\n{toml_string(key)} = {value}\n'
    with pytest.raises(LessonError) as err:
        parse_lesson(text, filename, check_runs=False)
    message = _one_safe_line(err.value)
    assert message.startswith(filename if filename.isprintable() and filename.strip() == filename else "'")


@pytest.mark.parametrize("depth", [1_000, 20_000])
def test_deep_nesting_is_one_line(depth):
    text = 'title = "t"\nx = ' + "[" * depth + "]" * depth + "\n"
    with pytest.raises(LessonError, match="not valid TOML"):
        parse_lesson(text, "deep.toml")


@pytest.mark.parametrize("form", ["a.{}b = 1", "[{}b]\nx = 1", "{}b = 1".replace("{}", "{} ")])
def test_a_key_of_thousands_of_parts_is_refused_before_parsing(form):
    parts = "a." * 30_000 if "{} " not in form else "a . " * 30_000
    text = 'title = "t"\n' + form.replace("{} ", "{}").format(parts) + "\n"
    with pytest.raises(LessonError, match=f"a key of more than {MAX_KEY_DEPTH} dotted parts") as err:
        parse_lesson(text, "dotted.toml")
    assert ":2:" in str(err.value)  # the line of the key


def test_a_caption_that_merely_looks_dotted_is_text():
    dotted = ".".join(["x"] * 100)  # inside a string, not a key
    lesson = parse_lesson(f'title = "t"\n[[steps]]\ncaption = "{dotted}"\n', "ok.toml", check_runs=False)
    assert lesson.steps[0].caption["en"] == dotted


def test_words_are_bounded():
    with pytest.raises(LessonError, match=f"at most {MAX_WORDS:,} characters") as err:
        parse_lesson('title = "t"\n[[steps]]\ncaption = "' + "x" * 1_000_000 + '"\n', "big.toml")
    assert "big.toml:3: step 1: caption:" in str(err.value)


def test_a_fifo_or_a_device_is_not_a_lesson(tmp_path):
    fifo = tmp_path / "lesson.toml"
    os.mkfifo(fifo)
    with pytest.raises(LessonError, match=r"not a lesson file \(a named pipe \(FIFO\), not a regular file\)"):
        read_lesson(fifo)  # returns at once: nothing is opened for reading that could wait
    if Path("/dev/zero").exists():
        with pytest.raises(LessonError, match="a character device, not a regular file"):
            read_lesson("/dev/zero")


def test_a_path_with_a_newline_and_an_escape_is_quoted(tmp_path):
    odd = tmp_path / "a\nerror: forged\x1b[2J.toml"
    with pytest.raises(LessonError) as err:
        read_lesson(odd)
    message = _one_safe_line(err.value)
    assert "\\nerror: forged\\x1b[2J.toml" in message


@pytest.mark.parametrize("limit", [1_000, 100_000])
def test_deep_nesting_is_refused_whatever_the_recursion_limit(limit):
    # under a raised limit tomllib parses 1,000 levels; the reader must still refuse them, not pass them on
    text = 'title = "t"\nx = ' + "[" * 1_000 + "]" * 1_000 + "\n"
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        with pytest.raises(LessonError, match="nested too deeply"):
            parse_lesson(text, "deep.toml")
    finally:
        sys.setrecursionlimit(old)
