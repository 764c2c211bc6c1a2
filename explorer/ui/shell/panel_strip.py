"""The strips along the window's edges: one button per panel of that side, checked while the panel is open.

The map is what a class looks at (issue 22), so the panels around it start closed where the screen is small:
the bottom panels always, the right-hand ones below 1600 px. A closed panel is never lost: its button stays
on the strip, one click opens it (and a click on the open one's button closes it again). The side strips are
a text's height wide, their words turned along the edge as in most editors.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QStyle, QStyleOptionToolButton, QStylePainter, QToolBar, QToolButton


class StripButton(QToolButton):
    """A flat, checkable button for one panel; on a side strip its text runs along the edge."""

    def __init__(self, action: QAction, turn: int = 0) -> None:
        super().__init__()
        self.turn = turn  # degrees: 0 on the bottom strip, −90 on the left (reads upwards), 90 on the right
        self.setDefaultAction(action)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setAutoRaise(True)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return hint.transposed() if self.turn else hint

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, event) -> None:
        if not self.turn:
            super().paintEvent(event)
            return
        painter = QStylePainter(self)
        option = QStyleOptionToolButton()
        self.initStyleOption(option)
        option.rect = option.rect.transposed()
        if self.turn < 0:
            painter.translate(0, self.height())
        else:
            painter.translate(self.width(), 0)
        painter.rotate(self.turn)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ToolButton, option)
        painter.end()


class PanelStrip(QToolBar):
    """A fixed tool bar on one edge of the window holding a StripButton per dock of that side. A button's
    click opens its panel (in front of its tab group), or closes it when it is already in front."""

    def __init__(self, window, name: str, area: Qt.ToolBarArea | None, docks: list[QDockWidget], open_panel) -> None:
        """``area``: the window edge it stands on; None for the bottom panels' strip, which the caller puts
        into the status bar (a row of its own cost the map 29 px of a laptop's height)."""
        super().__init__(window)
        self.setObjectName(f"strip.{name}")
        self.setMovable(False)
        self.setFloatable(False)
        self.toggleViewAction().setVisible(False)  # not a tool bar one switches off: it is how panels come back
        vertical = area in (Qt.ToolBarArea.LeftToolBarArea, Qt.ToolBarArea.RightToolBarArea)
        turn = 0 if not vertical else (-90 if area == Qt.ToolBarArea.LeftToolBarArea else 90)
        self.setOrientation(Qt.Orientation.Vertical if vertical else Qt.Orientation.Horizontal)
        self.setContentsMargins(0, 0, 0, 0)
        self.buttons: dict[str, StripButton] = {}
        for dock in docks:
            key = dock.objectName().removeprefix("dock.")
            action = QAction(dock.windowTitle(), self)
            action.setCheckable(True)
            action.setChecked(not dock.isHidden())
            action.triggered.connect(lambda _checked=False, key=key: open_panel(key, toggle=True))
            dock.windowTitleChanged.connect(action.setText)
            dock.visibilityChanged.connect(lambda _v, a=action, d=dock: a.setChecked(not d.isHidden()))
            button = StripButton(action, turn)
            if not vertical:  # in the status bar: no taller than its text
                button.setMaximumHeight(button.fontMetrics().height() + 4)
            self.buttons[key] = button
            self.addWidget(button)
        if area is not None:
            window.addToolBar(area, self)
        else:
            self.setStyleSheet("QToolBar { border: 0px; padding: 0px; spacing: 2px; }")

    def button(self, name: str) -> StripButton:
        return self.buttons[name]
