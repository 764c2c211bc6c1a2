"""Small pyqtgraph pieces shared by the identities and scaling panels: a matrix image with token labels on
its rows, and curve pens that read on light and dark backgrounds."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg

from explorer.analysis.token_text import visible
from explorer.present import palettes
from explorer.present.number_format import map_format

# Two hues that stay distinct on white and on the dark theme's grey, and for red–green colour blindness.
UNSCALED_COLOUR = (230, 97, 1)  # orange
SCALED_COLOUR = (64, 120, 220)  # blue
MAX_LABELS = 40  # beyond this many rows, label every k-th token so the text stays readable
TEXT_CELLS = 64  # matrices with at most this many cells (the note's toy sizes) print their numbers


def set_axis_title(plot: pg.PlotItem, side: str, text: str) -> None:
    """An axis title that never runs past its axis: elided to the axis' length (again on every resize),
    with the whole title as the axis' tooltip."""
    axis = plot.getAxis(side)
    axis.full_title = text
    if not getattr(axis, "title_fitted", False):
        axis.title_fitted = True
        plot.getViewBox().sigResized.connect(lambda *_: _fit_title(axis))
    _fit_title(axis)


def _fit_title(axis: pg.AxisItem) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFontMetrics

    full = getattr(axis, "full_title", "")
    length = axis.height() if axis.orientation in ("left", "right") else axis.width()
    if length <= 0:
        axis.setLabel(full)
        return
    text, fm = full, QFontMetrics(axis.label.font())
    for shrink in range(6, 60, 6):  # the label is HTML: measure what it draws, shorten until it fits
        axis.setLabel(text)
        if axis.label.boundingRect().width() <= length:
            break
        text = fm.elidedText(full, Qt.TextElideMode.ElideRight, max(10, int(length) - shrink))
    axis.setToolTip(full if text != full else "")


def pen(colour, width: float = 2.0, dashed: bool = False):
    from PySide6.QtCore import Qt

    return pg.mkPen(colour, width=width, style=Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)


def index_ticks(n: int, most: int = 16) -> list[list[tuple[float, str]]]:
    """Column numbers 0 … n−1 at the centre of each column, every k-th one when there are many."""
    step = max(1, math.ceil(n / most))
    return [[(j + 0.5, str(j)) for j in range(0, n, step)]]


def token_ticks(tokens) -> list[list[tuple[float, str]]]:
    """Ticks at the centre of each row (i + 0.5), every k-th one when there are many."""
    step = max(1, math.ceil(len(tokens) / MAX_LABELS))
    return [[(i + 0.5, visible(t)) for i, t in enumerate(tokens) if i % step == 0]]


class MatrixPlot:
    """A (rows, cols) matrix as one row-major float32 ImageItem with explicit levels; row 0 at the top."""

    def __init__(self, plot: pg.PlotItem) -> None:
        self.plot = plot
        self.image = pg.ImageItem(axisOrder="row-major")
        plot.addItem(self.image)
        self.texts: list[pg.TextItem] = []
        plot.invertY(True)
        plot.setMouseEnabled(x=False, y=False)
        plot.hideButtons()
        plot.setMenuEnabled(False)

    def set_matrix(self, data: np.ndarray, levels: tuple[float, float], row_labels) -> None:
        img = np.ascontiguousarray(data, dtype=np.float32)
        self.image.setImage(img, autoLevels=False, levels=levels)
        self.image.setRect(0, 0, img.shape[1], img.shape[0])
        self.plot.getAxis("left").setTicks(token_ticks(row_labels))
        self.plot.getAxis("bottom").setTicks(index_ticks(img.shape[1]))
        self.plot.setRange(xRange=(0, img.shape[1]), yRange=(0, img.shape[0]), padding=0)
        self._set_texts(img, levels)

    def _set_texts(self, img: np.ndarray, levels: tuple[float, float]) -> None:
        for t in self.texts:
            self.plot.removeItem(t)
        self.texts = []
        if img.size > TEXT_CELLS:
            return
        lo, hi = levels
        number = map_format(img)  # one format for the whole matrix (issue 22)
        # White text on the dark colours of the palette's diverging map, black on its light ones.
        dark = palettes.is_dark(palettes.colours((img - lo) / ((hi - lo) or 1.0), signed=True))
        for (i, j), v in np.ndenumerate(img):
            colour = (255, 255, 255) if dark[i, j] else (0, 0, 0)
            t = pg.TextItem(number(v), color=colour, anchor=(0.5, 0.5))
            t.setPos(j + 0.5, i + 0.5)
            self.plot.addItem(t)
            self.texts.append(t)

    def cell_texts(self) -> list[str]:
        return [t.toPlainText() for t in self.texts]

    def data(self) -> np.ndarray | None:
        return self.image.image
