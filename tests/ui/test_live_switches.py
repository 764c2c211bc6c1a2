"""Live switches (issue 22): a theme switch reaches every plot already drawn (white plots stayed in dark mode
and the grid's head titles went black on grey), a language switch every label and the status bar's text."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication


def plots(window):
    return [g for g in window.findChildren(pg.GraphicsView)]


def test_a_theme_switch_recolours_every_plot_at_once(window, state, qtbot):
    from explorer.ui.preferences import theme

    state.select(stage="weights")
    window.views.build_all()
    try:
        window.actions_.set_theme("dark")
        QApplication.processEvents()
        dark_bg = QColor(37, 37, 40)
        views = plots(window)
        assert len(views) > 8
        for g in views:
            assert g.backgroundBrush().color() == dark_bg, g.parent()
            for item in g.scene().items():
                if isinstance(item, pg.AxisItem):
                    assert item.textPen().color().lightness() > 180 and item.pen().color().lightness() > 180
        titles = window.views["tensor"].grid.titles
        assert titles and all(
            "#dddddd" in t.item.toHtml().lower() or "color:#ddd" in t.item.toHtml().lower() for t in titles
        )
        window.actions_.set_theme("light")
        QApplication.processEvents()
        assert all(g.backgroundBrush().color() == QColor("white") for g in plots(window))
        assert QApplication.palette().window().color().lightness() > 180
    finally:
        theme.apply_theme("light")


def test_a_language_switch_reaches_the_status_bar_and_the_strips(window, state, qtbot):
    from explorer.ui.preferences import i18n

    bar = window.statusBar()
    assert "parameters" in bar.params.text()
    try:
        window.actions_.set_language("ja")
        QApplication.processEvents()
        assert "parameters" not in bar.params.text() and "パラメータ" in bar.params.text()
        assert window.strips["bottom"].button("identities").text() != "Identities"
        assert window.views["tensor"].stage_label.text() != "&Stage"
        bar.show_error("x went wrong")
        window.actions_.set_language("en")
        QApplication.processEvents()
        assert bar.currentMessage() == "Error: x went wrong" and "parameters" in bar.params.text()
        assert window.strips["bottom"].button("identities").text() == "Identities"
    finally:
        i18n.install_language("en")
