"""Ctrl+H, “How is this made?”: the window's one key for the stepper asks the panel whose map has the keyboard
focus (the Model view's grid, the Generate panel's map), else the central view, for its chosen cell."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication


def how_made(window) -> bool:
    focus = QApplication.focusWidget()
    for view in window.views.built():
        if view is window.views["tensor"] or not hasattr(view, "ask_anatomy"):
            continue
        if focus is not None and view.isAncestorOf(focus):
            return view.ask_anatomy()
    return window.views["tensor"].ask_anatomy()
