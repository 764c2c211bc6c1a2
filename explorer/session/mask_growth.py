"""How a hand-painted mask grows with the text: the rules as plain functions over the painting (rows of
bools), which the Session's state holds and the window's painter (explorer/ui/views/mask_painter.py) draws.

The painting is sent a little larger than the text (its extra rows and columns causal), so that typing a few
more tokens keeps it. When a paste outran it anyway, the core refuses with ``MaskTooSmall``, whose fields
(not its sentence) say how many tokens the text has; the painting then grows to fit.
"""

from __future__ import annotations

import numpy as np

from explorer.analysis.mask_paint import all_allowed, all_blocked, causal, extend_causal, padded_size
from explorer.config import MaskSpec
from explorer.errors import MaskTooSmall

Matrix = tuple[tuple[bool, ...], ...]  # N×N, True = allowed

# Grow before a trace whose painting has fewer than this many spare rows: the next token would not fit.
SPARE_ROWS = 4
STARTS = {"causal": causal, "all_allowed": all_allowed, "all_blocked": all_blocked}  # what "start over" paints


def grown(matrix: np.ndarray | None, tokens: int) -> np.ndarray | None:
    """The painting to send for a text of ``tokens`` tokens, or None when ``matrix`` already covers it."""
    if matrix is not None and len(matrix) >= tokens:
        return None
    base = matrix if matrix is not None else causal(0)
    return extend_causal(base, padded_size(tokens))


def tokens_after_trace(painted: int, C: int) -> int | None:
    """After a trace of C tokens with a painting of ``painted`` rows: the size to grow to now, or None."""
    return C + SPARE_ROWS if painted < C + SPARE_ROWS else None


def tokens_after_error(error: BaseException | None) -> int | None:
    """The token count a refused painting must cover, or None when the error is about something else."""
    return error.tokens if isinstance(error, MaskTooSmall) else None


def as_matrix(painted: np.ndarray | None) -> Matrix | None:
    """A painting as the Session's state holds it: rows of bools (hashable, comparable)."""
    return None if painted is None else tuple(tuple(bool(v) for v in row) for row in np.asarray(painted))


def adopted(painted: Matrix | None, mask: MaskSpec) -> Matrix | None:
    """An explicit mask painted elsewhere (a restored session, a lesson): the painting to take, or None when
    it is not explicit or is the painting already."""
    if mask.kind != "explicit" or mask.matrix == painted:
        return None
    return tuple(tuple(bool(v) for v in row) for row in mask.matrix)


def covering(painted: Matrix | None, C: int) -> Matrix:
    """The painting grown causally to cover C tokens (from causal when nothing is painted yet)."""
    bigger = grown(None if painted is None else np.array(painted, dtype=bool), C)
    return painted if bigger is None else as_matrix(bigger)  # type: ignore[return-value]


def started(kind: str, C: int) -> Matrix:
    """Start over from ``kind`` (a key of STARTS), a little larger than the text of C tokens."""
    return as_matrix(STARTS[kind](padded_size(C)))  # type: ignore[return-value]
