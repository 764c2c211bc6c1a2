"""The heatmap widget: what it draws (image, −∞ overlay, numbers, highlight, tick labels) and what it
reports (the cell under the mouse, the clicked cell), read back from the drawn items."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest

from explorer.ui.views.map.heatmap import Heatmap, TokenAxis, colour_map


@pytest.fixture
def heatmap(qtbot):
    h = Heatmap()
    qtbot.addWidget(h)
    h.resize(600, 600)
    h.show()
    qtbot.waitExposed(h)
    return h


def viewport_point(h: Heatmap, i: int, j: int):
    scene = h.layers.vb.mapViewToScene(QPointF(j + 0.5, i + 0.5))
    return h.graphics.mapFromScene(scene)


def test_big_map_is_one_image_without_text(heatmap, qtbot):
    rng = np.random.default_rng(0)
    a = rng.random((1024, 1024), dtype=np.float32)
    labels = [f"{i} t" for i in range(1024)]
    heatmap.set_matrix(a, labels, labels, signed=False, square=True)  # warm-up: first-use costs
    heatmap.graphics.grab()
    img = heatmap.image.image
    assert img.dtype == np.float32 and img.flags.c_contiguous and img.shape == (1024, 1024)
    assert np.array_equal(img, a)
    assert heatmap.layers.cell_texts() == [] and not heatmap.layers.numbers.shown()
    # One image item, not an item (or a text) per cell: the scene holds a few dozen items for a million cells.
    # Its speed against pyqtgraph's own image is benchmarks/bench_heatmap.py's (heatmap_1024_ms), not a test's.
    assert len(heatmap.graphics.scene().items()) < 300
    # ticks are thinned so labels never overlap: far fewer than 1024 on a 600-pixel axis
    ticks = heatmap.left.tickValues(0, 1024, 500)[0][1]
    assert 5 < len(ticks) < 60


def test_minus_inf_goes_to_the_overlay_not_the_colour_image(heatmap):
    a = np.array([[0.5, -np.inf, -np.inf], [0.1, 0.2, -np.inf], [-1.0, 0.3, 0.4]], dtype=np.float32)
    heatmap.set_matrix(a, "abc", "abc", signed=True)
    blocked = np.isneginf(a)
    img = heatmap.image.image
    assert np.isfinite(img).all()
    assert np.array_equal(img[~blocked], a[~blocked])
    assert heatmap.overlay.isVisible()
    over = heatmap.overlay.image
    assert over.shape == a.shape and (over[blocked] > 0).all() and (over[~blocked] == 0).all()
    assert not heatmap.layers.hatch.path().isEmpty()
    assert heatmap.legend.isVisibleTo(heatmap)
    # levels are symmetric for signed data (diverging map centred on 0), and −∞ does not widen them
    assert tuple(heatmap.image.getLevels()) == (-1.0, 1.0)
    extra = np.zeros((3, 3), dtype=bool)
    extra[2, 0] = True  # e.g. a weight the mask set to 0: drawn as blocked although it is finite
    heatmap.set_matrix(a, "abc", "abc", signed=True, blocked=extra)
    assert (heatmap.overlay.image[blocked | extra] > 0).all() and heatmap.image.image[2, 0] == -1.0
    heatmap.set_matrix(np.ones((3, 3), dtype=np.float32), "abc", "abc", signed=False)
    assert not heatmap.overlay.isVisible() and not heatmap.legend.isVisibleTo(heatmap)
    assert tuple(heatmap.image.getLevels()) == (0.0, 1.0)


def test_repeated_maps_reuse_what_did_not_change_and_redraw_what_did(heatmap):
    """Successive maps of one sentence share labels, mask and often levels; the widget keeps those parts
    drawn (speed), but must still show every part that changed."""
    C = 40
    labels = [f"t{i}" for i in range(C)]
    causal = ~np.tri(C, dtype=bool)
    window = causal | np.tri(C, k=-4, dtype=bool)  # a sliding window blocks old keys as well
    a = np.where(causal, -np.inf, 0.5).astype(np.float32)
    heatmap.set_matrix(a, labels, labels, signed=False, levels=(0.0, 1.0))
    heatmap.graphics.grab()
    picture = heatmap.left.picture
    assert picture is not None
    heatmap.set_matrix(a * 0.5, labels, labels, signed=False, levels=(0.0, 1.0))
    assert heatmap.left.picture is picture  # same tokens: the tick labels were not laid out again
    heatmap.set_matrix(
        np.where(window, -np.inf, 0.5).astype(np.float32), labels, labels, signed=False, levels=(0.0, 2.0)
    )
    assert np.array_equal(heatmap.overlay.image > 0, window)  # a new mask pattern reaches the overlay
    assert tuple(heatmap.bar.levels()) == (0.0, 2.0)  # new levels reach the colour bar
    heatmap.set_matrix(a, labels[::-1], labels, signed=True, levels=(-1.0, 1.0))
    assert heatmap.left.labels == tuple(labels[::-1]) and heatmap.left.picture is None
    assert np.array_equal(heatmap.overlay.image > 0, causal)
    assert tuple(heatmap.bar.levels()) == (-1.0, 1.0)


def test_numbers_printed_in_small_maps(heatmap):
    a = np.array([[1.0, 0.0], [0.4567, -np.inf]], dtype=np.float32)
    heatmap.set_matrix(a, ["x", "y"], ["x", "y"], signed=False, square=True)
    # one format for the map (issue 22): its largest magnitude, 1, with 3 significant digits sets 2 decimals
    assert heatmap.layers.cell_texts() == [["1.00", "0"], ["0.46", "−∞"]]
    assert heatmap.layers.numbers.shown()  # 300-pixel cells: readable
    # white text on the dark end of viridis, black on the bright end
    dark, bright = heatmap.layers.numbers.colours()[1], heatmap.layers.numbers.colours()[0]
    assert dark.lightness() > 200 and bright.lightness() < 50


def test_highlight_row_and_column(heatmap):
    heatmap.set_matrix(np.zeros((5, 5), dtype=np.float32), "abcde", "abcde", signed=False)
    assert heatmap.layers.highlighted() == (None, None)
    heatmap.set_highlight(3, 1)
    assert heatmap.layers.highlighted() == (3, 1)
    heatmap.set_highlight(2, None)
    assert heatmap.layers.highlighted() == (2, None)


def test_hover_and_click_report_the_cell(heatmap, qtbot):
    heatmap.set_matrix(np.arange(20, dtype=np.float32).reshape(4, 5), "abcd", "abcde", signed=False)
    heatmap.set_axis_titles("query (row)", "key (column)", "query (row) attends to key (column)")
    heatmap.graphics.grab()  # laid out and painted: the view maps cells to pixels as a user sees them
    p = viewport_point(heatmap, 2, 4)
    with qtbot.waitSignal(heatmap.cellHovered) as hovered:
        QTest.mouseMove(heatmap.graphics.viewport(), p)
    assert hovered.args == [2, 4]
    with qtbot.waitSignal(heatmap.cellClicked) as clicked:
        QTest.mouseClick(heatmap.graphics.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    assert clicked.args == [2, 4]


def test_token_axis_labels_are_the_cells():
    axis = TokenAxis("bottom")
    axis.set_labels(["0 This", "1 is", "2 a"])
    values = axis.tickValues(0, 3, 600)[0][1]
    assert values == [0.5, 1.5, 2.5]
    assert axis.tickStrings(values, 1, 1) == ["0 This", "1 is", "2 a"]
    # an inverted (top-down) axis passes its range reversed: same ticks
    assert TokenAxis.tickValues(axis, 3, 0, 600)[0][1] == values
    # up to 32 cells every one is labelled, however little room (the labels stagger or stand upright)
    assert axis.tickValues(-6, 9, 150)[0][1] == values
    # past 32 the room per cell decides, and the selected token is always among the labels (issue 11)
    axis.set_labels([f"{i} t" for i in range(100)])
    axis.set_selected(57)
    crowded = axis.tickValues(0, 100, 300)[0][1]
    assert 3 < len(crowded) < 50 and 57.5 in crowded


def test_colour_maps():
    assert colour_map(True).name != colour_map(False).name


def test_many_redraws_keep_none_alive(heatmap):
    """PySide6 6.12.0 on Python < 3.12 drops a reference to None on each graphics item change, and after a
    few dozen clicks CPython aborts (none_dealloc). pyproject excludes that release; this catches it."""
    import sys

    heatmap.set_matrix(np.zeros((5, 5), dtype=np.float32), "abcde", "abcde", signed=False)
    before = sys.getrefcount(None)
    for k in range(12_000):
        heatmap.set_highlight(k % 5, (k + 1) % 5)
    assert heatmap.layers.highlighted() == (11_999 % 5, 12_000 % 5)
    assert sys.getrefcount(None) > before - 1_000  # 12,000 item changes lost none of its references
