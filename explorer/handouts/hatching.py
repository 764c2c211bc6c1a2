"""The hatching of blocked (−∞) cells as explicit line segments, already clipped to the cells.

SVG patterns are not drawn by every renderer (Qt's SVG Tiny 1.2 ignores <pattern>, and the window's own
hatched brush was lost in its SVG export), clip paths neither: plain segments are drawn alike everywhere.
The lines are those of Qt's BDiagPattern, "/" (x + y = const), evenly spaced over the whole map so that
neighbouring blocked cells continue each other's lines.
"""

from __future__ import annotations

import math

from explorer.present.hatching import blocked_runs  # noqa: F401 (the runs both renderers hatch)


def clip_diagonal(c: float, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float] | None:
    """The part of the line x + y = c inside the rectangle [x0, x1] × [y0, y1], or None."""
    lo = max(x0, c - y1)
    hi = min(x1, c - y0)
    if hi - lo <= 1e-9:
        return None
    return lo, c - lo, hi, c - hi


def hatch_segments(
    runs, x: float, y: float, cell_w: float, cell_h: float, spacing: float
) -> list[tuple[float, float, float, float]]:
    """Segments (x1, y1, x2, y2) hatching each run's rectangle; the map's top left cell is at (x, y)."""
    out = []
    for i, a, b in runs:
        rx0, ry0 = x + a * cell_w, y + i * cell_h
        rx1, ry1 = x + b * cell_w, ry0 + cell_h
        first = math.floor((rx0 + ry0) / spacing) + 1
        last = math.ceil((rx1 + ry1) / spacing) - 1
        for k in range(first, last + 1):
            seg = clip_diagonal(k * spacing, rx0, ry0, rx1, ry1)
            if seg is not None:
                out.append(seg)
    return out
