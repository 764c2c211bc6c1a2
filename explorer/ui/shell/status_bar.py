"""Status bar: busy indicator, the last notice or error, and the model's parameter count and memory."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar

from explorer.ui.bridge.state import AppState
from explorer.ui.words.byte_size import human_bytes
from explorer.ui.words.captions_families import active_parameters_note
from explorer.vocab import itemsize

BUSY_AFTER_MS = 250  # work shorter than this shows no busy bar


class StatusBar(QStatusBar):
    def __init__(self, state: AppState, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self._said = ""  # the message this bar said itself (a snapshot's, a partial trace's), or ""
        self._error: str | None = None  # the last error shown (said again on a language switch)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)  # indeterminate while a trace computes
        self.busy.setMaximumWidth(90)
        self.busy.setVisible(False)
        self.params = QLabel()
        self.addPermanentWidget(self.busy)
        self.addPermanentWidget(self.params)
        # Shown only for work that lasts: a classroom sentence traces in milliseconds, and a bar flashing on
        # and off (a status-bar relayout and repaint each time) on every keystroke is noise and costs time.
        self._show_busy = QTimer(self)
        self._show_busy.setSingleShot(True)
        self._show_busy.setInterval(BUSY_AFTER_MS)
        self._show_busy.timeout.connect(lambda: self.busy.setVisible(state.busy))
        state.busyChanged.connect(self._on_busy)
        state.traceChanged.connect(self._on_trace)
        state.noticesChanged.connect(self._on_notices)
        state.errorRaised.connect(self._on_error)

    def changeEvent(self, event) -> None:
        """A language switch: the counts, and a message this bar said itself, again in the new language
        (they stayed in the old one, issue 22). Notices from the core are the core's words."""
        from PySide6.QtCore import QEvent

        super().changeEvent(event)
        if event.type() != QEvent.Type.LanguageChange or self.state.trace is None:
            return
        current = self.currentMessage()
        self._counts(self.state.trace)
        if current and current == self._said:
            self._own_message(self.state.trace)
        elif current and self._error is not None and current.endswith(self._error):
            self.show_error(self._error)

    def showMessage(self, message: str, timeout: int = 0) -> None:
        self._said = ""
        super().showMessage(message, timeout)

    def _say(self, message: str) -> None:
        """A message of this bar's own (said again in the new language on a switch)."""
        super().showMessage(message)
        self._said = message

    def _on_busy(self, busy: bool) -> None:
        if busy:
            self._show_busy.start()
        else:
            self._show_busy.stop()
            self.busy.setVisible(False)

    def _on_trace(self, trace) -> None:
        self._counts(trace)
        if not self._own_message(trace) and not trace.notices:
            self.clearMessage()

    def _counts(self, trace) -> None:
        cfg = trace.config
        count = cfg.parameter_count()
        item = itemsize(trace.options.dtype)
        self.params.setText(
            self.tr("{n} parameters · {mem} · trace {tmem}").format(
                n=f"{count:,}", mem=human_bytes(count * item), tmem=human_bytes(trace.nbytes)
            )
            + active_parameters_note(cfg)
        )

    def _own_message(self, trace) -> bool:
        if trace.read_only:
            self._say(self.tr("Showing a saved snapshot (read-only): {path}").format(path=trace.origin))
        elif trace.partial:
            self._say(
                self.tr(
                    "Layers up to {layer} are ready; the rest and the next-token output are still computing…"
                ).format(layer=max(trace.layers, default=0))
            )
        else:
            return False
        return True

    def _on_notices(self, notices: tuple) -> None:
        if notices:
            self.showMessage(" · ".join(notices))

    def _on_error(self, message: str) -> None:
        self.show_error(message)

    def show_error(self, message: str) -> None:
        """A one-line error, non-modal (also used by File → Open / Export when they fail)."""
        self.showMessage(self.tr("Error: {message}").format(message=message))
        self._error = message
