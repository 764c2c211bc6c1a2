"""The three maps of a comparison side by side (issue 40 item 3): run A, run B and B − A, on the aligned axis
(explorer/compare/shown.py), at the same cell size. A and B share one colour scale and one colour bar (B's,
between B and the difference, so it stands beside both runs); B − A has its own diverging bar. Hatched: the
cells a mask blocks, or where a run has no token. Selection, hover and the keyboard walk are linked: the
cell picked or hovered on one map is outlined on all three. The Compare panel and the slide both use it."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QTabBar, QVBoxLayout, QWidget

from explorer.compare.shown import ShownHead, drawable
from explorer.ui.views.map.heatmap import Heatmap

TAB_BELOW_PX = 1300  # 1366×768 keeps three maps in a row; 1280×720 gives the difference its own tab


class CompareMaps(QWidget):
    cellPicked = Signal(int, int)  # the aligned (query unit, key unit) clicked on any of the three maps

    def __init__(self, parent: QWidget | None = None, tab_below_px: int = TAB_BELOW_PX) -> None:
        super().__init__(parent)
        self.tab_below_px = tab_below_px  # 0: never tabbed (a slide's keys cannot switch tabs)
        self.a = Heatmap(colour_bar=False)  # B's bar serves both runs: one scale, one bar
        self.b, self.difference = Heatmap(), Heatmap()
        self.maps = (self.a, self.b, self.difference)
        self.shown: ShownHead | None = None
        self.selected: tuple[int | None, int | None] = (None, None)
        self.row = QHBoxLayout()
        self.row.setContentsMargins(0, 0, 0, 0)
        for m in self.maps:
            self.row.addWidget(m, 1)
            m.cellClicked.connect(self.pick)
            m.cellHovered.connect(self._hovered)
        # Below tab_below_px of width a tab bar shows A and B, or B − A: A and B keep legible cells. The maps
        # are only shown and hidden, never moved: a map moved into a tab page broke the window's Tab chain.
        self.pages = QTabBar()
        self.pages.addTab("")
        self.pages.addTab("")
        self.pages.setDocumentMode(True)
        self.pages.hide()
        self.pages.currentChanged.connect(lambda _i: self._show_page())
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.pages, 0, Qt.AlignmentFlag.AlignLeft)
        lay.addLayout(self.row, 1)
        self.tabbed = False
        self.retranslate()

    def set_tabbed(self, on: bool) -> None:
        if on == self.tabbed:
            return
        self.tabbed = on
        self.pages.setVisible(on)
        self.pages.setCurrentIndex(0)
        self._show_page()

    def _show_page(self) -> None:
        difference = self.tabbed and self.pages.currentIndex() == 1
        self.a.setVisible(not difference)
        self.b.setVisible(not difference)
        self.difference.setVisible(difference or not self.tabbed)
        QTimer.singleShot(0, self, self.even_cells)

    def retranslate(self) -> None:
        self.pages.setTabText(0, self.tr("Run A and run B"))
        self.pages.setTabText(1, self.tr("B − A"))

    def show_head(self, shown: ShownHead, titles: tuple[str, str, str], axis: tuple[str, str]) -> None:
        self.shown = shown
        for m, title in zip(self.maps, titles):
            m.set_axis_titles(axis[0], axis[1], title)
        a, b = drawable(shown.a, shown.hatched_a), drawable(shown.b, shown.hatched_b)
        self.a.set_matrix(a, shown.labels_a, shown.labels_a, False, shown.levels, True, shown.hatched_a)
        self.b.set_matrix(b, shown.labels_b, shown.labels_b, False, shown.levels, True, shown.hatched_b)
        both = tuple(a if not a.startswith("[") else b for a, b in zip(shown.labels_a, shown.labels_b))
        difference = drawable(shown.difference, shown.hatched_difference)
        self.difference.set_matrix(
            difference, both, both, True, shown.difference_levels, True, shown.hatched_difference
        )
        self._outline(*self.selected)
        QTimer.singleShot(0, self, self.even_cells)

    def even_cells(self) -> None:
        """The same cell size on all three maps: each map's share of the width is its cells' (equal for all)
        plus what its axes and colour bar take (B's bar, the difference's longer numbers, A none)."""
        if self.shown is None or not self.isVisible():
            return
        maps = [m for m in self.maps if m.isVisible()]
        if not maps:
            return
        extra = [m.width() - m.cells_rect().width() for m in maps]
        cells = (sum(m.width() for m in maps) - sum(extra)) / len(maps)
        if cells <= 0:
            return
        wanted = [max(1, round(cells + e)) for e in extra]
        if any(abs(w - m.width()) > 2 for w, m in zip(wanted, maps)):
            for m, w in zip(maps, wanted):
                self.row.setStretch(self.maps.index(m), w)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.set_tabbed(self.width() < self.tab_below_px)
        QTimer.singleShot(0, self, self.even_cells)

    def set_legend_text(self, text: str) -> None:
        for m in self.maps:
            m.set_legend_text(text)

    def pick(self, row: int, col: int) -> None:
        """A cell chosen on one map: the same aligned cell on every map."""
        self.selected = (row, col)
        self._outline(row, col)
        self.cellPicked.emit(row, col)

    def select_row(self, row: int | None) -> None:
        """The query unit chosen elsewhere (the window's token): its row on every map."""
        self.selected = (row, None)
        self._outline(row, None)

    def _hovered(self, row: int, col: int) -> None:
        if row < 0:
            self._outline(*self.selected)
        else:
            self._outline(row, col)

    def _outline(self, row: int | None, col: int | None) -> None:
        if self.shown is None:
            return
        for m in self.maps:
            m.set_highlight(row, col)

    def set_text_px(self, px: int, smallest: int | None = None) -> None:
        for m in self.maps:
            m.set_text_px(px, smallest=smallest)
