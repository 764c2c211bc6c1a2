"""What draws one matrix inside a pyqtgraph ViewBox: the colour image, the −∞ overlay and its hatching, the
NaN / +∞ cells in a colour of their own (issue 44), the highlighted row and column, and (small matrices only)
the numbers in the cells.

Follows pyqtgraph's performance advice: one ImageItem of float32 C-contiguous data with explicit levels
(no auto-levels), row-major. A 1024×1024 map is one image and one overlay; text items exist only for
small matrices, so setting a big map costs a few milliseconds.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPixmap
from PySide6.QtWidgets import QApplication, QGraphicsPathItem, QGraphicsRectItem

from explorer.present import palettes
from explorer.present.figure import NUMBERS_UP_TO
from explorer.present.hatching import blocked_cells, blocked_runs, hatched
from explorer.present.matrices import for_display
from explorer.present.nonfinite import nonfinite_cells
from explorer.present.number_format import MapFormat, map_format
from explorer.ui.views.map.cell_numbers import CellNumbers

TEXT_LIMIT = NUMBERS_UP_TO  # numbers in the cells of maps up to this size (print's limit too)
MIN_FONT_PX = 9  # numbers smaller than this are not printed: 5–7 px digits cannot be read
MAX_FONT_PX = 15

# −∞ (a blocked cell) is not a value of the colour scale: it gets a neutral grey with dark hatching.
MASK_FILL = (200, 200, 204, 255)
MASK_HATCH = QColor(90, 90, 96)
# NaN and +∞ are no value of the scale either, and no choice of the mask: a magenta that no palette holds
# (viridis, blue–white–red, cividis, high contrast, greyscale), cross-hatched in dark where cells are hatched.
NAN_FILL = (194, 24, 139, 255)
NAN_HATCH = QColor(60, 0, 40)
NAN_RUNS_LIMIT = 4096  # NaN cells are cross-hatched at any size up to this many row runs (a rectangle each)
# Hatching is drawn by Qt at screen resolution (crisp at any zoom) for maps up to HATCH_LIMIT a side (the
# rule print shares, explorer/present/hatching.py); bigger maps get the plain grey image only, whose cost does
# not depend on the number of blocked cells.


def colour_map(signed: bool) -> pg.ColorMap:
    """The chosen palette's (View → Colours, explorer/present/palettes.py) diverging map for signed data
    (centred on 0 by symmetric levels: blue–white–red by default), its sequential map for ≥ 0 (viridis)."""
    return _colour_map(signed, palettes.current().key)


@lru_cache(maxsize=16)
def _colour_map(signed: bool, key: str) -> pg.ColorMap:
    table = np.rint(palettes.stops(signed, key) * 255).astype(np.uint8)
    return pg.ColorMap(
        np.linspace(0.0, 1.0, len(table)), table, name=f"{key}-{'diverging' if signed else 'sequential'}"
    )


def _overlay_lut() -> np.ndarray:
    lut = np.zeros((256, 4), dtype=np.uint8)  # 0: transparent (not blocked)
    lut[1] = MASK_FILL
    lut[2] = NAN_FILL
    return lut


OVERLAY_LUT = _overlay_lut()


def hatch_brush() -> QBrush:
    return QBrush(MASK_HATCH, Qt.BrushStyle.BDiagPattern)


def nan_brush() -> QBrush:
    return QBrush(NAN_HATCH, Qt.BrushStyle.DiagCrossPattern)


def blocked_path(blocked: np.ndarray) -> QPainterPath:
    """The blocked cells as a path of row runs (one rectangle per run, not per cell)."""
    return runs_path(blocked_runs(blocked))


def nan_path(nonfinite: np.ndarray) -> QPainterPath:
    """The NaN / +∞ cells' cross-hatching at any map size while their runs are few (a NaN row, a NaN head):
    no colour tells the NaN magenta from viridis for every reader (protanopia: ΔE2000 0.1), the hatching does."""
    runs = blocked_runs(nonfinite)
    return runs_path(runs) if len(runs) <= NAN_RUNS_LIMIT else QPainterPath()


def runs_path(runs: list[tuple[int, int, int]]) -> QPainterPath:
    path = QPainterPath()
    for i, start, stop in runs:
        path.addRect(QRectF(float(start), float(i), float(stop - start), 1.0))
    return path


def mask_swatch(size: int = 14) -> QPixmap:
    """The legend's sample of the −∞ cells."""
    pix = QPixmap(size, size)
    pix.fill(QColor(*MASK_FILL))
    p = QPainter(pix)
    p.fillRect(0, 0, size, size, hatch_brush())
    p.setPen(MASK_HATCH)
    p.drawRect(0, 0, size - 1, size - 1)
    p.end()
    return pix


def nan_swatch(size: int = 14) -> QPixmap:
    """The legend's sample of the NaN / +∞ cells."""
    pix = QPixmap(size, size)
    pix.fill(QColor(*NAN_FILL))
    p = QPainter(pix)
    p.fillRect(0, 0, size, size, nan_brush())
    p.setPen(NAN_HATCH)
    p.drawRect(0, 0, size - 1, size - 1)
    p.end()
    return pix


def highlight_colour() -> QColor:
    return QApplication.palette().highlight().color()


class MapLayers:
    """Everything that draws one matrix inside a ViewBox: the colour image, the −∞ overlay, the
    highlighted row and column, and (small matrices only) the numbers in the cells."""

    def __init__(self, vb: pg.ViewBox, text_limit: int = TEXT_LIMIT) -> None:
        self.vb = vb
        self.text_limit = text_limit
        self.min_px, self.max_px = MIN_FONT_PX, MAX_FONT_PX  # presentation mode raises both
        self.image = pg.ImageItem(axisOrder="row-major")
        self.overlay = pg.ImageItem(axisOrder="row-major")
        self.overlay.setZValue(1)
        vb.addItem(self.image)
        vb.addItem(self.overlay)
        self.overlay.hide()
        self._overlay_of: np.ndarray | None = None  # the overlay image's codes: 1 blocked, 2 NaN or +∞
        self.hatch = QGraphicsPathItem()
        self.hatch.setPen(pg.mkPen(None))
        self.hatch.setBrush(hatch_brush())
        self.hatch.setZValue(1.5)
        vb.addItem(self.hatch)
        self.nan_hatch = QGraphicsPathItem()
        self.nan_hatch.setPen(pg.mkPen(None))
        self.nan_hatch.setBrush(nan_brush())
        self.nan_hatch.setZValue(1.5)
        vb.addItem(self.nan_hatch)
        self._row = self._frame()
        self._col = self._frame()
        self._selected_frame = QGraphicsRectItem()
        self._selected_frame.setPen(pg.mkPen(highlight_colour(), width=3))
        self._selected_frame.setZValue(5)
        self._selected_frame.hide()
        vb.addItem(self._selected_frame)
        self.numbers = CellNumbers()  # every cell's number, one item (small matrices only)
        vb.addItem(self.numbers)
        self._numbers_of: tuple | None = None  # (data, levels, signed, blocked) whose numbers may be printed
        self._numbers_made: tuple | None = None  # (texts, dark, longest) of _numbers_of, made when first readable
        self._format_of: np.ndarray | None = None  # the data whose format is asked for when first needed
        self._format: MapFormat | None = None
        self._font_px: int | None = None
        self._hatch_key = None
        self._signed: bool | None = None  # the colour map the image has: diverging (signed) or sequential
        self.shape = (0, 0)
        self.has_blocked = False
        self.nonfinite: np.ndarray | None = None  # the cells drawn in the NaN colour (None: every one finite)
        self.hatched: np.ndarray | None = None  # the cells the hatching covers (the shared rule's choice)
        self.highlight: tuple[int | None, int | None] = (None, None)
        vb.sigResized.connect(self.fit_text)
        vb.sigRangeChanged.connect(self.fit_text)

    def _frame(self) -> list[QGraphicsRectItem]:
        """A dark outline with a white core: visible on every colour of both colour maps, in both themes."""
        items = []
        for pen, z in ((pg.mkPen(QColor(0, 0, 0), width=6), 3), (pg.mkPen(QColor(255, 255, 255), width=3), 4)):
            item = QGraphicsRectItem()
            item.setPen(pen)
            item.setBrush(Qt.BrushStyle.NoBrush)
            item.setZValue(z)
            item.hide()
            self.vb.addItem(item)
            items.append(item)
        return items

    def set_selected(self, selected: bool) -> None:
        """Frame the whole map in the palette's highlight colour (the selected head of a grid)."""
        rows, cols = self.shape
        pad = 0.04 * max(rows, cols, 1)
        self._selected_frame.setRect(QRectF(-pad, -pad, cols + 2 * pad, rows + 2 * pad))
        self._selected_frame.setVisible(selected)

    # ------------------------------------------------------------------ data
    def set_data(
        self,
        data: np.ndarray,
        levels: tuple[float, float],
        signed: bool,
        blocked: np.ndarray | None = None,
        extent: tuple[int, int] | None = None,
        masked: bool = True,
    ) -> None:
        """Draw ``data``; −∞ cells, and the cells ``blocked`` marks (e.g. the weights the mask set to 0),
        go under the grey overlay instead of the colour scale. ``extent``: the (rows, cols) of the matrix
        when ``data`` is a shrunk copy of it (a thumbnail): cells and hover keep the matrix's own indices.
        ``masked``: False for a map no mask reaches, whose −∞ is a fault drawn with NaN and +∞."""
        rows, cols = extent if extent is not None else data.shape
        self.shape = (rows, cols)
        shown = for_display(data, levels[0])  # −∞ cells: a finite fill, hidden under the opaque overlay
        self.nonfinite = nonfinite_cells(data, minus_infinity=not masked)
        if self.nonfinite is not None:  # NaN and +∞ too: pyqtgraph's NaN path costs ~15×, the overlay hides them
            shown = np.where(self.nonfinite, np.float32(levels[0]), shown).astype(np.float32)
        if signed != self._signed:  # setColorMap rebuilds the lookup table: only when the scale's kind changes
            self._signed = signed
            self.image.setColorMap(colour_map(signed))
        self.image.setImage(shown, levels=levels, autoLevels=False)
        self.image.setRect(QRectF(0, 0, cols, rows))
        blocked = blocked_cells(data, blocked)
        if self.nonfinite is not None:
            blocked = blocked & ~self.nonfinite  # a NaN where the mask blocks is still said as NaN
        self.has_blocked = bool(blocked.any())
        self._set_overlay(blocked, rows, cols)
        self.hatched = hatched(blocked) if extent is None else None  # a thumbnail's cells are too small
        key = (blocked.shape, blocked.tobytes()) if self.hatched is not None else None
        if key != self._hatch_key:  # the mask rarely changes between traces: keep its path
            self._hatch_key = key
            self.hatch.setPath(blocked_path(self.hatched) if self.hatched is not None else QPainterPath())
        bad = self.nonfinite if extent is None else None  # a thumbnail's cells are too small
        self.nan_hatch.setPath(nan_path(bad) if bad is not None else QPainterPath())
        self._set_text(data, levels, signed, blocked)
        self._place_highlight()

    def _set_overlay(self, blocked: np.ndarray, rows: int, cols: int) -> None:
        """The opaque image over the colours: code 1 (the mask's grey) on blocked cells, 2 (the NaN colour)
        on NaN and +∞ cells, 0 (transparent) elsewhere."""
        if not self.has_blocked and self.nonfinite is None:
            self._overlay_of = None
            self.overlay.hide()
            self.overlay.clear()
            return
        codes = blocked.view(np.uint8)
        if self.nonfinite is not None:
            codes = codes + 2 * self.nonfinite.view(np.uint8)
        # The mask is the same from one map to the next (heads, layers, edits of one word): keep its image.
        if self._overlay_of is None or not np.array_equal(self._overlay_of, codes):
            self._overlay_of = codes
            self.overlay.setImage(codes, autoLevels=False, levels=(0, 255), lut=OVERLAY_LUT)
        self.overlay.setRect(QRectF(0, 0, cols, rows))
        self.overlay.show()

    def recolour(self) -> None:
        """The palette changed (View → Colours): the same data in the new colours, and each cell number
        dark or light again for its new background."""
        if self._signed is not None:
            self.image.setColorMap(colour_map(self._signed))
        self._numbers_made = None
        self._font_px = None
        self.fit_text()

    def _set_text(self, data: np.ndarray, levels: tuple[float, float], signed: bool, blocked: np.ndarray) -> None:
        rows, cols = data.shape
        small = rows <= self.text_limit and cols <= self.text_limit
        self._format_of, self._format = data, None  # found when cells are printed or a cell is hovered
        self._numbers_of = (data, levels, signed, blocked) if small else None
        self._numbers_made = None  # made when the cells are readable (not for the head grid's thumbnails)
        self._font_px = None
        self.fit_text()

    @property
    def number_format(self) -> MapFormat:
        """How this map prints its numbers (cells, hover): one format per map (explorer.present.number_format),
        found once per matrix when first needed: a map too dense for numbers never pays for it."""
        if self._format is None:
            self._format = map_format(self._format_of) if self._format_of is not None else MapFormat()
        return self._format

    def _make_numbers(self) -> tuple[list[str], list[bool], int]:
        """The cells' strings, whether each takes dark text (on a bright colour, or grey hatching), the longest."""
        if self._numbers_made is None:
            data, (lo, hi), signed, blocked = self._numbers_of
            texts = [self.number_format(v) for v in data.ravel()]
            norm = np.clip((np.where(np.isfinite(data), data, lo) - lo) / ((hi - lo) or 1.0), 0, 1).astype(np.float64)
            rgba = colour_map(signed).map(norm.ravel(), mode=pg.ColorMap.FLOAT)
            lum = 0.299 * rgba[:, 0] + 0.587 * rgba[:, 1] + 0.114 * rgba[:, 2]
            dark = (lum > 0.55) | blocked.ravel()
            if self.nonfinite is not None:  # light text on the dark NaN colour
                dark &= ~self.nonfinite.ravel()
            dark = dark.tolist()
            self._numbers_made = (texts, dark, max(map(len, texts), default=1) or 1)
        return self._numbers_made

    def set_font_range(self, low: int, high: int) -> None:
        """The smallest and largest cell numbers (pixels); numbers that would be smaller are not printed."""
        if (low, high) != (self.min_px, self.max_px):
            self.min_px, self.max_px = low, max(low, high)
            self._font_px = None
            self.fit_text()

    def cell_font_px(self) -> int | None:
        """The pixel size of the numbers printed now (None when none are shown)."""
        return self._font_px or None

    def cell_texts(self) -> list[list[str]]:
        """The numbers printed in the cells, row by row (empty when none are printed)."""
        return self.numbers.texts()

    def _cell_px(self) -> tuple[float, float] | None:
        """A cell's width and height on screen, from the view's size and range (None before it is laid out).
        ViewBox.viewPixelSize maps through the scene: 0.3 ms, called on every range change of every map."""
        (x0, x1), (y0, y1) = self.vb.viewRange()
        w, h = self.vb.width(), self.vb.height()
        if w <= 1 or h <= 1 or x1 == x0 or y1 == y0:
            return None
        return w / abs(x1 - x0), h / abs(y1 - y0)

    def _readable_px(self, cell: tuple[float, float], longest: int) -> int:
        """The numbers' pixel size for cells of this size, 0 when they would be too small to read."""
        size = min(self.max_px, cell[1] * 0.45, cell[0] / (0.62 * longest + 0.4))
        return max(self.min_px, int(size)) if size >= self.min_px else 0

    def fit_text(self, *args) -> None:
        """Size the cell numbers to the cells on screen; none are printed when a cell is too small to read."""
        cell = self._cell_px() if self._numbers_of is not None else None
        if cell is None:
            if self._numbers_of is None:
                self.numbers.clear()
                self._font_px = None
            return
        data = self._numbers_of[0]
        if self._numbers_made is None:  # a cheap first look: the widest number tells whether any can be read
            if not self._readable_px(cell, self.number_format.longest(data)):
                self.numbers.clear()
                self._font_px = None
                return
        texts, dark, longest = self._make_numbers()
        px = self._readable_px(cell, longest)
        self._font_px = px or None
        if px:
            self.numbers.set_cells(*data.shape, texts, dark)
        else:
            self.numbers.clear()
        self.numbers.set_font_px(px)

    # ------------------------------------------------------------------ highlight
    def set_highlight(self, row: int | None, col: int | None) -> None:
        self.highlight = (row, col)
        self._place_highlight()

    def _place_highlight(self) -> None:
        rows, cols = self.shape
        row, col = self.highlight
        for item in self._row:
            item.setVisible(row is not None and 0 <= row < rows)
            if row is not None:
                item.setRect(QRectF(0, row, cols, 1))
        for item in self._col:
            item.setVisible(col is not None and 0 <= col < cols)
            if col is not None:
                item.setRect(QRectF(col, 0, 1, rows))

    def highlighted(self) -> tuple[int | None, int | None]:
        """The (row, column) outlined now, read back from the drawn items."""
        row = int(self._row[0].rect().y()) if self._row[0].isVisible() else None
        col = int(self._col[0].rect().x()) if self._col[0].isVisible() else None
        return row, col

    def cell_at(self, scene_pos: QPointF) -> tuple[int, int] | None:
        if not self.vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = self.vb.mapSceneToView(scene_pos)
        i, j = int(math.floor(p.y())), int(math.floor(p.x()))
        rows, cols = self.shape
        return (i, j) if 0 <= i < rows and 0 <= j < cols else None
