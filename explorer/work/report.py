"""What every work function is: ``work(report, cancel) -> result``. The window's job runner
(explorer/ui/background/jobs.py) runs it on a thread of its own; ``report.progress(done, total, what)`` and
``report.send(value)`` (a partial result: a generation's step, a layer's maps) reach the window, and
``cancel`` is an Event the work checks between its steps.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol


class Report(Protocol):
    def progress(self, done: int, total: int, what: str = "") -> None: ...

    def send(self, value: Any) -> None: ...


Work = Callable[[Report, threading.Event], Any]
