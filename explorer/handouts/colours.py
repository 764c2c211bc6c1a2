"""The colours of a figure, the same as the window's maps: viridis for values ≥ 0, the diverging CET-D1
(blue–white–red, centred on 0 by symmetric levels) for signed values, a grey with dark hatching for the
cells the mask blocks, and the two themes' paper and ink.

The lookup tables are the chosen palette's (explorer/present/palettes.py), made into 256 entries exactly as
pyqtgraph makes them, so that the core draws without Qt (tests/ui/test_figures.py checks they agree). A value
maps to a table entry as pyqtgraph's ImageItem maps it: ⌊(v − lo) · 256 / (hi − lo)⌋, clipped to 0…255.
Colour data: viridis (CC0, van der Walt and Smith); CET-D1 (CC-BY 4.0, Peter Kovesi, colorcet.com).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.present import palettes

MASK_FILL = "#c8c8cc"  # (200, 200, 204): the window's −∞ overlay
MASK_HATCH = "#5a5a60"  # (90, 90, 96): its hatching
DARK_TEXT_ABOVE = 0.55  # cell numbers are dark on colours brighter than this (luminance), light below


def lookup_table(signed: bool, key: str | None = None) -> np.ndarray:
    """(256, 3) uint8: the chosen palette's table (View → Colours; ``key`` another palette), entry for entry
    the one pyqtgraph makes of the window's colour map (explorer/ui/views/map/map_layers.py)."""
    return _table(signed, key or palettes.current().key)


@lru_cache(maxsize=16)
def _table(signed: bool, key: str) -> np.ndarray:
    stops = np.rint(palettes.stops(signed, key) * 255).astype(np.uint8)[:, :3]  # the window's ColorMap stops
    # pyqtgraph keeps a stop as QColor's float (r·257 / 65535), gives it back as bytes by truncating, and
    # interpolates those bytes into a byte table (truncating again): done the same way here, without Qt.
    stored = ((stops.astype(np.float64) * 257) / 65535.0 * 255).astype(np.uint8)
    x, at = np.linspace(0.0, 1.0, 256), np.linspace(0.0, 1.0, len(stops))
    table = np.empty((256, 3), dtype=np.uint8)
    for c in range(3):
        table[:, c] = np.interp(x, at, stored[:, c])
    table.flags.writeable = False
    return table


def colour_indices(values: np.ndarray, levels: tuple[float, float]) -> np.ndarray:
    """Each value's entry of the table, as pyqtgraph picks it (non-finite values take entry 0)."""
    lo, hi = float(levels[0]), float(levels[1])
    scale = 256.0 / ((hi - lo) or 1.0)
    v = np.where(np.isfinite(values), np.asarray(values, dtype=np.float64), lo)
    return np.clip(np.floor((v - lo) * scale), 0, 255).astype(np.intp)


def colours(values: np.ndarray, levels: tuple[float, float], signed: bool) -> np.ndarray:
    """(…, 3) uint8 colours of ``values`` on the map."""
    return lookup_table(signed)[colour_indices(values, levels)]


def hex_colour(rgb) -> str:
    return f"#{int(rgb[0]):02x}{int(rgb[1]):02x}{int(rgb[2]):02x}"


def dark_text(rgb: np.ndarray) -> np.ndarray:
    """True where a number printed on this colour should be dark (the window's rule, on 0…1 channels)."""
    f = np.asarray(rgb, dtype=np.float64) / 255.0
    return (0.299 * f[..., 0] + 0.587 * f[..., 1] + 0.114 * f[..., 2]) > DARK_TEXT_ABOVE


@dataclass(frozen=True)
class Theme:
    paper: str
    ink: str  # text and axes
    faint: str  # secondary text (the shapes line, notes)
    axis: str


THEMES = {
    "light": Theme(paper="#ffffff", ink="#000000", faint="#555555", axis="#444444"),
    "dark": Theme(paper="#252528", ink="#e6e6e6", faint="#aaaaaa", axis="#bbbbbb"),  # the window's dark palette
}


def theme(name: str) -> Theme:
    return THEMES[name]
