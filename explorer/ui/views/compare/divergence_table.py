"""“Where they differ” (issue 40 item 4): every compared (layer, head) ranked by the Jensen–Shannon divergence
of its attention rows (mean, max and the row where it is largest), most different first, and the next-token
distributions compared (KL both ways, the tokens that moved most). Clicking a row shows that head."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from explorer.compare import Comparison


def _nats(x: float) -> str:
    return "—" if x is None or math.isnan(x) else ("∞" if math.isinf(x) else f"{x:.3f}")


class DivergenceTable(QWidget):
    headChosen = Signal(int, int)  # layer, head

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.table = QTableWidget(0, 4)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.cellClicked.connect(self._clicked)
        self.table.cellActivated.connect(self._clicked)
        self.output = QLabel()
        self.output.setWordWrap(True)
        self.output.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.heads: list[tuple[int, int]] = []
        self.output.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        left = QVBoxLayout()
        left.addWidget(self.title)
        left.addWidget(self.table, 1)
        lay = QHBoxLayout(self)  # the output beside the table: the maps keep the height
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(left, 3)
        lay.addWidget(self.output, 2)
        self.comparison: Comparison | None = None
        self.retranslate()

    def show_comparison(self, comparison: Comparison) -> None:
        self.comparison = comparison
        ranked = comparison.ranked()
        units = comparison.alignment.units
        self.heads = [(h.layer, h.head) for h in ranked]
        self.table.setRowCount(len(ranked))
        for r, h in enumerate(ranked):
            row_text = units[h.row].text.strip() if 0 <= h.row < len(units) else "—"
            cells = (f"{h.layer}.{h.head}", _nats(h.mean), _nats(h.max), row_text)
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c in (1, 2):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        self.output.setText(self._output_words(comparison))

    def _output_words(self, comparison: Comparison) -> str:
        out = comparison.output
        if out is None:
            return self.tr("Next token: not compared (a run has no next-token distribution).")
        moves = "\n".join(f"“{m.token.strip() or m.token}” {m.p_a:.0%} → {m.p_b:.0%}" for m in out.moves[:5])
        return self.tr(
            "Next token after the last word:\nKL(A‖B) {ab} nats, KL(B‖A) {ba} nats\nMoved most (A → B):\n{moves}"
        ).format(ab=_nats(out.kl_a_b), ba=_nats(out.kl_b_a), moves=moves or "—")

    def select_head(self, layer: int, head: int) -> None:
        """The head shown (chosen in the window or here): its row selected, without a signal."""
        if (layer, head) in self.heads:
            r = self.heads.index((layer, head))
            self.table.blockSignals(True)
            self.table.selectRow(r)
            self.table.blockSignals(False)

    def _clicked(self, row: int, _col: int) -> None:
        if 0 <= row < len(self.heads):
            self.headChosen.emit(*self.heads[row])

    def retranslate(self) -> None:
        self.title.setText(self.tr("Where they differ (Jensen–Shannon divergence of the rows, nats)"))
        self.table.setHorizontalHeaderLabels(
            [self.tr("Head"), self.tr("Mean"), self.tr("Max"), self.tr("Row of the max")]
        )
        if self.comparison is not None:
            self.output.setText(self._output_words(self.comparison))
