"""A figure as a list of drawing primitives: what the SVG writer (``svg.py``, pure Python) and the Qt painter
(``explorer/ui/printing/figure_paint.py``) both draw, so that a figure looks the same in every format.

Coordinates are CSS pixels (1/96 inch), y down, the origin at the top left. Colours are ``#rrggbb``.
Text is anchored at its baseline: ``anchor`` says which end (or the middle) of the run sits at ``x``; a
rotated run turns by ``rotate`` degrees about its anchor point (−90: reads bottom to top).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

PX_PER_INCH = 96.0
MM_PER_INCH = 25.4
FONT_FAMILY = "DejaVu Sans"  # the window's own font here; Japanese falls back to IPA Gothic through fontconfig
FALLBACK_FAMILIES = ("IPAGothic", "sans-serif")
MONO_FAMILY = "DejaVu Sans Mono"


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None
    stroke: str | None = None
    width: float = 0.0  # stroke width


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    colour: str
    width: float


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # baseline
    text: str
    size: float  # font size (the em), in pixels
    colour: str
    anchor: str = "start"  # start, middle, end
    bold: bool = False
    rotate: float = 0.0
    mono: bool = False  # fixed-width digits (columns of numbers on a worksheet)


@dataclass(frozen=True, eq=False)
class Image:
    """Cells drawn as one picture (maps wider than the vector limit): one pixel per cell, scaled up with
    nearest-neighbour sampling so that every cell stays a sharp square."""

    x: float
    y: float
    w: float
    h: float
    pixels: np.ndarray  # (rows, cols, 3) uint8


@dataclass
class Scene:
    width: float
    height: float
    background: str = "#ffffff"
    title: str = "Attention Explorer"
    items: list = field(default_factory=list)

    def add(self, *items) -> None:
        self.items.extend(items)

    def extend(self, items) -> None:
        self.items.extend(items)

    def texts(self) -> list[str]:
        """Every text run, in drawing order (what a PDF's text layer and an SVG's <text> hold)."""
        return [it.text for it in self.items if isinstance(it, Text)]

    def translated(self, dx: float, dy: float) -> list:
        """The items moved by (dx, dy): a figure placed inside a page."""
        out: list = []
        add = out.append
        for it in self.items:
            if isinstance(it, Rect):
                add(Rect(it.x + dx, it.y + dy, it.w, it.h, it.fill, it.stroke, it.width))
            elif isinstance(it, Line):
                add(Line(it.x1 + dx, it.y1 + dy, it.x2 + dx, it.y2 + dy, it.colour, it.width))
            elif isinstance(it, Text):
                add(Text(it.x + dx, it.y + dy, it.text, it.size, it.colour, it.anchor, it.bold, it.rotate, it.mono))
            elif isinstance(it, Image):
                add(Image(it.x + dx, it.y + dy, it.w, it.h, it.pixels))
        return out


def mm_to_px(mm: float) -> float:
    return mm / MM_PER_INCH * PX_PER_INCH


def px_to_mm(px: float) -> float:
    return px / PX_PER_INCH * MM_PER_INCH
