"""Which characters of its sentence each token covers, read back from the trace's own record (``Row``).

A Row keeps each token's piece of the text (explorer/tokenize/tokenizer.py): the exact characters for most
tokens (byte-level BPE's glued space included: " pen"), ``<0xE7>``-style pieces for the bytes of a character
a vocabulary splits, and the vocabulary's spelling for a special token with no characters ([CLS], <s>).
Reading the spans from the Row, not from a tokenizer, lets a pair be compared from two snapshots as well as
from two fresh runs. A span is (start, end) in characters of ``row.text``, or None: no characters.
"""

from __future__ import annotations

import re

from explorer.trace import Row

Span = tuple[int, int]

_BYTE = re.compile(r"<0x([0-9A-Fa-f]{2})>")


def token_spans(row: Row) -> tuple[Span | None, ...]:
    """Each token's characters: its piece found where the previous token ended (whitespace between tokens,
    which a word-level vocabulary drops, is skipped); the tokens whose piece is not there (bytes, specials)
    share the characters between their found neighbours, split byte by byte where their bytes spell them."""
    text = row.text
    spans: list[Span | None] = [None] * row.length
    cursor, pending = 0, []  # pending: tokens not found since the last one found
    for k, piece in enumerate(row.tokens):
        start = _found_at(text, piece, cursor)
        if start is None:
            pending.append(k)
            continue
        _fill_gap(text, cursor, start, pending, row.tokens, spans)
        pending = []
        spans[k] = (start, start + len(piece))
        cursor = start + len(piece)
    _fill_gap(text, cursor, len(text), pending, row.tokens, spans)
    return tuple(spans)


def _found_at(text: str, piece: str, cursor: int) -> int | None:
    """Where ``piece`` starts if it is the next thing in the text after whitespace, else None."""
    if not piece:
        return None
    start = cursor
    while start < len(text) and text[start].isspace() and not text.startswith(piece, start):
        start += 1
    return start if text.startswith(piece, start) else None


def _fill_gap(text: str, start: int, end: int, tokens: list[int], pieces: tuple[str, ...], spans: list) -> None:
    """Spans for the tokens not found, between the characters start … end of the text."""
    if not tokens:
        return
    gap = text[start:end]
    byte_spans = _byte_spans(gap, [pieces[k] for k in tokens])
    if byte_spans is not None:
        for k, (a, b) in zip(tokens, byte_spans):
            spans[k] = (start + a, start + b)
        return
    stripped = gap.strip()
    if not stripped:
        return  # specials between two words or at an end: no characters
    lead = start + len(gap) - len(gap.lstrip())
    for k in tokens:  # tokens whose pieces do not spell the gap share all of it
        spans[k] = (lead, lead + len(stripped))


def _byte_spans(gap: str, pieces: list[str]) -> list[Span] | None:
    """The characters of ``gap`` each piece's bytes fall in, when the pieces' bytes spell the gap exactly
    (leading whitespace of the gap aside); else None."""
    raw = [_piece_bytes(p) for p in pieces]
    joined = b"".join(raw)
    body = gap.lstrip()
    if not all(raw) or joined != body.encode("utf-8"):
        return None
    offset = len(gap) - len(body)
    char_of_byte = [i for i, ch in enumerate(body) for _ in ch.encode("utf-8")]
    out, at = [], 0
    for chunk in raw:
        out.append((offset + char_of_byte[at], offset + char_of_byte[at + len(chunk) - 1] + 1))
        at += len(chunk)
    return out


def _piece_bytes(piece: str) -> bytes:
    """A piece as bytes: each <0xXX> one byte, other characters in UTF-8."""
    out, pos = bytearray(), 0
    for m in _BYTE.finditer(piece):
        out += piece[pos : m.start()].encode("utf-8")
        out.append(int(m.group(1), 16))
        pos = m.end()
    out += piece[pos:].encode("utf-8")
    return bytes(out)
