"""“How is this made?” from the Model view's grid and the Generate panel's map, the link of the hover line on the
Q K V trio and the next-token bars, and File → Worksheet… writing one number's anatomy (issue 39). Each opens
the same stepper on the core's steps for the cell the map shows, and the stepper's last number is the map's."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog, QFileDialog

from explorer import names
from explorer.anatomy import Cell, anatomy


@pytest.fixture
def window(open_window, state):
    w = open_window(state)
    w.resize(1366, 768)
    yield w
    w.close()


def _stepper(w, qtbot, cell: Cell | None = None):
    qtbot.waitUntil(lambda: w.docks["anatomy"].isVisible(), timeout=5000)
    stepper = w.views["anatomy"].stepper
    qtbot.waitUntil(lambda: len(stepper.steps) > 0 and (cell is None or stepper.ask.cell == cell), timeout=20_000)
    return stepper


def _same_steps(shown, expected) -> None:
    """The stepper's steps are the core's for that cell on that trace: the same operations, the same results."""
    assert [s.op for s in shown] == [s.op for s in expected]
    for a, b in zip(shown, expected):
        if not isinstance(a.result, str):
            np.testing.assert_array_equal(np.asarray(a.result, dtype=object), np.asarray(b.result, dtype=object))


# ---------------------------------------------------------------------------------------------- the Model view
def _model_view(window, qtbot):
    window.open_panel("model_view")
    view = window.views["model_view"]
    m = view.mosaic
    qtbot.waitUntil(lambda: m.isVisible() and m.layers > 0 and m.filled() == m.layers * m.heads, timeout=20_000)
    return view


def _centre_of(mosaic, layer: int, head: int, i: int, j: int, n: int) -> QPoint:
    r = mosaic.head_rect(layer, head)
    return QPointF(r.left() + (j + 0.5) / n * r.width(), r.top() + (i + 0.5) / n * r.height()).toPoint()


def test_a_click_on_a_cell_of_the_model_view_then_ctrl_h_opens_that_cells_steps(window, state, qtbot):
    view = _model_view(window, qtbot)
    mosaic, n = view.mosaic, state.trace.rows[0].length
    head = 1 if state.trace.config.H > 1 else 0
    before = mosaic.grab().toImage()
    QTest.mouseClick(mosaic, Qt.MouseButton.LeftButton, pos=_centre_of(mosaic, 0, head, 3, 1, n))
    r = mosaic.head_rect(0, head)
    edge = QPointF(r.left() + 1 / n * r.width() - 1.5, r.top() + 3.5 / n * r.height()).toPoint()  # its left side
    qtbot.waitUntil(lambda: mosaic.grab().toImage().pixelColor(edge) != before.pixelColor(edge))  # framed
    mosaic.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(mosaic.hasFocus)
    QTest.keyClick(mosaic, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    cell = Cell("weights", 0, head, 3, key=1, sentence=0)
    stepper = _stepper(window, qtbot, cell)
    _same_steps(stepper.steps, anatomy(state.trace, cell))
    shown = state.trace[names.attn(0, "weights")][0, head, 3, 1]  # the small map's cell, not the central one's
    assert stepper.steps[-1].running == pytest.approx(float(shown), rel=1e-6)


def test_walking_the_model_views_maps_then_ctrl_h_explains_the_selected_query_on_the_walked_map(window, state, qtbot):
    view = _model_view(window, qtbot)
    state.select(token=2, key=0)
    mosaic = view.mosaic
    mosaic.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(mosaic.hasFocus)
    start = mosaic.cursor
    QTest.keyClick(mosaic, Qt.Key.Key_Down if mosaic.layers > 1 else Qt.Key.Key_Right)  # to another map
    assert mosaic.cursor != start
    layer, head = mosaic.cursor
    QTest.keyClick(mosaic, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    stepper = _stepper(window, qtbot, Cell("weights", layer, head, 2, key=0, sentence=0))
    assert stepper.steps[-1].running == pytest.approx(
        float(state.trace[names.attn(layer, "weights")][0, head, 2, 0]), rel=1e-6
    )


def test_the_model_views_context_menu_opens_the_steps_of_the_cell_under_the_pointer(window, state, qtbot):
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication

    view = _model_view(window, qtbot)
    mosaic, n = view.mosaic, state.trace.rows[0].length
    at = _centre_of(mosaic, 0, 0, 4, 2, n)
    QApplication.sendEvent(mosaic, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at, mosaic.mapToGlobal(at)))
    first = view.how_menu.actions()[0]
    assert first.text().startswith("How is this made?")
    view.how_menu.close()
    first.trigger()
    _stepper(window, qtbot, Cell("weights", 0, 0, 4, key=2, sentence=0))


# ---------------------------------------------------------------------------------------------- Generate
def _generated(window, state, qtbot, cache: bool = True):
    window.open_panel("generate")
    view = window.views["generate"]
    view.count.setValue(3)
    view.use_cache.setChecked(cache)
    view.run_button.click()
    qtbot.waitUntil(lambda: view.job is None and view.generation is not None, timeout=60_000)
    view.gen.show(False)  # the centre showed it large, the panel's map hidden: back to the panel
    qtbot.waitUntil(lambda: view.map.isVisible() and view.map.data is not None, timeout=5000)
    return view


def _walk_to(gmap, qtbot, i: int, j: int) -> None:
    gmap.graphics.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(gmap.graphics.hasFocus)
    for key in (Qt.Key.Key_PageUp, Qt.Key.Key_Home):  # the top left, wherever the walk started
        QTest.keyClick(gmap.graphics, key)
    for key in [Qt.Key.Key_Down] * i + [Qt.Key.Key_Right] * j:
        QTest.keyClick(gmap.graphics, key)
    assert gmap.access.cell == (i, j)


def test_ctrl_h_on_the_generate_panels_map_explains_the_walked_cell_on_the_generations_own_trace(window, state, qtbot):
    view = _generated(window, state, qtbot)
    g = view.generation
    _walk_to(view.map, qtbot, 2, 1)
    QTest.keyClick(view.map.graphics, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    sel = state.selection
    cell = Cell("weights", sel.layer, sel.head, 2, key=1, sentence=0)
    stepper = _stepper(window, qtbot, cell)
    assert stepper.ask.trace is g.trace  # the prompt the generation traced, not the window's text
    _same_steps(stepper.steps, anatomy(g.trace, cell))
    assert stepper.steps[-1].running == pytest.approx(float(view.map.data[2, 1]), rel=1e-6)  # the drawn cell
    qtbot.waitUntil(lambda: not window._room_check.isActive(), timeout=5000)  # the map's room was made …
    assert window.docks["generate"].isVisible() and view.map.isVisible()  # … without closing the panel asked


def test_a_decode_rows_cell_is_made_from_the_generations_own_query_and_cache_and_ends_on_the_drawn_weight(
    window, state, qtbot
):
    view = _generated(window, state, qtbot)
    C = view.generation.prompt_tokens
    assert view.map.data.shape[0] > C + 1  # the decode steps' rows are drawn under the prompt's block
    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        state.set_random_weights(True)  # another model now: the steps must not need the one that wrote it
    _walk_to(view.map, qtbot, C + 1, 2)  # the row the second decode step wrote
    QTest.keyClick(view.map.graphics, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    sel = state.selection
    stepper = _stepper(window, qtbot, Cell("weights", sel.layer, sel.head, C + 1, key=2, sentence=0))
    assert stepper.ask.work is not None and "decode step 2" in stepper.ask.where and not stepper.failure
    # the generation's own numbers: the last step is the drawn weight, bit for bit in float32
    assert np.float32(stepper.steps[-1].running) == view.map.data[C + 1, 2]
    g = view.generation
    assert stepper.steps[-1].running == float(g.trace[f"gen.layers.{sel.layer}.attn.weights"][0, sel.head, 2, 2])
    divided = [s for s in stepper.steps if s.op == "divide"]
    assert sum(s.result for s in divided) == pytest.approx(1.0, abs=1e-6)  # its whole row, the softmax's shares


def test_an_uncached_decode_row_is_refused_when_another_model_is_loaded_and_the_menu_opens_a_prompt_cell(
    window, state, qtbot
):
    view = _generated(window, state, qtbot, cache=False)  # no cached keys: the row is traced again
    C = view.generation.prompt_tokens
    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        state.set_random_weights(True)  # not the weights that wrote the generation
    view.map.cellContextRequested.emit(C, 0, QPoint(10, 10))
    view.how_menu.actions()[0].trigger()
    view.how_menu.close()
    stepper = window.views["anatomy"].stepper
    qtbot.waitUntil(lambda: "did not write this generation" in stepper.failure, timeout=30_000)
    assert not stepper.steps
    view.map.cellContextRequested.emit(C - 1, 0, QPoint(10, 10))  # the prompt's block: its own trace, as ever
    first = view.how_menu.actions()[0]
    assert first.text().startswith("How is this made?")
    view.how_menu.close()
    first.trigger()
    sel = state.selection
    _stepper(window, qtbot, Cell("weights", sel.layer, sel.head, C - 1, key=0, sentence=0))


def test_ctrl_h_on_the_centres_generation_map_explains_its_walked_cell(window, state, qtbot):
    view = _generated(window, state, qtbot)
    view.gen.show(True)  # the generation in the centre, instead of the stage
    centre = window.views["tensor"].generation_centre
    qtbot.waitUntil(lambda: centre.map.isVisible() and centre.map.data is not None, timeout=5000)
    _walk_to(centre.map, qtbot, 3, 2)
    QTest.keyClick(centre.map.graphics, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    sel = state.selection
    stepper = _stepper(window, qtbot, Cell("weights", sel.layer, sel.head, 3, key=2, sentence=0))
    assert stepper.ask.trace is view.generation.trace
    assert stepper.steps[-1].running == pytest.approx(float(centre.map.data[3, 2]), rel=1e-6)


# ---------------------------------------------------------------------------------------------- hover links
def test_the_link_of_the_q_k_v_hover_opens_the_cell_last_hovered(window, state, qtbot):
    state.select(stage="qkv", token=None)
    view = window.centralWidget()
    qtbot.waitUntil(lambda: "k" in view.qkv and view.qkv["k"].isVisible(), timeout=5000)
    assert not view.how_link.isVisible()
    view.qkv["k"].cellHovered.emit(3, 2)  # the pointer over K's cell (3, 2) …
    qtbot.waitUntil(view.how_link.isVisible)
    view.qkv["k"].cellHovered.emit(-1, -1)  # … and off it, on its way to the link
    assert view.how_link.isVisible()
    view.how_link.linkActivated.emit("how")
    sel = state.selection
    cell = Cell("qkv", sel.layer, sel.head, 3, dim=2, sentence=sel.row, part="k")
    stepper = _stepper(window, qtbot, cell)
    cfg = state.trace.config
    shown = state.trace[names.attn(sel.layer, "k")][sel.row, names.kv_head_of(sel.head, cfg.H, cfg.H_kv), 3, 2]
    assert stepper.steps[-1].running == pytest.approx(float(shown), rel=1e-5)


def test_the_link_of_a_next_token_bars_hover_opens_that_bars_probability(window, state, qtbot):
    from explorer.ui.views.tokens.topk_bars import fmt_prob

    window.open_panel("output")
    view = window.views["output"]
    bars = view.bars
    qtbot.waitUntil(lambda: bars.isVisible() and len(bars.items) >= 3, timeout=5000)
    assert not view.bar_hover.isVisible()
    QTest.mouseMove(bars, QPoint(20, 2 + bars._row_height() // 2))  # the pointer on the bars shows the line
    qtbot.waitUntil(view.bar_hover.isVisible, timeout=5000)
    bars.rowHovered.emit(1)  # the second bar under the pointer
    token, label, prob = bars.items[1]
    assert label in view.bar_hover.text() and fmt_prob(prob) in view.bar_hover.text()
    view.bar_hover.linkActivated.emit("how")
    last = state.trace.rows[0].length - 1
    stepper = _stepper(window, qtbot, Cell("probs", 0, 0, last, dim=token, sentence=0))
    assert stepper.steps[-1].running == pytest.approx(prob, rel=1e-6)
    window.open_panel("output")
    state.select(token=1)  # other bars: the line named a bar no longer shown
    qtbot.waitUntil(lambda: view.bars.isVisible() and not view.bar_hover.isVisible(), timeout=5000)


# ---------------------------------------------------------------------------------------------- worksheet
poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils are not installed")


def _pdf_text(path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


@poppler
def test_file_worksheet_offers_the_steppers_cell_and_writes_its_anatomy_with_the_key(
    open_window, qtbot, tmp_path, monkeypatch
):
    from explorer.ui.bridge.state import AppState, ModelSource
    from explorer.ui.menus.worksheet_dialog import WorksheetDialog

    state = AppState("the cat sat on the mat", ModelSource("preset", "seed-toy"))  # a sheet is by hand: toy sizes
    window = open_window(state)

    state.select(stage="weights")
    view = window.views["tensor"]
    assert view.ask_anatomy((3, 1))
    sel = state.selection
    cell = Cell("weights", sel.layer, sel.head, 3, key=1, sentence=sel.row)
    _stepper(window, qtbot, cell)
    offered = []

    def accept(dialog):
        offered.append((dialog.cell.text(), dialog.anatomy.isChecked(), dialog.which.text()))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(WorksheetDialog, "exec", accept)
    target = tmp_path / "steps.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.actions_.worksheet.trigger()
    key = tmp_path / "steps-key.pdf"
    qtbot.waitUntil(lambda: key.exists() and target.exists(), timeout=30_000)
    assert offered and offered[0][:2] == (f"weights:{sel.layer}:{sel.head}:3:1", True)
    assert "query 3" in offered[0][2] and "key 1" in offered[0][2]
    weight = float(state.trace[names.attn(sel.layer, "weights")][sel.row, sel.head, 3, 1])
    q = state.trace[names.attn(sel.layer, "q")][sel.row, sel.head, 3].astype(np.float64)
    k = state.trace[names.attn(sel.layer, "k")][sel.row, sel.head, 1].astype(np.float64)
    dot = f"{float(q @ k):.3f}".replace("-", "−")
    answers, sheet = _pdf_text(key), _pdf_text(target)
    assert f"{weight:.3f}" in answers and dot in answers  # the key: the weight and the dot product before it
    assert f"{weight:.3f}" not in sheet  # the sheet leaves the answer to the student
    assert "query 3" in answers and "key 1" in answers
    window.close()


def test_the_worksheet_dialog_refuses_a_cell_the_trace_lacks_and_a_model_too_large_by_hand(
    open_window, window, state, qtbot
):
    from PySide6.QtWidgets import QDialogButtonBox

    from explorer.ui.bridge.state import AppState, ModelSource
    from explorer.ui.menus.worksheet_dialog import Offered, WorksheetDialog

    large = WorksheetDialog(window, Offered(Cell("weights", 0, 0, 2, key=1), state.trace))  # classroom: E 128
    qtbot.addWidget(large)
    assert large.exercises.isChecked() and "seed-toy" in large.which.text()
    large.anatomy.setChecked(True)
    assert not large.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    toy = AppState("the cat sat on the mat", ModelSource("preset", "seed-toy"))
    toy_window = open_window(toy, show=False)
    dialog = WorksheetDialog(window, Offered(Cell("weights", 0, 0, 2, key=1), toy.trace))
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isEnabled() and dialog.choice() == Cell("weights", 0, 0, 2, key=1)
    dialog.cell.setText("weights:0:0:99:1")
    assert not ok.isEnabled() and dialog.choice() is None
    dialog.cell.setText("ffn:0:0:2:n3")
    assert ok.isEnabled() and dialog.choice() == Cell("ffn", 0, 0, 2, neuron=3)
    dialog.exercises.setChecked(True)
    assert dialog.choice() is None  # the text's exercises, as before
    toy_window.close()
