"""Editing a token from its chip (issue 15 item 2): double-click, type, Enter re-traces with the new token
(the sentence's text written out here); Delete removes the selected token; Ctrl+Z undoes."""

from __future__ import annotations

import pytest
from live_state import live, wait_trace
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


@pytest.fixture
def view(input_view):
    return input_view


def _double_click(view, row, token):
    rect = view.chips.chip_rect(row, token)
    QTest.mouseDClick(view.chips, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())


def test_double_click_replaces_a_subword_token_and_ctrl_z_undoes(qtbot, state, view):
    with live(state, qtbot):
        first = wait_trace(qtbot, state, lambda t: t.rows[0].text == "This is a pen .")
        assert first.rows[0].tokens[3] == " pen"
        _double_click(view, 0, 3)
        assert view.editor.isVisible() and view.editor.text() == "pen"
        view.editor.selectAll()
        QTest.keyClicks(view.editor, "cat")
        QTest.keyClick(view.editor, Qt.Key.Key_Return)
        assert not view.editor.isVisible()
        assert view.text.toPlainText() == "This is a cat ."
        trace = wait_trace(qtbot, state, lambda t: t.rows[0].text == "This is a cat .")
        assert trace.rows[0].tokens[3] == " cat" and trace.rows[0].ids[3] != first.rows[0].ids[3]
        assert [c.text for c in view.chips.rows()[0]][3] == "␣cat"

        view.chips.setFocus()
        QTest.keyClick(view.chips, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        assert view.text.toPlainText() == "This is a pen ."
        wait_trace(qtbot, state, lambda t: t.rows[0].text == "This is a pen .")


def test_escape_keeps_the_token(qtbot, state, view):
    with live(state, qtbot):
        wait_trace(qtbot, state, lambda t: t.rows[0].text == "This is a pen .")
        _double_click(view, 0, 1)
        QTest.keyClicks(view.editor, "zzz")
        QTest.keyClick(view.editor, Qt.Key.Key_Escape)
        assert not view.editor.isVisible() and view.text.toPlainText() == "This is a pen ."


def test_empty_text_or_delete_removes_a_token(qtbot, state, view):
    with live(state, qtbot):
        wait_trace(qtbot, state, lambda t: t.rows[0].text == "This is a pen .")
        _double_click(view, 0, 1)  # " is"
        view.editor.clear()
        QTest.keyClick(view.editor, Qt.Key.Key_Return)
        trace = wait_trace(qtbot, state, lambda t: t.rows[0].text == "This a pen .")
        assert trace.rows[0].tokens == ("This", " a", " pen", " .")

        state.select(row=0, token=2)  # " pen"
        view.chips.setFocus()
        QTest.keyClick(view.chips, Qt.Key.Key_Delete)
        trace = wait_trace(qtbot, state, lambda t: t.rows[0].text == "This a .")
        assert trace.rows[0].tokens == ("This", " a", " .")
