"""One call into the core on a background thread (the logit lens, an attribution): torch loads and runs there,
never in the GUI's. ``JobSlot`` keeps at most one such call per panel: asking again while one runs cancels it
and runs the newest when it stops (the newest request wins, as in the trace worker)."""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from explorer.errors import Cancelled, ExplorerError

# work(progress, cancel) → result; it imports what it needs from the core when it runs (off the GUI thread).
Work = Callable[[Callable[[int, int], None], threading.Event], Any]


class CoreJob(QThread):
    progressed = Signal(int, int)  # done, in all
    succeeded = Signal(object)
    cancelled = Signal()
    failed = Signal(str)  # one-line message

    def __init__(self, work: Work, parent=None) -> None:
        super().__init__(parent)
        self.work = work
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    def run(self) -> None:  # noqa: D401 - QThread entry point
        try:
            result = self.work(lambda done, total: self.progressed.emit(done, total), self._cancel)
        except Cancelled:
            self.cancelled.emit()
        except ExplorerError as exc:
            self.failed.emit(str(exc))
        except MemoryError:
            self.failed.emit(self.tr("out of memory: make the model or the text smaller"))
        except BaseException as exc:  # noqa: BLE001 - a bug: one line here, details on stderr
            traceback.print_exc()
            self.failed.emit(self.tr("internal error ({kind}: {message}); please report it").format(kind=type(exc).__name__, message=exc))
        else:
            if self._cancel.is_set():
                self.cancelled.emit()  # asked again while this ran: its result is stale
            else:
                self.succeeded.emit(result)


class JobSlot(QObject):
    """At most one CoreJob at a time for one panel; results of a cancelled or superseded call never arrive."""

    succeeded = Signal(object)
    failed = Signal(str)
    progressed = Signal(int, int)
    busyChanged = Signal(bool)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.job: CoreJob | None = None
        self._next: Work | None = None

    @property
    def busy(self) -> bool:
        return self.job is not None

    def submit(self, work: Work) -> None:
        if self.job is not None:
            self._next = work
            self.job.cancel()
            return
        self.job = CoreJob(work, self)
        self.job.succeeded.connect(self.succeeded)
        self.job.failed.connect(self.failed)
        self.job.progressed.connect(self.progressed)
        self.job.finished.connect(self._finished)
        self.busyChanged.emit(True)
        self.job.start()

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

    def shutdown(self) -> None:
        """The window is closing: stop and wait."""
        self.cancel()
        if self.job is not None:
            self.job.wait(10_000)
