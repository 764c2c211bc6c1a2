"""Measuring the window: when did the views last paint, and how long did the event loop stall."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer


class PaintRecorder(QObject):
    """Event filter on a set of widgets: the time of the latest paint event any of them received."""

    def __init__(self, widgets) -> None:
        super().__init__()
        self.last_paint = 0.0
        self.count = 0
        self.painted: dict[int, QObject] = {}  # what received a paint event since the caller last cleared it
        for w in widgets:
            w.installEventFilter(self)
            for child in w.findChildren(QObject):
                if hasattr(child, "installEventFilter"):
                    child.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        # The text box's blinking cursor repaints on its own every half second: not a view drawing a trace.
        if event.type() == QEvent.Type.Paint and not _is_text_box(obj):
            self.last_paint = time.perf_counter()
            self.count += 1
            self.painted[id(obj)] = obj
        return False


def _is_text_box(obj) -> bool:
    from PySide6.QtWidgets import QPlainTextEdit, QProgressBar

    return isinstance(obj, (QPlainTextEdit, QProgressBar)) or isinstance(obj.parent(), QPlainTextEdit)


class StallMeter(QObject):
    """A 2 ms timer: the longest gap between its ticks is the longest time the event loop was busy."""

    def __init__(self, interval_ms: int = 2) -> None:
        super().__init__()
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)
        self.gaps: list[float] = []
        self._last = None

    def start(self) -> None:
        self._last = time.perf_counter()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append((now - self._last) * 1000)
        self._last = now

    @property
    def max_gap_ms(self) -> float:
        return max(self.gaps, default=0.0)


def settle(app, recorder: PaintRecorder, quiet_ms: float = 120, timeout_s: float = 30) -> float:
    """Run the event loop until nothing has painted for ``quiet_ms``; returns the last paint time."""
    deadline = time.perf_counter() + timeout_s
    while time.perf_counter() < deadline:
        app.processEvents()
        if recorder.last_paint and (time.perf_counter() - recorder.last_paint) * 1000 > quiet_ms:
            break
        time.sleep(0.001)
    return recorder.last_paint


def wait_until(app, done, timeout_s: float = 30) -> None:
    """Run the event loop as the application does, until ``done()``: between events the GUI thread sleeps.

    A loop that spins on processEvents() keeps one of the two cores and the interpreter lock busy, and
    the worker thread it waits for gets the rest: measured, the 3 ms classroom trace then took 100 ms.
    A 1 ms timer wakes the loop to look at ``done`` again."""
    poll = QTimer()
    poll.setInterval(1)
    poll.start()
    deadline = time.perf_counter() + timeout_s
    try:
        while not done() and time.perf_counter() < deadline:
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
    finally:
        poll.stop()


def main_window(state):
    """The main window for ``state`` as `attention-explorer gui` builds it, its garbage collection included
    (explorer/ui/shell/app.py launch: nothing collected until the first trace is shown, then start-up frozen)."""
    from PySide6.QtWidgets import QApplication

    from explorer.ui.background.gui_gc import collect_on_gui_thread
    from explorer.ui.shell.main_window import MainWindow

    collector = collect_on_gui_thread(QApplication.instance())
    collector.hold_until_started()
    window = MainWindow(state, restore_layout=False)
    collector.start_after_first(state.traceChanged, state.errorRaised)
    return window
