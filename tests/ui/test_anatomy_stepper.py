"""“How is this made?” in the window (issue 39): from the map, with the keyboard alone, Ctrl+H opens the
stepper on the walked cell; → ← Home End walk the core's steps; the last step says the number the hover
says; the map's context menu opens it too; nothing plays until ▶ is pressed."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from explorer.anatomy import Cell, anatomy


@pytest.fixture
def walked(open_window, state, qtbot):
    """The window with the keyboard's cell on query 3, key 1 of the weights map."""
    w = open_window(state)
    w.resize(1366, 768)
    state.select(stage="weights", token=None)
    QApplication.processEvents()
    view = w.centralWidget()
    graphics = view.large.graphics
    graphics.setFocus(Qt.FocusReason.TabFocusReason)
    for key in (Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Right):
        QTest.keyClick(graphics, key)
    assert view.large.access.cell == (3, 1)
    yield w, view, graphics
    w.close()


def _stepper(w, qtbot):
    qtbot.waitUntil(lambda: w.docks["anatomy"].isVisible(), timeout=5000)
    stepper = w.views["anatomy"].stepper
    qtbot.waitUntil(lambda: len(stepper.steps) > 0, timeout=20_000)
    return stepper


def test_ctrl_h_on_the_walked_cell_opens_the_stepper_and_the_arrows_walk_its_steps(walked, state, qtbot):
    w, view, graphics = walked
    assert not w.docks["anatomy"].isVisible()  # closed until asked
    QTest.keyClick(graphics, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    stepper = _stepper(w, qtbot)
    sel = state.selection
    assert stepper.ask.cell == Cell("weights", sel.layer, sel.head, 3, key=1, sentence=sel.row)
    expected = anatomy(state.trace, stepper.ask.cell)  # the core's steps for that cell, in its order
    assert [s.op for s in stepper.steps] == [s.op for s in expected]
    assert stepper.position == 0 and stepper.lines["label"].text() == ""  # nothing built before the first →
    k = 5
    for _ in range(k):
        QTest.keyClick(stepper, Qt.Key.Key_Right)
    assert stepper.position == k
    assert stepper.lines["label"].text().startswith(expected[k - 1].label("en"))
    assert stepper.lines["counter"].text() == f"Step {k} of {len(expected)}"
    assert stepper.accessibleName().startswith(f"Step {k} of {len(expected)}: {expected[k - 1].label('en')}")
    assert stepper.table.rowCount() == len(expected) and stepper.table.currentRow() == k - 1
    QTest.keyClick(stepper, Qt.Key.Key_Left)
    assert stepper.position == k - 1
    QTest.keyClick(stepper, Qt.Key.Key_End)
    assert stepper.position == len(expected) and stepper.current().op == "cell"
    # The hover's first line ends with the cell's number as the map prints it: the last step says those digits.
    hover_number = view.cell_explanation(sel.head, 3, 1).split("\n")[0].rsplit(" = ", 1)[1]
    assert stepper.lines["result"].text() == f"→ {hover_number}"
    QTest.keyClick(stepper, Qt.Key.Key_Home)
    assert stepper.position == 0


def test_the_context_menu_of_a_cell_opens_the_stepper_on_it(walked, state, qtbot):
    w, view, _ = walked
    view._intervention_menu(state.selection.head, 2, 0, QPoint(10, 10))
    first = view.context_menu.actions()[0]
    assert first.text().startswith("How is this made?")
    view.context_menu.close()
    first.trigger()
    stepper = _stepper(w, qtbot)
    assert (stepper.ask.cell.query, stepper.ask.cell.key) == (2, 0)


def test_the_link_under_the_map_appears_once_a_cell_is_chosen_and_opens_the_stepper(walked, state, qtbot):
    w, view, _ = walked
    assert not view.how_link.isVisible()  # only a hint under the map until a cell is chosen
    view.large.cellClicked.emit(4, 2)  # a click on query 4, key 2
    assert view.how_link.isVisible() and "How is this made?" in view.how_link.text()
    view.how_link.linkActivated.emit("how")
    stepper = _stepper(w, qtbot)
    assert (stepper.ask.cell.query, stepper.ask.cell.key) == (4, 2)


def test_a_matrix_stage_cell_and_what_comes_next(walked, state, qtbot):
    w, view, graphics = walked
    state.select(stage="ffn")
    QApplication.processEvents()
    view.ask_anatomy((1, 2))
    stepper = _stepper(w, qtbot)
    assert stepper.ask.cell.stage == "ffn" and stepper.ask.cell.query == 1
    stepper.ask_next.setChecked(True)
    QTest.keyClick(stepper, Qt.Key.Key_Right)
    assert stepper.position == 1 and stepper.lines["result"].text() == "→ what comes next?"
    assert stepper.accessibleName().endswith("→ what comes next?")
    QTest.keyClick(stepper, Qt.Key.Key_Right)
    assert stepper.position == 1 and stepper.lines["result"].text() != "→ what comes next?"
    QTest.keyClick(stepper, Qt.Key.Key_Right)
    assert stepper.position == 2


def test_nothing_plays_until_play_is_pressed(walked, state, qtbot):
    w, view, graphics = walked
    QTest.keyClick(graphics, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    stepper = _stepper(w, qtbot)
    QApplication.processEvents()
    assert stepper.position == 0 and not stepper.timer.isActive()
    stepper.speed.setCurrentIndex(stepper.speed.count() - 1)  # the fastest
    stepper.buttons["play"].click()
    qtbot.waitUntil(lambda: stepper.position >= 2, timeout=10_000)
    stepper.buttons["play"].click()  # pause
    stopped = stepper.position
    assert not stepper.timer.isActive()
    QApplication.processEvents()
    assert stepper.position == stopped


def test_on_a_slide_h_shows_the_stepper_which_asks_what_comes_next_and_takes_the_arrows(window, state, qtbot):
    from explorer.ui.classroom import presentation

    state.select(stage="scores", token=2, key=1)
    slides = presentation.show_for(state, window)
    qtbot.waitUntil(slides.isVisible)
    stage = state.selection.stage
    qtbot.keyClick(slides, Qt.Key.Key_H)
    stepper = slides.stepper
    qtbot.waitUntil(lambda: len(stepper.steps) > 0, timeout=20_000)
    assert stepper.isVisible() and (stepper.ask.cell.query, stepper.ask.cell.key) == (2, 1)
    qtbot.keyClick(slides, Qt.Key.Key_Right)  # the first step, its result held back
    assert stepper.position == 1 and stepper.lines["result"].text() == "→ what comes next?"
    qtbot.keyClick(slides, Qt.Key.Key_Space)  # a clicker's next: the result
    assert stepper.position == 1 and stepper.lines["result"].text().startswith("→ ")
    assert stepper.lines["result"].text() != "→ what comes next?"
    qtbot.keyClick(slides, Qt.Key.Key_End)
    assert stepper.current().op == "cell" and state.selection.stage == stage  # the stage keys waited
    qtbot.keyClick(slides, Qt.Key.Key_Escape)  # puts the stepper away, the slides stay
    assert not stepper.isVisible() and slides.isVisible()
    slides.close()


def test_help_lists_ctrl_h_and_the_steppers_keys(walked):
    from explorer.ui.menus.shortcuts_help import shortcut_rows

    w, _view, graphics = walked
    w.views["anatomy"]  # the panel is built when first asked for
    rows = shortcut_rows(w)
    assert ("Ctrl+H", "How is this made?") in rows
    assert ("Right", "How is this made?: the next step (Space too)") in rows


def test_choosing_a_cell_leaves_the_tokens_stage_row_of_w_e_whole(walked, state, qtbot):
    """The chosen cell once lived in ``view.picked``, the name of the Tokens stage's row-of-W_E map: a redraw
    rebound it to None, which freed that map's Python side while Qt still drew it (a segfault in Japanese)."""
    import numpy as np

    from explorer.ui.views.map.heatmap import Heatmap

    w, view, graphics = walked

    def shown(stage: str) -> None:
        state.select(stage=stage, token=2)
        qtbot.waitUntil(lambda: view._drawn is not None and view._drawn[1] == stage, timeout=10_000)

    shown("tokens")  # the lookup's maps are built
    row_map = view.picked
    shown("weights")
    view.pick(3, 1)  # a cell chosen (a click, Enter), then other maps drawn
    shown("scores")
    shown("tokens")
    assert view.picked is row_map and isinstance(row_map, Heatmap) and row_map.isVisible()
    assert np.allclose(row_map.image.image[0], state.trace["embed.tok"][0, 2], atol=1e-6)


def test_the_embeddings_map_explains_its_sum_and_ends_on_the_hovers_number(walked, state, qtbot):
    w, view, _ = walked
    state.select(stage="embed")
    QApplication.processEvents()
    assert view._matrix.name == "embed.out"  # the sum is drawn: its cell is the token's row + the position's
    assert view.ask_anatomy((1, 2))
    stepper = _stepper(w, qtbot)
    assert stepper.ask.cell == Cell("embed", state.selection.layer, state.selection.head, 1, dim=2)
    assert [s.op for s in stepper.steps][:1] == ["embedding_row"] and "position" in [s.op for s in stepper.steps]
    QTest.keyClick(stepper, Qt.Key.Key_End)
    hover_number = view.cell_explanation(state.selection.head, 1, 2).split("\n")[0].rsplit(" = ", 1)[1]
    assert stepper.lines["result"].text() == f"→ {hover_number}"
