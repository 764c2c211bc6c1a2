"""Which characters of sentence B are the same characters as sentence A's: a word-level diff.

Two texts are cut into words, runs of spaces and single punctuation marks, and the longest matching runs
of these pieces are matched (``difflib``, no junk heuristics); the characters of matched pieces are the same
characters on both sides, every other character belongs to one side only ("tired" against "wide"). Equal
texts match every character. The diff is run with the two texts in one fixed order and turned round when
they come the other way, so swapping A and B swaps the match and changes nothing else.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

_PIECE = re.compile(r"\w+|\s+|[^\w\s]", re.UNICODE)


@dataclass(frozen=True)
class TextMatch:
    """``b_of_a[i]``: the character of B that is A's character i (None: A's only); ``a_of_b`` the same the
    other way; ``blocks``: the matched stretches as (start in A, start in B, length) in characters."""

    b_of_a: tuple[int | None, ...]
    a_of_b: tuple[int | None, ...]
    blocks: tuple[tuple[int, int, int], ...]

    def swapped(self) -> TextMatch:
        return TextMatch(self.a_of_b, self.b_of_a, tuple((b, a, n) for a, b, n in self.blocks))


def match_texts(a: str, b: str) -> TextMatch:
    if (a, b) != tuple(sorted((a, b))):
        return match_texts(b, a).swapped()
    if a == b:
        same = tuple(range(len(a)))
        return TextMatch(same, same, ((0, 0, len(a)),) if a else ())
    pa, pb = _pieces(a), _pieces(b)
    matcher = difflib.SequenceMatcher(None, [p for p, _ in pa], [p for p, _ in pb], autojunk=False)
    b_of_a: list[int | None] = [None] * len(a)
    a_of_b: list[int | None] = [None] * len(b)
    blocks: list[tuple[int, int, int]] = []
    for i, j, n in matcher.get_matching_blocks():
        if n == 0:
            continue
        start_a, start_b = pa[i][1], pb[j][1]
        length = pa[i + n - 1][1] + len(pa[i + n - 1][0]) - start_a
        for k in range(length):
            b_of_a[start_a + k], a_of_b[start_b + k] = start_b + k, start_a + k
        blocks.append((start_a, start_b, length))
    return TextMatch(tuple(b_of_a), tuple(a_of_b), tuple(blocks))


def _pieces(text: str) -> list[tuple[str, int]]:
    """Words, runs of whitespace and punctuation marks, with where each starts."""
    return [(m.group(), m.start()) for m in _PIECE.finditer(text)]
