"""Which layers a trace captures, in the window: Model → Layers to capture sets the Session's choice (the
policy is explorer/session/capture_policy.py, tested without Qt), and a status-bar note says when a trace
holds only some layers. Picking a layer the trace lacks traces that one (the Session does it).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import QLabel

from explorer.session.capture_policy import MODES
from explorer.ui.bridge.state import AppState

__all__ = ["CaptureIndicator", "LayerCapture", "MODES"]


class LayerCapture(QObject):
    """The window's handle on the capture choice (the Model menu's radio items follow ``modeChanged``)."""

    modeChanged = Signal(str)

    def __init__(self, state: AppState, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        state.captureModeChanged.connect(self.modeChanged)
        self.widget = CaptureIndicator(state)

    @property
    def mode(self) -> str:
        return self.state.capture_mode

    @property
    def custom(self) -> tuple[int, ...]:
        return self.state.session.capture.custom

    def set_mode(self, mode: str, layers: tuple[int, ...] | None = None) -> None:
        self.state.set_capture_mode(mode, layers)

    def lazy(self, layers: int, tokens: int) -> bool:
        """Capture one layer at a time?"""
        return self.state.session.capture.lazy(layers, tokens)


class CaptureIndicator(QLabel):
    """Status-bar note shown while a trace holds only some layers, so that nobody wonders where the rest went."""

    def __init__(self, state: AppState, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        state.traceChanged.connect(lambda _t: self.retranslate())
        self.retranslate()

    def retranslate(self) -> None:
        trace = self.state.trace
        partial = trace is not None and not trace.read_only and len(trace.layers) < trace.config.layers
        self.setVisible(partial)
        if not partial:
            return
        layers = ", ".join(str(l) for l in trace.layers)
        self.setText(
            self.tr("captured: layer {layers} of {n}").format(layers=layers, n=trace.config.layers)
            if len(trace.layers) == 1
            else self.tr("captured: layers {layers} of {n}").format(layers=layers, n=trace.config.layers)
        )
        self.setToolTip(
            self.tr(
                "Only these layers' tensors are kept, so that a deep model stays fast; picking another "
                "layer traces it (Model → Layers to capture)"
            )
        )

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
