"""The checkpoint timeline: a slider over the saved checkpoints of the run the views show (the one training
now, or one opened from disk), so a class can watch attention form step by step; Play walks through them.

The run is read from the state: a model opened from ``…/run/step-000120`` belongs to ``…/run``. Moving the
slider opens that checkpoint (the trace worker loads it off the GUI thread and keeps the last few).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSlider, QToolButton, QWidget

from explorer.train.runs import checkpoint_step_of, list_checkpoints, run_dir_of
from explorer.ui.bridge.state import AppState
from explorer.ui.words.plain_text import plain_tip

PLAY_INTERVAL_MS = 700  # long enough to see each map before the next


def shown_run(state: AppState) -> tuple[Path | None, Path | None]:
    """(run folder, checkpoint folder) of the model the state asks for, or (None, None)."""
    src = state.source
    if src.kind != "path":
        return None, None
    path = Path(src.name)
    if checkpoint_step_of(path) is None:
        return None, None
    return run_dir_of(path), path


class CheckpointTimeline(QWidget):
    stepShown = Signal(object)  # the shown checkpoint's step, or None

    def __init__(self, state: AppState, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self.run: Path | None = None
        self.checkpoints: list[tuple[int, Path]] = []
        self.play = QToolButton()
        self.play.setCheckable(True)
        self.play.toggled.connect(self._set_playing)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.slider.setPageStep(1)
        self.slider.valueChanged.connect(self._moved)
        self.label = QLabel()
        self.label.setMinimumWidth(110)
        self.caption = QLabel()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.caption)
        row.addWidget(self.play)
        row.addWidget(self.slider, 1)
        row.addWidget(self.label)
        self.timer = QTimer(self)
        self.timer.setInterval(PLAY_INTERVAL_MS)
        self.timer.timeout.connect(self._tick)
        state.requestChanged.connect(lambda _r: self.refresh())
        state.requestReverted.connect(lambda _r: self.refresh())
        self.retranslate()
        self.refresh()

    def retranslate(self) -> None:
        self.caption.setText(self.tr("Checkpoints"))
        self.slider.setToolTip(
            self.tr(
                "Scrub through the run's saved checkpoints: every view shows the weights of that step "
                "(← → step one checkpoint)"
            )
        )
        self.play.setToolTip(self.tr("Play through the checkpoints from the first to the last"))
        self._set_play_text()
        self._set_label()

    def _set_play_text(self) -> None:
        self.play.setText(self.tr("⏸ Pause") if self.play.isChecked() else self.tr("▶ Play"))

    # ------------------------------------------------------------------ state → timeline
    def refresh(self) -> None:
        """Re-read the run's checkpoints (a running training adds one every few steps)."""
        run, current = shown_run(self.state)
        self.run = run
        self.checkpoints = list_checkpoints(run) if run is not None else []
        index = next(
            (i for i, (_s, p) in enumerate(self.checkpoints) if current is not None and p.name == current.name), None
        )
        with QSignalBlocker(self.slider):
            self.slider.setRange(0, max(0, len(self.checkpoints) - 1))
            if index is not None:
                self.slider.setValue(index)
        usable = len(self.checkpoints) > 1
        self.slider.setEnabled(usable)
        self.play.setEnabled(usable)
        if not usable and self.play.isChecked():
            self.play.setChecked(False)
        self._set_label()
        self.stepShown.emit(self.checkpoints[index][0] if index is not None else None)

    def _set_label(self) -> None:
        if not self.checkpoints:
            self.label.setText(self.tr("no run shown"))
            self.label.setToolTip(
                self.tr("Train a model, or open a checkpoint of a run (File → Open model), to scrub through its steps")
            )
            return
        i = self.slider.value()
        self.label.setText(
            self.tr("step {step} ({i}/{n})").format(step=self.checkpoints[i][0], i=i + 1, n=len(self.checkpoints))
        )
        self.label.setToolTip(plain_tip(str(self.checkpoints[i][1])))

    def current_step(self) -> int | None:
        return self.checkpoints[self.slider.value()][0] if self.checkpoints else None

    # ------------------------------------------------------------------ timeline → state
    def _moved(self, index: int) -> None:
        if 0 <= index < len(self.checkpoints):
            self._set_label()
            self.state.open_model(str(self.checkpoints[index][1]))

    def step_to(self, index: int) -> None:
        self.slider.setValue(max(0, min(len(self.checkpoints) - 1, index)))

    def _set_playing(self, playing: bool) -> None:
        self._set_play_text()
        if playing:
            if self.slider.value() >= len(self.checkpoints) - 1:
                self.step_to(0)  # start over from the random weights
            self.timer.start()
        else:
            self.timer.stop()

    def _tick(self) -> None:
        if self.state.busy:
            return  # let the last checkpoint's trace arrive before the next
        if self.slider.value() >= len(self.checkpoints) - 1:
            self.play.setChecked(False)
            return
        self.step_to(self.slider.value() + 1)
