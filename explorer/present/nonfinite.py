"""Which drawn numbers cannot be shown, and the trace's one line saying where they came from (issue 44).

A NaN or a +∞ is no value of a colour scale: the window draws such cells in their own colour, with their own
legend line, apart from the mask's −∞ (which the mask sets on purpose and the views hatch grey). The line is
the trace's finite-check notice (explorer/trace/finite.py), which the window shows whole in a banner.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from explorer.trace.finite import NOTICE_START


def nonfinite_cells(data: np.ndarray, minus_infinity: bool = False) -> np.ndarray | None:
    """The cells holding NaN or +∞ (bool, the shape of ``data``), or None when there is none: the common case
    costs one max reduction (two with ``minus_infinity``), no array of booleans. −∞ is the mask's
    (explorer/present/hatching.py) unless ``minus_infinity``: a map no mask reaches (a residual, Q, logits)."""
    a = np.asarray(data)
    if a.dtype.kind not in "fc" or not a.size:
        return None
    top = a.max()
    low = minus_infinity and a.min() == -np.inf
    if not (np.isnan(top) or top == np.inf or low):
        return None
    return ~np.isfinite(a) if minus_infinity else (np.isnan(a) | np.isposinf(a))


def nonfinite_line(notices: Iterable[str]) -> str | None:
    """The trace's finite-check notice among its ``notices``, whole, or None when every number is finite."""
    return next((n for n in notices if n.startswith(NOTICE_START)), None)
