"""How the numbers of one map are printed: one format for the whole map, in its cells, its hover and its
exported picture.

A map once mixed "0.02" beside "0.00446" and "0.000224", and "−1.63e−07" in an FFN cell (issue 22): each
number chose its own form. Here the map's range chooses: enough decimals that its largest magnitude shows
``SIGNIFICANT`` significant digits, the same decimals for every cell, and a value that rounds to zero at
those decimals is printed "0" (its sign dropped). A map of whole numbers (token ids, a one-hot row) prints
whole numbers. Only a range too large or too small for plain decimals (below 10⁻⁴, or from 10⁷ up) goes
to scientific notation, then with one exponent form for every cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

SIGNIFICANT = 3  # digits of the map's largest magnitude; a 2-digit cell ("0.31") was the classroom's habit
MINUS = "−"  # U+2212, as every number of the views prints it


@dataclass(frozen=True)
class MapFormat:
    """``decimals`` digits after the point for every cell, or ``scientific`` with ``SIGNIFICANT`` digits."""

    decimals: int = 2
    scientific: bool = False

    def __call__(self, x: float) -> str:
        x = float(x)
        if math.isnan(x):
            return "NaN"  # said as the notice and the legend say it, not Python's "nan"
        if math.isinf(x):
            return MINUS + "∞" if x < 0 else "+∞"  # +∞ is a fault beside the mask's −∞: its sign is said
        if self.scientific:
            if x == 0:
                return "0"
            mantissa, exponent = f"{x:.{SIGNIFICANT - 1}e}".split("e")
            return f"{mantissa}e{int(exponent)}".replace("-", MINUS)
        text = f"{x:.{self.decimals}f}"
        if float(text) == 0:
            return "0"  # rounds to zero at the map's precision: no "−0.00", no "0.000224"
        return text.replace("-", MINUS)

    def longest(self, values) -> int:
        """Characters of the widest number in ``values`` (how wide a cell must be to print them all)."""
        a = np.asarray(values, dtype=np.float64).ravel()
        if not a.size:
            return 1
        finite = a[np.isfinite(a)]
        candidates = [] if not finite.size else [float(finite.min()), float(finite.max())]
        if finite.size != a.size:
            candidates.append(-math.inf)
        return max(len(self(v)) for v in candidates)


CHUNK = 1 << 20  # values looked at per step: a 4096² map in float64 at once held 0.5 GB and took 3.4 s


def map_format(values) -> MapFormat:
    """The one format for a map holding ``values`` (any shape; −∞ and NaN are ignored). Read in chunks of
    ``CHUNK`` values, so a long input's map costs a few MB of scratch, not several copies of itself."""
    flat = np.asarray(values).reshape(-1)
    top, seen, whole = 0.0, False, True
    for start in range(0, flat.size, CHUNK):
        block = flat[start : start + CHUNK].astype(np.float64, copy=False)
        block = block[np.isfinite(block)]
        if not block.size:
            continue
        seen = True
        top = max(top, float(block.max()), -float(block.min()))
        if whole and not np.array_equal(np.round(block), block):
            whole = False  # settled at the first fraction (most maps: the first chunk)
    if not seen:
        return MapFormat(0)
    if whole and top < 1e7:
        return MapFormat(0)  # ids, counts, a one-hot row: whole numbers
    if top < 1e-4 or top >= 1e7:
        return MapFormat(scientific=True)
    magnitude = math.floor(math.log10(top))
    return MapFormat(max(0, SIGNIFICANT - 1 - magnitude))


def scale_ticks(lo: float, hi: float, most: int = 5) -> list[float]:
    """Values to number a colour bar from ``lo`` to ``hi``: both ends, and round steps (1, 2, 2.5 or 5 × 10ᵏ)
    between them, at most ``most`` in all. Every scale shows at least its two ends (a bar once showed only
    "0", issue 22)."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo] if math.isfinite(lo) else []
    most = max(2, most)
    raw = (hi - lo) / (most - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    inner = [k * step for k in range(math.ceil(lo / step), math.floor(hi / step) + 1)]
    ticks = [lo] + [v for v in inner if lo + step / 2 <= v <= hi - step / 2] + [hi]
    return ticks[:1] + ticks[1:-1][: most - 2] + ticks[-1:]
