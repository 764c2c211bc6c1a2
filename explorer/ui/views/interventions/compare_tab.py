"""Compare tab: what the request changes (each removable, Clear all), and before/after: the KL divergence
of the selected position's next-token distribution, how the top tokens' probabilities and ranks moved, and
the selected head's attention map as baseline, intervened run, or their difference.

Heads are ablated from the head grid's context menu and edges cut from the large map's (intervention_menu),
activations patched from the Patching tab's form; the numbers come from explorer.interventions.compare,
this tab only draws them.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from explorer.analysis.token_text import visible
from explorer.interventions.compare import difference, kl_divergence, token_moves
from explorer.interventions.spec import EdgeCut, HeadAblation, PatchSpec
from explorer.present import matrices
from explorer.present.before_after import MODES
from explorer.present.token_parts import token_label
from explorer.ui.views.base import View
from explorer.ui.views.interventions.common import fmt
from explorer.ui.views.map.heatmap import Heatmap
from explorer.ui.words.plain_text import plain_tip

TOP = 5  # tokens of either run's top k listed in the comparison table
MAP_MODES = MODES  # the map combo's order


class CompareTab(View):
    def __init__(self, state, parent: QWidget | None = None) -> None:
        super().__init__(state, parent)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.remove_button = QPushButton()
        self.clear_button = QPushButton()
        buttons = QHBoxLayout()
        buttons.addWidget(self.remove_button)
        buttons.addWidget(self.clear_button)
        buttons.addStretch(1)
        self.kl_label = QLabel()
        self.kl_label.setWordWrap(True)
        self.table = QTableWidget(0, 5)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.mode_combo = QComboBox()
        for _ in MAP_MODES:
            self.mode_combo.addItem("")
        self.map_label = QLabel()
        mode_row = QHBoxLayout()
        mode_row.addWidget(self.map_label)
        mode_row.addWidget(self.mode_combo, 1)
        self.map = Heatmap()
        # A short dock scrolls rather than squeezing the table and the map to nothing.
        rows = self.list.fontMetrics().height() + 4
        self.list.setMinimumHeight(3 * rows)
        self.list.setMaximumHeight(5 * rows)
        self.table.setMinimumHeight(7 * rows)
        self.map.setMinimumHeight(260)
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.addWidget(self.hint)
        lay.addWidget(self.list)
        lay.addLayout(buttons)
        lay.addWidget(self.kl_label)
        lay.addWidget(self.table, 1)
        lay.addLayout(mode_row)
        lay.addWidget(self.map, 2)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        self._items: list[HeadAblation | EdgeCut | PatchSpec] = []
        self.remove_button.clicked.connect(self._remove_selected)
        self.clear_button.clicked.connect(state.clear_interventions)
        self.mode_combo.currentIndexChanged.connect(lambda _i: self._redraw())
        self._error = ""  # why the last request failed, until a trace arrives (said where the KL would be)
        self._follow(state)
        self.retranslate()
        self._list()
        self._redraw()

    def _follow(self, state) -> None:
        """Redraw on what changes the comparison: the trace, the selection, the interventions asked for, the
        run starting or failing."""
        redraw = self.when_shown(self._redraw)
        state.traceChanged.connect(lambda _t: (self._forget_error(), redraw()))
        state.selectionChanged.connect(lambda _s: redraw())
        state.interventionsChanged.connect(lambda _i: (self._list(), redraw()))
        state.busyChanged.connect(lambda _b: redraw())
        state.errorRaised.connect(lambda message: (self._remember_error(message), redraw()))
        state.requestReverted.connect(lambda _r: self._list())

    # ------------------------------------------------------------------ texts
    def retranslate(self) -> None:
        self.hint.setText(
            self.tr(
                "Change the computation and compare: right-click a head in the head grid to ablate it, or a cell of "
                "the large attention map to cut that edge; patch an activation from another sentence in the "
                "Patching tab."
            )
        )
        self.remove_button.setText(self.tr("Remove"))
        self.clear_button.setText(self.tr("Clear all"))
        self.table.setHorizontalHeaderLabels(
            [self.tr("token"), self.tr("baseline"), self.tr("rank"), self.tr("intervened"), self.tr("rank")]
        )
        for i, text in enumerate(
            (
                self.tr("intervened run"),
                self.tr("baseline (no interventions)"),
                self.tr("difference (intervened − baseline)"),
            )
        ):
            self.mode_combo.setItemText(i, text)
        self.map_label.setText(self.tr("Attention map:"))
        self._list()
        self._redraw()

    def describe(self, item: HeadAblation | EdgeCut | PatchSpec) -> str:
        if isinstance(item, PatchSpec):
            every = self.tr("all")
            where = self.tr("positions {p}, heads {h}").format(
                p=",".join(map(str, item.positions)) if item.positions is not None else every,
                h=",".join(map(str, item.heads)) if item.heads is not None else every,
            )
            return self.tr("patch {name} ({where}) from “{text}”").format(
                name=item.name, where=where, text=self.state.interventions.patch_from or ""
            )
        if isinstance(item, HeadAblation):
            mode = self.tr("zero") if item.mode == "zero" else self.tr("mean over positions")
            return self.tr("ablate layer {l} head {h} ({mode})").format(l=item.layer, h=item.head, mode=mode)
        return self.tr("cut layer {l} head {h}: query {i} ↛ key {j}").format(
            l=item.layer, h=item.head, i=item.query, j=item.key
        )

    # ------------------------------------------------------------------ the list
    def _list(self) -> None:
        cur = self.state.interventions
        self._items = [*cur.ablations, *cur.cuts, *cur.patches]
        self.list.clear()
        for item in self._items:
            row = QListWidgetItem(self.describe(item))
            row.setToolTip(plain_tip(row.text()))  # a patch's source sentence may run past the dock's edge
            self.list.addItem(row)
        if not self._items:
            self.list.addItem(QListWidgetItem(self.tr("(none: the model runs unchanged)")))
        editable = not self.state.read_only
        self.remove_button.setEnabled(bool(self._items) and editable)
        self.clear_button.setEnabled(bool(self._items) and editable)

    def _remove_selected(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self._items):
            self.state.remove_intervention(self._items[row])

    # ------------------------------------------------------------------ compare
    def _redraw(self) -> None:
        trace, sel = self.state.trace, self.state.selection
        baseline = self.state.baseline
        compared = trace is not None and "baseline.probs" in trace.stored_names()
        self.table.setVisible(compared)
        if not compared:
            self.kl_label.setText(self._why_nothing_to_compare())
        else:
            self._compare_output(trace, sel)
        self._draw_map(trace, baseline, sel)

    def _remember_error(self, message: str) -> None:
        self._error = message

    def _forget_error(self) -> None:
        self._error = ""

    def _why_nothing_to_compare(self) -> str:
        """The shown trace holds no baseline: no intervention yet, the intervened run still computing, or it
        failed. Issue 38: the panel said "add an intervention" under the ablation it listed, while a real model
        computed both runs or after the run was refused."""
        if self.state.interventions.empty:
            return self.tr("Nothing to compare yet: add an intervention.")
        if self.state.busy:
            return self.tr("Running the model with and without the interventions…")
        if self._error:
            return self.tr("The interventions could not be run: {error}").format(error=self._error)
        return self.tr("The run shown does not include the interventions listed above yet.")

    def _position(self, trace, sel) -> int:
        return sel.token if sel.token is not None else trace.rows[sel.row].length - 1

    def _compare_output(self, trace, sel) -> None:
        pos = self._position(trace, sel)
        before = np.asarray(trace["baseline.probs"][sel.row, pos])
        after = np.asarray(trace.probs_row(sel.row, pos))
        kl = kl_divergence(before, after)
        token = visible(token_label(trace, sel.row, pos))
        self.kl_label.setText(
            self.tr("After token {i} “{t}”: KL(baseline ‖ intervened) = {kl} nats").format(
                i=pos, t=token, kl=f"{kl:.4f}"
            )
        )
        moves = token_moves(before, after, TOP)
        self.table.setRowCount(len(moves))
        for r, m in enumerate(moves):
            label = (
                visible(trace.vocab[m.token])
                if trace.vocab is not None and m.token < len(trace.vocab)
                else str(m.token)
            )
            cells = (
                label,
                fmt(m.before),
                str(m.rank_before),
                fmt(m.after),
                self._rank_move(m.rank_before, m.rank_after),
            )
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)

    @staticmethod
    def _rank_move(before: int, after: int) -> str:
        if after == before:
            return str(after)
        return f"{after} {'↑' if after < before else '↓'}"

    def _draw_map(self, trace, baseline, sel) -> None:
        mode = MAP_MODES[max(0, self.mode_combo.currentIndex())]
        # a long text's whole map is never built (issue 43): the central view shows it, tile by tile
        shown = trace is not None and sel.layer in trace.layers and not trace.tiled(sel.layer)
        self.map.setVisible(shown)
        if not shown:
            return
        n = trace.rows[sel.row].length
        after = trace.head_map(sel.layer, "weights", sel.row, sel.head)[:n, :n]
        before = (
            baseline.head_map(sel.layer, "weights", sel.row, sel.head)[:n, :n]
            if baseline is not None and sel.layer in baseline.layers
            else after
        )
        labels = matrices.token_labels(trace, sel.row)
        if mode == "difference":
            data = difference(before, after)
            top = float(np.abs(data).max()) or 1.0
            self.map.set_matrix(data, labels, labels, True, (-top, top), square=True)  # diverging, centred on 0
            title = self.tr("weights: intervened − baseline, layer {l} head {h}")
        else:
            data = after if mode == "intervened" else before
            self.map.set_matrix(data, labels, labels, False, (0.0, 1.0), square=True)
            title = self.tr("weights ({mode}), layer {l} head {h}").format(
                mode=self.mode_combo.currentText(), l="{l}", h="{h}"
            )
        self.map.set_axis_titles(self.tr("query (row)"), self.tr("key (column)"), title.format(l=sel.layer, h=sel.head))
        self.shown_map = data
