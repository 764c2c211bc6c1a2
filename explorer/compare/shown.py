"""One head of a comparison as the window and a slide draw it (issue 40 item 3): both runs' gathered maps on
one colour scale (0 … the larger run's largest weight: one colour bar serves both), B − A on a diverging
scale symmetric about 0, the cells to hatch on each map (the mask blocks them, or a side has no token there),
and each map's labels on the aligned axis (a unit a side lacks is labelled in brackets: the other run's only).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.compare.pair import Comparison


@dataclass(frozen=True)
class ShownHead:
    layer: int
    head: int
    a: np.ndarray  # (U, U) run A's gathered weights, NaN where A has no token
    b: np.ndarray
    difference: np.ndarray  # B − A, NaN where either side has no token
    hatched_a: np.ndarray  # (U, U) bool: blocked by A's mask or no token of A
    hatched_b: np.ndarray
    hatched_difference: np.ndarray  # hatched on either side
    levels: tuple[float, float]  # A's and B's shared scale
    difference_levels: tuple[float, float]  # symmetric: (−m, m)
    labels_a: tuple[str, ...]
    labels_b: tuple[str, ...]


def unit_labels(comparison: Comparison, side: str) -> tuple[str, ...]:
    """Each unit's words; in brackets where this side has no token of it (the other run's only)."""
    out = []
    for unit in comparison.alignment.units:
        text = unit.text.strip() or unit.text or "␣"
        out.append(text if unit.side(side) else f"[{text}]")
    return tuple(out)


def unit_of_token(comparison: Comparison, side: str, token: int) -> int | None:
    """The aligned unit holding this side's token (None: no such token)."""
    return next((u for u, unit in enumerate(comparison.alignment.units) if token in unit.side(side)), None)


def shown_head(comparison: Comparison, layer: int, head: int) -> ShownHead:
    a, b = comparison.pair.gathered(comparison.alignment, layer, head)
    diff = comparison.difference(layer, head)
    top = max(_largest(a.values), _largest(b.values), 1e-12)
    spread = max(_largest(np.abs(diff.values)), 1e-12)
    return ShownHead(
        layer,
        head,
        a.values,
        b.values,
        diff.values,
        a.blocked | np.isnan(a.values),
        b.blocked | np.isnan(b.values),
        diff.blocked | np.isnan(diff.values),
        (0.0, top),
        (-spread, spread),
        unit_labels(comparison, "a"),
        unit_labels(comparison, "b"),
    )


def _largest(values: np.ndarray) -> float:
    finite = values[np.isfinite(values)]
    return float(finite.max()) if finite.size else 0.0


def drawable(values: np.ndarray, hatched: np.ndarray) -> np.ndarray:
    """``values`` as a map draws them: a NaN under the hatching (a unit one run has no token of, NaN by design)
    holds 0 there, so that the map marks only a NaN left elsewhere as a number that cannot be shown (issue 44)."""
    return np.where(hatched & np.isnan(values), np.float32(0.0), values).astype(values.dtype, copy=False)
