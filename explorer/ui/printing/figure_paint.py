"""Paints a figure (explorer/handouts/scene.py) with QPainter: into a QImage for PNG at any DPI, into a
QPdfWriter for PDF (vector shapes, text as text with the font embedded), or onto any paint device (a
lesson page). The SVG of the same scene is written by the core in pure Python; both draw the same
primitives, so the three formats agree.

Nothing here builds a widget: figures are drawn without a window.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QImage, QPainter, QPen

from explorer.handouts.png import crisp_factor, upscaled
from explorer.handouts.scene import (
    FALLBACK_FAMILIES,
    FONT_FAMILY,
    MONO_FAMILY,
    PX_PER_INCH,
    Image,
    Line,
    Rect,
    Scene,
    Text,
)


class _Fonts:
    """QFonts by (pixel size, bold, fixed width), made once per size. Sizes are device pixels (whole numbers for Qt)."""

    def __init__(self) -> None:
        self._fonts: dict[tuple[int, bool, bool], tuple[QFont, QFontMetricsF]] = {}

    def get(self, size: float, bold: bool, mono: bool = False) -> tuple[QFont, QFontMetricsF]:
        key = (max(1, round(size)), bold, mono)
        if key not in self._fonts:
            font = QFont()
            font.setFamilies([MONO_FAMILY if mono else FONT_FAMILY, *FALLBACK_FAMILIES])
            font.setPixelSize(key[0])
            font.setBold(bold)
            font.setHintingPreference(QFont.HintingPreference.PreferNoHinting)  # the same shapes at every size
            for tag in ("liga", "clig"):  # "ff" stays two letters: a PDF's text is found by the words it says
                font.setFeature(QFont.Tag(tag), 0)
            self._fonts[key] = (font, QFontMetricsF(font))
        return self._fonts[key]


def paint_items(
    painter: QPainter,
    items,
    scale: float = 1.0,
    dx: float = 0.0,
    dy: float = 0.0,
    fonts: _Fonts | None = None,
    crisp_images: bool = False,
) -> None:
    """Draw ``items`` with the painter, each coordinate c becoming (c + offset) · scale device pixels.
    ``crisp_images``: enlarge pictures before drawing (PDF: a viewer scales them, maybe smoothly)."""
    fonts = fonts or _Fonts()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)  # cells stay sharp squares
    s = scale
    for it in items:
        if isinstance(it, Rect):
            r = QRectF((it.x + dx) * s, (it.y + dy) * s, it.w * s, it.h * s)
            if it.fill:
                painter.fillRect(r, QColor(it.fill))
            if it.stroke:
                painter.setPen(QPen(QColor(it.stroke), it.width * s))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(r)
        elif isinstance(it, Line):
            pen = QPen(QColor(it.colour), it.width * s)
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            painter.setPen(pen)
            painter.drawLine(QLineF((it.x1 + dx) * s, (it.y1 + dy) * s, (it.x2 + dx) * s, (it.y2 + dy) * s))
        elif isinstance(it, Text):
            _text(painter, it, s, dx, dy, fonts)
        elif isinstance(it, Image):
            _image(painter, it, s, dx, dy, crisp_images)


def _text(painter: QPainter, it: Text, s: float, dx: float, dy: float, fonts: _Fonts) -> None:
    font, metrics = fonts.get(it.size * s, it.bold, it.mono)
    painter.setFont(font)
    painter.setPen(QColor(it.colour))
    width = metrics.horizontalAdvance(it.text)
    shift = {"start": 0.0, "middle": -width / 2, "end": -width}[it.anchor]
    x, y = (it.x + dx) * s, (it.y + dy) * s
    if it.rotate:
        painter.save()
        painter.translate(x, y)
        painter.rotate(it.rotate)
        painter.drawText(QPointF(shift, 0.0), it.text)
        painter.restore()
    else:
        painter.drawText(QPointF(x + shift, y), it.text)


def _image(painter: QPainter, it: Image, s: float, dx: float, dy: float, crisp: bool) -> None:
    pixels = it.pixels
    if crisp:
        rows, cols, _ = pixels.shape
        pixels = upscaled(pixels, crisp_factor(max(rows, cols), max(it.w, it.h) * s / 4))
    data = np.ascontiguousarray(pixels, dtype=np.uint8)
    h, w, _ = data.shape
    image = QImage(data.data, w, h, w * 3, QImage.Format.Format_RGB888).copy()  # own its bytes
    painter.drawImage(QRectF((it.x + dx) * s, (it.y + dy) * s, it.w * s, it.h * s), image)


def render_image(scene: Scene, dpi: float = PX_PER_INCH, size: tuple[int, int] | None = None) -> QImage:
    """The scene as a picture at ``dpi`` (or exactly ``size`` pixels), with the DPI recorded in it."""
    scale = dpi / PX_PER_INCH
    w, h = size if size is not None else (max(1, round(scene.width * scale)), max(1, round(scene.height * scale)))
    image = QImage(w, h, QImage.Format.Format_RGB32)
    image.fill(QColor(scene.background))
    per_metre = round(dpi / 0.0254)
    image.setDotsPerMeterX(per_metre)
    image.setDotsPerMeterY(per_metre)
    painter = QPainter(image)
    try:
        paint_items(painter, scene.items, scale)
    finally:
        painter.end()
    return image


def write_png(
    scene: Scene, path: str | Path, dpi: float = PX_PER_INCH, size: tuple[int, int] | None = None, error=None
) -> Path:
    from explorer.ui.printing.pdf_file import save_image

    return save_image(render_image(scene, dpi, size), path, error)


def write_pdf(scene: Scene, path: str | Path, error=None) -> Path:
    """One page the size of the figure: shapes as vectors, text as text (fonts embedded)."""
    from explorer.ui.printing.pdf_file import pdf_pages

    with pdf_pages(path, QSizeF(scene.width, scene.height), title=scene.title, error=error) as pages:
        painter, scale = pages.painter, pages.scale
        painter.fillRect(QRectF(0, 0, scene.width * scale, scene.height * scale), QBrush(QColor(scene.background)))
        paint_items(painter, scene.items, scale, crisp_images=True)
    return Path(path)
