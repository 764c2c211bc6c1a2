"""The hand-painted mask's matrix: start from causal, toggle cells, and grow with the text.

The painted matrix is sent a little larger than the current text (its extra rows and columns causal), so
that typing a few more tokens keeps the painting and never meets the core's "painted mask is smaller than
the text" refusal; the model cuts it to C. When to grow is explorer/session/mask_growth.py.
"""

from __future__ import annotations

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
