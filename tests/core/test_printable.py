"""Issue 26: the one quoting rule for a user's string in a printed line (explorer/util/printable.py).
Whatever a string holds (newlines, escape sequences, direction marks, bytes that were not UTF-8), what is
printed is one line of printable characters, and a string that prints is shown as it is."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.util.printable import escaped, one_line, quoted, shown, terminal_text

# Text as an argument, a file name or a lesson key can hold it: any character, lone surrogates (an
# undecodable byte of argv), control characters and the marks that reorder or hide text.
HOSTILE = st.text(
    alphabet=st.characters(codec=None)
    | st.sampled_from(["\n", "\r", "\x1b", "\x00", "\x7f", "\x9b", "\u202e", "\u2028", "\udcff", "\t"]),
    max_size=60,
)


def _is_one_printable_line(s: str) -> bool:
    return s.isprintable() and "\n" not in s


@settings(max_examples=400, deadline=None)
@given(HOSTILE)
def test_whatever_a_string_holds_it_is_printed_as_one_printable_line(text):
    for out in (shown(text), quoted(text), one_line(text), escaped(text)):
        assert _is_one_printable_line(out)
        out.encode("utf-8")  # no lone surrogate reaches a terminal


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(categories=["L", "N", "P", "S"]), min_size=1, max_size=40))
def test_a_string_that_prints_is_shown_as_it_is(text):
    assert shown(text) == text
    assert quoted(text).startswith("'") and text.replace("'", "\\'") in quoted(text)


def test_the_escapes_name_what_was_there():
    assert shown("a\nerror: x") == "'a\\nerror: x'"
    assert shown("\x1b[31mred") == "'\\x1b[31mred'"
    assert shown(os.fsdecode(b"\xff.png")) == "'\\xff.png'"  # the byte itself, not U+DCFF
    assert shown("\u202eevil") == "'\\u202eevil'"
    assert shown("講義.toml") == "講義.toml"  # any script prints
    assert shown(" mat") == "' mat'"  # a leading space would be invisible
    assert shown("k" * 30_000).endswith("… (30,000 characters)") and len(shown("k" * 30_000)) < 300


@settings(max_examples=200, deadline=None)
@given(HOSTILE)
def test_terminal_text_keeps_lines_and_escapes_control_characters(text):
    out = terminal_text(text)
    controls = [
        ch
        for ch in out
        if ch not in "\n\t" and (ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 or 0xD800 <= ord(ch) < 0xE000)
    ]
    assert not controls  # no ESC, no carriage return, no undecodable byte reaches the terminal
    assert out.count("\n") == text.count("\n")
