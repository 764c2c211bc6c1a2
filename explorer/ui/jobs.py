"""The one way the window runs work off the GUI thread.

A ``Job`` runs ``work(report, cancel)`` on a thread of its own (torch loads and runs there, never in the
GUI's): ``report.progress(done, total, what)`` and ``report.send(value)`` (a generation's step, a training
run's batch of progress) reach the window as signals; ``cancel`` is an Event the work checks. Every job ends
in exactly one of ``succeeded``, ``cancelled`` or ``failed`` (one translated line, from the one error policy,
``failure`` in explorer/ui/job_failure.py), so a thread never dies silently. ``JobSlot`` keeps at most one job per panel
(the newest request wins), and the ``JobRunner`` owns the models built so far (explorer/session/model_cache.py) and the
trace queue (explorer/ui/worker.py): views give it a model's source, never a model.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from explorer.errors import ExplorerError
from explorer.session.model_cache import ModelCache
from explorer.ui.job_failure import failure
from explorer.ui.worker import TraceWorker, build_model

__all__ = ["Job", "JobRunner", "JobSlot", "Report", "failure", "runner_of"]


class Report:
    """What running work tells the window (from its own thread; the job's signals queue it to the GUI's)."""

    def __init__(self, job: Job) -> None:
        self._job = job

    def progress(self, done: int, total: int, what: str = "") -> None:
        self._job.progressed.emit(done, total, what)

    def send(self, value: Any) -> None:
        self._job.sent.emit(value)


# work(report, cancel) → result; it imports what it needs from the core when it runs (off the GUI thread).
Work = Callable[[Report, threading.Event], Any]


class Job(QThread):
    progressed = Signal(int, int, str)  # done, in all, what
    sent = Signal(object)  # a partial result, as the work sends it
    succeeded = Signal(object)
    cancelled = Signal()
    failed = Signal(str)  # one line; ``error`` keeps the ExplorerError with its fields

    def __init__(self, work: Work, parent=None, stale_when_cancelled: bool = False, memory_hint: str = "text") -> None:
        """``stale_when_cancelled``: a result returned after ``cancel`` is dropped (asked again meanwhile)
        rather than kept (a generation or a training run stopped early keeps what it made)."""
        super().__init__(parent)
        self.work = work
        self.error: ExplorerError | None = None
        self._cancel = threading.Event()
        self._stale = stale_when_cancelled
        self._memory_hint = memory_hint

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelling(self) -> bool:
        return self._cancel.is_set()

    def run(self) -> None:  # noqa: D401 - QThread entry point
        try:
            result = self.work(Report(self), self._cancel)
        except BaseException as exc:  # noqa: BLE001 - the one policy: every ending is one signal
            message = failure(exc, self._memory_hint)
            if message is None:
                self.cancelled.emit()
            else:
                self.error = exc if isinstance(exc, ExplorerError) else None
                self.failed.emit(message)
        else:
            if self._stale and self._cancel.is_set():
                self.cancelled.emit()  # asked again while this ran: its result is stale
            else:
                self.succeeded.emit(result)


# Jobs whose panel closed before they ended (the wait ran out on a busy machine): kept here, out of their
# panel's ownership, until they finish. Qt aborts the process when a QThread is destroyed while it runs, and the
# panel's deletion would destroy it (seen once in `make test-loaded`: a Model view job outliving its window).
# Let go on the GUI thread: a slot run by ``finished`` in the job's own thread dropped the last reference
# there, and a QThread destroyed by itself crashes.
class _Keeper(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.jobs: set[Job] = set()

    def keep(self, job: Job) -> None:
        job.setParent(None)
        self.jobs.add(job)
        job.finished.connect(self.release)  # a QObject's method: queued to this (the GUI) thread

    @Slot()
    def release(self) -> None:
        job = self.sender()
        self.jobs.discard(job)
        if job is not None:
            job.deleteLater()


_keeper: _Keeper | None = None


def _keep_until_finished(job: Job) -> None:
    global _keeper
    if _keeper is None:
        _keeper = _Keeper()
    _keeper.keep(job)


class JobSlot(QObject):
    """At most one Job at a time for one panel; results of a cancelled or superseded call never arrive."""

    succeeded = Signal(object)
    failed = Signal(str)
    progressed = Signal(int, int)
    busyChanged = Signal(bool)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.job: Job | None = None
        self._next: Work | None = None
        self._closed = False

    @property
    def busy(self) -> bool:
        return self.job is not None

    def submit(self, work: Work) -> None:
        if self._closed:  # the panel is closing: a request that arrives now (a last trace) starts nothing
            return
        if self.job is not None:
            self._next = work
            self.job.cancel()
            return
        self.job = Job(work, self, stale_when_cancelled=True)
        self.job.succeeded.connect(self.succeeded)
        self.job.failed.connect(self.failed)
        # A bound method, not a lambda holding ``self``: with the lambda, a slot dropped by its owner right
        # after its jobs ended crashed the process under load ("shared QObject was deleted directly", a
        # segfault; tests/ui/test_jobs.py), 6 runs in 7 of a stress loop, 0 in 8 with the method.
        self.job.progressed.connect(self._progressed)
        self.job.finished.connect(self._finished)
        self.busyChanged.emit(True)
        self.job.start()

    def _progressed(self, done: int, total: int, _what: str = "") -> None:
        self.progressed.emit(done, total)

    def cancel(self) -> None:
        self._next = None
        if self.job is not None:
            self.job.cancel()

    def _finished(self) -> None:
        job, self.job = self.job, None
        if job is not None:
            job.deleteLater()
        work, self._next = self._next, None
        if work is not None:
            self.submit(work)
        else:
            self.busyChanged.emit(False)

    def shutdown(self, wait_ms: int = 10_000) -> None:
        """The window is closing: stop, wait, and start nothing more. A job still running after ``wait_ms``
        is kept alive apart from the panel until it ends."""
        self._closed = True
        self.cancel()
        if self.job is not None and not self.job.wait(wait_ms):
            _keep_until_finished(self.job)


class JobRunner(QObject):
    """The window's background work: the models built so far, the trace queue, and one-off jobs."""

    def __init__(self, parent=None, models: ModelCache | None = None) -> None:
        super().__init__(parent)
        self.models = models or ModelCache(build_model)
        self.traces = TraceWorker(self, models=self.models)
        self._jobs: set[Job] = set()

    def job(self, work: Work, parent: QObject | None = None, **how: Any) -> Job:
        """A Job for ``work``: connect to its signals, then ``start()`` it. The runner stops it on closing."""
        job = Job(work, parent or self, **how)
        self._jobs.add(job)
        job.finished.connect(lambda: self._jobs.discard(job))
        return job

    def stop(self) -> None:
        """The window is closing: cancel every job and the trace queue, and wait for their threads."""
        for job in list(self._jobs):
            job.cancel()
            job.wait(30_000)
        self.traces.stop()


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
