"""Training from the window: start a run of the shown configuration, follow it, and show its checkpoints.

The run is background work (explorer/work/training.py) on the window's job runner. Each checkpoint it
writes goes into the runner's model cache under the checkpoint folder's path (a ModelSource of kind "path")
and is published to the state by that name, so every view redraws from the newest weights while training
goes on, and a checkpoint that the cache has dropped is simply read back from disk. If the user moves away (the timeline
to an older step, another model), the views stay there; coming back to the newest checkpoint follows again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, QStandardPaths, Signal

from explorer.train.runs import unique_run_dir
from explorer.ui.background.job_runner import runner_of
from explorer.ui.background.jobs import Job, JobSlot
from explorer.ui.bridge.state import AppState, ModelSource
from explorer.work.training import CheckpointSaved, TrainPrepared, TrainRequest, training_work

if TYPE_CHECKING:
    from explorer.train.loop import TrainSettings


def runs_root() -> Path:
    """Where runs go: the user's data folder (e.g. ~/.local/share/Attention Explorer/runs)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".attention-explorer") / "runs"


class TrainController(QObject):
    runningChanged = Signal(bool)
    prepared = Signal(object)  # TrainPrepared
    progressed = Signal(object)  # list[TrainProgress]
    finished = Signal(object)  # TrainResult
    failed = Signal(str)
    message = Signal(str)  # a remark for the panel (vocabulary rebuilt, run cancelled …)

    def __init__(self, state: AppState, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self.slot = JobSlot(self, memory_hint="batch")  # one run at a time; a run's late reports are dropped
        self.slot.sent.connect(self._on_sent)
        self.slot.succeeded.connect(self._on_succeeded)
        self.slot.failed.connect(self._on_failed)
        self.slot.busyChanged.connect(state.set_training)  # the Session holds whether a run is going on
        state.trainingChanged.connect(self.runningChanged)
        self.run_dir: Path | None = None
        self._published: ModelSource | None = None  # the newest checkpoint handed to the worker
        self._follow = True
        self._example: str | None = None  # text to trace with the first checkpoint (another vocabulary)

    @property
    def running(self) -> bool:
        """From start() until the slot hears the run's thread end. Not QThread.isRunning(): that turns false
        before the queued slot runs, and in between the controller said "not running" while Start was still off."""
        return self.state.training  # the Session's, set from the slot's busyChanged

    @property
    def job(self) -> Job | None:
        """The run's job while it runs."""
        return self.slot.job

    # ------------------------------------------------------------------ start / cancel
    def start(self, corpus: str, settings: TrainSettings, continue_weights: bool = False) -> bool:
        """Train the shown configuration on ``corpus``. False (with ``failed``) when it cannot start."""
        if self.running:
            return False
        trace = self.state.trace
        config = self.state.config
        if trace is None or config is None:
            self.failed.emit(
                QCoreApplication.translate("TrainController", "nothing to train yet: wait for the first trace")
            )
            return False
        if config.family != "explorer":
            self.failed.emit(
                QCoreApplication.translate(
                    "TrainController", "only this app's own models can be trained here; choose a preset first"
                )
            )
            return False
        self.run_dir = unique_run_dir(runs_root(), corpus)
        request = TrainRequest(
            corpus=corpus,
            config=config,
            settings=settings,
            run_dir=self.run_dir,
            shown_vocab=trace.vocab,
            init_source=self.state.source if continue_weights else None,
        )
        self._published = None
        self._follow = True
        self._example = None
        self.slot.submit(training_work(request, runner_of(self.parent()).models))
        return True

    def cancel(self) -> None:
        """Stop the run; its result (where it stopped, its checkpoints) still arrives."""
        self.slot.cancel()

    def shutdown(self, wait_ms: int = 30_000) -> None:
        """Stop a run and wait for its thread (the window is closing)."""
        self.slot.shutdown(wait_ms)

    # ------------------------------------------------------------------ following the run
    def _on_prepared(self, info: TrainPrepared) -> None:
        cfg = info.config
        if not info.vocab_matches:
            self._example = info.example or None
            self.message.emit(
                QCoreApplication.translate(
                    "TrainController",
                    "{corpus} has its own vocabulary (V = {V}): the model is built for it with your sizes "
                    "(E = {E}, D = {D}, H = {H}, L = {L}); the text becomes one of its examples.",
                ).format(corpus=info.corpus, V=cfg.V, E=cfg.E, D=cfg.D, H=cfg.H, L=cfg.L)
            )
        self.prepared.emit(info)

    def _showing_run(self) -> bool:
        """Do the views still show this run's newest weights (or what was shown when it started)?"""
        if self._published is None:
            return self._follow
        return self.state.source == self._published

    def _on_sent(self, value) -> None:
        if isinstance(value, TrainPrepared):
            self._on_prepared(value)
        elif isinstance(value, CheckpointSaved):
            self._publish(ModelSource("path", value.folder))
        else:
            self.progressed.emit(value)  # list[TrainProgress]

    def _publish(self, source: ModelSource) -> None:
        follow = self._showing_run()
        previous, self._published = self._published, source
        text, self._example = self._example, None
        self.state.publish_model(source, show=follow, text=text if follow else None)
        if previous is not None and previous != source:
            self.state.withdraw_model(previous)  # the worker reads it from disk if it is shown again

    def _on_succeeded(self, result) -> None:
        # A cancelled run saves where it stopped after the last callback: show that checkpoint too.
        if result.checkpoint is not None and (
            self._published is None or Path(self._published.name) != Path(result.checkpoint)
        ):
            self._publish(ModelSource("path", str(result.checkpoint)))
        if result.cancelled:
            self.message.emit(
                QCoreApplication.translate(
                    "TrainController", "Cancelled at step {step}; its checkpoints are kept."
                ).format(step=result.steps)
            )
        self.finished.emit(result)

    def _on_failed(self, message: str) -> None:
        self.failed.emit(message)
