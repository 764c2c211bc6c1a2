"""“How is this made?” beyond the large map (issue 39): the Q K V trio's maps and the next-token bars open the
same stepper, on the core's steps for the chosen cell or token."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from explorer import names
from explorer.anatomy import Cell, anatomy


@pytest.fixture
def window(open_window, state):
    w = open_window(state)
    w.resize(1366, 768)
    yield w
    w.close()


def _stepper(w, qtbot):
    qtbot.waitUntil(lambda: w.docks["anatomy"].isVisible(), timeout=5000)
    stepper = w.views["anatomy"].stepper
    qtbot.waitUntil(lambda: len(stepper.steps) > 0, timeout=20_000)
    return stepper


def _trio(window, state, qtbot):
    state.select(stage="qkv", token=None)
    view = window.centralWidget()
    qtbot.waitUntil(lambda: "k" in view.qkv and view.qkv["k"].isVisible(), timeout=5000)
    return view


def test_ctrl_h_on_the_walked_cell_of_the_k_map_opens_its_steps(window, state, qtbot):
    view = _trio(window, state, qtbot)
    graphics = view.qkv["k"].graphics
    graphics.setFocus(Qt.FocusReason.TabFocusReason)
    for key in (Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Right, Qt.Key.Key_Right):
        QTest.keyClick(graphics, key)
    assert view.qkv["k"].access.cell == (2, 2)
    QTest.keyClick(graphics, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    stepper = _stepper(window, qtbot)
    sel = state.selection
    cell = Cell("qkv", sel.layer, sel.head, 2, dim=2, sentence=sel.row, part="k")
    assert stepper.ask.cell == cell
    expected = anatomy(state.trace, cell)
    assert [(s.op, s.result) for s in stepper.steps] == [(s.op, s.result) for s in expected]
    cfg = state.trace.config
    shown = state.trace[names.attn(sel.layer, "k")][sel.row, names.kv_head_of(sel.head, cfg.H, cfg.H_kv), 2, 2]
    assert stepper.steps[-1].running == pytest.approx(float(shown), rel=1e-5)  # the K map's own number


def test_the_context_menu_of_a_v_cell_opens_its_steps(window, state, qtbot):
    view = _trio(window, state, qtbot)
    view.qkv["v"].cellContextRequested.emit(3, 1, QPoint(10, 10))
    first = view.trio_menu.actions()[0]
    assert first.text().startswith("How is this made?")
    view.trio_menu.close()
    first.trigger()
    stepper = _stepper(window, qtbot)
    assert (stepper.ask.cell.stage, stepper.ask.cell.part, stepper.ask.cell.query, stepper.ask.cell.dim) == (
        "qkv",
        "v",
        3,
        1,
    )


def _bars(window, qtbot):
    window.open_panel("output")
    view = window.views["output"]
    qtbot.waitUntil(lambda: view.bars.isVisible() and len(view.bars.items) >= 3, timeout=5000)
    return view


def test_ctrl_h_on_a_chosen_bar_opens_its_probabilitys_steps(window, state, qtbot):
    view = _bars(window, qtbot)
    bars = view.bars
    bars.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(bars.hasFocus, timeout=5000)
    for key in (Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Down):  # the first ↓ chooses the likeliest
        QTest.keyClick(bars, key)
    assert bars.chosen == 2
    token, _label, prob = bars.items[2]
    QTest.keyClick(bars, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    stepper = _stepper(window, qtbot)
    sel, last = state.selection, state.trace.rows[state.selection.row].length - 1
    cell = Cell("probs", 0, 0, last, dim=token, sentence=sel.row)
    assert stepper.ask.cell == cell
    expected = anatomy(state.trace, cell)  # logits ÷ T, the max, each exp, the sum, the division
    assert [s.op for s in stepper.steps] == [s.op for s in expected]
    assert stepper.steps[-1].running == expected[-1].running
    assert stepper.steps[-1].running == pytest.approx(prob, rel=1e-6)  # the bar's own probability


def test_the_bars_context_menu_opens_the_steps_of_the_bar_under_the_pointer(window, state, qtbot):
    view = _bars(window, qtbot)
    bars = view.bars
    y = 2 + bars._row_height() + bars._row_height() // 2  # the second bar
    QApplication.sendEvent(
        bars, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, QPoint(20, y), bars.mapToGlobal(QPoint(20, y)))
    )
    first = view.bars_menu.actions()[0]
    assert first.text().startswith("How is this made?")
    view.bars_menu.close()
    first.trigger()
    stepper = _stepper(window, qtbot)
    assert (stepper.ask.cell.stage, stepper.ask.cell.dim) == ("probs", bars.items[1][0])
