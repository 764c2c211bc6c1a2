"""A figure of one stage written to a file: PNG at any DPI, SVG (explorer/handouts/svg.py) or PDF, for the
``figure`` command and the window's Export view / Export all stages. Every write goes through the one safe
writer (explorer/util/fileio.py)."""

from __future__ import annotations

from pathlib import Path

from explorer.handouts.sizes import FigureSize, check_pixels, output_kind
from explorer.handouts.stage_figure import stage_scene
from explorer.handouts.svg import write_svg
from explorer.handouts.words import FigureWords
from explorer.session.request import Selection


def write_figure(
    trace,
    sel: Selection,
    path: str | Path,
    size: FigureSize,
    words: FigureWords | None = None,
    theme: str = "light",
    tensor: str | None = None,
) -> tuple[Path, str]:
    """Write the figure; returns the path and a few words on its size (for `wrote …`)."""
    from explorer.ui.words.figure_words import figure_words

    output_kind(path)
    return write_scene(stage_scene(trace, sel, size.frame, words or figure_words(), theme, tensor), path, size)


def write_scene(scene, path: str | Path, size: FigureSize) -> tuple[Path, str]:
    """Write any figure's scene in the format the path's ending names (a stage, two runs compared)."""
    from explorer.ui.printing.figure_paint import write_pdf, write_png

    kind = output_kind(path)
    path = Path(path)
    if kind == "png":
        w, h = size.png_pixels(scene.width, scene.height)
        check_pixels(w, h)
        write_png(scene, path, size.dpi, (w, h) if size.pixels is not None else None)
        return path, f"{w}×{h} px at {size.dpi:g} dpi"
    if kind == "svg":
        write_svg(scene, path)
    else:
        write_pdf(scene, path)
    return path, f"{scene.width * 25.4 / 96:.0f}×{scene.height * 25.4 / 96:.0f} mm"
