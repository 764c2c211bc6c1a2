"""Every traced tensor with its shape and labels; clicking one shows its stage and layer."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QVBoxLayout

from explorer import names
from explorer.present.stages import STAGES
from explorer.ui.views.base import View


def _stage_of(name: str) -> str | None:
    for s in STAGES:
        for pattern in s.names:
            layer = names.layer_of(name)
            if pattern.format(l=layer) == name:
                return s.key
    return None


class TensorListView(View):
    def __init__(self, state, parent=None) -> None:
        super().__init__(state, parent)
        self.tree = QTreeWidget()
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.itemActivated.connect(self._activated)
        self.tree.itemClicked.connect(self._activated)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.tree)
        self.retranslate()
        state.traceChanged.connect(self.when_shown(self._fill))
        if state.trace is not None:
            self._fill(state.trace)

    def retranslate(self) -> None:
        self.tree.setHeaderLabels([self.tr("name"), self.tr("shape"), self.tr("axes"), self.tr("meaning")])

    def _fill(self, trace) -> None:
        self.tree.clear()
        items = []
        for name in trace.names():
            shape = trace.shape(name)
            item = QTreeWidgetItem(
                [name, "×".join(map(str, shape)), ", ".join(trace.labels(name)), names.spec(name).description]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, name)
            items.append(item)
        self.tree.addTopLevelItems(items)
        for col in range(3):
            self.tree.resizeColumnToContents(col)

    def _activated(self, item: QTreeWidgetItem) -> None:
        name = item.data(0, Qt.ItemDataRole.UserRole)
        stage = _stage_of(name)
        changes = {}
        if stage is not None:
            changes["stage"] = stage
        layer = names.layer_of(name)
        if layer is not None:
            changes["layer"] = layer
        if changes:
            self.state.select(**changes)
