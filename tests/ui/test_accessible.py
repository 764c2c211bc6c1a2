"""Every student (issue 27), inside the window: names and descriptions for a screen reader (in English and
Japanese), View → Colours recolouring every figure and remembered, View → Text size scaling the window's text
and the figures' and remembered, View → As table giving a map's numbers as an accessible table."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication, QTabBar

from explorer import names
from explorer.present import colour_vision, palettes
from explorer.ui.access import accessible
from explorer.ui.preferences import i18n, settings, text_size
from explorer.ui.views.map.heatmap import Heatmap

# What the issue asks about, as AT-SPI calls them: no unnamed push button, spin box, combo box, check box,
# slider or tab; and every control has a description.


@pytest.fixture
def full_window(open_window, state):
    w = open_window(state)
    w.views.build_all()
    QApplication.processEvents()
    w.accessible_watcher._run()
    yield w
    w.close()
    palettes.set_current(palettes.DEFAULT)
    text_size.apply(text_size.DEFAULT, remember=False)
    i18n.install_language("en")


def unnamed(window) -> list[str]:
    bad = []
    for w in accessible.controls(window):
        if isinstance(w, QTabBar):
            bad += [
                f"tab {i} of {accessible.spoken(w)!r}"
                for i in range(w.count())
                if not w.tabText(i).strip() and w.isTabVisible(i) and w.focusPolicy() != Qt.FocusPolicy.NoFocus
            ]
            continue
        if not accessible.spoken(w):
            bad.append(f"{type(w).__name__} without a name (tooltip {w.toolTip()[:40]!r})")
        if not accessible.spoken(w, QAccessible.Text.Description):
            bad.append(f"{type(w).__name__} {accessible.spoken(w)!r} without a description")
    return bad


def test_every_control_has_a_name_and_a_description(full_window):
    found = accessible.controls(full_window)
    assert len(found) > 120  # every panel is built: a broken walk would find nothing and pass
    assert not unnamed(full_window)
    # Names are names, not guesses: the Sizes spin boxes are named by their own labels, not the group's title.
    sizes = [
        accessible.spoken(w)
        for w in full_window.views["controls"].findChildren(type(full_window.centralWidget().layer_spin))
    ]
    assert len(set(sizes)) == len(sizes), sizes


def test_names_follow_the_language(full_window):
    layer = full_window.centralWidget().layer_spin
    english = {id(w): accessible.spoken(w) for w in accessible.controls(full_window)}
    i18n.install_language("ja")
    QApplication.processEvents()
    full_window.accessible_watcher._run()
    assert not unnamed(full_window)
    japanese = {id(w): accessible.spoken(w) for w in accessible.controls(full_window)}
    changed = sum(japanese[k] != v for k, v in english.items() if k in japanese)
    assert changed > 0.5 * len(english)
    assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in accessible.spoken(layer))


def test_the_map_is_announced_and_described(full_window, state):
    state.select(stage="weights")
    QApplication.processEvents()
    graphics = full_window.centralWidget().large.graphics
    assert "Arrow keys" in accessible.spoken(graphics, QAccessible.Text.Description)
    graphics.setFocus(Qt.FocusReason.TabFocusReason)
    assert accessible.spoken(graphics).startswith("query 0 ")


def large_lut(window) -> np.ndarray:
    image = window.centralWidget().large.image
    return np.asarray(image.lut if not callable(image.lut) else image.lut())


def test_a_palette_recolours_every_figure_and_is_remembered(full_window, state):
    w = full_window
    state.select(stage="weights")
    QApplication.processEvents()
    large = w.centralWidget().large
    before = large.image.getColorMap().getLookupTable(0.0, 1.0, 3, alpha=False)
    assert before[0].tolist() == [0x44, 0x01, 0x54]  # viridis
    w.actions_.access.palette_actions["greyscale"].trigger()
    QApplication.processEvents()
    assert settings.get("palette") == "greyscale"
    grey = large.image.getColorMap().getLookupTable(0.0, 1.0, 3, alpha=False)
    assert grey[0].tolist() == [255, 255, 255] and grey[-1].tolist() == [0, 0, 0]
    bar = large.bar.colorMap().getLookupTable(0.0, 1.0, 3, alpha=False)
    assert bar.tolist() == grey.tolist()
    # The rendered map itself: every drawn cell is a grey (r = g = b).
    picture = large.graphics.grab().toImage()
    greys = [picture.pixelColor(x, y) for x in range(0, picture.width(), 9) for y in range(0, picture.height(), 9)]
    coloured = [c for c in greys if max(c.red(), c.green(), c.blue()) - min(c.red(), c.green(), c.blue()) > 40]
    assert len(coloured) < 0.02 * len(greys)  # only the highlight's frame keeps a colour
    # The cell numbers chose dark or light text again for the new colours.
    texts = large.layers.numbers
    assert texts is not None
    # Bars follow: the attribution's signed bars are the palette's and stay apart for deuteranopes.
    from explorer.ui.preferences.palette_choice import signed_colours

    pos, neg = signed_colours()
    seen = colour_vision.simulate(np.array([pos.getRgbF()[:3], neg.getRgbF()[:3]]), "deuteranopia")
    lab = colour_vision.srgb_to_lab(seen)
    assert float(colour_vision.delta_e2000(lab[0], lab[1])) > 20
    w.actions_.access.palette_actions["standard"].trigger()
    assert large.image.getColorMap().getLookupTable(0.0, 1.0, 3, alpha=False).tolist() == before.tolist()


def test_text_size_scales_window_and_figures_and_is_remembered(full_window, state):
    w = full_window
    large = w.centralWidget().large
    px0, app_px0 = large.text_px(), text_size.base_px()
    font0 = large.left.tickFont() if callable(getattr(large.left, "tickFont", None)) else None
    caption = w.views["identities"].heads_caption
    caption_px0 = caption.fontInfo().pixelSize()
    for _ in range(5):  # 1.0 → 1.1 → 1.25 → 1.5 → 1.75 → 2.0
        w.actions_.access.larger.trigger()
    QApplication.processEvents()
    assert text_size.scale() == 2.0 and float(settings.get("text_scale")) == 2.0
    assert text_size.base_px() >= 1.8 * app_px0
    assert large.text_px() >= 1.8 * px0  # tick and axis labels, colour bar, legend
    assert large.layers.max_px >= 2 * 15 - 1  # the cell numbers may grow as large
    assert caption.fontInfo().pixelSize() >= 1.8 * caption_px0
    del font0
    w.actions_.access.reset_text.trigger()
    QApplication.processEvents()
    assert text_size.scale() == 1.0 and large.text_px() == px0 and text_size.base_px() == app_px0


def test_as_table_lists_the_map_numbers_and_follows_it(full_window, state):
    w = full_window
    state.select(stage="weights", head=0)
    QApplication.processEvents()
    table = w.actions_.access.show_table()
    assert table is not None
    model = table.model
    sel = state.selection
    A = state.trace.get(names.attn(sel.layer, "weights"))[sel.row, sel.head]  # the trace's numbers
    assert (model.rowCount(), model.columnCount()) == A.shape
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            shown = model.data(model.index(i, j))
            assert abs(float(shown.replace("−", "-")) - A[i, j]) <= 0.006, (i, j, shown)
    said = model.data(model.index(1, 0), Qt.ItemDataRole.AccessibleTextRole)
    assert said.startswith("query 1 ") and "row sum 1" in said
    assert model.headerData(1, Qt.Orientation.Vertical) == w.centralWidget().large.left.labels[1]
    iface = QAccessible.queryAccessibleInterface(table.table)
    assert iface is not None and iface.role() == QAccessible.Role.Table and iface.text(QAccessible.Text.Name)
    state.select(head=1)  # the table follows its map
    QApplication.processEvents()
    B = state.trace.get(names.attn(sel.layer, "weights"))[sel.row, 1]
    assert abs(float(model.data(model.index(2, 1)).replace("−", "-")) - B[2, 1]) <= 0.006
    table.close()


def test_every_heatmap_speaks(full_window):
    maps = full_window.findChildren(Heatmap)
    assert len(maps) > 5
    for m in maps:
        assert accessible.spoken(m.graphics)


def test_the_naming_pass_runs_for_new_controls_not_for_the_styles_animations(full_window, qtbot):
    """The style adds an animation object to each panel on every busy change: the pass over every control
    (20–25 ms) ran six times while one long trace was drawn, the window's longest stall (issue 28)."""
    from PySide6.QtCore import QPropertyAnimation
    from PySide6.QtWidgets import QPushButton

    w = full_window
    runs = []
    watcher = w.accessible_watcher
    original = watcher._run
    watcher._run = lambda: (runs.append(1), original())
    dock = w.docks["input"]
    QPropertyAnimation(dock)  # a child that is not a widget
    QApplication.processEvents()
    assert runs == []
    QPushButton("new", dock)  # a new control: the pass runs at the next turn of the event loop
    qtbot.waitUntil(lambda: bool(runs), timeout=30_000)


def test_a_panel_opening_is_named_apart_from_its_first_paint(full_window, qtbot):
    """The naming pass (every control, then the Tab order) ran in the same turn of the event loop as an
    opening panel's layout and paint: together the Model view's opening stall, 45–49 ms (issue 28). Shown,
    a panel is named NAMING_DELAY_MS later; a new control or a new language still at the next turn."""
    w, watcher = full_window, full_window.accessible_watcher
    runs = []
    original = watcher._run
    watcher._run = lambda: (runs.append(1), original())
    w.open_panel("model_view")
    assert accessible.NAMING_DELAY_MS > 0 and watcher._timer.isActive()
    assert watcher._timer.interval() == accessible.NAMING_DELAY_MS and runs == []
    qtbot.waitUntil(lambda: bool(runs), timeout=30_000)
    from PySide6.QtWidgets import QPushButton

    QPushButton("new", w.docks["input"])
    assert watcher._timer.interval() == 0  # a new control: the next turn
