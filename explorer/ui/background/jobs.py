"""The one way the window works off the GUI thread, and the one rule that drops a stale result.

Every piece of background work (a trace, a model load, a training run, the Model view's maps, the lens, an
attribution, the sweep, a generation, a worksheet's trace) is a ``work(report, cancel)`` of explorer/work/,
submitted to a ``JobSlot``. The slot runs it as a ``Job``, the one QThread subclass of the code base (torch
loads and runs there, never in the GUI's thread), one at a time: a request submitted while another runs
cancels that one and runs next; requests in between are dropped (the newest wins).

The rule: every job carries a ticket, a number its slot gave it, and the slot passes on what a job says
(progress, a partial result, its result, its failure) only while that ticket is the slot's current one. A
later ``submit`` or a ``drop`` makes every earlier ticket stale. ``cancel`` only asks the running job to
stop: what it ends with (a generation stopped early, a training run's last checkpoint, "cancelled") arrives.

A work function holds no QObject (a view, a slot, the trace kind): the job keeps its work until the slot
lets it go, and the last reference to a QObject dropped then destroyed that object inside its own slot (a
segfault, seen when a trace job's work held the trace kind).

Every job ends in exactly one of succeeded, cancelled or failed (one translated line from the one error
policy, ``failure`` in explorer/ui/background/job_failure.py), so a thread never dies silently. The ``JobRunner`` owns
the models built so far (explorer/work/model_cache.py) and the trace kind of job (explorer/ui/background/worker.py),
hands out slots, and stops them all when the window closes: views give it a model's source, never a model.
"""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from explorer.errors import ExplorerError
from explorer.ui.background.job_failure import failure
from explorer.work.report import Work

__all__ = ["Job", "JobSlot", "Report", "Work", "failure"]


class Report:
    """What running work tells the window (from its own thread; the job's signals queue it to the GUI's)."""

    def __init__(self, job: Job) -> None:
        self._job = job

    def progress(self, done: int, total: int, what: str = "") -> None:
        self._job.progressed.emit(self._job.ticket, done, total, what)

    def send(self, value: Any) -> None:
        self._job.sent.emit(self._job.ticket, value)

    def superseded(self) -> bool:
        """A newer request came to this job's slot: what this job makes now will be dropped."""
        return self._job.ticket != self._job.tickets.current


class Tickets:
    """A slot's current ticket, shared with its jobs (read from their threads: a plain int, no Qt object)."""

    def __init__(self) -> None:
        self.current = 0


class Job(QThread):
    """One run of ``work`` on a thread of its own; every signal carries the job's ticket."""

    progressed = Signal(int, int, int, str)  # ticket, done, in all, what
    sent = Signal(int, object)  # ticket, a partial result as the work sends it
    succeeded = Signal(int, object)  # ticket, the result
    cancelled = Signal(int)  # ticket
    failed = Signal(int, str, object)  # ticket, one line, the ExplorerError (its fields) or None

    def __init__(self, work: Work, tickets: Tickets, parent=None, memory_hint: str = "text") -> None:
        super().__init__(parent)
        self.work = work
        self.tickets = tickets
        self.ticket = tickets.current
        self._cancel = threading.Event()
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
                self.cancelled.emit(self.ticket)
            else:
                self.failed.emit(self.ticket, message, exc if isinstance(exc, ExplorerError) else None)
        else:
            self.succeeded.emit(self.ticket, result)


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
    """At most one Job at a time for one panel (or one kind of work); only the current ticket's reports
    arrive. ``failed`` carries the one line and the ExplorerError with its fields (or None)."""

    succeeded = Signal(object)
    sent = Signal(object)
    cancelled = Signal()
    failed = Signal(str, object)
    progressed = Signal(int, int, str)  # done, in all, what
    busyChanged = Signal(bool)

    def __init__(self, parent=None, memory_hint: str = "text") -> None:
        super().__init__(parent)
        self.job: Job | None = None
        self.tickets = Tickets()
        self._next: Work | None = None
        self._closed = False
        self._memory_hint = memory_hint

    @property
    def ticket(self) -> int:
        """The current ticket: the last request's."""
        return self.tickets.current

    @property
    def busy(self) -> bool:
        return self.job is not None

    def submit(self, work: Work, cancel_running: bool = True) -> int:
        """Run ``work`` as soon as the running job (if any) has ended; its ticket (returned) is the current
        one from now on. ``cancel_running=False`` lets the running job go on to its end (its reports are
        stale all the same): the trace kind keeps a model load that the new request needs too."""
        self.tickets.current += 1
        if self._closed:  # the panel is closing: a request that arrives now (a last trace) starts nothing
            return self.tickets.current
        self._next = work
        if self.job is None:
            self._start_next()
        elif cancel_running:
            self.job.cancel()
        return self.tickets.current

    def cancel(self) -> None:
        """Ask the running job to stop; what it ends with still arrives. A waiting request is dropped."""
        self._next = None
        if self.job is not None:
            self.job.cancel()

    def drop(self) -> int:
        """Nothing asked so far is wanted any more: stop the running job, and let nothing of it arrive."""
        self.tickets.current += 1
        self.cancel()
        return self.tickets.current

    def shutdown(self, wait_ms: int = 10_000) -> None:
        """The window is closing: stop, wait, and start nothing more. A job still running after ``wait_ms``
        is kept alive apart from the panel until it ends."""
        self._closed = True
        self.cancel()
        if self.job is not None and not self.job.wait(wait_ms):
            _keep_until_finished(self.job)

    # ------------------------------------------------------------------ the one rule
    def _current(self, ticket: int) -> bool:
        """Is ``ticket`` the slot's current one? Anything a job says under an older ticket is dropped."""
        return ticket == self.tickets.current

    # Bound methods, not lambdas holding ``self``: with a lambda, a slot dropped by its owner right after its
    # jobs ended crashed the process under load ("shared QObject was deleted directly", a segfault;
    # tests/ui/test_jobs.py), 6 runs in 7 of a stress loop, 0 in 8 with the method.
    def _progressed(self, ticket: int, done: int, total: int, what: str) -> None:
        if self._current(ticket):
            self.progressed.emit(done, total, what)

    def _sent(self, ticket: int, value: Any) -> None:
        if self._current(ticket):
            self.sent.emit(value)

    def _succeeded(self, ticket: int, result: Any) -> None:
        if self._current(ticket):
            self.succeeded.emit(result)

    def _cancelled(self, ticket: int) -> None:
        if self._current(ticket):
            self.cancelled.emit()

    def _failed(self, ticket: int, message: str, error: Any) -> None:
        if self._current(ticket):
            self.failed.emit(message, error)

    # ------------------------------------------------------------------ one job after another
    def _start_next(self) -> None:
        work, self._next = self._next, None
        if work is None:
            return
        idle = self.job is None
        job = self.job = Job(work, self.tickets, self, self._memory_hint)
        job.progressed.connect(self._progressed)
        job.sent.connect(self._sent)
        job.succeeded.connect(self._succeeded)
        job.cancelled.connect(self._cancelled)
        job.failed.connect(self._failed)
        job.finished.connect(self._finished)
        job.start()
        if idle:
            self.busyChanged.emit(True)

    def _finished(self) -> None:
        job = self.job
        if job is not None:
            job.deleteLater()
        if self._next is not None and not self._closed:
            self._start_next()  # busy all along: one job after the other
        else:
            self.job = None
            self.busyChanged.emit(False)
