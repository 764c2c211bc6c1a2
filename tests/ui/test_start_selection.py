"""``gui --layer/--head/--row/--token/--key`` (what ``t.show()`` opens with): the window starts at that
selection, made through the state, and the central view draws it; a live model's selection waits for its
first trace (and for the trace of a layer that trace did not capture); what a live trace cannot show is a
note and left out."""

from __future__ import annotations

import time

import pytest
from live_state import live
from PySide6.QtCore import QEvent, QTimer
from PySide6.QtWidgets import QApplication

from explorer.session.launch import LaunchOptions


def _launch_until(options: LaunchOptions, shown, timeout_s: float = 60.0) -> dict:
    """Run ``app.launch(options)`` until ``shown(window)`` gives a result (looked at every 20 ms, as
    qtbot.waitUntil does), then quit: that result, or {} when the window never got there."""
    from explorer.ui.shell import app as app_module

    app = QApplication.instance()
    style, palette = app.style().name(), app.palette()
    seen: dict = {}
    started: list = []
    deadline = time.monotonic() + timeout_s
    timer = QTimer()

    def look() -> None:
        windows = [w for w in app.topLevelWidgets() if w.objectName() == "MainWindow" and w.isVisible()]
        result = shown(windows[0]) if windows and windows[0].state.trace is not None else None
        if result is not None or time.monotonic() > deadline:
            timer.stop()
            started.extend(windows)
            seen.update(result or {})
            app.quit()

    timer.timeout.connect(look)
    timer.start(20)
    try:
        app_module.launch(options)
    finally:
        timer.stop()
        for w in started:  # closed only now: a close inside app.exec() would post a Quit to the next test
            w.close()
        QApplication.removePostedEvents(app, QEvent.Type.Quit)
        app.setStyle(style)
        app.setPalette(palette)
    return seen


def _centre(window) -> dict | None:
    """What the central view draws: its controls, the framed thumbnail, the big map's highlighted row."""
    view = window.views["tensor"]
    if view._drawn is None or view._drawn[2] != window.state.selection.layer:
        return None  # not yet drawn at the selection
    sel = window.state.selection
    return {
        "selection": (sel.stage, sel.layer, sel.head, sel.row, sel.token, sel.key),
        "spins": (view.layer_spin.value(), view.head_spin.value(), view.row_spin.value()),
        "framed head": view.grid.selected,
        "highlight": view.large.layers.highlight,
        "title": view.title.text(),
    }


def test_a_snapshot_opens_at_the_layer_head_and_token_asked_for(qtbot, tmp_path, trace):
    from explorer.export.snapshot import read_snapshot, write_snapshot

    path = write_snapshot(trace, tmp_path / "s.npz")
    options = LaunchOptions(
        snapshot=str(path), opened=read_snapshot(path), stage="weights", layer=1, head=2, token=3, key=1
    )
    seen = _launch_until(options, lambda w: _centre(w) if w.state.selection.head == 2 else None)
    assert seen["selection"] == ("weights", 1, 2, 0, 3, 1)
    assert seen["spins"] == (1, 2, 0)
    assert seen["framed head"] == 2  # the head's thumbnail is the one framed
    assert seen["highlight"] == (3, 1)  # the big map marks query 3 and key 1
    assert seen["title"].endswith("layer 1")


def test_a_live_model_is_selected_once_its_first_trace_is_there(qtbot):
    options = LaunchOptions(preset="classroom", text="This is a pen .", stage="weights", layer=2, head=3, token=4)
    seen = _launch_until(options, lambda w: _centre(w) if w.state.selection.head == 3 else None)
    assert seen["selection"] == ("weights", 2, 3, 0, 4, None)
    assert seen["spins"] == (2, 3, 0) and seen["framed head"] == 3 and seen["highlight"] == (4, None)


def test_a_layer_the_first_trace_did_not_capture_is_traced_before_done(qtbot, state):
    """Capturing only the selected layer, the first trace holds layer 0: layer 2 is traced, and ``done`` (what
    a --screenshot waits for) comes once the window shows it, not with the first trace."""
    from explorer.ui.shell.start_selection import StartSelection

    with live(state, qtbot):
        with qtbot.waitSignal(state.traceChanged, timeout=30_000):
            state.set_capture_mode("selected")
        assert state.trace.layers == (0,)
        selecting = StartSelection(state, {"layer": 2, "head": 1})
        selecting.apply_after_first_trace()
        with qtbot.waitSignal(selecting.done, timeout=30_000):
            state.set_text("This is a cat .")
        assert 2 in state.trace.layers and state.trace.rows[0].text == "This is a cat ."
        assert (state.selection.layer, state.selection.head) == (2, 1)


def test_what_a_live_trace_cannot_show_is_a_note_and_left_out(qtbot, state, capsys):
    from explorer.ui.shell.start_selection import StartSelection

    with live(state, qtbot):
        selecting = StartSelection(state, {"head": 9, "token": 2, "layer": 7})
        selecting.apply_after_first_trace()
        with qtbot.waitSignal(selecting.done, timeout=30_000):
            state.set_text("This is a cat .")
    assert (state.selection.head, state.selection.token, state.selection.layer) == (0, 2, 0)
    notes = capsys.readouterr().err.strip().splitlines()
    assert notes == [
        "note: layer 7 does not exist: the model has layers 0 … 2; --layer left out",
        "note: head 9 does not exist: the model has 4 heads (counted from 0); --head left out",
    ]


@pytest.mark.parametrize("asked", [{}, {"head": 1}])
def test_nothing_asked_changes_nothing_and_a_snapshot_is_selected_at_once(qtbot, state, trace, asked):
    from explorer.ui.shell.start_selection import select_at_start

    state.set_trace(trace)
    selecting = select_at_start(None, state, asked, shown=True)
    assert (selecting is None) == (not asked)
    assert state.selection.head == asked.get("head", 0)
