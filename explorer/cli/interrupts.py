"""Ctrl-C is Ctrl-C, whatever the work was doing when it came: a KeyboardInterrupt raised inside torch's or
a loader's C code can come back as another error ("… is damaged or truncated" while a model loads), and the
command said that instead of stopping; inside PySide6 it comes back as a SystemError. Within
``noted_interrupts`` an error that follows an interrupt is the interrupt: the command prints `interrupted` and
exits 130 (explorer/cli/__init__.py)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from explorer.errors import ExplorerError


@contextmanager
def noted_interrupts() -> Iterator[None]:
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield  # someone else handles Ctrl-C (the window, a test runner)
        return
    hit: list[bool] = []

    def interrupted(signum, frame):
        hit.append(True)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    except (ExplorerError, SystemError):
        # SystemError: PySide6 turns a KeyboardInterrupt raised while it converts an argument (a render hint, as a
        # lesson's page is painted) into "bad argument to internal function"
        if hit:
            raise KeyboardInterrupt from None
        raise
    finally:
        signal.signal(signal.SIGINT, previous)
