"""The hand-painted mask: painted cells reach the next trace's mask, a fully blocked row gets weights 0,
the buttons reset the painting, and a longer text keeps the painting and extends it causally."""

from __future__ import annotations

import numpy as np
import pytest
from live_state import live, wait_trace
from PySide6.QtCore import QPoint, Qt


@pytest.fixture
def painter(qtbot, state):
    from explorer.ui.views.mask_painter import MaskPainter

    v = MaskPainter(state)
    qtbot.addWidget(v)
    v.resize(360, 420)
    v.show()
    return v


def _start_painting(qtbot, state, painter):
    state.set_options(mask=painter.spec())  # what choosing "hand-painted" in the controls does
    return wait_trace(qtbot, state, lambda t: t.options.mask.kind == "explicit")


def test_clicking_a_cell_blocks_it_in_the_next_trace(qtbot, state, painter):
    with live(state, qtbot):
        trace = _start_painting(qtbot, state, painter)
        np.testing.assert_array_equal(trace["mask"][0], np.tril(np.ones((5, 5), bool)))  # starts causal
        rect = painter.grid.cell_rect(3, 1)
        qtbot.mouseClick(painter.grid, Qt.MouseButton.LeftButton, pos=rect.center())
        trace = wait_trace(qtbot, state, lambda t: not t["mask"][0, 3, 1])
        assert trace["mask"][0, 3, 0] and trace["mask"][0, 3, 2]  # only the clicked cell changed
        assert trace.head_map(0, "weights", 0, 0)[3, 1] == 0
        qtbot.mouseClick(painter.grid, Qt.MouseButton.LeftButton, pos=painter.grid.cell_rect(1, 4).center())
        trace = wait_trace(qtbot, state, lambda t: t["mask"][0, 1, 4])  # a future key allowed by hand
        assert trace.head_map(0, "weights", 0, 0)[1, 4] > 0


def test_dragging_over_a_row_blocks_it_entirely(qtbot, state, painter):
    with live(state, qtbot):
        _start_painting(qtbot, state, painter)
        requests = []
        state.requestChanged.connect(requests.append)
        g = painter.grid
        qtbot.mousePress(g, Qt.MouseButton.LeftButton, pos=g.cell_rect(2, 0).center())
        for j in (1, 2):
            qtbot.mouseMove(g, pos=g.cell_rect(2, j).center())
        qtbot.mouseRelease(g, Qt.MouseButton.LeftButton, pos=g.cell_rect(2, 2).center())
        assert len(requests) == 1  # one request per stroke, not per cell
        trace = wait_trace(qtbot, state, lambda t: not t["mask"][0, 2].any())
        assert trace["mask.empty_rows"][0, 2]
        assert not trace["mask.empty_rows"][0, 1]
        np.testing.assert_array_equal(trace.head_map(0, "weights", 0, 0)[2], 0.0)
        np.testing.assert_allclose(trace.head_map(0, "weights", 0, 0)[3].sum(), 1.0, rtol=1e-5)


def test_buttons_reset_the_painting(qtbot, state, painter):
    with live(state, qtbot):
        _start_painting(qtbot, state, painter)
        painter.allow_button.click()
        trace = wait_trace(qtbot, state, lambda t: t["mask"][0].all())
        painter.clear_button.click()
        trace = wait_trace(qtbot, state, lambda t: not t["mask"][0].any())
        assert trace["mask.empty_rows"][0].all()
        painter.causal_button.click()
        trace = wait_trace(qtbot, state, lambda t: np.array_equal(t["mask"][0], np.tril(np.ones((5, 5), bool))))


def test_a_longer_text_keeps_the_painting_and_extends_it_causally(qtbot, state, painter):
    with live(state, qtbot):
        _start_painting(qtbot, state, painter)
        qtbot.mouseClick(painter.grid, Qt.MouseButton.LeftButton, pos=painter.grid.cell_rect(3, 1).center())
        wait_trace(qtbot, state, lambda t: not t["mask"][0, 3, 1])
        long_text = " ".join(["This is a pen ."] * 8)  # more tokens than the painting was sent for
        state.set_text(long_text)
        trace = wait_trace(qtbot, state, lambda t: t.C > 30, timeout=30_000)
        n = trace.C
        assert n == len(trace.rows[0].tokens) and "".join(trace.rows[0].tokens) == long_text
        mask = trace["mask"][0]
        assert not mask[3, 1]  # the painting survived
        expected = np.tril(np.ones((n, n), bool))
        expected[3, 1] = False
        np.testing.assert_array_equal(mask, expected)  # everything new is causal
        qtbot.waitUntil(
            lambda: painter.grid.cell_rect(n - 1, n - 1).bottom() <= painter.grid.height(), timeout=30_000
        )  # grown


def test_grid_labels_and_selection(qtbot, state, painter):
    with live(state, qtbot):
        _start_painting(qtbot, state, painter)
        assert painter.grid._labels == ["This", "␣is", "␣a", "␣pen", "␣."]  # a leading space shown as ␣
        assert painter.grid.cell_at(painter.grid.cell_rect(4, 0).center()) == (4, 0)
        assert painter.grid.cell_at(QPoint(1, 1)) is None  # the label corner is not a cell
