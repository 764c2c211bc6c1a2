"""Python's garbage collection on the GUI thread only.

The collector runs in whichever thread happens to allocate when a generation's count passes its threshold.
Run in the trace worker, it destroyed Qt objects held in reference cycles there: "QBasicTimer::start: Timers
cannot be started from another thread", then "pure virtual method called" and an abort (seen in
benchmarks/bench_stall.py, one run in two). pyqtgraph's GarbageCollector has the cure and collects from a
1 s timer; a timer wakes a window left alone and lands its collections in the quiet after a click. Here the
automatic collector is off and the GUI thread collects, by the same generation thresholds, each time its
event loop is about to wait: at the end of every burst of work, and never while the window is idle.

Start-up collects nothing: what it makes (the libraries' modules and the window) lives as long as the
process, and scanning it cost the start 0.15 s (102 collections, one of 72 ms, while torch was imported in the
worker). Once the first trace is shown, ``started`` moves all of it into the collector's permanent generation
(``gc.freeze``), so that no later collection scans it again: a full collection scanned torch's objects too.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QAbstractEventDispatcher, QObject, QTimer


class GuiThreadCollector(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.threshold = gc.get_threshold()  # (gen 0 allocations, gen 0 runs per gen 1, gen 1 runs per gen 2)
        self.starting = False
        self._first: list = []  # the signals whose first emission ends the start
        gc.disable()
        QAbstractEventDispatcher.instance().aboutToBlock.connect(self.collect_due)

    def hold_until_started(self) -> None:
        """No collection until ``started``: the process is starting."""
        self.starting = True

    def started(self) -> None:
        """Start-up is over: what it made is frozen (never scanned again), collections by threshold begin."""
        for signal in self._first:  # once is enough: not a timer for every trace after
            try:
                signal.disconnect(self._first_came)
            except (RuntimeError, TypeError):  # its object is gone (a window closed before its first trace)
                pass
        self._first = []
        if self.starting:
            self.starting = False
            gc.freeze()

    def start_after_first(self, *signals) -> None:
        """``started`` once the first of ``signals`` has been handled (the first trace drawn, or an error said)."""
        for signal in signals:
            signal.connect(self._first_came)
            self._first.append(signal)

    def _first_came(self, *_args) -> None:
        QTimer.singleShot(0, self, self.started)  # after the slots that draw it

    def collect_due(self) -> None:
        """The collections the automatic collector would have made by now, oldest generation last."""
        if self.starting:
            return
        counts = gc.get_count()
        if counts[0] > self.threshold[0]:
            generation = (
                2
                if counts[1] > self.threshold[1] and counts[2] > self.threshold[2]
                else int(counts[1] > self.threshold[1])
            )
            gc.collect(generation)


def collect_on_gui_thread(app) -> GuiThreadCollector:
    """Install the collector once for ``app`` (a QApplication, on its own thread); the automatic collector is
    turned off at every call, whoever turned it on meanwhile."""
    collector = getattr(app, "_gui_thread_gc", None)
    if collector is None:
        collector = app._gui_thread_gc = GuiThreadCollector(app)
    gc.disable()
    return collector
