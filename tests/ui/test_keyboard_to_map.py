"""The keyboard reaches the map (issue 38: 30 presses of Tab never did): the pipeline is one Tab stop (← →
walk its stages, the focus follows), the map comes right after the pipeline and the central view's own
controls, and F6 (View → Go to the map, listed by F1) brings the focus to the map from anywhere."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from explorer.ui.menus.shortcuts_help import shortcut_rows
from explorer.ui.views.pipeline.stage_box import StageBox

ENOUGH = 15  # the pipeline's stop, its buttons, the side strips, the stage, layer and head, the head grid


def test_tab_from_the_pipeline_reaches_the_map_soon(window, state, qtbot):
    window.resize(1366, 768)
    window.activateWindow()
    large = window.views["tensor"].large.graphics
    qtbot.waitUntil(large.isVisible)
    window.accessible_watcher._run()
    boxes = window.findChildren(StageBox)
    start = next(b for b in boxes if b.selected)
    start.setFocus(Qt.FocusReason.TabFocusReason)
    visited = []
    for _ in range(ENOUGH):
        focused = QApplication.focusWidget()
        if focused is large:
            break
        visited.append(focused)
        QTest.keyClick(focused, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is large, [type(w).__name__ for w in visited]
    assert sum(isinstance(w, StageBox) for w in visited) == 1  # the pipeline is one stop


def test_arrows_walk_the_pipeline_and_the_focus_follows(window, state, qtbot):
    window.activateWindow()
    boxes = {b.key: b for b in window.findChildren(StageBox)}
    before = state.selection.stage
    keys = list(boxes)
    boxes[before].setFocus(Qt.FocusReason.TabFocusReason)
    QTest.keyClick(boxes[before], Qt.Key.Key_Right)
    after = state.selection.stage
    assert keys.index(after) == keys.index(before) + 1
    assert QApplication.focusWidget() is boxes[after]
    assert [k for k, b in boxes.items() if b.focusPolicy() & Qt.FocusPolicy.TabFocus] == [after]


def test_f6_goes_to_the_map_and_says_so(window, qtbot):
    window.activateWindow()
    text = window.views["input"].text
    text.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(text.hasFocus)
    QTest.keyClick(text, Qt.Key.Key_F6)
    large = window.views["tensor"].large.graphics
    qtbot.waitUntil(large.hasFocus)
    action = window.actions_.access.to_map
    assert "F6" in action.toolTip() and "map" in action.text().lower()
    assert any(keys == "F6" and "map" in what.lower() for keys, what in shortcut_rows(window))
