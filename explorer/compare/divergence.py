"""Where two gathered maps differ: the Jensen–Shannon divergence of their rows, and B − A cell by cell.

JS(P, Q) = ½·KL(P ‖ M) + ½·KL(Q ‖ M) with M = ½(P + Q), in nats (0 … ln 2), computed in float64. P and Q are
one aligned query's gathered rows over every unit: a unit a side has no token in gets 0 of that side's
attention (it has nothing there to attend to). Only rows both sides have, where every query sees some key,
are compared. Each row's terms are added with ``math.fsum`` (exactly rounded, in any order): swapping the
runs reorders the one-sided units and keeps every number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.compare.gather import Gathered

JS_METHOD = "Jensen-Shannon divergence in nats (0 ... ln 2) of each aligned query's gathered rows"


@dataclass(frozen=True)
class HeadDivergence:
    layer: int
    head: int
    mean: float  # over the rows compared
    max: float
    row: int  # the unit (aligned axis) whose row differs most
    rows: tuple[float, ...]  # per unit; NaN where the row is not compared


def js_divergence(p: np.ndarray, q: np.ndarray) -> float:
    p64, q64 = np.asarray(p, np.float64), np.asarray(q, np.float64)
    m = 0.5 * (p64 + q64)
    return 0.5 * _kl_terms(p64, m) + 0.5 * _kl_terms(q64, m)


def _kl_terms(p: np.ndarray, m: np.ndarray) -> float:
    seen = p > 0
    return math.fsum((p[seen] * np.log(p[seen] / m[seen])).tolist())


def compared_rows(a: Gathered, b: Gathered) -> np.ndarray:
    """(U,) True for the aligned queries both sides have and whose rows are distributions on both."""
    present = ~np.isnan(a.values).all(axis=1) & ~np.isnan(b.values).all(axis=1)
    return present & ~a.empty & ~b.empty


def head_divergence(layer: int, head: int, a: Gathered, b: Gathered) -> HeadDivergence:
    rows = np.full(a.values.shape[0], np.nan)
    pa, pb = np.nan_to_num(a.values, nan=0.0), np.nan_to_num(b.values, nan=0.0)
    for u in np.flatnonzero(compared_rows(a, b)):
        rows[u] = js_divergence(pa[u], pb[u])
    if np.isnan(rows).all():
        return HeadDivergence(layer, head, math.nan, math.nan, -1, tuple(rows.tolist()))
    kept = rows[~np.isnan(rows)]
    return HeadDivergence(
        layer,
        head,
        math.fsum(kept.tolist()) / len(kept),
        float(kept.max()),
        int(np.nanargmax(rows)),
        tuple(rows.tolist()),
    )


@dataclass(frozen=True)
class DifferenceMap:
    """B − A on the aligned axis. ``values`` NaN where either side has no token; ``blocked``: the mask
    blocks the cell on either side (``blocked_a``, ``blocked_b`` say which)."""

    values: np.ndarray
    blocked_a: np.ndarray
    blocked_b: np.ndarray

    @property
    def blocked(self) -> np.ndarray:
        return self.blocked_a | self.blocked_b


def difference(a: Gathered, b: Gathered) -> DifferenceMap:
    return DifferenceMap(b.values - a.values, a.blocked, b.blocked)
