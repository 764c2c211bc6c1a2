"""Editing one token from its chip: where the token's piece lies in the text box, and what replacing or
removing it writes there. Pure strings (no Qt): the window applies the edit to its text box (so that it
can be undone there) and traces the new text.

Sentences are the non-blank lines of the text, stripped (as ``explorer.trace.run.split_batch`` reads
them); a token's piece is the part of its sentence it came from (``Tokenizer.encode``), so the pieces are
found in order along the line. A piece that is not a run of the text (a byte-level token holding part of
a character, shown as ``<0xE7>``) has no span and cannot be edited on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

_SPACED_KINDS = ("word",)  # word-level pieces carry no spaces: removing one also removes a space beside it


@dataclass(frozen=True)
class TokenEdit:
    start: int  # character offsets in the whole text
    end: int
    insert: str  # what replaces text[start:end]

    def apply(self, text: str) -> str:
        return text[: self.start] + self.insert + text[self.end :]


def _sentence_start(text: str, row: int) -> tuple[int, str] | None:
    """(offset of sentence ``row``'s first character in ``text``, the sentence), or None."""
    offset, seen = 0, 0
    for raw in text.splitlines(keepends=True):
        content = raw.splitlines()[0] if raw.splitlines() else ""
        if content.strip():
            if seen == row:
                return offset + len(content) - len(content.lstrip()), content.strip()
            seen += 1
        offset += len(raw)
    return None


def token_spans(sentence: str, pieces: Sequence[str]) -> list[tuple[int, int] | None]:
    """Each piece's (start, end) in ``sentence``, found in order; None for a piece that is not in it."""
    spans: list[tuple[int, int] | None] = []
    pos = 0
    for piece in pieces:
        k = sentence.find(piece, pos) if piece else -1
        if k < 0:
            spans.append(None)
            continue
        spans.append((k, k + len(piece)))
        pos = k + len(piece)
    return spans


def token_span(
    text: str, row: int, pieces: Sequence[str], index: int, traced: str | None = None
) -> tuple[int, int] | None:
    """Where token ``index`` of sentence ``row`` lies in the whole ``text`` (start, end), or None; also None
    when the sentence is no longer ``traced`` (the text changed since the pieces were made)."""
    found = _sentence_start(text, row)
    if found is None or not 0 <= index < len(pieces) or (traced is not None and found[1] != traced):
        return None
    base, sentence = found
    span = token_spans(sentence, pieces)[index]
    return None if span is None else (base + span[0], base + span[1])


def editable_text(piece: str) -> str:
    """What the inline editor starts with: the piece without the space a byte-level token glues to its
    front (" pen" → "pen"); ``edit_token`` puts that space back."""
    return piece.strip()


def edit_token(
    text: str, row: int, pieces: Sequence[str], index: int, typed: str, tokenizer_kind: str, traced: str | None = None
) -> TokenEdit | None:
    """Replace token ``index`` of sentence ``row`` by ``typed``, or remove it when ``typed`` is blank.

    The piece's leading whitespace (byte-level BPE's " pen") is kept in front of the new text. Removing a
    word of a word-level text also removes one space beside it ("This is a pen" → "This a pen"). None when
    the token has no span of its own in the text (see the module's note), or the sentence is not ``traced``."""
    span = token_span(text, row, pieces, index, traced)
    if span is None:
        return None
    start, end = span
    piece = text[start:end]
    lead = piece[: len(piece) - len(piece.lstrip())]
    if typed.strip():
        new = typed if typed[:1].isspace() else lead + typed
        return TokenEdit(start, end, new)
    if tokenizer_kind in _SPACED_KINDS:
        if start > 0 and text[start - 1] == " ":
            start -= 1
        elif end < len(text) and text[end] == " ":
            end += 1
    return TokenEdit(start, end, "")
