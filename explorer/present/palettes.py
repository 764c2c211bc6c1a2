"""The colour palettes that every map, colour bar, bar chart and exported figure draws with, and the one
chosen now. Numpy only, no Qt.

There is one choice for the whole application: View → Colours in the window calls ``set_current`` (and
remembers it in the settings), and every colour consumer asks this module: maps and colour bars through
``lut`` / ``stops`` (the window's ``explorer/ui/views/map_layers.colour_map``), bar charts through
``current().positive`` / ``negative`` / ``bar``, outlines through ``current().accent``. A figure renderer
outside the window (an export) calls the same functions, so a printed figure has the colours on screen.

Every palette has a sequential map (values ≥ 0: weights, probabilities) and a diverging one (signed values,
centred on 0 by symmetric levels). tests/core/test_palettes_cvd.py renders each through protanopia,
deuteranopia and tritanopia (explorer/present/colour_vision.py) and checks that equal steps stay apart and
ordered in lightness.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer import vocab
from explorer.present import palette_data as data

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Palette:
    key: str
    sequential: np.ndarray  # (n, 3) sRGB stops in [0, 1], evenly spaced from 0 to 1
    diverging: np.ndarray  # (n, 3): the most negative value first, 0 in the middle
    bar: RGB  # a bar of a chart of one quantity (probabilities, the logit lens)
    positive: RGB  # bars of signed quantities (attribution): above 0 …
    negative: RGB  # … and below 0; apart for every colour vision (tested)
    accent: RGB  # outlines that must stand apart from both maps (the Model view's notable heads)


PALETTES: dict[str, Palette] = {
    p.key: p
    for p in (
        # The maps the window always had: viridis and Kovesi's blue–white–red; blue / orange bars.
        Palette("standard", data.VIRIDIS, data.CET_D1, (64, 120, 220), (64, 120, 220), (230, 97, 1), (230, 40, 40)),
        # Cividis (made for deuteranopes and protanopes) with Kovesi's colour-blind blue–white–yellow.
        Palette("cividis", data.CIVIDIS, data.CET_CBD1, (45, 90, 160), (45, 90, 160), (196, 160, 30), (230, 40, 40)),
        # The widest lightness range (black to pale yellow; dark blue and dark red ends): for a projector in a
        # bright room and low vision.
        Palette("high-contrast", data.INFERNO, data.CET_D1A, (20, 40, 140), (23, 41, 114), (200, 60, 0), (0, 200, 255)),
        # Greyscale for a black-and-white printer: lightness alone carries the value (and the sign).
        Palette("greyscale", data.GREYS, data.GREYS_SIGNED, (90, 90, 90), (40, 40, 40), (175, 175, 175), (0, 0, 0)),
    )
}
assert tuple(PALETTES) == vocab.PALETTES  # the vocabulary names the palettes; this module draws them
DEFAULT = "standard"

_current = DEFAULT


def palette(key: str | None = None) -> Palette:
    """The palette ``key`` (the current one when None)."""
    return PALETTES[_current if key is None else key]


def current() -> Palette:
    return PALETTES[_current]


def set_current(key: str) -> Palette:
    """Make ``key`` the palette of every figure drawn from now on. An unknown key (an old setting) is the
    default: a palette is a preference, never a reason to fail."""
    global _current
    _current = key if key in PALETTES else DEFAULT
    return PALETTES[_current]


def stops(signed: bool, key: str | None = None) -> np.ndarray:
    """The (n, 3) sRGB stops in [0, 1] of the diverging (``signed``) or sequential map, evenly spaced."""
    p = palette(key)
    return p.diverging if signed else p.sequential


def colours(values: np.ndarray, signed: bool, key: str | None = None) -> np.ndarray:
    """Values in [0, 1] (0 = the low end of the levels, 1 = the high end) → sRGB (…, 3) in [0, 1]."""
    table = stops(signed, key)
    x = np.linspace(0.0, 1.0, len(table))
    t = np.clip(np.asarray(values, dtype=np.float64), 0.0, 1.0)
    return np.stack([np.interp(t, x, table[:, c]) for c in range(3)], axis=-1)


def lut(signed: bool, n: int = 256, key: str | None = None) -> np.ndarray:
    """An (n, 4) uint8 RGBA lookup table of the map, as images are coloured with."""
    rgb = np.rint(colours(np.linspace(0.0, 1.0, n), signed, key) * 255).astype(np.uint8)
    return np.concatenate([rgb, np.full((n, 1), 255, dtype=np.uint8)], axis=1)


def is_dark(rgb: np.ndarray) -> np.ndarray:
    """Whether text on these sRGB colours (…, 3) in [0, 1] should be white: their luma is below 0.55."""
    rgb = np.asarray(rgb, dtype=np.float64)
    return 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2] <= 0.55
