"""How a hand-painted mask grows with the text: the rules as plain functions, and the painting itself
(``Painting``), which the Session holds and the window's painter (explorer/ui/views/mask_painter.py) draws.

The painting is sent a little larger than the text (its extra rows and columns causal), so that typing a few
more tokens keeps it. When a paste outran it anyway, the core refuses with ``MaskTooSmall``, whose fields
(not its sentence) say how many tokens the text has; the painting then grows to fit.
"""

from __future__ import annotations

import numpy as np

from explorer.analysis.mask_paint import all_allowed, all_blocked, causal, extend_causal, padded_size
from explorer.config import MaskSpec
from explorer.errors import MaskTooSmall

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


class Painting:
    """The painted matrix (N×N, N ≥ C, True = allowed): what is, or will be, sent as an explicit mask."""

    def __init__(self) -> None:
        self.matrix: np.ndarray | None = None

    def adopt(self, mask: MaskSpec) -> bool:
        """An explicit mask painted elsewhere (a restored session, a lesson): take it. True if it changed."""
        if mask.kind != "explicit":
            return False
        m = np.array(mask.matrix, dtype=bool)
        if self.matrix is not None and m.shape == self.matrix.shape and np.array_equal(m, self.matrix):
            return False
        self.matrix = m
        return True

    def covering(self, C: int) -> np.ndarray:
        """The painting grown causally to cover C tokens (from causal when nothing is painted yet)."""
        bigger = grown(self.matrix, C)
        if bigger is not None:
            self.matrix = bigger
        return self.matrix  # type: ignore[return-value]

    def start(self, kind: str, C: int) -> np.ndarray:
        """Start over from ``kind`` (a key of STARTS), a little larger than the text of C tokens."""
        self.matrix = STARTS[kind](padded_size(C))
        return self.matrix
