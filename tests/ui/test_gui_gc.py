"""The window's process collects garbage on the GUI thread only (explorer/ui/background/gui_gc.py), and gives that
thread the interpreter within a millisecond of asking (explorer/ui/shell/app.py).

A collection made in the trace worker destroyed Qt objects held in reference cycles there and aborted the
process ("pure virtual method called"; benchmarks/bench_stall.py, one run in two)."""

from __future__ import annotations

import gc
import sys
import threading

import pytest


class _Cycle:
    """An object in a reference cycle that notes the thread which destroyed it."""

    died_in: list[int] = []

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        _Cycle.died_in.append(threading.get_ident())


@pytest.fixture
def app_policies(qapp):
    """create_application's policies, undone afterwards (the rest of the suite keeps Python's own)."""
    from explorer.ui.shell.app import create_application

    switch, enabled = sys.getswitchinterval(), gc.isenabled()
    sys.setswitchinterval(0.005)
    gc.enable()
    assert create_application() is qapp
    yield qapp
    sys.setswitchinterval(switch)
    collector = qapp._gui_thread_gc
    from PySide6.QtCore import QAbstractEventDispatcher

    QAbstractEventDispatcher.instance().aboutToBlock.disconnect(collector.collect_due)
    qapp._gui_thread_gc = None
    (gc.enable if enabled else gc.disable)()


def test_cycles_made_in_a_worker_thread_are_collected_on_the_gui_thread(app_policies, qtbot):
    from explorer.ui.shell.app import GUI_SWITCH_INTERVAL_S

    assert sys.getswitchinterval() == pytest.approx(GUI_SWITCH_INTERVAL_S) and GUI_SWITCH_INTERVAL_S <= 0.001
    gc.collect()
    _Cycle.died_in.clear()

    def worker() -> None:
        for _ in range(5 * gc.get_threshold()[0]):  # far past the point where the collector would run here
            _Cycle()

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(60)
    assert not thread.is_alive()
    assert thread.ident not in _Cycle.died_in  # no collection ran in the worker
    qtbot.waitUntil(lambda: len(_Cycle.died_in) > 0, timeout=30_000)  # the GUI thread's loop waits: collected
    assert set(_Cycle.died_in) == {threading.get_ident()}


def test_a_window_left_alone_never_collects(app_policies, qtbot):
    gc.collect()
    _Cycle.died_in.clear()
    before = gc.get_count()
    qtbot.wait(300)  # the loop blocks and wakes; nothing allocated past a threshold, nothing collected
    assert _Cycle.died_in == [] and gc.get_count()[0] <= before[0] + gc.get_threshold()[0]


def _cycles_in_a_worker(count: int) -> None:
    thread = threading.Thread(target=lambda: [_Cycle() for _ in range(count)])
    thread.start()
    thread.join(60)
    assert not thread.is_alive()


def test_start_up_collects_nothing_then_freezes_what_it_made(app_policies, qtbot):
    """While the window starts nothing is collected (start-up scanning torch's objects cost 0.15 s); at the
    first trace what start-up made is frozen, never scanned again, and collection goes on for what follows."""
    from PySide6.QtCore import QObject, Signal

    class FirstTrace(QObject):
        traceChanged = Signal(object)
        errorRaised = Signal(str)

    collector, first = app_policies._gui_thread_gc, FirstTrace()
    gc.collect()
    _Cycle.died_in.clear()
    frozen = gc.get_freeze_count()
    collector.hold_until_started()
    collector.start_after_first(first.traceChanged, first.errorRaised)
    try:
        _cycles_in_a_worker(5 * gc.get_threshold()[0])
        collector.collect_due()  # what the loop does before it waits
        assert _Cycle.died_in == [] and collector.starting
        first.traceChanged.emit(object())
        qtbot.waitUntil(lambda: not collector.starting, timeout=30_000)
        assert gc.get_freeze_count() > frozen + 5 * gc.get_threshold()[0]  # the start's cycles among them
        collector.collect_due()
        assert _Cycle.died_in == []  # frozen: never collected (they are what start-up leaves, once)
        _cycles_in_a_worker(5 * gc.get_threshold()[0])
        qtbot.waitUntil(lambda: len(_Cycle.died_in) > 0, timeout=30_000)  # made after the start: collected
        assert set(_Cycle.died_in) == {threading.get_ident()}
    finally:
        collector.started()
        gc.unfreeze()


def test_an_error_before_any_trace_also_ends_the_start(app_policies, qtbot):
    from PySide6.QtCore import QObject, Signal

    class FirstError(QObject):
        traceChanged = Signal(object)
        errorRaised = Signal(str)

    collector, first = app_policies._gui_thread_gc, FirstError()
    collector.hold_until_started()
    collector.start_after_first(first.traceChanged, first.errorRaised)
    try:
        first.errorRaised.emit("no such model")
        qtbot.waitUntil(lambda: not collector.starting, timeout=30_000)
    finally:
        collector.started()
        gc.unfreeze()
