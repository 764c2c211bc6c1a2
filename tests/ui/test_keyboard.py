"""The window with the keyboard alone (issue 27): Tab reaches every control in the order the panels stand on
screen, focus is always visible, the map is walked cell by cell with the arrow keys (the explanation and
the spoken cell follow it) and Enter selects the cell's token; the pipeline's stages take Space and Enter."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QCheckBox, QDockWidget, QPushButton, QSlider, QTabBar, QTabWidget, QWidget

from explorer import names
from explorer.ui.access import accessible
from explorer.ui.views.pipeline.stage_box import StageBox

CENTRE_RANK = 1
AREA_ORDER = {  # pipeline on top, the map (issue 38: what a class looks at comes next), left column, under it, right
    Qt.DockWidgetArea.TopDockWidgetArea: 0,
    Qt.DockWidgetArea.LeftDockWidgetArea: 2,
    Qt.DockWidgetArea.BottomDockWidgetArea: 3,
    Qt.DockWidgetArea.RightDockWidgetArea: 4,
}


@pytest.fixture
def big_window(open_window, state):
    w = open_window(state)
    w.resize(1400, 900)
    w.views.build_all()
    for name in w.docks:  # every panel open, as from its strip (the default layout leaves most on their strips)
        if name != "model_view":
            w.open_panel(name)
    QApplication.processEvents()
    w.accessible_watcher._run()  # what the window does one event-loop turn after a panel is built
    w.activateWindow()
    yield w
    w.close()


def _dock_of(w: QWidget):
    while w is not None and not isinstance(w, QDockWidget):
        w = w.parentWidget()
    return w


def tab_walk(window, limit: int = 600) -> list[QWidget]:
    """Press Tab from the first stop until focus comes back round; the widgets focused, in order."""
    # the pipeline is one stop: its selected stage's box (← → walk the others)
    window.pipeline_start = next(b for b in window.findChildren(StageBox) if b.selected)
    window.pipeline_start.setFocus(Qt.FocusReason.TabFocusReason)
    seen: list[QWidget] = []
    for _ in range(limit):
        f = QApplication.focusWidget()
        assert f is not None, "Tab lost the focus"
        if seen and f is seen[0]:
            return seen
        assert f not in seen, f"Tab went round a loop at {type(f).__name__} ({accessible.spoken(f)!r})"
        seen.append(f)
        QTest.keyClick(f, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never came back to the start in {limit} presses (a control keeps Tab)")


def expected_stops(window) -> set[QWidget]:
    """Every enabled control that takes Tab, in a panel that is open (closed ones are opened from the menu),
    shown in its panel (or the centre), on the current page of tab widgets."""
    out = set()
    for w in accessible.controls(window):
        dock = _dock_of(w)
        holder = dock if dock is not None else window.centralWidget()
        if dock is not None and not dock.toggleViewAction().isChecked():
            continue
        if w.isEnabled() and w.focusPolicy() & Qt.FocusPolicy.TabFocus and holder is not None and w.isVisibleTo(holder):
            out.add(w)
    return out


def test_tab_reaches_every_control_in_the_order_the_panels_stand(big_window):
    w = big_window
    reached: set[QWidget] = set()
    pages = max(t.count() for t in w.findChildren(QTabWidget))
    for page in range(pages):
        walk = tab_walk(w)
        reached.update(walk)
        if page == 0:
            # The panels in screen order, each visited in one run (never left and come back to).
            runs: list = []
            for f in walk:
                dock = _dock_of(f)
                key = dock if dock is not None else ("centre" if w.centralWidget().isAncestorOf(f) else ("bar", f))
                if not runs or runs[-1] != key:
                    runs.append(key)
            if len(runs) > 1 and runs[-1] == runs[0]:
                runs.pop()  # the walk started inside the pipeline and came round to it
            docks = [k for k in runs if isinstance(k, QDockWidget)]
            assert len(docks) == len(set(docks)), " ".join(d.objectName()[5:] for d in docks)
            rank = [
                AREA_ORDER[w.dockWidgetArea(k)] if isinstance(k, QDockWidget) else CENTRE_RANK
                for k in runs
                if not isinstance(k, tuple)
            ]
            assert rank == sorted(rank), runs
            assert [d.objectName() for d in docks][:2] == ["dock.flow", "dock.input"]  # the pipeline, then the text
            centre = runs.index("centre")
            assert [d for d in runs[:centre] if isinstance(d, QDockWidget)] == [w.docks["flow"]]  # only the pipeline
        for tabs in w.findChildren(QTabWidget):  # next page, with the keyboard: Right on the focused tab bar
            if tabs.isVisibleTo(w) and tabs.count() > 1:
                tabs.tabBar().setFocus(Qt.FocusReason.TabFocusReason)
                QTest.keyClick(tabs.tabBar(), Qt.Key.Key_Right)
        QApplication.processEvents()
        missing = {x for x in expected_stops(w) if x not in reached and isinstance(x.parentWidget(), QWidget)}
        if not missing:
            break
    missing = expected_stops(w) - reached
    assert not missing, [
        (type(x).__name__, accessible.spoken(x), _dock_of(x) and _dock_of(x).objectName()) for x in missing
    ]
    kinds = {type(x).__name__ for x in reached}
    assert {
        "StageBox",
        "QSpinBox",
        "QComboBox",
        "QCheckBox",
        "QPushButton",
        "QSlider",
        "QTabBar",
        "GraphicsLayoutWidget",
        "StripButton",
    } <= kinds


def _picture(widget: QWidget) -> QImage:
    """The control and the few pixels around it, where the focus ring is drawn."""
    QApplication.processEvents()
    parent = widget.parentWidget()
    return (
        parent.grab(widget.geometry().adjusted(-4, -4, 4, 4)).toImage()
        if parent is not None
        else widget.grab().toImage()
    )


def test_focus_is_visible_on_every_kind_of_control(big_window):
    w = big_window
    central = w.centralWidget()
    samples = {
        "stage": w.findChildren(StageBox)[3],
        "map": central.large.graphics,
        "chips": w.views["input"].chips,
        "spin box": central.layer_spin,
        "combo box": central.stage_combo,
        "tab bar": next(t for t in w.findChildren(QTabBar) if t.isVisible() and t.count() > 2),
        "check box": w.views["controls"].findChildren(QCheckBox)[0],
        "push button": w.views["output"].findChildren(QPushButton)[0],
        "slider": w.views["identities"].findChildren(QSlider)[0],
    }
    elsewhere = w.views["input"].editor if hasattr(w.views["input"], "editor") else None
    for kind, widget in samples.items():
        if elsewhere is not None and widget is not elsewhere:
            elsewhere.setFocus(Qt.FocusReason.TabFocusReason)
        else:
            w.findChildren(StageBox)[0].setFocus(Qt.FocusReason.TabFocusReason)
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)  # focus moves by keyboard, as a user's does
        before = _picture(widget)
        widget.setFocus(Qt.FocusReason.TabFocusReason)
        assert widget.hasFocus() or widget.isAncestorOf(QApplication.focusWidget()), kind
        after = _picture(widget)
        assert before != after, f"focus on the {kind} changes nothing on screen"


def test_the_focus_ring_lies_around_a_pipeline_box_not_over_its_text(big_window):
    from explorer.ui.access.keyboard_order import FocusRing

    box = big_window.findChildren(StageBox)[0]
    box.setFocus(Qt.FocusReason.TabFocusReason)
    QApplication.processEvents()
    ring = big_window.focus_helper.ring
    assert ring.isVisible() and ring.target is box and ring.parentWidget() is box.parentWidget()
    room = box.parentWidget().rect()
    wanted = box.geometry().adjusted(-FocusRing.MARGIN, -FocusRing.MARGIN, FocusRing.MARGIN, FocusRing.MARGIN)
    assert ring.geometry() == wanted.intersected(room)
    assert ring.geometry().contains(box.geometry())  # the box's own border and text are not painted over


def weights_of(state) -> np.ndarray:
    sel = state.selection
    return state.trace.get(names.attn(sel.layer, "weights"))[sel.row, sel.head]


def test_arrow_keys_walk_the_map_and_enter_selects(big_window, state):
    w = big_window
    view = w.centralWidget()
    state.select(stage="weights", token=None)
    QApplication.processEvents()
    graphics = view.large.graphics
    graphics.setFocus(Qt.FocusReason.TabFocusReason)
    access = view.large.access
    assert access.cell == (0, 0)
    for key in (Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Right):
        QTest.keyClick(graphics, key)
    assert access.cell == (3, 1)
    A = weights_of(state)  # the trace's own numbers: what the map draws
    labels = view.large.left.labels  # the tokens as the map's axis writes them
    weight = f"{A[3, 1]:.2f}".rstrip("0").rstrip(".")
    said = lambda label: " ".join(label.split())  # noqa: E731  ("3  pen": a token's leading space is not read)
    assert graphics.accessibleName() == f"query {said(labels[3])}, key {said(labels[1])}, weight {weight}, row sum 1"
    # The explanation under the map follows the keyboard as it follows the mouse.
    assert view.explanation.text() == view.cell_explanation(state.selection.head, 3, 1)
    QTest.keyClick(graphics, Qt.Key.Key_End)
    assert access.cell == (3, A.shape[1] - 1)
    QTest.keyClick(graphics, Qt.Key.Key_Home)
    QTest.keyClick(graphics, Qt.Key.Key_Right)
    QTest.keyClick(graphics, Qt.Key.Key_Return)
    assert (state.selection.token, state.selection.key) == (3, 1)
    # Moving never leaves the map; the window's arrow shortcuts (stages) do not steal the keys.
    stage = state.selection.stage
    for _ in range(20):
        QTest.keyClick(graphics, Qt.Key.Key_Right)
    assert access.cell == (3, A.shape[1] - 1) and state.selection.stage == stage


def test_pipeline_stages_take_space_and_enter(big_window, state):
    boxes = {b.key: b for b in big_window.findChildren(StageBox)}
    boxes["scores"].setFocus(Qt.FocusReason.TabFocusReason)
    QTest.keyClick(boxes["scores"], Qt.Key.Key_Space)
    assert state.selection.stage == "scores"
    boxes["embed"].setFocus(Qt.FocusReason.TabFocusReason)
    QTest.keyClick(boxes["embed"], Qt.Key.Key_Return)
    assert state.selection.stage == "embed"


def test_f1_lists_every_action_with_a_shortcut(big_window):
    from PySide6.QtGui import QAction, QKeySequence

    from explorer.ui.menus.shortcuts_help import shortcut_rows

    rows = shortcut_rows(big_window)
    text = "\n".join(f"{k}\t{v}" for k, v in rows)
    for action in big_window.findChildren(QAction):
        for s in action.shortcuts():
            if action.text() and not s.isEmpty():
                keys = s.toString(QKeySequence.SequenceFormat.NativeText)
                assert keys in text or any(
                    k.toString(QKeySequence.SequenceFormat.NativeText) in text for k in action.shortcuts()
                ), (action.text(), keys)
    for keys in ("Ctrl+=", "Ctrl+-", "Ctrl+0", "Ctrl+Shift+T", "Enter", "Tab"):
        assert keys in text
