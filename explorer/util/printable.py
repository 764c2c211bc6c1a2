"""The one rule for putting a user's string (a path, a key of a file, a typed option) into a line we print.

A string is shown as it is when every character in it prints (Python's ``str.isprintable``: letters, digits,
punctuation, symbols, spaces and any script, Japanese included). Otherwise it is shown quoted, with every
character that does not print written as an escape: ``'a\\nb'``, ``'\\x1b[31m'``, ``'\\u202e'``, and a byte a
file name or an argument held that was not UTF-8 as ``\\xff`` (Python keeps it as the surrogate U+DCFF).

Why: a newline in a key or a path split an ``error:`` line in two (a second, forged ``error:`` line), an
escape sequence in a lesson key changed the terminal, and an undecodable byte in an argument was a
UnicodeEncodeError traceback on the way out. ``one_line`` is the net under every message the command prints:
whatever a message was built from, it leaves as one line with nothing a terminal acts on.
"""

from __future__ import annotations

import json
import math
import unicodedata

MAX_SHOWN = 200  # characters of a user's string quoted in a message; the rest is said as a count


def _escape(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape): the byte itself
        return f"\\x{code - 0xDC00:02x}"
    if ch == "\n":
        return "\\n"
    if ch == "\r":
        return "\\r"
    if ch == "\t":
        return "\\t"
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escaped(text: str, keep: str = "") -> str:
    """``text`` with every character that does not print escaped (except those in ``keep``)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in keep else _escape(ch) for ch in text)


def shown(value: object, limit: int = MAX_SHOWN) -> str:
    """A user's string as it goes into a message: itself when it prints, else quoted with escapes; cut after
    ``limit`` characters (a 30,000-level dotted key is not repeated whole)."""
    text = value if isinstance(value, str) else str(value)
    cut = ""
    if len(text) > limit:
        cut = f"… ({len(text):,} characters)"
        text = text[:limit]
    if text.isprintable() and not (text[:1].isspace() or text[-1:].isspace()):
        return text + cut
    inner = escaped(text).replace("'", "\\'")
    return f"'{inner}'{cut}"


def quoted(value: object, limit: int = MAX_SHOWN) -> str:
    """Like ``repr`` for the messages that quote what was typed (``--stop '\\xff' is not one``): always in
    quotes, escapes as ``shown`` writes them, cut after ``limit`` characters. Non-strings are their repr."""
    if not isinstance(value, str):
        text = repr(value)
        return escaped(text[:limit]) + (f"… ({len(text):,} characters)" if len(text) > limit else "")
    cut = f"… ({len(value):,} characters)" if len(value) > limit else ""
    return "'" + escaped(value[:limit]).replace("'", "\\'") + "'" + cut


def one_line(message: str) -> str:
    """A whole message made safe for one terminal line: nothing that does not print gets through."""
    return escaped(message)


# What standard output never carries raw: control characters, invisible format characters (the direction
# overrides U+202E and U+2066…, which reorder what a terminal shows), surrogates (bytes that were not UTF-8)
# and the line and paragraph separators. Joiners stay: emoji and several scripts are written with them.
_HIDDEN = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))
_JOINERS = frozenset("\u200c\u200d")


def _hidden(ch: str) -> bool:
    return ch not in _JOINERS and unicodedata.category(ch) in _HIDDEN


def terminal_text(text: str) -> str:
    """Output meant for a terminal that may span lines (a generated text, a table): line breaks and tabs
    are kept, every other control character (an escape sequence's ESC, a carriage return) and every
    invisible format character (U+202E) is escaped, and undecodable bytes are written as ``\\xNN``: data
    from files reaches standard output as escaped as it reaches standard error."""
    if text.isprintable():
        return text
    return "".join(ch if ch in "\n\t" or not _hidden(ch) else _escape(ch) for ch in text)


def json_text(value: object, indent: int | None = None, allow_nan: bool = True) -> str:
    """``value`` as JSON for standard output: non-ASCII letters as they are, and what ``terminal_text`` would
    escape written as JSON's own ``\\uXXXX`` (inside its strings, the only place json.dumps puts them), so the
    line stays valid JSON that reads back to the same strings."""
    if not allow_nan:  # strict JSON: a NaN or an infinity (a trace's numbers that cannot be shown) is null
        value = _finite_or_null(value)
    text = json.dumps(value, ensure_ascii=False, allow_nan=allow_nan, indent=indent)
    if text.isprintable():
        return text
    return "".join(_json_escape(ch) if ch != "\n" and _hidden(ch) else ch for ch in text)


def _finite_or_null(value: object) -> object:
    """``value`` with every float that is NaN or infinite replaced by None (JSON's null): such numbers come
    from a trace that said so in a note, and strict JSON has no word for them (a ValueError traceback before)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite_or_null(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite_or_null(v) for v in value]
    return value


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
