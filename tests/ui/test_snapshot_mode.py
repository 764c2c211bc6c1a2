"""Snapshot mode is visible (issue 11, item 9): a banner names the file, says read-only and offers the way
back; the controls that would re-trace are disabled and their edits ignored; the model box shows the
snapshot's model; "Return to the live model" traces the live model again. Exports get ordinary modes."""

from __future__ import annotations

import os
import stat

import pytest

from explorer.export.snapshot import write_snapshot
from explorer.trace import run_trace
from explorer.ui.menus import file_ops
from explorer.ui.shell.snapshot_banner import SnapshotBanner
from explorer.weights.presets import load_preset
from tests.ui.waits import drain


@pytest.fixture
def snapshot_file(tmp_path):
    """A snapshot of another preset and text than the window's, so that what is shown can be told apart."""
    trace = run_trace(load_preset("seed-toy"), "This is a pen .")
    return write_snapshot(trace, tmp_path / "lesson-3.npz"), trace


def _open(window, state, qtbot, path):
    with qtbot.waitSignal(state.snapshotChanged, timeout=10_000):
        assert file_ops.open_snapshot(window, state, str(path))


def test_a_snapshot_shows_a_banner_with_its_file_and_the_way_back(window, state, qtbot, snapshot_file):
    path, saved = snapshot_file
    live = state.request
    banner = window.findChild(SnapshotBanner, "snapshotBanner")
    assert not window.snapshot_bar.isVisible()  # the live model: no banner
    _open(window, state, qtbot, path)
    assert window.snapshot_bar.isVisible()
    text = banner.message.text()
    assert "lesson-3.npz" in text and "read-only" in text
    assert banner.message.toolTip() == str(path)
    assert banner.back.isVisible() and banner.back.text() == "Return to the live model"
    # The model box shows the snapshot's model, not the live preset.
    box = window.views["controls"].preset
    assert (box.currentText() or box.placeholderText()) == saved.model_name
    assert saved.model_name != live.source.name
    # Controls that would re-trace are disabled; the text is shown read-only.
    assert not window.views["controls"].isEnabled()
    assert window.views["input"].text.isReadOnly()
    assert window.views["input"].text.toPlainText() == "This is a pen ."


def test_edits_do_not_silently_leave_the_snapshot(window, state, qtbot, snapshot_file):
    path, _saved = snapshot_file
    _open(window, state, qtbot, path)
    sent = []
    state.requestChanged.connect(sent.append)
    state.set_text("This is a pen . x")  # one typed character (a script, a shortcut)
    state.set_options(scale=False)
    state.set_sizes(embed_dim=8)
    state.retrace()
    drain()  # anything these calls queued has run
    assert sent == []
    assert state.trace.read_only and state.snapshot == str(path)


def test_return_to_the_live_model_traces_it_again(window, state, qtbot, snapshot_file):
    path, _saved = snapshot_file
    live = state.request
    _open(window, state, qtbot, path)
    banner = window.findChild(SnapshotBanner, "snapshotBanner")
    with qtbot.waitSignal(state.traceChanged, timeout=30_000, check_params_cb=lambda t: not t.read_only):
        banner.back.click()
    assert state.snapshot is None and not window.snapshot_bar.isVisible()
    assert state.request == live
    assert window.views["controls"].isEnabled() and not window.views["input"].text.isReadOnly()
    assert window.views["controls"].preset.currentData() == live.source.name


def test_a_live_trace_finishing_late_does_not_replace_the_snapshot(window, state, qtbot, snapshot_file):
    path, _saved = snapshot_file
    live_trace = state.trace
    _open(window, state, qtbot, path)
    state.set_trace(live_trace, True)  # what the worker hands back for a request sent before the snapshot
    assert state.trace.read_only and state.snapshot == str(path)


def test_choosing_a_model_leaves_the_snapshot_on_purpose(window, state, qtbot, snapshot_file):
    path, _saved = snapshot_file
    _open(window, state, qtbot, path)
    with qtbot.waitSignal(state.traceChanged, timeout=30_000, check_params_cb=lambda t: not t.read_only):
        state.set_preset("seed-toy")
    assert state.snapshot is None and state.source.name == "seed-toy"


def test_the_session_remembers_the_live_model_not_the_snapshot(window, state, qtbot, snapshot_file):
    path, _saved = snapshot_file
    live = state.request
    _open(window, state, qtbot, path)
    window.actions_.save_session()
    from explorer.ui.menus.actions import restore_session

    text, source, _options = restore_session()
    assert (text, source) == (live.text, live.source)


def test_exported_pictures_get_ordinary_modes(window, tmp_path):
    old = os.umask(0o022)
    try:
        png = file_ops.save_view_image(window, tmp_path / "v.png")
        svg = file_ops.save_view_image(window, tmp_path / "v.svg")
        kept = tmp_path / "k.png"
        kept.write_bytes(b"old")
        kept.chmod(0o640)
        file_ops.save_view_image(window, kept)
    finally:
        os.umask(old)
    assert stat.S_IMODE(png.stat().st_mode) == 0o644 and stat.S_IMODE(svg.stat().st_mode) == 0o644
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_bytes()[:4] == b"\x89PNG"


def test_a_restored_layout_does_not_show_the_banner_without_a_snapshot(window, state, qtbot):
    window.snapshot_bar.setVisible(True)  # as a restoreState of a layout saved in snapshot mode would
    qtbot.waitUntil(lambda: not window.snapshot_bar.isVisible(), timeout=30_000)


def test_a_window_opened_on_a_snapshot_can_return_to_the_live_model(qtbot, snapshot_file):
    """`gui --snapshot FILE`: the window starts without tracing anything; the way back still works."""
    from explorer.export.snapshot import read_snapshot
    from explorer.ui.bridge.state import AppState
    from explorer.ui.shell.main_window import MainWindow

    path, _saved = snapshot_file
    state = AppState()
    w = MainWindow(state, restore_layout=False)
    qtbot.addWidget(w)
    w.show()
    state.set_trace(read_snapshot(path), editable_sizes=False)  # what app.launch does
    assert w.snapshot_bar.isVisible() and state.source.kind == "snapshot"
    with qtbot.waitSignal(state.traceChanged, timeout=30_000, check_params_cb=lambda t: not t.read_only):
        w.findChild(SnapshotBanner, "snapshotBanner").back.click()
    assert state.source.kind == "preset" and not w.snapshot_bar.isVisible()
    w.close()
    assert not w.worker.isRunning()
