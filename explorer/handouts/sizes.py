"""How large a figure is: a width in millimetres (the height follows the figure) or an exact size in pixels,
and the resolution of its PNG. The figure itself is laid out in CSS pixels (1/96 inch)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from explorer.errors import ConfigError
from explorer.handouts.scene import PX_PER_INCH, mm_to_px
from explorer.handouts.stage_figure import Frame

DEFAULT_WIDTH_MM = 160.0  # the text width of an A4 page
PRINT_DPI = 300.0
SCREEN_DPI = 96.0
MAX_PIXELS = 100_000_000  # a PNG of at most 100 megapixels (400 MB while it is drawn)
FORMATS = (".png", ".svg", ".pdf")


@dataclass(frozen=True)
class FigureSize:
    frame: Frame
    dpi: float
    pixels: tuple[int, int] | None = None  # the PNG's exact size (--size), else from the figure at dpi

    def png_pixels(self, width: float, height: float) -> tuple[int, int]:
        if self.pixels is not None:
            return self.pixels
        k = self.dpi / PX_PER_INCH
        return max(1, round(width * k)), max(1, round(height * k))


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if not (64 <= w <= 16384 and 64 <= h <= 16384):
            raise ValueError
    except ValueError:
        raise ConfigError(
            f"--size takes WIDTHxHEIGHT in pixels between 64x64 and 16384x16384, e.g. 1920x1080; got {text!r}"
        ) from None
    return w, h


def figure_size(width_mm: float | None = None, size: str | None = None, dpi: float | None = None) -> FigureSize:
    """--width-mm W (height from the figure, PNG at 300 dpi unless --dpi) or --size WxH (PNG exactly that
    many pixels, text sized for 96 dpi unless --dpi)."""
    if dpi is not None and not (math.isfinite(dpi) and 36 <= dpi <= 2400):
        raise ConfigError(f"--dpi must lie between 36 and 2400, got {dpi:g}")
    if width_mm is not None and size is not None:
        raise ConfigError("give --width-mm or --size, not both")
    if size is not None:
        w, h = parse_size(size)
        d = dpi or SCREEN_DPI
        k = PX_PER_INCH / d
        return FigureSize(Frame(w * k, h * k), d, (w, h))
    mm = DEFAULT_WIDTH_MM if width_mm is None else width_mm
    if not (math.isfinite(mm) and 20 <= mm <= 2000):
        raise ConfigError(f"--width-mm must lie between 20 and 2000, got {mm:g}")
    return FigureSize(Frame(mm_to_px(mm)), dpi or PRINT_DPI)


def check_pixels(w: int, h: int) -> None:
    if w * h > MAX_PIXELS:
        raise ConfigError(
            f"a {w}×{h} picture is more than {MAX_PIXELS // 1_000_000} megapixels; choose a smaller --dpi, "
            "--width-mm or --size"
        )


def output_kind(path) -> str:
    suffix = str(path).lower().rsplit(".", 1)[-1] if "." in str(path) else ""
    if f".{suffix}" not in FORMATS:
        raise ConfigError(f"-o must name a .png, .svg or .pdf file, got {str(path)!r}")
    return suffix
