"""Two runs compared, one head, written as a figure (``figure --compare``): the scene of
explorer/handouts/compare_figure.py in the figure words of the interface language, through the same writer
as a stage's figure (figure_export.py): PNG at any DPI, SVG or PDF with real text."""

from __future__ import annotations

from pathlib import Path

from explorer.handouts.compare_figure import compare_scene
from explorer.handouts.sizes import FigureSize, output_kind
from explorer.ui.printing.figure_export import write_scene


def write_compare_figure(
    comparison, layer: int, head: int, path: str | Path, size: FigureSize, theme: str = "light"
) -> tuple[Path, str]:
    from explorer.ui.words.figure_words import figure_words

    output_kind(path)
    return write_scene(compare_scene(comparison, layer, head, size.frame, figure_words(), theme), path, size)
