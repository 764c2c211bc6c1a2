"""Tokens as a person reads them: a character whose bytes are spread over several tokens is shown as that
character on each of its tokens, marked with its part.

A byte-level vocabulary splits a character it never merged into pieces of its UTF-8 bytes: the classroom
preset spells 私 as three tokens "<0xE7>", "<0xA7>", "<0x81>", SmolLM2 as "<0xE7><0xA7>" and "<0x81>"
(issue 22: 27 byte tokens of Japanese with no hint). Here each of those tokens reads "私(1/3)", "私(2/3)",
"私(3/3)" (or "私(1/2)", "私(2/2)"): chips, axes and hovers all take their labels from ``readable_tokens``.
The tokens themselves (what a snapshot stores, what joins back to the text) are unchanged.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_BYTE = re.compile(r"<0x([0-9A-Fa-f]{2})>")


def _segments(token: str) -> list[str | int]:
    """The token as text pieces (str) and loose bytes (int), in order."""
    out: list[str | int] = []
    pos = 0
    for m in _BYTE.finditer(token):
        if m.start() > pos:
            out.append(token[pos : m.start()])
        out.append(int(m.group(1), 16))
        pos = m.end()
    if pos < len(token):
        out.append(token[pos:])
    return out


def _width(lead: int) -> int:
    """How many bytes a UTF-8 character starting with ``lead`` has (0: not a lead byte)."""
    if lead < 0x80:
        return 1
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def _characters(segmented: list[list[str | int]]) -> dict[tuple[int, int], tuple[str, list[int]]]:
    """Every run of loose bytes that decodes to one character: (token, segment) of its first byte →
    (the character, the tokens its bytes lie in, in order). Bytes that decode to nothing stay as they are."""
    found: dict[tuple[int, int], tuple[str, list[int]]] = {}
    run: list[tuple[int, int, int]] = []  # (token, segment, byte) of the character being read
    for t, segments in enumerate(segmented):
        for s, seg in enumerate(segments):
            if isinstance(seg, str):
                run = []
                continue
            if not run and not _width(seg):
                continue  # a continuation byte with no lead: left as <0xXX>
            if run and 0x80 <= seg <= 0xBF:
                run.append((t, s, seg))
            else:
                run = [(t, s, seg)]
            if len(run) == _width(run[0][2]):
                try:
                    char = bytes(b for _t, _s, b in run).decode("utf-8")
                except UnicodeDecodeError:
                    run = []
                    continue
                tokens = list(dict.fromkeys(tt for tt, _s, _b in run))
                found[(run[0][0], run[0][1])] = (char, tokens)
                for tt, ss, _b in run[1:]:
                    found[(tt, ss)] = (char, [])  # swallowed: drawn with the character's first byte's token
                run = []
    return found


@lru_cache(maxsize=64)
def readable_tokens(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """Each token with its loose bytes read: a whole character inside one token replaces its bytes; one
    split over n tokens shows on each of them as "c(k/n)"."""
    segmented = [_segments(t) for t in tokens]
    if not any(isinstance(s, int) for segs in segmented for s in segs):
        return tokens
    found = _characters(segmented)
    shown: list[list[str]] = [[] for _ in tokens]
    for t, segments in enumerate(segmented):
        for s, seg in enumerate(segments):
            if isinstance(seg, str):
                shown[t].append(seg)
                continue
            hit = found.get((t, s))
            if hit is None:
                shown[t].append(f"<0x{seg:02X}>")
                continue
            char, spread = hit
            if spread and len(spread) == 1:
                shown[t].append(char)
            elif spread:
                for k, tt in enumerate(spread):  # its later tokens begin with its bytes: written here, in order
                    shown[tt].append(f"{char}({k + 1}/{len(spread)})")
    return tuple("".join(parts) for parts in shown)


def _japanese(ch: str) -> bool:
    name = unicodedata.name(ch, "")
    return name.startswith(("HIRAGANA", "KATAKANA", "CJK UNIFIED IDEOGRAPH", "IDEOGRAPHIC", "HALFWIDTH KATAKANA"))


def japanese_without_vocabulary(text: str, tokens: tuple[str, ...], unknown: tuple[bool, ...] = ()) -> bool:
    """True when ``text`` has Japanese in it and the tokenizer had no tokens for it: its characters came out
    as loose bytes or unknown tokens (the moment to suggest the japanese preset)."""
    if text.isascii() or not any(_japanese(ch) for ch in set(text)):  # each distinct character once (a pasted book)
        return False
    return any(_BYTE.search(t) for t in tokens) or any(unknown)


def token_label(trace, row: int, i: int) -> str:
    """Token ``i`` of sentence ``row`` as the views show it (readable bytes), "<pad>" past its end."""
    r = trace.rows[row]
    return readable_tokens(tuple(r.tokens))[i] if i < r.length else "<pad>"
