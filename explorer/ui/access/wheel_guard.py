"""Wheel and focus: a spin box, combo box or slider inside a scrolling panel takes the mouse wheel only once
it has the keyboard focus; otherwise the wheel scrolls the panel.

Scrolling down the Model panel ran over the heads box and turned H from 32 into 38, tracing each value
(issue 22). The guarded controls no longer take the focus from the wheel (a click or Tab gives it), and a
wheel over an unfocused one is handed to the scroll area around it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QScrollBar,
    QWidget,
)

GUARDED = (QAbstractSpinBox, QComboBox, QAbstractSlider)


def _scroll_area(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return parent
        parent = parent.parentWidget()
    return None


class WheelGuard(QObject):
    """One filter for every guarded control of a window; ``guard(root)`` adds the controls under ``root``."""

    def guard(self, root: QWidget) -> int:
        count = 0
        for widget in root.findChildren(QWidget):
            if (
                isinstance(widget, GUARDED)
                and not isinstance(widget, QScrollBar)  # a scroll bar is the scrolling
                and not getattr(widget, "_wheel_guarded", False)
                and _scroll_area(widget) is not None
            ):
                widget._wheel_guarded = True
                if widget.focusPolicy() & Qt.FocusPolicy.WheelFocus == Qt.FocusPolicy.WheelFocus:
                    widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # the wheel alone gives no focus
                widget.installEventFilter(self)
                count += 1
        return count

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.Wheel or not isinstance(obj, QWidget) or obj.hasFocus():
            return False
        area = _scroll_area(obj)
        if area is None:
            return False
        QApplication.sendEvent(
            area.verticalScrollBar() if event.angleDelta().y() else area.horizontalScrollBar(), event
        )
        return True  # not the control's: its value stays
