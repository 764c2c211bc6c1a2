"""Light and dark themes; "system" follows the desktop's colour scheme (and its changes)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from explorer.ui.words.plain_text import PlainTextStyle


def system_is_dark() -> bool:
    hints = QGuiApplication.styleHints()
    scheme = getattr(hints, "colorScheme", None)
    if scheme is not None:
        return scheme() == Qt.ColorScheme.Dark
    return QGuiApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def _dark_palette() -> QPalette:
    p = QPalette()
    base, text, mid = QColor(37, 37, 40), QColor(230, 230, 230), QColor(53, 53, 58)
    for role, color in (
        (QPalette.ColorRole.Window, mid),
        (QPalette.ColorRole.WindowText, text),
        (QPalette.ColorRole.Base, base),
        (QPalette.ColorRole.AlternateBase, mid),
        (QPalette.ColorRole.Text, text),
        (QPalette.ColorRole.Button, mid),
        (QPalette.ColorRole.ButtonText, text),
        (QPalette.ColorRole.ToolTipBase, base),
        (QPalette.ColorRole.ToolTipText, text),
        (QPalette.ColorRole.Highlight, QColor(64, 128, 220)),
        (QPalette.ColorRole.HighlightedText, QColor(255, 255, 255)),
        (QPalette.ColorRole.PlaceholderText, QColor(150, 150, 150)),
        (QPalette.ColorRole.Link, QColor(120, 170, 255)),
    ):
        p.setColor(role, color)
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor(120, 120, 120))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor(120, 120, 120))
    return p


def is_dark(theme: str) -> bool:
    return system_is_dark() if theme == "system" else theme == "dark"


def apply_theme(theme: str) -> bool:
    """Apply a theme; returns True when the result is dark (views pick plot colours from it)."""
    app = QApplication.instance()
    dark = is_dark(theme)
    app.setStyle(
        PlainTextStyle("Fusion")
    )  # Fusion, and labels plain text unless made rich (explorer.ui.words.plain_text)
    app.setPalette(_dark_palette() if dark else app.style().standardPalette())
    import pyqtgraph as pg

    pg.setConfigOptions(background=QColor(37, 37, 40) if dark else "w", foreground="#ddd" if dark else "k")
    restyle_plots()
    return dark


def restyle_plots() -> None:
    """Give every plot already on screen the theme's background and text colours. pyqtgraph reads its
    colours when a plot is made: a theme switch left white plots in dark mode and the grid's head titles
    black on dark grey until a restart (issue 22)."""
    import pyqtgraph as pg

    background, foreground = pg.getConfigOption("background"), pg.getConfigOption("foreground")
    for widget in QApplication.allWidgets():
        if not isinstance(widget, pg.GraphicsView):
            continue
        widget.setBackground(background)
        for item in widget.scene().items():
            if isinstance(item, pg.AxisItem):
                item.setPen(foreground)
                item.setTextPen(foreground)
            elif isinstance(item, pg.LabelItem):
                item.setText(item.text, color=foreground)
