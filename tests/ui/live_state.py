"""A state wired to a real trace worker, without the whole main window (faster, and independent of the
other views). Preset models are loaded once per test session."""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache

from explorer.trace import run_trace
from explorer.ui.background.worker import TraceWorker
from explorer.ui.bridge.state import AppState, ModelSource
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

    # Wired as the main window wires it: only the newest request's results arrive (the runner's one rule),
    # and an error keeps its fields.
    def submit(request):
        worker.submit(request)

    state.requestToRun.connect(submit)
    worker.baselineReady.connect(lambda _g, b: state.set_baseline(b))
    worker.traceReady.connect(lambda _g, trace, editable: state.set_trace(trace, editable))
    worker.traceFailed.connect(lambda _g, message, error: state.report_error(message, error))
    worker.busyChanged.connect(state.set_busy)
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
