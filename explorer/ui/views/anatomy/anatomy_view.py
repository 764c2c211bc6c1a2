"""The “How is this made?” panel beside the map: the stepper for the cell last asked about (Ctrl+H, the map's
context menu, the link under the map), following the state's asks and its new traces."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QVBoxLayout

from explorer.ui.views.anatomy.stepper import Stepper
from explorer.ui.views.base import View


class AnatomyView(View):
    def __init__(self, state, parent=None) -> None:
        super().__init__(state, parent)
        self.stepper = Stepper(state)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.stepper)
        state.anatomyAsked.connect(self.explain)
        state.traceChanged.connect(self.stepper.retrace)
        if state.anatomy_ask is not None:  # asked before this panel was built
            self.explain(state.anatomy_ask)

    def explain(self, ask) -> None:
        trace = ask.trace if ask.trace is not None else self.state.trace
        if trace is None and ask.work is None:
            return
        self.stepper.explain(ask, trace)
        QTimer.singleShot(0, self, lambda: self.stepper.setFocus(Qt.FocusReason.OtherFocusReason))  # → works at once

    def key_help(self) -> list[tuple[str, str]]:
        """The stepper's own keys, for Help → Keyboard shortcuts (F1)."""
        return [
            ("Right", self.tr("How is this made?: the next step (Space too)")),
            ("Left", self.tr("How is this made?: one step back")),
            ("Home", self.tr("How is this made?: the start")),
            ("End", self.tr("How is this made?: the number itself")),
            ("P", self.tr("How is this made?: play or pause")),
        ]

    def retranslate(self) -> None:
        self.stepper.retranslate()
