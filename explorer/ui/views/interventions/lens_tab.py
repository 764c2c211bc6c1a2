"""Logit lens tab: a layers × positions grid of the token the stream "would predict" after each layer (its
probability as the colour), and bars of the probability of the token the model finally predicts, after each
layer, at the chosen position. Clicking a column chooses the position (the shared selection).

The numbers are explorer.interventions.lens.lens_grid's, computed on a background thread."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from explorer.analysis.token_text import visible
from explorer.ui.preferences.palette_choice import bar_colour
from explorer.ui.views.interventions.common import JobTab, bar_plot, fmt, live_model, prob_colours
from explorer.ui.views.plot_bits import set_axis_title
from explorer.work.interventions import lens_work


class LensTab(JobTab):
    def __init__(self, state, parent: QWidget | None = None) -> None:
        super().__init__(state, parent)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.grid = QTableWidget(0, 0)
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.grid.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.grid.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.7, brush=bar_colour())
        self.plot_widget, self.plot, self.plot_title = bar_plot(220, self.bars)
        self.plot.setYRange(0, 1, padding=0.02)
        lay = QVBoxLayout(self)
        lay.addWidget(self.hint)
        lay.addWidget(self.status)
        lay.addWidget(self.grid)
        lay.addWidget(self.plot_title)
        lay.addWidget(self.plot_widget)
        lay.addStretch(1)
        self.result = None  # the LensGrid drawn, and the trace it belongs to
        self._for = None  # (trace, sentence) the drawn grid belongs to
        self._pending = None
        self.wire_job()  # another sentence (a selection) means another grid
        self.slot.progressed.connect(
            lambda d, t: self.status.setText(self.tr("Reading layer {d} of {t}…").format(d=d, t=t))
        )
        self.grid.cellClicked.connect(lambda _r, c: self.state.select(token=c))
        self.grid.horizontalHeader().sectionClicked.connect(lambda c: self.state.select(token=c))
        state.selectionChanged.connect(lambda _s: self._draw_position())
        self.retranslate()

    def retranslate(self) -> None:
        self.hint.setText(
            self.tr(
                "The logit lens: the residual stream after each layer, read through the final norm and the "
                "unembedding as if it were the last layer. Each cell is the most likely next token there, coloured "
                "by its probability. Click a column to choose a position."
            )
        )
        set_axis_title(self.plot, "left", self.tr("probability"))
        set_axis_title(self.plot, "bottom", self.tr("after layer"))
        self._draw()

    # ------------------------------------------------------------------ compute
    def _failed(self, message: str) -> None:
        self.status.setText(message)

    def _compute(self) -> None:
        trace = self.state.trace
        key = (trace, self.state.selection.row)
        if trace is None or (
            self.result is not None and self._for is not None and self._for[0] is trace and self._for[1] == key[1]
        ):
            return
        model = live_model(self)
        if model is None:
            self.result, self._for = None, None
            self.status.setText(
                self.tr("The logit lens needs the model that made this trace (a snapshot shows only what it holds).")
            )
            self._draw()
            return
        self.status.setText(self.tr("Reading the layers…"))
        self._pending = key
        self.slot.submit(lens_work(*model, trace, self.state.selection.row))

    def _done(self, grid) -> None:
        self.result, self._for = grid, self._pending
        self.status.setText("")
        self._draw()

    # ------------------------------------------------------------------ draw
    def _draw(self) -> None:
        g = self.result
        if g is None:
            self.grid.setRowCount(0)
            self.grid.setColumnCount(0)
            self.bars.setOpts(x=[], height=[])
            return
        self.grid.setRowCount(len(g.layers))
        self.grid.setColumnCount(len(g.tokens))
        self.grid.setVerticalHeaderLabels([self.tr("layer {l}").format(l=l) for l in g.layers])
        self.grid.setHorizontalHeaderLabels([f"{i}\n{visible(t)}" for i, t in enumerate(g.tokens)])
        for r in range(len(g.layers)):
            for c in range(len(g.tokens)):
                p = float(g.top_prob[r, c])
                item = QTableWidgetItem(f"{visible(g.top[r][c])}\n{fmt(p)}")
                bg, fg = prob_colours(p)
                item.setBackground(bg)
                item.setForeground(fg)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                item.setToolTip(
                    self.tr("after layer {l}, position {i}: “{t}” with p = {p}").format(
                        l=g.layers[r], i=c, t=visible(g.top[r][c]), p=fmt(p)
                    )
                )
                self.grid.setItem(r, c, item)
        self._fit_height()
        self._draw_position()

    def palette_changed(self) -> None:
        """View → Colours: the bars in the new palette's bar colour."""
        self.bars.setOpts(brush=bar_colour())

    def _fit_height(self) -> None:
        """As tall as its rows (up to a dozen layers), so the bars below stay in view; more rows scroll."""
        self.grid.resizeRowsToContents()
        rows = min(self.grid.rowCount(), 12)
        height = self.grid.horizontalHeader().sizeHint().height() + sum(self.grid.rowHeight(r) for r in range(rows))
        scrollbar = self.grid.horizontalScrollBar().sizeHint().height()
        self.grid.setFixedHeight(height + scrollbar + 2 * self.grid.frameWidth() + 2)

    def position(self) -> int | None:
        g, sel = self.result, self.state.selection
        if g is None:
            return None
        return sel.token if sel.token is not None and sel.token < len(g.tokens) else len(g.tokens) - 1

    def _draw_position(self) -> None:
        pos = self.position()
        if pos is None:
            return
        g = self.result
        self.shown_bars = g.predicted_prob[:, pos]
        self.bars.setOpts(x=list(g.layers), height=self.shown_bars, width=0.7)
        self.plot.getAxis("bottom").setTicks([[(l, str(l)) for l in g.layers]])
        self.plot.setXRange(-0.6, len(g.layers) - 0.4, padding=0)
        self.plot_title.setText(
            self.tr("P(“{t}”) after each layer, at position {i} “{q}”").format(
                t=visible(g.predicted[pos]), i=pos, q=visible(g.tokens[pos])
            )
        )
        for c in range(self.grid.columnCount()):
            header = self.grid.horizontalHeaderItem(c)
            if header is not None:
                font = header.font()
                font.setBold(c == pos)
                header.setFont(font)
