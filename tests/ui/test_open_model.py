"""Opening models in the window: checkpoint folders, files that are no model, a slow load cancelled, the
named real models in the Model menu, recent models, and the layers a deep model's trace captures."""

from __future__ import annotations

import threading

import pytest

from explorer.config import ModelConfig
from explorer.errors import Cancelled
from explorer.weights.bundle import random_bundle
from explorer.weights.checkpoint import save_checkpoint
from explorer.weights.presets import preset_tokenizer


def _checkpoint(folder, layers=1, **sizes):
    tok = preset_tokenizer("words-en.json")
    cfg = ModelConfig(vocab_size=tok.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=layers, ffn_dim=16, **sizes)
    save_checkpoint(random_bundle(cfg, tok, seed=3), folder, step=7)
    return cfg


def test_opening_a_checkpoint_folder_shows_its_sizes_fixed(window, qtbot, tmp_path):
    from explorer.ui.preferences import settings

    state, controls = window.state, window.views["controls"]
    cfg = _checkpoint(tmp_path / "ckpt", positions="none")
    assert controls.sizes["embed_dim"].isEnabled()
    window.loading.open(str(tmp_path / "ckpt" / "config.json"))  # the config.json picked in the dialog
    qtbot.waitUntil(lambda: state.trace.config == cfg, timeout=20_000)
    assert state.source.name == str(tmp_path / "ckpt")
    assert state.trace.source.startswith("checkpoint:")
    assert controls.sizes["embed_dim"].value() == 8
    assert not any(spin.isEnabled() for spin in controls.sizes.values())  # shown, not editable
    assert controls.mask.isEnabled() and controls.scale.isEnabled()  # still switchable
    assert settings.recent_models() == [str(tmp_path / "ckpt")]
    window.actions_._fill_recent()
    recent = [a for a in window.actions_.recent_menu.actions() if a.data() == str(tmp_path / "ckpt")]
    assert recent and recent[0].text() == f"{tmp_path.name}/ckpt"


def test_a_file_that_is_no_model_gives_one_line_and_keeps_the_trace(window, qtbot, tmp_path):
    state = window.state
    before_trace, before_source = state.trace, state.source
    garbage = tmp_path / "notes.bin"
    garbage.write_bytes(b"\x00\x01 this is not a model")
    with qtbot.waitSignal(state.errorRaised, timeout=20_000) as error:
        window.loading.open(str(garbage))
    message = error.args[0]
    assert "notes.bin" in message and "\n" not in message
    assert state.trace is before_trace
    assert state.source == before_source  # back to the shown model: typing traces it, not the file
    assert message in window.statusBar().currentMessage()
    with qtbot.waitSignal(state.traceChanged, timeout=20_000):
        state.set_text("This is a dog .")
    assert state.trace.rows[0].tokens[-2:] == (" dog", " .")


def test_cancelling_a_slow_load_keeps_the_window_and_the_model(window, qtbot, monkeypatch, tmp_path):
    state = window.state
    started, cancelled = threading.Event(), threading.Event()

    def slow_load(path, progress=None, cancel=None, dtype="float32"):
        progress(1, 10, "blk.0.attn_q")
        started.set()
        if cancel.wait(20):  # a real loader checks its cancel event between tensors
            cancelled.set()
            raise Cancelled("loading was cancelled")
        raise AssertionError("never cancelled")

    monkeypatch.setattr("explorer.weights.loaders.load_model", slow_load)
    before_trace, before_source = state.trace, state.source
    traces = []
    state.traceChanged.connect(traces.append)
    window.loading.open(str(tmp_path / "big-model.gguf"))
    widget = window.loading.widget
    qtbot.waitUntil(lambda: started.is_set() and widget.isVisible(), timeout=20_000)
    assert "big-model.gguf" in widget.label.text()
    # The worker's progress reaches the window as a queued signal: await it rather than race it.
    qtbot.waitUntil(lambda: widget.bar.maximum() == 10, timeout=20_000)
    widget.cancel.click()
    qtbot.waitUntil(lambda: cancelled.is_set() and not state.busy, timeout=20_000)
    assert not widget.isVisible()
    assert traces == [] and state.trace is before_trace
    assert state.source == before_source
    # Responsive, and still the old model: the next sentence is traced at once.
    with qtbot.waitSignal(state.traceChanged, timeout=20_000):
        state.set_text("This is a cat .")
    assert state.trace.config == before_trace.config


def test_a_loads_first_progress_counts_before_busy_reaches_the_session(window, qtbot, monkeypatch, tmp_path):
    """The job's first progress is posted from its thread as soon as it starts and can overtake the queued
    "busy": it was dropped then, and a load that reports once showed an empty bar (seen in CI)."""
    state = window.state
    release = threading.Event()

    def slow_load(path, progress=None, cancel=None, dtype="float32"):
        release.wait(20)
        raise Cancelled("loading was cancelled")

    monkeypatch.setattr("explorer.weights.loaders.load_model", slow_load)
    window.loading.open(str(tmp_path / "big-model.gguf"))
    assert window.worker.loads.busy and not state.busy  # asked, and "busy" still queued
    window.worker.progress.emit(1, 10, "blk.0.attn_q")  # what the job's first report delivers here
    assert window.loading.widget.bar.maximum() == 10
    release.set()
    window.loading.cancel()
    qtbot.waitUntil(lambda: not window.worker.isRunning(), timeout=20_000)


def test_the_real_model_entry_follows_the_catalog(window, qtbot, monkeypatch):
    from explorer.weights import catalog

    installed = any(name == "smollm2" for name, _label in catalog.available_models())
    entries = [a for a in window.actions_.model_menu.actions() if a.data() == "smollm2"]
    assert bool(entries) == installed
    if installed:
        assert entries[0].text() == "SmolLM2-135M (real model)"
    # Not installed: no entry, a hint instead (a window built while the catalog finds nothing).
    monkeypatch.setitem(catalog.REAL_MODELS, "smollm2", (catalog.REAL_MODELS["smollm2"][0], lambda: None))
    from explorer.ui.shell.main_window import MainWindow

    other = MainWindow(window.state, restore_layout=False)
    qtbot.addWidget(other)
    try:
        texts = [a.text() for a in other.actions_.model_menu.actions()]
        assert not [a for a in other.actions_.model_menu.actions() if a.data() == "smollm2"]
        assert "No real model installed" in texts
    finally:
        other.worker.stop()


@pytest.fixture
def deep_checkpoint(tmp_path):
    folder = tmp_path / "deep"
    return folder, _checkpoint(folder, layers=10)


def test_a_deep_model_captures_the_selected_layer_only(window, qtbot, deep_checkpoint):
    state, tensor = window.state, window.views["tensor"]
    folder, cfg = deep_checkpoint
    window.loading.open(str(folder))
    qtbot.waitUntil(lambda: state.trace.config == cfg and state.trace.layers == (0,), timeout=20_000)
    assert state.options.layers_to_capture == (0,)
    note = window.capture.widget
    assert not note.isHidden() and note.text() == "captured: layer 0 of 10"
    assert (tensor.layer_spin.minimum(), tensor.layer_spin.maximum()) == (0, 9) and tensor.layer_spin.isEnabled()

    tensor.layer_spin.setValue(7)  # the user picks an uncaptured layer: it is traced
    qtbot.waitUntil(lambda: state.trace.layers == (7,) and state.selection.layer == 7, timeout=20_000)
    assert state.options.layers_to_capture == (7,)

    window.actions_.models.capture_actions["all"].trigger()
    qtbot.waitUntil(lambda: state.trace.layers == tuple(range(10)), timeout=20_000)
    assert state.options.layers_to_capture is None and state.selection.layer == 7
    assert note.isHidden()

    window.actions_.models.capture_actions["auto"].trigger()
    qtbot.waitUntil(lambda: state.trace.layers == (7,), timeout=20_000)

    state.set_preset("classroom")  # a small model: every layer again
    qtbot.waitUntil(lambda: state.trace.config.layers == 3 and state.trace.layers == (0, 1, 2), timeout=20_000)
    assert state.options.layers_to_capture is None


def test_capture_policy(state):
    from explorer.ui.shell.capture_status import LayerCapture

    capture = LayerCapture(state)
    assert not capture.lazy(2, 5_000)  # two layers: both kept even for a long text
    assert capture.lazy(3, 600) and not capture.lazy(3, 100)  # a long text on a deeper model
    assert capture.lazy(30, 5)  # a deep model, whatever the text
    capture.set_mode("all")
    assert not capture.lazy(30, 5_000)
    capture.set_mode("selected")
    assert capture.lazy(1, 1)


def test_opening_a_run_folder_shows_its_latest_complete_checkpoint_and_says_which(window, qtbot, tmp_path):
    """Issue 12: a run folder written by `train --out runs/x` is a model: its newest complete step-N."""
    state = window.state
    run = tmp_path / "x"
    _checkpoint(run / "step-000002")
    cfg = _checkpoint(run / "step-000004", positions="none")
    (run / "step-000006").mkdir()  # being written when the run stopped: no weights, not complete
    (run / "run.json").write_text("{}", encoding="utf-8")  # a run manifest at the top (newer runs)
    window.loading.open(str(run))
    qtbot.waitUntil(lambda: state.trace.config == cfg, timeout=20_000)
    assert state.source.name == str(run / "step-000004")
    qtbot.waitUntil(lambda: "step-000004" in window.statusBar().currentMessage(), timeout=30_000)
    assert "run folder" in window.statusBar().currentMessage()
