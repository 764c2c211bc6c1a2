"""All heads of a layer as small maps side by side, one shared colour scale; click one to select it.

One GraphicsLayoutWidget holds every thumbnail (a ViewBox each), so a layer of many heads is one widget,
not many. The selected head gets a frame; the selected query row and key column are outlined in every map.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, Qt, Signal

from explorer.present import matrices
from explorer.ui.views.map.heatmap import MapLayers
from explorer.ui.views.map.settle import settle

# Thumbnails print numbers only for the tiniest maps (the note's toy sizes), and only when they fit.
GRID_TEXT_LIMIT = 4
# Larger maps are drawn in the grid shrunk to this many cells a side (each block shows its largest value).
THUMB_CELLS = matrices.THUMB_CELLS


class HeadGrid(pg.GraphicsLayoutWidget):
    headClicked = Signal(int)
    contextRequested = Signal(int, int, int, QPoint)  # head, query i, key j (−1 off the cells), global position
    cellHovered = Signal(int, int, int)  # head, query i, key j; (−1, −1, −1) when the mouse leaves

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.maps: list[MapLayers] = []
        self.titles: list[pg.LabelItem] = []
        self.selected = -1
        self._hovered: tuple[int, int, int] | None = None
        self.ci.setSpacing(4)
        self.scene().sigMouseMoved.connect(self._moved)
        self.scene().sigMouseClicked.connect(self._clicked)
        self.setToolTip("")
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)  # the tensor view builds the menu
        self.customContextMenuRequested.connect(self._context)

    def palette_changed(self) -> None:
        """View → Colours chose another palette: every thumbnail in the new colours."""
        for layers in self.maps:
            layers.recolour()

    def _build(self, heads: int) -> None:
        """(Re)create one ViewBox per head, in a near-square grid."""
        self.clear()
        self.maps, self.titles = [], []
        cols = max(1, math.ceil(math.sqrt(heads)))
        for h in range(heads):
            r, c = divmod(h, cols)
            title = self.addLabel("", row=2 * r, col=c, size="8pt")
            vb = self.addViewBox(
                row=2 * r + 1, col=c, lockAspect=True, enableMouse=False, invertY=True, enableMenu=False
            )
            vb.setDefaultPadding(0.06)
            self.maps.append(MapLayers(vb, GRID_TEXT_LIMIT))
            self.titles.append(title)
        self.selected = -1

    def set_maps(
        self,
        maps: list[np.ndarray],
        levels: tuple[float, float],
        signed: bool,
        titles: list[str],
        blocked: np.ndarray | None = None,
        thumbs: tuple[list[np.ndarray], np.ndarray | None] | None = None,
    ) -> None:
        """``thumbs``: the maps and blocked cells already shrunk (``matrices.head_thumbnail``), when known."""
        if len(maps) != len(self.maps):
            self._build(len(maps))
        for h, (layers, m, title, label) in enumerate(zip(self.maps, maps, titles, self.titles)):
            if max(m.shape) > THUMB_CELLS:  # a few hundred pixels on screen: do not colour a million cells
                if thumbs is not None:
                    shown, shown_blocked = thumbs[0][h], thumbs[1] if blocked is not None else None
                else:
                    shown = matrices.pooled(m, THUMB_CELLS)
                    shown_blocked = None if blocked is None else matrices.pooled_mask(blocked, THUMB_CELLS)
                layers.set_data(shown, levels, signed, shown_blocked, extent=m.shape)
            else:
                layers.set_data(m, levels, signed, blocked)
            if label.text != title:  # the same titles on every edit: set again, each laid the grid out again
                label.setText(title)
            rows, cols = m.shape
            layers.vb.setRange(xRange=(0, cols), yRange=(0, rows), padding=0.06)  # room for the frame
        self._frame()
        settle(self)

    def set_selected(self, head: int) -> None:
        self.selected = head
        self._frame()

    def _frame(self) -> None:
        for h, layers in enumerate(self.maps):
            layers.set_selected(h == self.selected)

    def set_highlight(self, row: int | None, col: int | None) -> None:
        for layers in self.maps:
            layers.set_highlight(row, col)

    # ------------------------------------------------------------------ mouse
    def _hit(self, pos: QPointF) -> tuple[int, int, int] | None:
        for h, layers in enumerate(self.maps):
            if layers.vb.sceneBoundingRect().contains(pos):
                cell = layers.cell_at(pos)
                return (h, *cell) if cell is not None else (h, -1, -1)
        return None

    def _moved(self, pos: QPointF) -> None:
        hit = self._hit(pos)
        if hit is not None and hit[1] < 0:
            hit = None
        if hit != self._hovered:
            self._hovered = hit
            self.cellHovered.emit(*(hit if hit is not None else (-1, -1, -1)))

    def _clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        hit = self._hit(event.scenePos())
        if hit is not None:
            self.headClicked.emit(hit[0])

    def _context(self, pos: QPoint) -> None:
        hit = self._hit(self.mapToScene(pos))
        if hit is not None:
            self.contextRequested.emit(*hit, self.mapToGlobal(pos))

    def leaveEvent(self, event) -> None:
        if self._hovered is not None:
            self._hovered = None
            self.cellHovered.emit(-1, -1, -1)
        super().leaveEvent(event)
