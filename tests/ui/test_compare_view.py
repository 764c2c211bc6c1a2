"""The Compare view (issue 40) in the real window at 1366×768: File → Compare… opens it, run B's sentence is
computed off the GUI thread, the three maps are on screen with every token labelled, one colour bar serves
both runs, a click on one side selects the aligned row on the other, the window's layer and head drive both
sides, the divergence table ranks as the core does and its row chooses that head, and the difference map is
the core's B − A of the shown head."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest

from explorer.compare.shown import shown_head

TEXT_A = "the cat sat on the mat because it was very tired and the dog ran away ."
TEXT_B = "the cat sat on the mat because it was very wide and the dog ran away ."


@pytest.fixture(params=[(1366, 768)])
def compared(open_window, state, qtbot, request):
    state.set_text(TEXT_A)
    w = open_window(state)
    w.resize(*request.param)
    qtbot.waitUntil(lambda: state.trace is not None and state.trace.rows[0].text == TEXT_A, timeout=30_000)
    w.actions_.compare.trigger()
    view = w.views["compare"]
    assert view.bar.value.text() == TEXT_A  # run B starts as the current text
    view.bar.value.setText(TEXT_B)
    view.bar.go.click()
    qtbot.waitUntil(lambda: view.comparison is not None and view.maps.shown is not None, timeout=60_000)
    qtbot.waitUntil(lambda: view.maps.b.isVisible())
    yield w, view
    w.close()


def _click_cell(heatmap, qtbot, row: int, col: int) -> None:
    """A real click on the cell, where the user sees it (as tests/ui/test_heatmap.py clicks)."""
    heatmap.graphics.grab()  # laid out and painted
    point = heatmap.graphics.mapFromScene(heatmap.layers.vb.mapViewToScene(QPointF(col + 0.5, row + 0.5)))
    QTest.mouseClick(heatmap.graphics.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def test_three_maps_on_screen_one_bar_every_token_labelled(compared, qtbot):
    w, view = compared
    screen = view.window().geometry()
    for m in view.maps.maps:
        assert m.isVisible() and m.cells_rect().width() > 0
        top_left = m.mapTo(view.window(), m.cells_rect().topLeft().toPoint())
        bottom_right = m.mapTo(view.window(), m.cells_rect().bottomRight().toPoint())
        assert view.window().rect().contains(top_left) and view.window().rect().contains(bottom_right), screen
    a, b = view.maps.a, view.maps.b
    assert a.bar is None and b.bar.isVisible()  # one bar for both runs …
    assert tuple(a.image.levels) == tuple(b.image.levels) == tuple(b.bar.levels())  # … on one scale
    size = lambda m: round(m.cells_rect().width())  # noqa: E731
    qtbot.waitUntil(lambda: max(map(size, view.maps.maps)) - min(map(size, view.maps.maps)) <= 3)  # same cells
    units = len(view.comparison.alignment.units)
    for m in view.maps.maps:
        for axis in (m.left, m.bottom):
            qtbot.waitUntil(lambda axis=axis: axis.arranged is not None and len(axis.arranged.cells) == units)
            assert axis.arranged.cells == tuple(range(units)), "every aligned token labelled"


def test_a_click_on_one_side_selects_the_aligned_token_on_the_other(compared, qtbot):
    w, view = compared
    units = view.comparison.alignment.units
    # A's token 3 ("on"): its unit on B's map is the unit that holds B's aligned token
    unit = next(u for u, unit in enumerate(units) if 3 in unit.a)
    _click_cell(view.maps.a, qtbot, unit, unit)
    qtbot.waitUntil(lambda: view.maps.b.layers.highlighted()[0] == unit)
    assert units[unit].b, "B has a token there"
    assert view.maps.difference.layers.highlighted()[0] == unit
    assert w.state.selection.token == 3  # the window's token follows
    # a one-sided B token ("wide"): B's side selects it, A's row is the same (hatched) aligned row
    alone = next(u for u, unit in enumerate(units) if unit.b and not unit.a)
    _click_cell(view.maps.b, qtbot, alone, alone)
    qtbot.waitUntil(lambda: view.maps.a.layers.highlighted()[0] == alone)


def test_layer_and_head_drive_both_sides_and_the_difference_is_the_cores(compared, qtbot):
    w, view = compared
    before_a, before_b = view.maps.a.layers.image.image.copy(), view.maps.b.layers.image.image.copy()
    w.state.select(layer=1, head=1)
    qtbot.waitUntil(lambda: (view.maps.shown.layer, view.maps.shown.head) == (1, 1))
    assert not np.array_equal(before_a, view.maps.a.layers.image.image)
    assert not np.array_equal(before_b, view.maps.b.layers.image.image)
    expected = view.comparison.difference(1, 1).values
    shown = view.maps.difference.layers.image.image  # what the difference map draws
    absent = np.isnan(expected)  # a unit one side has no token of: hatched, never drawn as a NaN fault
    assert absent.any() and view.maps.difference.layers.nonfinite is None
    assert view.maps.shown.hatched_difference[absent].all()
    assert np.allclose(shown[~absent], expected[~absent], rtol=1e-6, atol=1e-7)  # float32
    assert "1.1" in view.maps.a.title.text() and "1.1" in view.maps.b.title.text()


def test_the_table_ranks_as_the_core_and_a_row_chooses_its_head(compared, qtbot):
    w, view = compared
    top = view.comparison.ranked()[0]
    assert view.table.table.item(0, 0).text() == f"{top.layer}.{top.head}"
    w.state.select(layer=0, head=0) if (top.layer, top.head) != (0, 0) else w.state.select(layer=0, head=1)
    item = view.table.table.item(0, 0)
    qtbot.mouseClick(
        view.table.table.viewport(), Qt.MouseButton.LeftButton, pos=view.table.table.visualItemRect(item).center()
    )
    qtbot.waitUntil(lambda: (w.state.selection.layer, w.state.selection.head) == (top.layer, top.head))
    qtbot.waitUntil(lambda: (view.maps.shown.layer, view.maps.shown.head) == (top.layer, top.head))
    assert np.array_equal(
        np.nan_to_num(view.maps.shown.a, nan=-1),
        np.nan_to_num(shown_head(view.comparison, top.layer, top.head).a, nan=-1),
    )


def test_c_on_a_slide_shows_both_runs_and_the_difference(compared, qtbot):
    w, view = compared
    w.actions_.presentation.trigger()
    from explorer.ui.classroom.slide_window import SlideWindow

    slide = next(s for s in w.findChildren(SlideWindow) if s.isVisible())
    assert not slide.compare_maps.isVisible()
    QTest.keyClick(slide, Qt.Key.Key_C)
    qtbot.waitUntil(lambda: slide.compare_maps.isVisible() and not slide.tensor.isVisible())
    shown = slide.compare_maps.shown
    assert (shown.layer, shown.head) == (view.maps.shown.layer, view.maps.shown.head)
    assert np.array_equal(
        np.isnan(shown.difference), np.isnan(view.comparison.difference(shown.layer, shown.head).values)
    )
    ranked = [(h.layer, h.head) for h in view.comparison.ranked()]
    at = ranked.index((shown.layer, shown.head))
    following = ranked[min(at + 1, len(ranked) - 1)]
    QTest.keyClick(slide, Qt.Key.Key_Right)  # → the next head in the ranking, on both sides
    qtbot.waitUntil(lambda: (slide.compare_maps.shown.layer, slide.compare_maps.shown.head) == following)
    QTest.keyClick(slide, Qt.Key.Key_C)
    qtbot.waitUntil(lambda: slide.tensor.isVisible() and not slide.compare_maps.isVisible())
    slide.close()


def test_on_a_slide_c_puts_the_stepper_away_and_h_the_comparison(compared, state, qtbot):
    """Both beside the figure at once left the three compared maps a third of the slide."""
    w, view = compared
    from explorer.ui.classroom import presentation

    state.select(stage="weights", token=3, key=1)
    slide = presentation.show_for(state, w)
    qtbot.waitUntil(slide.isVisible)
    QTest.keyClick(slide, Qt.Key.Key_H)
    qtbot.waitUntil(lambda: slide.stepper.isVisible() and len(slide.stepper.steps) > 0, timeout=20_000)
    QTest.keyClick(slide, Qt.Key.Key_C)
    qtbot.waitUntil(slide.compare_maps.isVisible)
    assert not slide.stepper.isVisible() and not slide.tensor.isVisible()
    QTest.keyClick(slide, Qt.Key.Key_H)
    qtbot.waitUntil(slide.stepper.isVisible)
    assert not slide.compare_maps.isVisible() and slide.tensor.isVisible()
    assert (slide.stepper.ask.cell.query, slide.stepper.ask.cell.key) == (3, 1)
    slide.close()


@pytest.mark.parametrize("compared", [(1280, 720)], indirect=True)
def test_at_1280_by_720_the_difference_has_a_tab_of_its_own(compared, qtbot):
    w, view = compared
    qtbot.waitUntil(lambda: view.maps.tabbed)
    assert view.maps.a.isVisible() and view.maps.b.isVisible() and not view.maps.difference.isVisible()
    view.maps.pages.setCurrentIndex(1)
    qtbot.waitUntil(lambda: view.maps.difference.isVisible())
    w.resize(1366, 768)
    view.window().resize(1366, 768)
    qtbot.waitUntil(lambda: not view.maps.tabbed and view.maps.difference.isVisible() and view.maps.a.isVisible())


def test_a_new_run_in_the_window_says_the_comparison_is_older(compared, qtbot):
    w, view = compared
    assert "Compare" not in view.status.text()
    w.state.set_text("the dog ran away .")
    qtbot.waitUntil(lambda: "press Compare" in view.status.text())
