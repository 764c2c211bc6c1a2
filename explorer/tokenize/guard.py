"""Calls given up after a time limit, without a thread per call: the tokenizer library's encode can run for
minutes on a hostile tokenizer.json and cannot be stopped, so it runs on a helper thread while the caller
waits at most ``seconds``. The helpers are daemon threads that live on and serve call after call; a call
that is given up keeps its helper until it ends (then the helper serves again), and the next call takes
another one. So the number of helpers is the number of calls at the same time plus the ones still stuck,
never the number of calls made. ``stop_helpers`` ends the idle ones (a window closing leaves no thread).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class TimedOut(Exception):
    """The call did not end within its time limit (it goes on, abandoned, on its helper)."""


class _Helper:
    """One daemon thread that runs the calls handed to it, one after another, until told to stop."""

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        # Daemon: a call stuck for minutes must not keep the process from exiting.
        self.thread = threading.Thread(target=self._serve, name="tokenize", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while (call := self._calls.get()) is not None:
            call()

    def run(self, call: Callable[[], None]) -> None:
        self._calls.put(call)

    def stop(self) -> None:
        self._calls.put(None)


_idle: list[_Helper] = []
_lock = threading.Lock()


def call_bounded(fn: Callable[[], T], seconds: float) -> T:
    """``fn()`` run on a helper thread; TimedOut when it takes longer than ``seconds``. What ``fn`` raises
    (a BaseException too: a Rust panic) is raised here."""
    with _lock:
        helper = _idle.pop() if _idle else _Helper()
    outcome: dict[str, Any] = {}
    done = threading.Event()

    def call() -> None:
        try:
            outcome["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, a Rust panic included
            outcome["error"] = exc
        finally:
            with _lock:
                _idle.append(helper)  # before ``done``: the caller's next call finds it idle
            done.set()

    helper.run(call)
    # An Event, not a join: join() calls threading.current_thread(), which registers a never-ending dummy
    # Thread for the window's QThread jobs.
    if not done.wait(seconds):
        raise TimedOut()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def helpers_alive() -> int:
    """How many helper threads run now (idle or busy)."""
    return sum(1 for t in threading.enumerate() if t.name == "tokenize" and t.is_alive())


def stop_helpers(wait_s: float = 5.0) -> None:
    """End the idle helpers and wait for them (a helper busy with an abandoned call ends with the process).
    A later call starts a helper again."""
    with _lock:
        stopping, _idle[:] = list(_idle), []
    for helper in stopping:
        helper.stop()
    for helper in stopping:
        helper.thread.join(wait_s)
