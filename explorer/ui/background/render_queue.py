"""One redraw per turn of the event loop, for long inputs.

A 1024-token trace takes each view tens of milliseconds to draw; drawn all at once when the trace arrives,
the window freezes for the sum. Views post their redraw here instead; the queue runs one job per turn of the
event loop (a zero-interval timer re-armed after each job), so input, the progress bar and repaints get in
between. A job posted again under the same key before it ran is replaced: only the latest redraw runs.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QObject, QTimer

# Traces with at least this many tokens in a sentence are drawn view by view (smaller ones draw at once:
# a classroom sentence redraws every view in a few milliseconds, and tests read the views right away).
STAGGER_TOKENS = 256


class RenderQueue(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._jobs: OrderedDict[tuple, tuple[QObject, Callable[[], None]]] = OrderedDict()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._run_one)

    def post(self, owner: QObject, slot: object, job: Callable[[], None]) -> None:
        """Run ``job`` (a redraw of ``owner``) in a later turn; it replaces a pending job of the same slot."""
        self._jobs[(id(owner), slot)] = (owner, job)  # replaced in place: it keeps its turn
        if not self._timer.isActive():
            self._timer.start()

    def cancel(self, owner: QObject, slot: object) -> None:
        self._jobs.pop((id(owner), slot), None)

    def pending(self) -> int:
        return len(self._jobs)

    def flush(self) -> None:
        """Run every pending job now (tests, exports, screenshots that need the views drawn)."""
        while self._jobs:
            self._run_one()

    def _run_one(self) -> None:
        if self._jobs:
            _, (owner, job) = self._jobs.popitem(last=False)
            if shiboken6.isValid(owner):  # its window may have been closed and deleted meanwhile
                job()
        if self._jobs:
            self._timer.start()


_queue: RenderQueue | None = None


def render_queue() -> RenderQueue:
    """The application's queue (created on first use, on the GUI thread)."""
    global _queue
    if _queue is None:
        _queue = RenderQueue()
    return _queue


def is_long(trace) -> bool:
    return trace is not None and max((r.length for r in trace.rows), default=0) >= STAGGER_TOKENS
