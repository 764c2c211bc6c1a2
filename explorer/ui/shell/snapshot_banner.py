"""The banner over the window while a snapshot is shown: which file, that it is read-only, and the way back.

A reopened snapshot looked like the live model (the Preset box still said "classroom") and typing one
character silently left it. Now the banner says what is shown, the controls that would re-trace are
disabled (the state ignores their edits too), and "Return to the live model" is the one way back besides
choosing a model.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMainWindow, QPushButton, QSizePolicy, QWidget

from explorer.ui.bridge.state import AppState
from explorer.ui.shell.banner_row import banner_row
from explorer.ui.words.plain_text import plain_tip


class SnapshotBanner(QFrame):
    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("snapshotBanner")
        self.state = state
        self.setFrameShape(QFrame.Shape.StyledPanel)
        # A warm background that reads as "not the usual", in light and dark themes alike.
        self.setStyleSheet(
            "#snapshotBanner { background: #fff3c4; border: 1px solid #d9a400; }"
            "#snapshotBanner QLabel { color: #3d2e00; }"
        )
        self.message = QLabel()
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setSizePolicy(
            QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred
        )  # a long path elides, never widens the window
        self.back = QPushButton()
        self.back.setObjectName("returnToLive")
        self.back.clicked.connect(state.return_to_live)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 6, 4)
        layout.addWidget(self.message, 1)
        layout.addWidget(self.back, 0)
        state.snapshotChanged.connect(lambda _path: self.sync())
        self.retranslate()

    def text(self) -> str:
        path = self.state.snapshot
        if path is None:
            return ""
        return self.tr("Snapshot {file}: read-only. These are the saved numbers; nothing is recomputed.").format(
            file=Path(path).name
        )

    def sync(self) -> None:
        self.retranslate()

    def retranslate(self) -> None:
        self.back.setText(self.tr("Return to the live model"))
        self.back.setToolTip(self.tr("Trace the model that was shown before the snapshot was opened"))
        self.message.setText(self.text())
        self.message.setToolTip(plain_tip(self.state.snapshot or ""))

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


def install_snapshot_banner(window: QMainWindow) -> SnapshotBanner:
    """Put the banner above the window's panels (a fixed toolbar row, hidden while the live model is shown)
    and keep the re-tracing controls disabled while a snapshot is shown."""
    state: AppState = window.state
    banner = SnapshotBanner(state, window)
    bar = banner_row(window, "snapshotBar", banner)

    def follow(_path=None) -> None:
        shown = state.snapshot is not None
        bar.setVisible(shown)
        _disable_retracing_controls(window, shown)

    state.snapshotChanged.connect(follow)
    # A restored or reset dock layout (restoreState) may show or hide the row on its own: put it right.
    bar.visibilityChanged.connect(
        lambda visible: visible != (state.snapshot is not None) and QTimer.singleShot(0, follow)
    )
    follow()
    window.snapshot_bar = bar
    return banner


def _disable_retracing_controls(window: QMainWindow, snapshot: bool) -> None:
    """The actions that would re-trace (the panels follow ``snapshotChanged`` themselves)."""
    actions = getattr(window, "actions_", None)
    for name in ("random_weights", "reset_sizes"):
        action = getattr(actions, name, None)
        if action is not None:
            action.setEnabled(not snapshot)
