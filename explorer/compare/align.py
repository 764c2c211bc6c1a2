"""Two runs' tokens matched by the characters they cover (issue 40 item 2).

The aligned axis is a list of ``Unit``s in reading order: each holds the tokens of A and of B that cover the
same characters, the fewest that do (two tokenizations of one word: " anim" + "al" against "animal"). Every
token of either run is in exactly one unit, so nothing is dropped: a unit with tokens on one side only is
one-sided, and says why (its characters are in one text only; the other side's tokens do not cover them, as a
space a word-level vocabulary skips; a special token with no characters). Two special tokens with no
characters at the same place and with the same spelling (both runs' <s>) are one unit.

Whitespace at the edge of a token (byte-level BPE's glued space) is not what a token is matched on: " pen"
and "pen" cover the same word.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.compare.spans import Span, token_spans
from explorer.compare.text_match import TextMatch, match_texts
from explorer.trace import Row

SHARED = "shared"
TEXT_ONE_SIDE = "text on this side only"
NOT_COVERED = "the other side's tokens do not cover these characters"
NO_CHARACTERS = "special token with no characters"


@dataclass(frozen=True)
class Unit:
    a: tuple[int, ...]  # token positions of A (empty: none)
    b: tuple[int, ...]
    a_chars: Span | None  # the characters of A's text it covers, None: none
    b_chars: Span | None
    text: str  # what it reads as (A's characters, else B's, else the special token's spelling)
    why: str  # SHARED or why it is one-sided

    @property
    def shared(self) -> bool:
        return bool(self.a) and bool(self.b)

    def side(self, which: str) -> tuple[int, ...]:
        return self.a if which == "a" else self.b

    def swapped(self) -> Unit:
        return Unit(self.b, self.a, self.b_chars, self.a_chars, self.text, self.why)


@dataclass(frozen=True)
class Alignment:
    units: tuple[Unit, ...]
    match: TextMatch
    method: str = (
        "tokens matched by the characters they cover (edge whitespace aside); A's and B's texts matched by a "
        "word-level diff; tokens covering overlapping characters form one unit"
    )

    def one_sided(self, which: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.side(which) and not u.shared)


def align(row_a: Row, row_b: Row) -> Alignment:
    match = match_texts(row_a.text, row_b.text)
    spans_a, spans_b = token_spans(row_a), token_spans(row_b)
    core_a, core_b = [_core(row_a.text, s) for s in spans_a], [_core(row_b.text, s) for s in spans_b]
    placed_a = [c if _in_a(c, match.b_of_a) else None for c in core_a]  # A's characters are A's coordinates
    placed_b = [_in_a(c, match.a_of_b) for c in core_b]
    clusters = _clusters(placed_a, placed_b)
    units = [_unit(row_a, row_b, a, b, spans_a, spans_b, SHARED if a and b else NOT_COVERED) for a, b in clusters]
    units += _alone(row_a, row_b, "a", spans_a, core_a, placed_a)
    units += _alone(row_b, row_a, "b", spans_b, core_b, placed_b)
    units += _specials(row_a, row_b, spans_a, spans_b)
    return Alignment(_in_reading_order(units, row_a.length, row_b.length), match)


def _core(text: str, span: Span | None) -> Span | None:
    """The span without its edge whitespace (a span of whitespace only stays whole)."""
    if span is None:
        return None
    a, b = span
    piece = text[a:b]
    if not piece.strip():
        return span
    return (a + len(piece) - len(piece.lstrip()), b - (len(piece) - len(piece.rstrip())))


def _in_a(core: Span | None, other_of: tuple[int | None, ...]) -> Span | None:
    """A token's characters in the other text (``other_of``: the other text's character of each of this
    one's), when every one is matched and they stay together; None when it has none or some are one side's."""
    if core is None:
        return None
    mapped = [other_of[i] for i in range(*core)]
    if any(m is None for m in mapped) or mapped != list(range(mapped[0], mapped[0] + len(mapped))):
        return None
    return (mapped[0], mapped[-1] + 1)


def _clusters(placed_a, placed_b) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Tokens whose characters overlap (in A's coordinates), gathered: (A's positions, B's positions)."""
    items = sorted(
        [(s, "a", k) for k, s in enumerate(placed_a) if s is not None]
        + [(s, "b", k) for k, s in enumerate(placed_b) if s is not None]
    )
    out: list[tuple[list[int], list[int]]] = []
    end = -1
    for (start, stop), side, k in items:
        if start >= end:
            out.append(([], []))
        out[-1][0 if side == "a" else 1].append(k)
        end = max(end, stop)
    return [(tuple(sorted(a)), tuple(sorted(b))) for a, b in out]


def _unit(row_a, row_b, a, b, spans_a, spans_b, why: str) -> Unit:
    a_chars, b_chars = _hull([spans_a[k] for k in a]), _hull([spans_b[k] for k in b])
    text = row_a.text[slice(*a_chars)] if a_chars else row_b.text[slice(*b_chars)] if b_chars else ""
    return Unit(a, b, a_chars, b_chars, text, why)


def _hull(spans) -> Span | None:
    spans = [s for s in spans if s is not None]
    return (min(s[0] for s in spans), max(s[1] for s in spans)) if spans else None


def _alone(row, other, side: str, spans, core, placed) -> list[Unit]:
    """One unit per stretch of this side's tokens with characters the other text has not (the bytes of one
    character stay together)."""
    units: list[Unit] = []
    group: list[int] = []
    for k in range(row.length):
        if core[k] is None or placed[k] is not None:
            continue
        if group and spans[group[-1]][1] <= spans[k][0]:
            units.append(_one_side(row, other, side, group, spans))
            group = []
        group.append(k)
    if group:
        units.append(_one_side(row, other, side, group, spans))
    return units


def _one_side(row, other, side: str, group: list[int], spans) -> Unit:
    unit = _unit(row, other, tuple(group), (), spans, [], TEXT_ONE_SIDE)
    return unit if side == "a" else unit.swapped()


def _specials(row_a: Row, row_b: Row, spans_a, spans_b) -> list[Unit]:
    """Tokens with no characters: paired when both sides have the same spelling at the same place (between
    the same numbers of tokens with characters), else each alone."""
    units = []
    free_b = [k for k in range(row_b.length) if spans_b[k] is None]
    for k in (k for k in range(row_a.length) if spans_a[k] is None):
        place = (sum(s is not None for s in spans_a[:k]), row_a.tokens[k])
        twin = next((j for j in free_b if (sum(s is not None for s in spans_b[:j]), row_b.tokens[j]) == place), None)
        if twin is not None:
            free_b.remove(twin)
        units.append(Unit((k,), (twin,) if twin is not None else (), None, None, row_a.tokens[k], NO_CHARACTERS))
    units += [Unit((), (j,), None, None, row_b.tokens[j], NO_CHARACTERS) for j in free_b]
    return [u if not u.shared else Unit(u.a, u.b, None, None, u.text, SHARED) for u in units]


def _in_reading_order(units: list[Unit], n_a: int, n_b: int) -> tuple[Unit, ...]:
    """Units ordered so that each side's tokens stay in their order: a unit is placed by its first token on
    each side; one-sided units of A come before B's between the same shared units."""
    shared = sorted((u for u in units if u.shared), key=lambda u: u.a[0])
    only_a = sorted((u for u in units if u.a and not u.b), key=lambda u: u.a[0])
    only_b = sorted((u for u in units if u.b and not u.a), key=lambda u: u.b[0])
    out: list[Unit] = []
    for stop in [*shared, None]:
        limit_a, limit_b = (stop.a[0], stop.b[0]) if stop is not None else (n_a, n_b)
        while only_a and only_a[0].a[0] < limit_a:
            out.append(only_a.pop(0))
        while only_b and only_b[0].b[0] < limit_b:
            out.append(only_b.pop(0))
        if stop is not None:
            out.append(stop)
    return tuple(out)
