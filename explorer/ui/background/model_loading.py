"""Opening models (File → Open model, the named models, recent models) and what a long load looks like:
progress and a Cancel button in the status bar, the window never blocked. The load itself runs in the job
runner; the Session follows it and, when it fails or is cancelled, goes back to the model whose trace is
still shown (explorer/session/rules_results.py); this controller asks, and shows the progress.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMainWindow, QProgressBar, QToolButton, QWidget

from explorer.ui.bridge.state import AppState
from explorer.ui.preferences import settings
from explorer.ui.words.plain_text import plain_tip
from explorer.weights import catalog
from explorer.weights.presets import PRESETS

SHOW_AFTER_MS = 300  # quick loads (a small checkpoint) never flash the progress


def model_label(name: str) -> str:
    """How a recent model reads in the menu: a named model's label, else the file or folder name."""
    for n, label in catalog.available_models():
        if n == name and n not in PRESETS:
            return QCoreApplication.translate("Catalog", label)
    p = Path(name)
    return f"{p.parent.name}/{p.name}" if p.parent.name else p.name


class ModelLoading(QObject):
    """Asks the Session to open a model and shows the load's progress; the Session decides what is shown and
    what is gone back to (explorer/session/rules_results.py)."""

    loadingChanged = Signal(bool)  # a model (not just a trace) is being loaded
    progressed = Signal(int, int, str)  # done, total, what

    def __init__(self, state: AppState, worker, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self.worker = worker
        self._loading = False
        self._delay = QTimer(self)
        self._delay.setSingleShot(True)
        self._delay.setInterval(SHOW_AFTER_MS)
        self._delay.timeout.connect(self._check_loading)
        state.traceChanged.connect(lambda _t: self._set_loading(False))
        state.errorRaised.connect(lambda _m: self._set_loading(False))
        state.busyChanged.connect(self._on_busy)
        state.modelOpened.connect(settings.add_recent_model)
        state.runFolderShown.connect(self._say_run_folder)
        worker.progress.connect(self._on_progress)
        self.widget = LoadProgress(self)

    # ------------------------------------------------------------------ asking
    def open(self, path_or_name: str) -> None:
        """Open a checkpoint / Hugging Face folder, a GGUF file, a run folder (its newest checkpoint), or a
        named model such as ``smollm2``."""
        self.state.open_model(path_or_name)

    def cancel(self) -> None:
        """Stop the load in progress and keep showing the model that was shown before (the Session asks the
        runner to cancel the job: CancelTrace)."""
        self.state.cancel_load()
        self._set_loading(False)

    @property
    def loading(self) -> bool:
        return self._loading

    # ------------------------------------------------------------------ following
    def _say_run_folder(self, shown) -> None:
        # the CLI says this in a note: line; the window says it in the status bar, after the trace's own notices
        note = self.tr("{run} is a run folder: showing its latest complete checkpoint, {step}").format(
            run=shown.run, step=shown.step
        )
        window = self.parent()
        if isinstance(window, QMainWindow):
            QTimer.singleShot(0, lambda: window.statusBar().showMessage(note))

    def _on_busy(self, busy: bool) -> None:
        if busy:
            self._delay.start()
        else:
            self._delay.stop()
            self._set_loading(False)

    def _check_loading(self) -> None:
        if self.state.loading_model:
            self._set_loading(True)

    def _on_progress(self, done: int, total: int, what: str) -> None:
        # A load's progress counts while a load is under way, whatever the Session's busy flag says at that
        # moment: "busy" reaches the Session through a queued signal that the job's first progress can
        # overtake (posted from the job's thread as soon as it starts), and an earlier job's "not busy" could
        # arrive between the load's start and its first progress. Either way the first progress was dropped
        # (a test saw its bar never reach 10). The load slot knows at once: its job is set when it is asked.
        if self.state.busy or self.state.loading_model or self.worker.loads.busy:
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
