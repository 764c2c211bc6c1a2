"""How a hand-painted mask grows with the text, as plain functions (the window's painter,
explorer/ui/views/mask_painter.py, only calls them).

The painting is sent a little larger than the text (its extra rows and columns causal), so that typing a few
more tokens keeps it. When a paste outran it anyway, the core refuses with ``MaskTooSmall``, whose fields
(not its sentence) say how many tokens the text has; the painting then grows to fit.
"""

from __future__ import annotations

import numpy as np

from explorer.analysis.mask_paint import causal, extend_causal, padded_size
from explorer.errors import MaskTooSmall

# Grow before a trace whose painting has fewer than this many spare rows: the next token would not fit.
SPARE_ROWS = 4


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
