"""A banner's place in the window: a fixed toolbar row of its own above the panels, the window's width.

Shared by the snapshot banner and the non-finite banner: neither is a toolbar the user moves, floats, or
switches on and off from the context menu; each shows or hides its row itself."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow, QSizePolicy, QToolBar, QWidget


def banner_row(window: QMainWindow, name: str, banner: QWidget) -> QToolBar:
    """Put ``banner`` in a new fixed row (a QToolBar named ``name``) at the top of ``window``; return the row."""
    bar = QToolBar(window)
    bar.setObjectName(name)
    bar.setMovable(False)
    bar.setFloatable(False)
    bar.toggleViewAction().setVisible(False)  # not a toolbar the user switches on or off
    bar.setContextMenuPolicy(Qt.ContextMenuPolicy.PreventContextMenu)
    banner.setParent(bar)
    banner.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    bar.addWidget(banner)
    window.addToolBarBreak(Qt.ToolBarArea.TopToolBarArea)  # a row of its own, the width of the window
    window.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
    return bar
