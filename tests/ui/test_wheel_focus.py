"""Wheel and focus (issue 22): scrolling the Model panel over its H box turned 32 into 38 and traced each
value. A spin box, combo box or slider in a scrolling panel takes the wheel only when it has the focus;
otherwise the panel scrolls."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QApplication, QComboBox


def wheel(widget, steps: int = -1) -> None:
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(
        centre,
        QPointF(widget.mapToGlobal(centre.toPoint())),
        QPoint(),
        QPoint(0, 120 * steps),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def test_the_wheel_scrolls_the_panel_until_a_control_has_the_focus(window, state, qtbot):
    window.resize(1280, 720)
    window.apply_default_sizes()
    controls = window.views["controls"]
    area = next(a for a in controls.findChildren(QAbstractScrollArea) if a.verticalScrollBar().maximum() > 0)
    spins = [s for s in controls.findChildren(QAbstractSpinBox) if s.isVisible()]
    combos = [c for c in controls.findChildren(QComboBox) if c.isVisible()]
    assert spins and combos
    bar = area.verticalScrollBar()
    bar.setValue(0)
    for control in (*spins[:3], *combos[:2]):
        before = control.value() if isinstance(control, QAbstractSpinBox) else control.currentIndex()
        scrolled = bar.value()
        wheel(control)
        now = control.value() if isinstance(control, QAbstractSpinBox) else control.currentIndex()
        assert now == before, control  # not its wheel: the value stays
        assert not control.hasFocus()
        assert bar.value() > scrolled or bar.value() == bar.maximum()  # the panel scrolled instead
    spin = next(s for s in spins if s.isEnabled() and s.value() > s.minimum())
    spin.setFocus()
    before = spin.value()
    wheel(spin, steps=-1)
    assert spin.value() != before  # focused: the wheel is the control's
