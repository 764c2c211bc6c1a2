"""One run's attention map carried onto the aligned axis (the units of explorer/compare/align.py).

A gathered cell (u, v) is the attention the queries of unit u pay to the keys of unit v: summed over v's
keys (weights are shares of a row: the share of the unit is the sum of its tokens' shares) and averaged over
u's queries (each query's row is a distribution; their mean is one too). Every token is in one unit, so a
gathered row still sums to 1 (0 for a query whose every key the mask blocks). A unit with no token on this
side has no row and no column here: NaN. A cell is blocked when the mask blocks every query–key pair in it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.compare.align import Alignment

GATHER_METHOD = "weights summed over a unit's keys, averaged over its queries; NaN where a side has no token"


@dataclass(frozen=True)
class Gathered:
    values: np.ndarray  # (U, U) float64, NaN where this side has no token in the row's or column's unit
    blocked: np.ndarray  # (U, U) bool: the mask blocks every pair of the cell
    empty: np.ndarray  # (U,) bool: a query of the unit on this side sees no key (its row is 0: not a distribution)


def unit_matrices(alignment: Alignment, side: str, length: int) -> tuple[np.ndarray, np.ndarray]:
    """(U, n) averaging over each unit's queries and (n, U) summing over its keys; rows of absent units 0."""
    U = len(alignment.units)
    mean, total = np.zeros((U, length)), np.zeros((length, U))
    for u, unit in enumerate(alignment.units):
        tokens = list(unit.side(side))
        if tokens:
            mean[u, tokens] = 1.0 / len(tokens)
            total[tokens, u] = 1.0
    return mean, total


def gather(alignment: Alignment, side: str, weights: np.ndarray, allowed: np.ndarray) -> Gathered:
    """``weights`` (n, n) one head's map of the sentence's tokens, ``allowed`` (n, n) its mask (True: seen)."""
    n = weights.shape[0]
    mean, total = unit_matrices(alignment, side, n)
    values = mean @ np.asarray(weights, np.float64) @ total
    present = np.array([bool(u.side(side)) for u in alignment.units])
    values[~present, :] = np.nan
    values[:, ~present] = np.nan
    seen = (total.T @ np.asarray(allowed, np.float64) @ total) > 0
    row_blind = (~np.asarray(allowed, bool).any(axis=1)).astype(np.float64)
    empty = present & ((total.T @ row_blind) > 0)
    return Gathered(values, present[:, None] & present[None, :] & ~seen, empty)
