"""The Model view's grid as a figure: PNG with maps of a chosen size (rendered, not a screen grab, so a
small panel still gives a hand-out at print size), or SVG (labels and frames as vectors, each map an
embedded image). Written beside the target and renamed (explorer.util.fileio)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QRect, QSize
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QFileDialog

from explorer.errors import ExplorerError
from explorer.ui.preferences import settings
from explorer.util.fileio import atomic_path


def ask_path(parent) -> str:
    path, _ = QFileDialog.getSaveFileName(
        parent,
        QCoreApplication.translate("ModelView", "Save the model view"),
        str(Path(settings.get("last_dir", str(Path.home()))) / "model-view.png"),
        QCoreApplication.translate("FileOps", "PNG image (*.png);;SVG drawing (*.svg)"),
    )
    if path:
        settings.put("last_dir", str(Path(path).parent))
    return path


def save_grid(mosaic, path: str | Path, tile_px: int = 40) -> Path:
    """Write ``mosaic`` (a HeadMosaic) to ``path``: .svg as a drawing, anything else as .png."""
    path = Path(path)
    image = mosaic.figure(tile_px)
    if path.suffix.lower() == ".svg":
        from PySide6.QtSvg import QSvgGenerator

        with atomic_path(path) as tmp:
            gen = QSvgGenerator()
            gen.setFileName(str(tmp))
            gen.setSize(QSize(image.width(), image.height()))
            gen.setViewBox(QRect(0, 0, image.width(), image.height()))
            gen.setTitle("Attention Explorer: model view")
            gen.setResolution(mosaic.logicalDpiY())  # text measured for the widget keeps its size
            painter = QPainter(gen)
            mosaic.paint_figure(painter, image.width(), image.height())
            painter.end()
        return path
    if path.suffix.lower() != ".png":
        path = path.with_suffix(".png")
    with atomic_path(path) as tmp:
        if not image.save(str(tmp), "PNG"):
            raise ExplorerError(QCoreApplication.translate("FileOps", "cannot write {path}").format(path=path))
    return path
