"""The hand-painted mask's matrix: start from causal, toggle cells, and grow with the text.

The painted matrix is sent a little larger than the current text (its extra rows and columns causal), so
that typing a few more tokens keeps the painting and never meets the core's "painted mask is smaller than
the text" refusal; the model cuts it to C.
"""

from __future__ import annotations

import re

import numpy as np


def causal(n: int) -> np.ndarray:
    """(n, n) lower triangle, True = allowed: query i sees keys 0..i."""
    return np.tril(np.ones((n, n), dtype=bool))


def all_allowed(n: int) -> np.ndarray:
    return np.ones((n, n), dtype=bool)


def all_blocked(n: int) -> np.ndarray:
    return np.zeros((n, n), dtype=bool)


def extend_causal(matrix: np.ndarray, n: int) -> np.ndarray:
    """The painted top-left block kept as is; new rows and columns up to n follow the causal rule."""
    m = np.asarray(matrix, dtype=bool)
    k = m.shape[0]
    if n <= k:
        return m.copy()
    out = causal(n)
    out[:k, :k] = m
    return out


def padded_size(C: int) -> int:
    """How large to send the painting for a text of C tokens: room for some more typing."""
    return C + max(16, C // 4)


_TOO_SMALL = re.compile(r"painted mask is (\d+)\D+(\d+) but the text has (\d+) tokens")


def needed_size(message: str) -> int | None:
    """The token count from the core's refusal of a too-small painted mask, or None for other errors."""
    m = _TOO_SMALL.search(message)
    return int(m.group(3)) if m else None
