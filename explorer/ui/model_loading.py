"""Opening models (File → Open model, the named models, recent models) and what a long load looks like:
progress and a Cancel button in the status bar, the window never blocked. The load itself runs in the trace
worker; this controller only asks for it, follows it, and, when it fails or is cancelled, goes back to the
model whose trace is still shown (so that the next sentence typed is traced by that model, not by the file
that could not be opened).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
from PySide6.QtWidgets import QMainWindow
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget

from explorer.config import MaskSpec
from explorer.train.runs import checkpoint_step_of, resolve_model_path
from explorer.ui import settings
from explorer.ui.state import AppState, TraceRequest
from explorer.weights import catalog
from explorer.weights.presets import PRESETS
from explorer.ui.plain_text import plain_tip

SHOW_AFTER_MS = 300  # quick loads (a small checkpoint) never flash the progress


def model_label(name: str) -> str:
    """How a recent model reads in the menu: a named model's label, else the file or folder name."""
    for n, label in catalog.available_models():
        if n == name and n not in PRESETS:
            return QCoreApplication.translate("Catalog", label)
    p = Path(name)
    return f"{p.parent.name}/{p.name}" if p.parent.name else p.name


class ModelLoading(QObject):
    loadingChanged = Signal(bool)  # a model (not just a trace) is being loaded
    progressed = Signal(int, int, str)  # done, total, what

    def __init__(self, state: AppState, worker, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self.worker = worker
        self._shown: TraceRequest | None = None  # the request whose trace is on screen
        self._opening: str | None = None  # what the user opened, added to recent models once it shows
        self._note: tuple[str, str] | None = None  # (checkpoint, words): a run folder stood for its checkpoint
        self._loading = False
        self._delay = QTimer(self)
        self._delay.setSingleShot(True)
        self._delay.setInterval(SHOW_AFTER_MS)
        self._delay.timeout.connect(self._check_loading)
        state.traceChanged.connect(self._on_trace)
        state.errorRaised.connect(self._on_error)
        state.busyChanged.connect(self._on_busy)
        worker.progress.connect(self._on_progress)
        self.widget = LoadProgress(self)

    # ------------------------------------------------------------------ asking
    def open(self, path_or_name: str) -> None:
        """Open a checkpoint / Hugging Face folder, a GGUF file, a run folder (its newest checkpoint), or a
        named model such as ``smollm2``."""
        name = resolve_model_path(path_or_name)
        self._opening = name
        self._note = None
        if Path(name).parent == Path(path_or_name) and checkpoint_step_of(name) is not None:
            # the CLI says this in a note: line; the window says it in the status bar once the model shows
            self._note = (name, self.tr("{run} is a run folder: showing its latest complete checkpoint, {step}").format(
                run=Path(path_or_name).name, step=Path(name).name
            ))
        self.state.open_model(name)

    def cancel(self) -> None:
        """Stop the load in progress and keep showing the model that was shown before."""
        self.worker.cancel_current()
        self._revert()
        self._set_loading(False)

    @property
    def loading(self) -> bool:
        return self._loading

    # ------------------------------------------------------------------ following
    def _is_model_change(self) -> bool:
        shown = self._shown
        return shown is not None and self.state.source != shown.source

    def _revert(self) -> None:
        """Back to the shown model, keeping what else changed meanwhile (the text, the options)."""
        if self._is_model_change():
            self._opening = None
            self.state.revert_request(dataclasses.replace(self.state.request, source=self._shown.source))

    def _on_trace(self, trace) -> None:
        if self._note is not None and self.state.source.name == self._note[0] and not trace.read_only:
            note, self._note = self._note[1], None
            window = self.parent()
            if isinstance(window, QMainWindow):  # after the status bar has shown the trace's own notices
                QTimer.singleShot(0, lambda: window.statusBar().showMessage(note))
        if not trace.read_only:
            self._shown = self.state.request
            if self._opening is not None and self.state.source.name == self._opening:
                settings.add_recent_model(self._opening)
                self._opening = None
                self._own_mask(trace)
        self._set_loading(False)

    def _own_mask(self, trace) -> None:
        """A newly opened model starts with its own mask: none for an encoder (BERT), causal for a decoder;
        a mask the user chose otherwise (a window, a prefix, a painted one) stays."""
        own = "none" if trace.config.bidirectional else "causal"
        if self.state.options.mask.kind in ("causal", "none") and self.state.options.mask.kind != own:
            self.state.set_options(mask=MaskSpec(own))

    def _on_error(self, _message: str) -> None:
        # Only a model that could not be opened is gone back from; sizes that cannot work stay as typed.
        if self._is_model_change() and self.state.source.kind == "path":
            self._revert()
        self._set_loading(False)

    def _on_busy(self, busy: bool) -> None:
        if busy:
            self._delay.start()
        else:
            self._delay.stop()
            self._set_loading(False)

    def _check_loading(self) -> None:
        if self.state.busy and (self._is_model_change() or self._shown is None):
            self._set_loading(True)

    def _on_progress(self, done: int, total: int, what: str) -> None:
        if self.state.busy:
            self._set_loading(True)
            self.progressed.emit(done, total, what)

    def _set_loading(self, loading: bool) -> None:
        if loading != self._loading:
            self._loading = loading
            self.loadingChanged.emit(loading)


class LoadProgress(QWidget):
    """Status-bar strip: what is loading, how far, and Cancel. Hidden unless a model load is under way."""

    def __init__(self, loading: ModelLoading, parent=None) -> None:
        super().__init__(parent)
        self.loading = loading
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(160)
        self.bar.setTextVisible(True)
        self.cancel = QToolButton()
        self.cancel.clicked.connect(loading.cancel)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        row.addWidget(self.bar)
        row.addWidget(self.cancel)
        loading.loadingChanged.connect(self._on_loading)
        loading.progressed.connect(self._on_progress)
        self.retranslate()
        self.setVisible(False)

    def retranslate(self) -> None:
        self.cancel.setText(self.tr("Cancel"))
        self.cancel.setToolTip(self.tr("Stop loading this model and keep the one shown"))
        self.bar.setToolTip(self.tr("Reading and converting the model's weights"))
        self._set_label("")

    def changeEvent(self, event) -> None:
        from PySide6.QtCore import QEvent

        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _set_label(self, what: str) -> None:
        text = self.tr("Loading {name}…").format(name=model_label(self.loading.state.source.name))
        self.label.setText(f"{text} {what}" if what else text)
        self.label.setToolTip(plain_tip(self.loading.state.source.name))

    def _on_loading(self, loading: bool) -> None:
        if loading:
            self.bar.setRange(0, 0)  # indeterminate until the loader says how far it is
            self._set_label("")
        self.setVisible(loading)

    def _on_progress(self, done: int, total: int, what: str) -> None:
        self.bar.setRange(0, max(1, total))
        self.bar.setValue(min(done, total))
        self._set_label(what[:40])
