"""The Generate panel's map fits its panel (issue 38: at 1366×768 a bottom panel showed about 64 px of it,
the rest scrolled away under the controls and the text): the map stands beside the controls, whole, as high
as the panel allows."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect

SHARE = 0.45  # of the panel's height: the map's cells at least this high, and wholly on screen


def test_the_generate_panels_map_is_whole_and_as_high_as_the_panel(window, state, qtbot):
    window.resize(1366, 768)
    window.open_panel("generate")
    view = window.views["generate"]
    view.count.setValue(4)
    view.run_button.click()
    qtbot.waitUntil(lambda: view.job is None and view.generation is not None, timeout=60_000)
    state.generation.show(False)  # the centre back on the stage: the panel draws the generation's map itself
    dock = window.docks["generate"]
    qtbot.waitUntil(lambda: view.map.isVisible() and view.map.layers.shape[0] > 5)

    def on_screen_cells() -> QRect:
        cells = view.map.cells_rect().toRect()
        top_left = view.map.mapTo(dock, cells.topLeft())
        return QRect(top_left, cells.size()).intersected(dock.rect().adjusted(0, 0, 0, 0))

    panel = dock.widget()
    qtbot.waitUntil(lambda: on_screen_cells().height() >= SHARE * panel.height(), timeout=10_000)
    cells = view.map.cells_rect().toRect()
    seen = view.map.visibleRegion().boundingRect()
    assert seen.contains(cells), (seen, cells)  # no part scrolled or clipped away
    assert view.map.mapTo(window, QPoint(0, 0)).y() + cells.bottom() <= window.height()
