"""GUI test fixtures shared by the tests/ui files: isolated settings, a state, the note's sentence traced once,
a state answered by the real engine at once, and main windows that have shown their first trace."""

from __future__ import annotations

import gc

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QFont


@pytest.fixture(autouse=True)
def collect_on_the_gui_thread(qapp):
    """No automatic garbage collection while a GUI test runs, one on this thread after it, as the app does
    (explorer/ui/shell/app.py collect_on_gui_thread): run in a worker thread, a collection destroyed Qt objects
    held in cycles there, which aborts the process ("pure virtual method called")."""
    was_enabled = gc.isenabled()
    gc.disable()
    yield
    gc.unfreeze()  # what a launch() froze at its start (explorer/ui/background/gui_gc.py) is collectable again
    gc.collect()
    if was_enabled:
        gc.enable()


_STILL_RUNNING = []  # default runners whose trace thread outlived the wait: kept, never destroyed running


@pytest.fixture(autouse=True)
def fresh_default_runner(qapp):
    """Panels built on their own share the process's job runner (explorer/ui/background/job_runner.py runner_of) and the
    models it has built. Each test ends it: a model an earlier test left there made the Model view run that model
    instead of reading the trace (test_a_snapshot_missing_layers_says_so, in the order another worker ran)."""
    yield
    from explorer.ui.background import job_runner

    runner, job_runner._DEFAULT = job_runner._DEFAULT, None
    if runner is not None:
        runner.stop()
        if runner.traces.isRunning():
            _STILL_RUNNING.append(runner)


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path, qapp):
    from explorer.ui.preferences import settings

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    settings.set_folder(tmp_path / "settings")  # the app's settings file (explorer/ui/preferences/settings.py)
    yield
    settings.flush()  # what the test changed is written into its own folder now, not at the next test's


@pytest.fixture(autouse=True)
def default_palette_and_text_size(qapp):
    """Each test starts at the default palette and 100 % text: both are process-wide (View → Colours, Text
    size), and a test that changed them once made the next test's map smaller or its colours another's."""
    from explorer.present import palettes
    from explorer.ui.preferences import text_size

    palettes.set_current(palettes.DEFAULT)
    text_size.apply(text_size.DEFAULT, remember=False)
    font = QFont(qapp.font())
    yield
    qapp.setFont(font)  # a test that left the application font larger (presentation, text size) leaves it here


@pytest.fixture
def state():
    from explorer.ui.bridge.state import AppState

    return AppState()


@pytest.fixture(scope="session")
def trace():
    """The default preset's trace of "This is a pen ." (a Trace is immutable: one serves every test)."""
    from live_state import make_trace

    return make_trace("This is a pen .", "classroom")


@pytest.fixture
def traced(state):
    """The state with the real engine answering every request at once (no worker thread, no window):
    a click that changes the text or the sizes gets its new trace before the click returns."""
    from explorer.trace.run import run_trace
    from explorer.ui.background.worker import build_bundle

    def run(request):
        state.set_trace(run_trace(build_bundle(request.source), request.text, request.options))

    state.requestChanged.connect(run)
    run(state.request)
    return state


@pytest.fixture
def open_window(qtbot):
    """``open_window(state, show=True, **MainWindow options)``: a real main window on ``state``, started, once
    its first trace is in. The test closes it (closing is often what it checks)."""
    from explorer.ui.shell.main_window import MainWindow

    def open_(state, show: bool = True, **options):
        w = MainWindow(state, **options)
        qtbot.addWidget(w)
        if show:
            w.show()
        with qtbot.waitSignal(state.traceChanged, timeout=30_000):
            w.start()
        return w

    return open_


@pytest.fixture
def window(open_window, state):
    """The real main window on the default preset, after its first trace is on screen."""
    w = open_window(state)
    yield w
    w.close()
    assert not w.worker.isRunning()


@pytest.fixture
def input_view(qtbot, state):
    """The Text panel on ``state``, shown at 700×260."""
    from explorer.ui.views.tokens.input_view import InputView

    v = InputView(state)
    qtbot.addWidget(v)
    v.resize(700, 260)
    v.show()
    return v
