"""Parameter count and memory of the current model, matrix by matrix, per layer and in total, plus what
tracing this text holds. The numbers come from ``explorer.present.param_summary`` and ``explorer.config``."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout

from explorer import names
from explorer.config import estimate_memory
from explorer.present.param_summary import parameter_groups, totals
from explorer.ui.views.base import View
from explorer.ui.words.byte_size import human_bytes
from explorer.ui.words.captions_families import active_parameters_note

EXPANDED_LAYERS = 2  # a 30-layer model lists every layer; open only the first few
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter  # the count and size columns


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(d) for d in shape) + (",)" if len(shape) == 1 else ")")


class ParamsView(View):
    def __init__(self, state, parent=None) -> None:
        super().__init__(state, parent)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(5)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        # Numbers stay next to their names in a wide bottom dock: sized columns, the last one takes the rest.
        self.tree.header().setStretchLastSection(True)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.memory = QLabel()
        self.memory.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.summary)
        lay.addWidget(self.tree, 1)
        lay.addWidget(self.memory)
        self.rows: dict[str, QTreeWidgetItem] = {}  # public parameter name → its row (tests, tooltips)
        self.retranslate()
        state.traceChanged.connect(self.when_shown(lambda _t: self._fill()))

    def retranslate(self) -> None:
        self.tree.setHeaderLabels(
            [self.tr("matrix"), self.tr("shape"), self.tr("parameters"), self.tr("memory"), self.tr("meaning")]
        )
        self.tree.setToolTip(
            self.tr(
                "Every weight matrix of the model with its shape (in, out), its number of parameters and its memory"
            )
        )
        self._fill()

    def _group_item(self, group) -> QTreeWidgetItem:
        """One part of the model (the embedding, a layer, the output) in bold, its tensors beneath it."""
        if group.part == "input":
            title = self.tr("embedding")
        elif group.part == "output":
            title = self.tr("output")
        else:
            title = self.tr("layer {n}").format(n=group.layer)  # from 0, as the tensor names
        top = QTreeWidgetItem([title, "", f"{group.count:,}", human_bytes(group.nbytes)])
        for c in (2, 3):
            top.setTextAlignment(c, _RIGHT)
        font = top.font(0)
        font.setBold(True)
        top.setFont(0, font)
        for r in group.rows:
            entry = names.spec(r.name)
            item = QTreeWidgetItem([r.short, _shape(r.shape), f"{r.count:,}", human_bytes(r.nbytes), entry.description])
            for c in (2, 3):
                item.setTextAlignment(c, _RIGHT)
            item.setToolTip(0, f"{r.name}\n{entry.description}")
            item.setToolTip(1, "(" + ", ".join(entry.labels) + ")")  # the symbols: (E, H·D)
            item.setData(0, Qt.ItemDataRole.UserRole, r.count)
            top.addChild(item)
            self.rows[r.name] = item
        return top

    def _total_item(self, count: int, nbytes: int) -> QTreeWidgetItem:
        total = QTreeWidgetItem([self.tr("total"), "", f"{count:,}", human_bytes(nbytes)])
        for c in range(4):
            font = total.font(c)
            font.setBold(True)
            total.setFont(c, font)
        for c in (2, 3):
            total.setTextAlignment(c, _RIGHT)
        return total

    def _fill(self) -> None:
        trace = self.state.trace
        self.tree.clear()
        self.rows.clear()
        if trace is None:
            self.summary.setText(self.tr("No model yet"))
            self.memory.setText("")
            return
        cfg, dtype = trace.config, trace.options.dtype
        count, nbytes = totals(cfg, dtype)
        self.summary.setText(
            self.tr("{n} parameters · {mem} in {dtype}").format(n=f"{count:,}", mem=human_bytes(nbytes), dtype=dtype)
            + active_parameters_note(cfg)
        )
        for group in parameter_groups(cfg, dtype):
            top = self._group_item(group)
            self.tree.addTopLevelItem(top)
            top.setExpanded(group.layer is None or group.layer < EXPANDED_LAYERS)
        self.total_item = self._total_item(count, nbytes)
        self.tree.addTopLevelItem(self.total_item)
        for c in (0, 1, 2, 3):
            self.tree.resizeColumnToContents(c)
        est = estimate_memory(cfg, trace.B, trace.C, trace.options)
        self.memory.setText(
            self.tr(
                "This trace ({B} × {C} tokens) holds {held}. Estimate before running: parameters {p}, trace "
                "{t}, peak {peak}."
            ).format(
                B=trace.B,
                C=trace.C,
                held=human_bytes(trace.nbytes),
                p=human_bytes(est.params_bytes),
                t=human_bytes(est.trace_bytes),
                peak=human_bytes(est.peak_bytes),
            )
        )
