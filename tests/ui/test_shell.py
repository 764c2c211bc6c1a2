"""The window shell: first trace on open, newest request wins, errors keep the last good trace."""

from __future__ import annotations

import threading

from explorer.config import RunOptions
from explorer.ui.background.worker import TraceWorker
from explorer.ui.bridge.state import AppState, ModelSource, TraceRequest


def test_window_opens_with_a_trace_of_the_example(window, state):
    assert state.trace is not None
    assert state.trace.rows[0].tokens == ("This", " is", " a", " pen", " .")  # byte-level BPE pieces keep their space
    assert "layers.0.attn.weights" in state.trace


def test_text_edit_retraces(window, state, qtbot):
    with qtbot.waitSignal(state.traceChanged, timeout=20_000):
        state.set_text("Is this a dog ?")
    assert state.trace.rows[0].tokens[-1] == " ?"


def test_a_new_request_reaches_the_worker_before_any_view_follows_it(window, state, qtbot):
    """The trace computes on its thread while the views follow the request (the model controls, the text
    panel, the menus): submitted after their slots, an edit's trace started 0.6 ms late."""
    controls, seen = window.views["controls"], []
    sync = controls._sync  # a view built (and connected) before the window wired the worker
    controls._sync = lambda: (seen.append((window.worker.generation, state.text)), sync())
    before = window.worker.generation
    with qtbot.waitSignal(state.traceChanged, timeout=20_000):
        state.set_text("Is this a dog ?")
    assert seen == [(before + 1, "Is this a dog ?")]  # the view's slot ran with the worker already asked


def test_newest_request_wins(qtbot):
    worker = TraceWorker()
    results = []
    worker.traceReady.connect(lambda g, t, e: results.append((g, t)))
    try:
        src = ModelSource()
        gens = [worker.submit(TraceRequest(src, f"This is a pen {'.' * (i + 1)}", RunOptions())) for i in range(5)]
        qtbot.waitUntil(lambda: any(g == gens[-1] for g, _ in results), timeout=20_000)
    finally:
        worker.stop()
    assert not worker.isRunning()
    # Requests that arrived while one was computing were dropped or cancelled: fewer results than requests,
    # and the last one shown is the newest.
    assert results[-1][0] == gens[-1]
    assert results[-1][1].rows[0].text.endswith("." * 5)
    assert len(results) < len(gens)


def test_error_keeps_last_trace_and_reports(window, state, qtbot):
    before = state.trace
    with qtbot.waitSignal(state.errorRaised, timeout=20_000) as blocker:
        state.set_text("   ")
    assert "no text" in blocker.args[0]
    assert state.trace is before


def test_closing_leaves_no_thread(open_window, state):
    before = set(threading.enumerate())
    w = open_window(state, show=False)
    w.close()
    assert not w.worker.isRunning()
    assert {t for t in threading.enumerate() if t not in before and t.is_alive()} == set()


def test_long_work_shows_the_first_layer_before_the_rest(window, state, qtbot, monkeypatch):
    """Above PROGRESSIVE_MACS the worker hands over the first captured layer, then the full trace."""
    from explorer.work import tracing as trace_work

    monkeypatch.setattr(trace_work, "PROGRESSIVE_MACS", 1)  # every trace counts as long
    seen = []
    state.traceChanged.connect(lambda t: seen.append(t))
    with qtbot.waitSignal(state.busyChanged, check_params_cb=lambda busy: not busy, timeout=30_000):
        state.set_text("The big dog runs to the park .")
    qtbot.waitUntil(lambda: seen and not seen[-1].partial, timeout=30_000)
    partial = [t for t in seen if t.partial]
    assert partial and partial[0].layers == (0,) and "logits" not in partial[0]
    final = seen[-1]
    assert final.layers == (0, 1, 2) and "logits" in final
    assert (partial[0]["layers.0.attn.q"] == final["layers.0.attn.q"]).all()


def _new_threads(before):
    return {t for t in threading.enumerate() if t not in before and t.is_alive()}


def test_closing_during_training_leaves_no_thread(qtbot, open_window, state, tmp_path, monkeypatch):
    """A run still training when the window closes is stopped, its thread ends, and the checkpoint where
    it stopped is complete."""
    from explorer.train.loop import list_checkpoints
    from explorer.weights.checkpoint import load_checkpoint

    monkeypatch.setattr("explorer.ui.background.train_controller.runs_root", lambda: tmp_path / "runs")
    before = set(threading.enumerate())
    w = open_window(state, show=False)
    state.set_sizes(embed_dim=8, key_dim=4, heads=2, layers=1, ffn_dim=16)
    qtbot.waitUntil(lambda: state.trace.config.E == 8, timeout=20_000)
    panel = w.views["train"]
    panel.corpus.setCurrentIndex(panel.corpus.findData("copy"))
    panel.steps.setValue(100_000)
    panel.batch.setValue(8)
    panel.every.setValue(1000)
    assert panel.start_training()
    qtbot.waitUntil(lambda: panel.curve.training_points() >= 2, timeout=30_000)
    job = panel.controller.job
    w.close()
    assert job.isFinished() and not w.worker.isRunning()
    assert _new_threads(before) == set()
    steps = [s for s, _p in list_checkpoints(panel.controller.run_dir)]
    assert steps[0] == 0 and steps[-1] > 0  # saved where it stopped, written completely
    assert load_checkpoint(list_checkpoints(panel.controller.run_dir)[-1][1]).config.E == 8


def test_closing_during_a_model_load_leaves_no_thread(qtbot, open_window, state, tmp_path, monkeypatch):
    from explorer.errors import Cancelled

    started = threading.Event()

    def slow_load(path, progress=None, cancel=None, dtype="float32"):
        started.set()
        if cancel.wait(20):  # as a real loader checks its cancel event between tensors
            raise Cancelled("loading was cancelled")
        raise AssertionError("the closing window never cancelled the load")

    monkeypatch.setattr("explorer.weights.loaders.load_model", slow_load)
    before = set(threading.enumerate())
    w = open_window(state, show=False)
    w.loading.open(str(tmp_path / "big-model.gguf"))
    qtbot.waitUntil(started.is_set, timeout=20_000)
    w.close()
    assert not w.worker.isRunning()
    assert _new_threads(before) == set()


def _when_shown(expression: str) -> str:
    """What ``expression`` prints in a fresh process (`gui`'s parser, the application, the window shown and
    painted once): what start-up has imported by then, read from sys.modules."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from explorer.cli import build_parser\n"
        "args = build_parser(gui_only=True).parse_args(['gui'])\n"
        "from explorer.ui.shell.app import create_application\n"
        "app = create_application()\n"
        "from explorer.ui.shell.main_window import MainWindow\n"
        "from explorer.ui.bridge.state import AppState\n"
        "w = MainWindow(AppState(), restore_layout=False)\n"
        "w.show(); app.processEvents()\n"
        f"print({expression}, flush=True)\n"
        "import os; os._exit(0)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip().splitlines()[-1]


def test_the_window_is_built_before_torch_is_imported():
    """import torch takes seconds; the window must appear first (the worker loads torch in its thread)."""
    assert _when_shown("'torch' in sys.modules") == "False"


LOADED_LATER = (
    "tokenizers",  # with the first vocabulary, in the worker
    "tomllib",  # with the first lesson read
    "_hashlib",  # OpenSSL, with the first temporary file's name
    "explorer.lessons.reader",
    "explorer.lessons.writer",
    "explorer.handouts.sizes",  # with the first figure exported
    "explorer.cli.train_cmd",  # `gui` parses its own options only
    "explorer.cli.export_cmd",
)


def test_the_window_is_shown_before_what_it_does_not_need_yet_is_imported():
    """Each of these took 3–20 ms of every start (benchmarks/bench_start.py); the window is shown without them."""
    assert _when_shown(f"sorted(m for m in {LOADED_LATER!r} if m in sys.modules)") == "[]"


def test_panels_behind_tabs_are_built_after_the_first_trace_or_when_shown(qtbot, state):
    from explorer.ui.shell.main_window import MainWindow
    from explorer.ui.views.base import View

    w = MainWindow(state, restore_layout=False)
    qtbot.addWidget(w)
    hidden = {
        "output",
        "scaling",
        "params",
        "tensors",
        "train",
        "generate",
        "model_view",
        "interventions",
        "anatomy",
        "compare",
        "selection",
        "identities",
    }  # behind "Selected token" and the bottom tabs, and those two: a laptop's layout puts them on strips
    assert {n for n in w.views if n not in {v.objectName().removeprefix("view.") for v in w.views.built()}} == hidden
    w.show()
    # opening a panel (its button on the status bar's strip: the bottom panels start closed) builds it at once
    w.strips["bottom"].button("params").click()
    qtbot.waitUntil(lambda: isinstance(w.docks["params"].widget(), View), timeout=30_000)
    assert isinstance(w.docks["params"].widget(), View) and w.docks["params"].widget() is w.views["params"]
    # the rest once the first trace is on screen, each showing it
    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        w.start()
    qtbot.waitUntil(lambda: w.views.pending() == 0, timeout=30_000)
    assert w.views["params"].rows and w.views["tensors"].tree.topLevelItemCount() > 0
    assert all(isinstance(w.docks[n].widget(), View) for n in hidden)
    w.close()


def test_the_busy_bar_shows_only_for_work_that_lasts(qtbot):
    """A keystroke's trace takes milliseconds: the status bar's busy bar must not flash for it; work still
    running after BUSY_AFTER_MS shows it, and it goes when the work ends."""
    from explorer.ui.shell.status_bar import BUSY_AFTER_MS, StatusBar

    state = AppState(text="This is a pen .")
    bar = StatusBar(state)
    qtbot.addWidget(bar)
    bar.show()
    state.set_busy(True)
    state.set_busy(False)  # a quick trace
    assert not bar._show_busy.isActive()  # the bar's delayed showing is called off: it never comes
    assert not bar.busy.isVisible()
    state.set_busy(True)  # a long one
    assert not bar.busy.isVisible()
    qtbot.waitUntil(bar.busy.isVisible, timeout=BUSY_AFTER_MS + 1000)
    state.set_busy(False)
    assert not bar.busy.isVisible()


def test_a_trace_comes_back_with_the_ticket_the_session_gave_it(window, state, qtbot):
    """One numbering from the Session to the views: the worker carries the RunTrace effect's ticket on the
    result, so the window needs no table from job numbers to tickets (issue 37: one stale-result rule)."""
    with qtbot.waitSignal(window.worker.traceReady, timeout=20_000) as ready:
        state.set_text("Is this a dog ?")
    assert ready.args[0] == state.ticket
    with qtbot.waitSignal(window.worker.traceReady, timeout=20_000) as ready:
        window.worker.submit(state.request, 41)
    assert ready.args[0] == 41
    assert not hasattr(window, "_tickets")
