"""Which cells of a map are drawn as blocked, and which of those are hatched: one decision for the window
(explorer/ui/views/map/map_layers.py) and print (explorer/handouts/map_draw.py).

A blocked cell is −∞ (the mask blocked it before the softmax) or marked blocked by the stage (the weights the
mask set to 0). Blocked cells take a neutral grey; maps up to ``HATCH_LIMIT`` a side also hatch them. Bigger
maps show the plain grey only: hatching a thousand tiny cells costs time and reads as noise.
"""

from __future__ import annotations

import numpy as np

HATCH_LIMIT = 64


def blocked_cells(data: np.ndarray, blocked: np.ndarray | None = None) -> np.ndarray:
    """The cells drawn as blocked: −∞ ones and those ``blocked`` marks."""
    minus_infinity = np.isneginf(data)
    return minus_infinity if blocked is None else (minus_infinity | blocked)


def hatched(blocked: np.ndarray) -> np.ndarray | None:
    """The cells to hatch, or None when none is (nothing blocked, or a map too large to hatch)."""
    if not blocked.any() or max(blocked.shape) > HATCH_LIMIT:
        return None
    return blocked


def blocked_runs(blocked: np.ndarray) -> list[tuple[int, int, int]]:
    """(row, first column, past the last column) of each run of blocked cells in a row: what both renderers
    hatch as one rectangle."""
    runs = []
    for i, row in enumerate(np.asarray(blocked, dtype=bool)):
        edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
        runs.extend((i, int(a), int(b)) for a, b in zip(edges[::2], edges[1::2]))
    return runs
