"""A heatmap for one matrix: token labels on both axes, a colour bar, −∞ cells drawn apart, numbers in the
cells when they fit, a highlighted row and column, and click / hover signals with the cell (i, j).

The parts live beside it: token_axis (the labelled axes), map_layers (image, overlay, highlight, numbers).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QVBoxLayout, QWidget

# The names views and tests import from here, wherever they are defined.
from explorer.present.figure import Panel, bar_tick_count, bar_ticks
from explorer.ui.views.map.map_access import MapAccess
from explorer.ui.views.map.map_layers import (  # noqa: F401
    MAX_FONT_PX,
    MIN_FONT_PX,
    TEXT_LIMIT,
    MapLayers,
    colour_map,
    highlight_colour,
    mask_swatch,
    nan_swatch,
)
from explorer.ui.views.map.settle import settle
from explorer.ui.views.map.square_hug import SquareHug
from explorer.ui.views.map.token_axis import LABEL_ALL, MIN_TICK_PX, TokenAxis, base_px  # noqa: F401


class Heatmap(QWidget):
    """One large map or matrix with its axes, colour bar and −∞ legend. Emits the cell under the mouse
    (``cellHovered``, (−1, −1) when it leaves) and the clicked cell (``cellClicked``)."""

    cellClicked = Signal(int, int)
    cellHovered = Signal(int, int)
    cellContextRequested = Signal(int, int, QPoint)  # query i, key j (−1, −1 off the cells), global position
    axesResized = Signal()  # an axis took other room for its labels: the cells' room changed (map_room.py)

    def __init__(
        self,
        parent: QWidget | None = None,
        colour_bar: bool = True,
        text_limit: int = TEXT_LIMIT,
        index_columns: bool = False,
        label_all: int = LABEL_ALL,
    ) -> None:
        super().__init__(parent)
        # The title is a wrapping label above the plot, not pyqtgraph's title item: that one asks for its
        # whole width and pushed the plot and its colour bar out of a narrow widget.
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.title.hide()
        self.title_wanted = True  # False while a short window needs the title's line for the map
        self._mask_reaches = True  # False for one show_panel of a map no mask reaches (its −∞ is a fault)
        self._extent, self.long_map = None, None  # show_overview's tokens a side (one call); its LongMapPainter
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setMinimumSize(120, 100)
        # label_all: up to this many rows (and token columns) every one is labelled; 0 thins them to what fits
        self.left, self.bottom = TokenAxis("left", label_all), TokenAxis("bottom", 0 if index_columns else label_all)
        # enableMenu=False: no ViewBox context menu is built (a quarter of building a heatmap; the owner has its own)
        self.plot = self.graphics.addPlot(axisItems={"left": self.left, "bottom": self.bottom}, enableMenu=False)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        vb = self.plot.getViewBox()
        vb.invertY(True)  # row 0 (the first token) at the top, as a matrix is written
        vb.setDefaultPadding(0.0)
        self.layers = MapLayers(vb, text_limit)
        self.hug = SquareHug(self.graphics, self.plot)  # a square map's axes against its cells, not the widget's edges
        self.left.on_reserved = self.bottom.on_reserved = self._axis_reserved
        self.bar = None
        self._bar_shows: tuple | None = None  # (signed, levels) the colour bar was last set to
        if colour_bar:
            self.bar = pg.ColorBarItem(
                values=(0, 1), colorMap=colour_map(False), interactive=False, width=14, colorMapMenu=False
            )
            self.bar.setImageItem(self.layers.image, insert_in=self.plot)
        self._build_legend()
        self.note = QLabel()  # a remark on the colour scale (e.g. clipped), under the map
        self.note.setWordWrap(True)
        self.note.setContentsMargins(6, 0, 6, 0)
        self.note.hide()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.title)
        lay.addWidget(self.graphics, 1)
        lay.addWidget(self.legend)
        lay.addWidget(self.nan_legend)
        lay.addWidget(self.note)
        self._text_px = base_px()
        self.smallest_px: int | None = None  # tick labels never smaller (set on a slide)
        self._axis_titles, self._titles_set = ("", ""), None
        self._hovered: tuple[int, int] | None = None
        self._token_axes = (True, True)  # rows, columns: the sentence's tokens (what the thinning note counts)
        self._wire_mouse()
        self.set_legend_text(self.tr("−∞ (masked)"))
        self.access = MapAccess(self)  # the keyboard's cell, what a screen reader says, the numbers for a table

    def _axis_reserved(self) -> None:
        self.hug.axis_reserved()
        self.axesResized.emit()

    def _wire_mouse(self) -> None:
        scene = self.graphics.scene()
        scene.sigMouseMoved.connect(self._moved)
        scene.sigMouseClicked.connect(self._clicked)
        self.graphics.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)  # the owner builds the menu
        self.graphics.customContextMenuRequested.connect(self._context)

    def _build_legend(self) -> None:
        """The −∞ legend under the map: a hatched swatch and its words (shown when the map has −∞ cells)."""
        self.legend = QWidget()
        self.swatch = QLabel()
        self.swatch.setPixmap(mask_swatch())
        self.legend_text = QLabel()
        self.legend_text.setWordWrap(True)
        leg = QHBoxLayout(self.legend)
        leg.setContentsMargins(6, 0, 6, 0)
        leg.addWidget(self.swatch)
        leg.addWidget(self.legend_text, 1)
        self.legend.hide()
        # NaN and +∞ cells: their own colour and line, never the mask's (issue 44)
        self.nan_legend = QWidget()
        self.nan_swatch = QLabel()
        self.nan_swatch.setPixmap(nan_swatch())
        self.nan_legend_text = QLabel(self.tr("not a number (NaN) / infinite"))
        self.nan_legend_text.setWordWrap(True)
        nan_row = QHBoxLayout(self.nan_legend)
        nan_row.setContentsMargins(6, 0, 6, 0)
        nan_row.addWidget(self.nan_swatch)
        nan_row.addWidget(self.nan_legend_text, 1)
        self.nan_legend.hide()

    # ------------------------------------------------------------------ text size
    def set_text_px(self, px: int, cell_px: tuple[int, int] | None = None, smallest: int | None = None) -> None:
        """Every text of the figure from ``px`` pixels up: tick labels, axis titles, title, colour-bar ticks,
        legend and note; cell numbers between ``cell_px`` (smallest, largest). Tick labels of a crowded axis
        shrink down to ``smallest`` (a slide passes ``px``: its labels keep their size). Presentation mode
        raises it."""
        self._text_px = px
        self.smallest_px = smallest
        font = QFont(QApplication.font())
        font.setPixelSize(px)
        for axis in (self.left, self.bottom):
            axis.set_text_px(px, smallest if smallest is not None else MIN_TICK_PX)
        if self.bar is not None:
            self.bar.axis.setTickFont(font)
            self._bar_ticks = None  # numbered again for the new size
        for label in (self.legend_text, self.nan_legend_text, self.note):
            label.setFont(font)
        title = QFont(font)
        title.setPixelSize(round(px * 1.15))
        title.setBold(True)
        self.title.setFont(title)
        self.swatch.setPixmap(mask_swatch(max(14, px)))
        self.nan_swatch.setPixmap(nan_swatch(max(14, px)))
        self.layers.set_font_range(*(cell_px or (MIN_FONT_PX, MAX_FONT_PX)))
        self._number_bar()
        self.set_axis_titles(*self._axis_titles, self.title.text())

    def text_px(self) -> int:
        return self._text_px

    def _number_bar(self) -> None:
        """The colour bar's numbers: both ends and round steps between, as many as its height has room for,
        in one format (explorer.present.number_format). pyqtgraph's own choice could leave a bar with only
        "0" on a slide (issue 22)."""
        if self.bar is None or self._bar_shows is None:
            return
        lo, hi = self._bar_shows[1]
        most = bar_tick_count(self.graphics.height(), self._text_px)
        key = (lo, hi, most)
        if key != getattr(self, "_bar_ticks", None):
            self._bar_ticks = key
            labels = list(bar_ticks((lo, hi), most))  # print numbers its bar by the same rule
            self.bar.axis.setTicks([labels, []])
            # room for the widest number: pyqtgraph drops a label that does not fit its axis (a slide's bar
            # once kept only "0")
            font = self.bar.axis.style["tickFont"] or self.bar.axis.font()
            widest = max(QFontMetrics(font).horizontalAdvance(t) for _v, t in labels)
            axis = self.bar.axis
            axis.setWidth(
                widest + 4 + axis.style["tickTextOffset"][0] + max(0, axis.style["tickLength"])
            )  # pyqtgraph fixes 45
            self.hug.axis_reserved()  # a wider bar: the square's margins in the same layout pass

    def bar_numbers(self) -> list[str]:
        """The numbers the colour bar shows (empty without a bar)."""
        if self.bar is None or self.bar.axis._tickLevels is None:
            return []
        return [label for _v, label in self.bar.axis._tickLevels[0]]

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._number_bar()

    def text_size_changed(self, old_px: int, new_px: int, scale: float) -> None:
        """View → Text size: a figure that follows the window's text (not presentation mode's) follows it."""
        if self._text_px == old_px:
            self.set_text_px(new_px, (round(MIN_FONT_PX * scale), round(MAX_FONT_PX * scale)))

    # ------------------------------------------------------------------ content
    @property
    def image(self) -> pg.ImageItem:
        return self.layers.image

    @property
    def overlay(self) -> pg.ImageItem:
        return self.layers.overlay

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:  # the NaN line's words, in the new language
            self.nan_legend_text.setText(self.tr("not a number (NaN) / infinite"))
        super().changeEvent(event)

    def set_legend_text(self, text: str) -> None:
        self.legend_text.setText(text)

    def set_token_axes(self, rows: bool, cols: bool) -> None:
        """Whether the rows and the columns of the matrices set next are the sentence's tokens (not dimensions,
        ids or layers): only token axes count for the note that not every token is labelled."""
        self._token_axes = (rows, cols)

    def set_note(self, text: str) -> None:
        self._view_note = text
        self._show_note()

    def _show_note(self) -> None:
        """The owner's remark and, past LABEL_ALL tokens, that not every token is labelled (issue 22: up to 32
        every token is; beyond, the labels are thinned to what fits, and the map says so). Only token axes
        count: a stage's 64 embedding dimensions once made a 5-token map say so (issue 38)."""
        rows_are_tokens, cols_are_tokens = self._token_axes
        counted = [len(self.left.labels)] if rows_are_tokens else []
        if cols_are_tokens and self.bottom.label_all:
            counted.append(len(self.bottom.labels))
        thinned = self.left.label_all and max(counted, default=0) > self.left.label_all
        parts = [getattr(self, "_view_note", "")]
        if thinned:
            parts.append(
                self.tr(
                    "more than {n} tokens: not every one is labelled on the axes (hover a cell for its tokens)"
                ).format(n=self.left.label_all)
            )
        text = " · ".join(p for p in parts if p)
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def set_axis_titles(self, left: str, bottom: str, title: str = "") -> None:
        if (left, bottom, title, self._text_px) == self._titles_set:  # set again, each lays the plot out again
            return
        self._axis_titles, self._titles_set = (left, bottom), (left, bottom, title, self._text_px)
        style = {"font-size": f"{self._text_px}px"}
        self.plot.setLabel("left", left, **style)
        self.plot.setLabel("bottom", bottom, **style)
        self.title.setText(title)
        self.title.setVisible(bool(title) and self.title_wanted)

    def show_title(self, shown: bool) -> None:
        """The title above the map, or not: a short window gives its line to the map (explorer/ui/shell/map_room.py;
        the axis titles and the grid's framed head still say what the map is)."""
        self.title_wanted = shown
        self.title.setVisible(bool(self.title.text()) and shown)

    def set_matrix(
        self,
        data: np.ndarray,
        row_labels,
        col_labels,
        signed: bool,
        levels: tuple[float, float] | None = None,
        square: bool = False,
        blocked: np.ndarray | None = None,
        note: str | None = None,
    ) -> None:
        """Show ``data`` (rows, cols); −∞ cells go to the hatched overlay (a panel no mask reaches, said by
        show_panel just before, draws them in the NaN colour instead). ``levels`` default to the data's own.
        ``note``: the owner's remark under the map, set with the matrix (as ``set_note``), so that the note's final
        words are laid out once: set apart, the map was laid out, set and painted twice."""
        if note is not None:
            self._view_note = note
        if levels is None:
            from explorer.present.matrices import levels as data_levels

            levels = data_levels(data, signed)
        extent, self._extent = self._extent, None  # show_overview's word, like show_panel's, for one call
        if extent is None and self.long_map is not None:
            self.long_map.clear()
        rows, cols = extent or data.shape
        masked, self._mask_reaches = self._mask_reaches, True  # show_panel's word holds for its own call only
        self.layers.set_data(data, levels, signed, blocked, extent, masked)
        if self.bar is not None and self._bar_shows != (signed, levels):  # an unchanged bar keeps its drawn axis
            self._bar_shows = (signed, levels)
            self.bar.setColorMap(colour_map(signed))
            self.bar.setLevels(levels)
            self._number_bar()
        self.left.set_labels(row_labels)
        self.bottom.set_labels(col_labels)
        self._show_note()
        self.access.set_matrix(data, row_labels, col_labels)
        vb = self.plot.getViewBox()
        vb.setAspectLocked(square, ratio=1)
        self.hug.set_square(square)
        if square:  # square cells: the free axis must be allowed to extend past the matrix
            vb.setLimits(xMin=None, xMax=None, yMin=None, yMax=None)
        else:
            vb.setLimits(xMin=0, xMax=cols, yMin=0, yMax=rows, minXRange=min(1, cols), minYRange=min(1, rows))
        vb.setRange(QRectF(0, 0, cols, rows), padding=0)
        self.legend.setVisible(self.layers.has_blocked)
        self.nan_legend.setVisible(self.layers.nonfinite is not None)
        settle(self.graphics)  # painted once (views/settle.py): laid out later, an edit painted it 2–3 times

    def show_panel(self, panel: Panel, words, prefix: str = "", remark: str = "") -> None:
        """Draw ``panel`` (explorer/present/figure.py), the description print draws too, its words said in
        ``words``' language; ``prefix``: before the title (the run shown), ``remark``: after the panel's note."""
        self.set_axis_titles(panel.y_title.said(words), panel.x_title.said(words), prefix + panel.title.said(words))
        self.title.setToolTip(panel.tip)
        legend = panel.legend.said(words)
        if legend:
            self.set_legend_text(legend)
        note = " · ".join(part for part in (panel.note.said(words), remark) if part)
        self.set_token_axes(True, panel.col_tokens)
        self._mask_reaches = panel.masked  # read by set_matrix below (its parameters are eight already)
        self.set_matrix(
            panel.data,
            panel.row_labels,
            panel.col_labels,
            panel.signed,
            panel.levels,
            square=panel.square,
            blocked=panel.blocked,
            note=note,
        )

    def show_overview(self, panel: Panel, shown: tuple, words, remark: str = "") -> None:
        """A long map (issue 43): ``panel``'s cells are the overview's blocks, drawn over the map's tokens (the
        axes, hover and highlight keep the tokens' positions); zoomed in, the exact cells of the viewport are
        painted over it. ``shown``: (trace, stage, layer, row, head, overview) (explorer/present/long_map.py)."""
        from explorer.present.long_map import block_labels
        from explorer.ui.views.map.long_map_painter import LongMapPainter

        self._extent = (shown[-1].tokens, shown[-1].tokens)
        self.show_panel(panel, words, "", remark)
        ov = shown[-1]
        blocks = block_labels(ov.tokens, ov.block)  # the keyboard's cell is a block here
        self.access.set_matrix(panel.data, blocks, blocks, ov.block)
        self.long_map = self.long_map or LongMapPainter(self)
        self.long_map.show(*shown)

    def cells_rect(self) -> QRectF:
        """Where the matrix's cells are drawn, in this widget's pixels (the part of the plot with data)."""
        rows, cols = self.layers.shape
        vb = self.plot.getViewBox()
        scene = vb.mapViewToScene(QRectF(0, 0, cols, rows)).boundingRect()
        shown = scene.intersected(vb.sceneBoundingRect())  # a zoomed-in map: only what is on screen
        view = self.graphics
        return QRectF(view.mapFromScene(shown).boundingRect()).translated(
            QPointF(view.mapTo(self, view.rect().topLeft()))
        )

    def palette_changed(self) -> None:
        """View → Colours chose another palette: the map and its colour bar in the new colours."""
        self.layers.recolour()
        if self.long_map is not None:
            self.long_map.palette_changed()
        if self.bar is not None and self._bar_shows is not None:
            self.bar.setColorMap(colour_map(self._bar_shows[0]))

    def set_highlight(self, row: int | None = None, col: int | None = None) -> None:
        self.layers.set_highlight(row, col)
        self.left.set_selected(row)  # past LABEL_ALL tokens the selected one is still labelled
        self.bottom.set_selected(col if col is not None else (row if self.left.labels == self.bottom.labels else None))

    # ------------------------------------------------------------------ mouse
    def _moved(self, pos: QPointF) -> None:
        cell = self.layers.cell_at(pos)
        if cell != self._hovered:
            self._hovered = cell
            self.cellHovered.emit(*(cell if cell is not None else (-1, -1)))

    def _clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        cell = self.layers.cell_at(event.scenePos())
        if cell is not None:
            self.cellClicked.emit(*cell)

    def _context(self, pos: QPoint) -> None:
        cell = self.layers.cell_at(self.graphics.mapToScene(pos))
        self.cellContextRequested.emit(*(cell if cell is not None else (-1, -1)), self.graphics.mapToGlobal(pos))

    def leaveEvent(self, event) -> None:
        if self._hovered is not None:
            self._hovered = None
            self.cellHovered.emit(-1, -1)
        super().leaveEvent(event)
