"""A state wired to a real trace worker, without the whole main window (faster, and independent of the
other views). Preset models are loaded once per test session."""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache

from explorer.trace import run_trace
from explorer.ui.state import AppState, ModelSource
from explorer.ui.worker import TraceWorker
from explorer.weights.presets import load_preset


@lru_cache(maxsize=4)
def preset_bundle(name: str = "classroom"):
    return load_preset(name)


def make_trace(text: str = "This is a pen .", preset: str = "classroom", **options):
    from explorer.config import RunOptions

    return run_trace(preset_bundle(preset), text, RunOptions(**options))


@contextmanager
def live(state: AppState, qtbot, timeout: int = 30_000):
    """Wire ``state`` to a worker as the main window does, and wait for the first trace."""
    worker = TraceWorker()
    for name in ("classroom", "seed-toy"):
        worker.models.put(ModelSource("preset", name), preset_bundle(name))
    latest = {"g": 0}

    def submit(request):
        latest["g"] = worker.submit(request)

    def ready(g, trace, editable):
        if g == latest["g"]:
            state.set_trace(trace, editable)

    def failed(g, message, error=None):  # wired as the main window wires it: the error keeps its fields
        if g == latest["g"]:
            state.report_error(message, error)

    state.requestToRun.connect(submit)
    worker.baselineReady.connect(lambda g, b: g == latest["g"] and state.set_baseline(b))
    worker.traceReady.connect(ready)
    worker.traceFailed.connect(failed)
    worker.busyChanged.connect(state.set_busy)
    worker.start()
    try:
        with qtbot.waitSignal(state.traceChanged, timeout=timeout):
            submit(state.request)
        yield worker
    finally:
        worker.stop()
        state.requestToRun.disconnect(submit)


def wait_trace(qtbot, state, check, timeout: int = 20_000):
    """Wait until the state shows a trace for which ``check(trace)`` holds."""
    qtbot.waitUntil(lambda: state.trace is not None and check(state.trace), timeout=timeout)
    return state.trace
