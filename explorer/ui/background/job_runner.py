"""The window's background work in one place: the models built so far (explorer/work/model_cache.py), the
trace kind of job (explorer/ui/background/worker.py) and the slots of work that no panel owns (a worksheet's trace).
Closing the window stops them all; a panel's own slots are stopped by the panel (its ``shutdown``).
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QObject

from explorer.ui.background.jobs import JobSlot
from explorer.ui.background.worker import TraceWorker, build_model
from explorer.work.model_cache import ModelCache

__all__ = ["JobRunner", "runner_of"]


class JobRunner(QObject):
    def __init__(self, parent=None, models: ModelCache | None = None) -> None:
        super().__init__(parent)
        self.models = models or ModelCache(build_model)
        self.traces = TraceWorker(self, models=self.models)
        self._slots: list[JobSlot] = []

    def slot(self, parent: QObject | None = None, memory_hint: str = "text") -> JobSlot:
        """A JobSlot for work that outlives no window: the runner stops it when the window closes."""
        self._slots = [s for s in self._slots if shiboken6.isValid(s)]
        slot = JobSlot(parent or self, memory_hint)
        self._slots.append(slot)
        return slot

    def stop(self) -> None:
        """The window is closing: cancel every job and the traces, and wait for their threads."""
        for slot in self._slots:
            if shiboken6.isValid(slot):
                slot.shutdown(30_000)
        self._slots = []
        self.traces.stop()
        from explorer.tokenize.guard import stop_helpers

        stop_helpers()  # the tokenizer's helper threads, idle now: the closed window leaves no thread


_DEFAULT: JobRunner | None = None


def runner_of(widget) -> JobRunner:
    """The runner of the main window ``widget`` is in, or (a panel built on its own) the process's own."""
    global _DEFAULT
    window = widget.window() if hasattr(widget, "window") else None
    runner = getattr(window, "runner", None)
    if isinstance(runner, JobRunner):
        return runner
    if _DEFAULT is None:
        _DEFAULT = JobRunner()
    return _DEFAULT
