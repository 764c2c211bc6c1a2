"""The Compare view (issue 40): the current run (A) beside a second run (B), chosen in the bar at its top
(compare_bar.py), both traced and compared off the GUI thread (explorer/work/comparing.py, one JobSlot);
then the three linked maps (compare_maps.py) of the window's layer and head, and “where they differ”
(divergence_table.py). The window's layer and head choosers drive both runs; a head clicked in the table is
chosen in the window; the window's selected token picks its aligned row on every map, and a map's cell
clicked selects run A's token of that row. File → Compare… (Ctrl+Shift+C) opens it as a window of its own,
as large as the main window, so that all three maps keep every token labelled."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QDockWidget, QLabel, QSplitter, QVBoxLayout

from explorer.compare import Comparison
from explorer.compare.shown import shown_head, unit_of_token
from explorer.ui.background.job_runner import runner_of
from explorer.ui.background.jobs import JobSlot
from explorer.ui.views.base import View
from explorer.ui.views.compare.compare_bar import CompareBar
from explorer.ui.views.compare.compare_maps import CompareMaps
from explorer.ui.views.compare.divergence_table import DivergenceTable
from explorer.work.comparing import compare_work


def map_titles(comparison: Comparison, layer: int, head: int, with_head: bool = True) -> tuple[str, str, str]:
    """The three maps' titles: which run, its model and the head (a slide says the head once, above)."""
    made_a, made_b = comparison.pair.a.made, comparison.pair.b.made
    if not with_head:
        return (
            QCoreApplication.translate("CompareView", "A: {model}").format(model=made_a.get("model", "")),
            QCoreApplication.translate("CompareView", "B: {model}").format(model=made_b.get("model", "")),
            QCoreApplication.translate("CompareView", "B − A (red: B attends more, blue: less)"),
        )
    return (
        QCoreApplication.translate("CompareView", "A: {model} · head {layer}.{head}").format(
            model=made_a.get("model", ""), layer=layer, head=head
        ),
        QCoreApplication.translate("CompareView", "B: {model}{edited} · head {layer}.{head}").format(
            model=made_b.get("model", ""),
            edited=QCoreApplication.translate("CompareView", " (intervened)") if made_b.get("interventions") else "",
            layer=layer,
            head=head,
        ),
        QCoreApplication.translate("CompareView", "B − A (red: B attends more, blue: less)"),
    )


TABLE_PX = 190  # the table's height at first: six heads and the output line; the maps take the rest


class CompareView(View):
    def __init__(self, state, parent=None) -> None:
        super().__init__(state, parent)
        self.comparison: Comparison | None = None
        self._compared_request = None  # the window's request when Compare was pressed
        self.bar = CompareBar(state)
        self.bar.asked.connect(self.run)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.maps = CompareMaps()
        self.maps.cellPicked.connect(self._picked)
        self.table = DivergenceTable()
        self.table.headChosen.connect(lambda layer, head: state.select(stage="weights", layer=layer, head=head))
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(self.maps)
        self.split.addWidget(self.table)
        self.split.setStretchFactor(0, 4)
        self.split.setStretchFactor(1, 1)
        self.split.setChildrenCollapsible(False)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.bar)
        lay.addWidget(self.status)
        lay.addWidget(self.split, 1)
        self.slot = JobSlot(self)
        self.slot.succeeded.connect(self._compared)
        self.slot.failed.connect(lambda message, _error: self.status.setText(message))
        self.slot.progressed.connect(self._progress)
        state.selectionChanged.connect(self._selection)
        state.requestChanged.connect(self._request_changed)
        self.retranslate()

    # ------------------------------------------------------------------ opening and running
    def start(self) -> None:
        """File → Compare…: the view as a window of its own, as large as the main window, the bar in focus."""
        self.bar.start()
        dock = self.parentWidget()
        while dock is not None and not isinstance(dock, QDockWidget):
            dock = dock.parentWidget()
        if dock is not None:
            main = dock.parentWidget()
            dock.setFloating(True)
            if main is not None:
                dock.setGeometry(main.geometry())
            dock.raise_()
        self.split.setSizes([max(200, self.split.height() - TABLE_PX), TABLE_PX])
        self.bar.value.setFocus(Qt.FocusReason.OtherFocusReason)

    def run(self) -> None:
        asked = self.bar.requests()
        if isinstance(asked, str):
            self.status.setText(asked)
            return
        request_a, request_b = asked
        self._compared_request = self.state.request
        self.status.setText(self.tr("Computing run A and run B…"))
        self.slot.submit(compare_work(runner_of(self).models, request_a, request_b))

    def _progress(self, done: int, total: int, what: str) -> None:
        if what:
            self.status.setText(self.tr("Computing run {run}…").format(run=what))

    def _compared(self, comparison: Comparison) -> None:
        self.comparison = comparison
        self.table.show_comparison(comparison)
        one_sided = sum(not u.shared for u in comparison.alignment.units)
        self.status.setText(
            self.tr(
                "{units} aligned tokens, {alone} on one side only ([brackets]: the other run's only, hatched)."
            ).format(units=len(comparison.alignment.units), alone=one_sided)
        )
        self._selection(self.state.selection)

    def _request_changed(self, request) -> None:
        """The window's run changed after a comparison: the maps stay as compared, and say how to renew them."""
        if self.comparison is not None and self._compared_request not in (None, request):
            self.status.setText(self.tr("The window's run has changed: press Compare to compare it again."))

    # ------------------------------------------------------------------ following the window
    def shown_head(self) -> tuple[int, int] | None:
        """The head drawn: the window's, when both runs have it; else the most different one."""
        if self.comparison is None or not self.comparison.heads:
            return None
        sel = self.state.selection
        heads = {(h.layer, h.head) for h in self.comparison.heads}
        if (sel.layer, sel.head) in heads:
            return sel.layer, sel.head
        best = self.comparison.ranked()[0]
        return best.layer, best.head

    def _selection(self, selection) -> None:
        shown = self.shown_head()
        if shown is None:
            return
        layer, head = shown
        if self.maps.shown is None or (self.maps.shown.layer, self.maps.shown.head) != shown:
            axis = (self.tr("query (aligned)"), self.tr("key (aligned)"))
            self.maps.show_head(
                shown_head(self.comparison, layer, head), map_titles(self.comparison, layer, head), axis
            )
            self.table.select_head(layer, head)
        if selection.token is not None:
            unit = unit_of_token(self.comparison, "a", selection.token)
            if unit is not None and unit != self.maps.selected[0]:
                self.maps.select_row(unit)

    def _picked(self, row: int, _col: int) -> None:
        """A cell clicked on a map: run A's first token of that row is the window's token too."""
        tokens = self.comparison.alignment.units[row].a if self.comparison is not None else ()
        if tokens and self.state.selection.token != tokens[0]:
            self.state.select(token=tokens[0])

    def retranslate(self) -> None:
        self.maps.set_legend_text(self.tr("masked, or no token of this run there"))
        self.bar.retranslate()
        self.table.retranslate()
        if self.comparison is not None:
            self.maps.shown = None
            self._selection(self.state.selection)
