"""A number's anatomy written as a PDF of slides (``anatomy --pdf``): the pages of
explorer/handouts/anatomy_pages.py painted with text as text, through the one safe writer."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, QSizeF
from PySide6.QtGui import QColor

from explorer.errors import ConfigError
from explorer.handouts.scene import Scene


def write_pdf_pages(scenes: list[Scene], out: str | Path, title: str) -> int:
    """Every scene as one page of ``out``; returns the number of pages."""
    from explorer.ui.printing.figure_paint import paint_items
    from explorer.ui.printing.pdf_file import pdf_pages

    first = scenes[0]
    with pdf_pages(Path(out), QSizeF(first.width, first.height), title, ConfigError) as pdf:
        for n, scene in enumerate(scenes):
            if n:
                pdf.new_page()
            pdf.painter.fillRect(
                QRectF(0, 0, scene.width * pdf.scale, scene.height * pdf.scale), QColor(scene.background)
            )
            paint_items(pdf.painter, scene.items, pdf.scale, crisp_images=True)
    return len(scenes)
