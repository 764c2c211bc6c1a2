"""Which layers a trace captures, wired to the state: the policy itself is plain functions in
explorer/session/capture.py (tested without Qt). Picking a layer the trace lacks (the state's
``layerWanted``) traces that one; the user chooses the mode in Model → Layers to capture.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import QLabel

from explorer.session import capture as policy
from explorer.session.capture import MODES
from explorer.ui.state import AppState


class LayerCapture(QObject):
    modeChanged = Signal(str)

    def __init__(self, state: AppState, worker=None, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self.mode = "auto"
        self.custom: tuple[int, ...] = ()
        self._wanted: int | None = None  # a layer picked before it was captured: select it once traced
        state.traceChanged.connect(self._on_trace)
        state.layerWanted.connect(self._on_layer_wanted)
        state.errorRaised.connect(self._forget_wanted)
        self.widget = CaptureIndicator(state)
        if worker is not None:
            # Known as soon as a model is loaded, before its first (full) trace ends: switching now cancels
            # that trace instead of waiting for every layer of a deep model.
            worker.bundleReady.connect(lambda bundle: self._on_model_layers(bundle.config.layers))

    # ------------------------------------------------------------------ the user's choice
    def set_mode(self, mode: str, layers: tuple[int, ...] | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown capture mode {mode!r}")
        self.mode = mode
        if mode == "custom":
            self.custom = tuple(sorted(set(layers or ())))
        self.modeChanged.emit(mode)
        trace = self.state.trace
        if trace is not None and not trace.read_only:
            self._apply(self._wanted_capture(trace.config.layers, trace.B * trace.C))

    # ------------------------------------------------------------------ policy
    def lazy(self, layers: int, tokens: int) -> bool:
        """Capture one layer at a time?"""
        return policy.one_layer_at_a_time(self.mode, layers, tokens)

    def _wanted_capture(self, layers: int, tokens: int, layer: int | None = None) -> tuple[int, ...] | None:
        layer = self.state.selection.layer if layer is None else layer
        return policy.layers_to_capture(self.mode, self.custom, layers, tokens, layer)

    def _apply(self, capture: tuple[int, ...] | None) -> None:
        if self.state.options.layers_to_capture != capture:
            self.state.set_options(layers_to_capture=capture)

    # ------------------------------------------------------------------ following the state
    def _on_model_layers(self, layers: int) -> None:
        if self.mode in ("auto", "selected") and self.lazy(layers, 0) and self.state.options.layers_to_capture is None:
            self._apply(self._wanted_capture(layers, 0))

    def _on_trace(self, trace) -> None:
        if trace.read_only:
            return
        if self._wanted is not None:
            if self._wanted not in trace.layers:
                return  # the trace that holds the picked layer is on its way
            wanted, self._wanted = self._wanted, None
            self.state.select(layer=wanted)
        self._apply(self._wanted_capture(trace.config.layers, trace.B * trace.C))

    def _forget_wanted(self, _message: str = "") -> None:
        self._wanted = None

    def _on_layer_wanted(self, layer: int) -> None:
        trace = self.state.trace
        if trace is None:
            return
        self._wanted = layer
        self.custom, capture = policy.on_layer_wanted(self.mode, self.custom, layer)
        self._apply(capture)


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
        self.setText(self.tr("captured: layer {layers} of {n}").format(layers=layers, n=trace.config.layers)
                     if len(trace.layers) == 1 else
                     self.tr("captured: layers {layers} of {n}").format(layers=layers, n=trace.config.layers))
        self.setToolTip(self.tr("Only these layers' tensors are kept, so that a deep model stays fast; picking another "
                                "layer traces it (Model → Layers to capture)"))

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
