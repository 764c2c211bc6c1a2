"""A long text's map in the central view (issue 43): the overview drawn by the heatmap, and over it, once the
view is zoomed in far enough, the exact cells of what is on screen (explorer/present/long_map.py computes
both; this only draws them). Panning or zooming repaints the viewport in the next turn of the event loop, so a
drag's many range changes cost one tile."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QObject, QRectF, QTimer

from explorer.present import long_map
from explorer.present.matrices import for_display
from explorer.ui.views.map.map_layers import OVERLAY_LUT, colour_map


class LongMapPainter(QObject):
    """Draws the exact cells of a long map's viewport over the heatmap's overview."""

    def __init__(self, heatmap) -> None:
        super().__init__(heatmap)
        self.map = heatmap
        self.vb = heatmap.plot.getViewBox()
        self.exact = pg.ImageItem(axisOrder="row-major")  # above the overview, under the highlight and frames
        self.exact.setZValue(0.5)
        self.blocked = pg.ImageItem(axisOrder="row-major")  # the blocked cells of the exact tile, in the mask's grey
        self.blocked.setZValue(0.6)
        for item in (self.exact, self.blocked):
            item.hide()
            self.vb.addItem(item)
        self.tiles = long_map.TileCache()
        self.shown: tuple | None = None  # (trace, stage, layer, row, head, overview) while a long map is shown
        self.tile: long_map.ExactTile | None = None  # the exact cells drawn now (None: the overview alone)
        self._signed: bool | None = None
        self._pending = QTimer(self)
        self._pending.setSingleShot(True)
        self._pending.setInterval(0)
        self._pending.timeout.connect(self.paint_viewport)
        self.vb.sigRangeChanged.connect(self._range_changed)

    def show(self, trace, stage: str, layer: int, row: int, head: int, ov: long_map.Overview) -> None:
        """A long map is shown (the heatmap has just drawn its overview): exact cells where the view is zoomed in."""
        self.shown = (trace, stage, layer, row, head, ov)
        if ov.signed != self._signed:
            self._signed = ov.signed
            self.exact.setColorMap(colour_map(ov.signed))
        self.tile = None
        self.paint_viewport()

    def clear(self) -> None:
        """Another map is shown: nothing of the long one stays."""
        self.shown = self.tile = None
        self._pending.stop()
        self.exact.hide()
        self.blocked.hide()

    def palette_changed(self) -> None:
        if self._signed is not None:
            self.exact.setColorMap(colour_map(self._signed))

    def _range_changed(self, *_args) -> None:
        if self.shown is not None:
            self._pending.start()

    def visible(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The rows and columns on screen now."""
        x_range, y_range = self.vb.viewRange()
        return long_map.visible_cells(x_range, y_range, self.shown[5].tokens)

    def paint_viewport(self) -> None:
        """The exact cells of the rows and columns on screen, or the overview alone when too many are."""
        if self.shown is None:
            return
        trace, stage, layer, row, head, ov = self.shown
        rows, cols = self.visible()
        exact = long_map.exact_wanted(rows, cols)
        self._label_axes(trace, row, ov, exact)
        if not exact:
            self.tile = None
            self.exact.hide()
            self.blocked.hide()
            return
        tile = self.tiles.viewport(trace, stage, layer, row, head, rows, cols)
        if tile is self.tile:
            return
        self.tile = tile
        (r0, r1), (c0, c1) = tile.rows, tile.cols
        rect = QRectF(c0, r0, c1 - c0, r1 - r0)
        lo, hi, _clipped = ov.levels
        self.exact.setImage(for_display(tile.data, lo), levels=(lo, hi), autoLevels=False)
        self.exact.setRect(rect)
        self.exact.show()
        codes = tile.blocked if tile.blocked is not None else np.isneginf(tile.data)
        if codes.any():
            self.blocked.setImage(codes.view(np.uint8), autoLevels=False, levels=(0, 255), lut=OVERLAY_LUT)
            self.blocked.setRect(rect)
            self.blocked.show()
        else:
            self.blocked.hide()

    def _label_axes(self, trace, row: int, ov: long_map.Overview, exact: bool) -> None:
        """Positions while zoomed out; "position token" once the cells are each a token's own."""
        labels = long_map.token_axis_labels(trace, row) if exact else long_map.position_labels(ov.tokens)
        self.map.left.set_labels(labels)
        self.map.bottom.set_labels(labels)
