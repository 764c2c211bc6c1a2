"""The "Selected token" dock and the linking: select a token anywhere, every view follows."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest

from explorer import names
from explorer.present.explain import fmt
from explorer.trace import run_trace
from explorer.ui.bridge.state import AppState
from explorer.ui.views.map.heatmap import highlight_colour
from explorer.weights.presets import load_preset


@pytest.fixture
def linked(qtbot, trace):
    """The selection dock and the tensor view on one state, as the window wires them."""
    from explorer.ui.views.tensor.tensor_view import TensorView
    from explorer.ui.views.tokens.selection_view import SelectionView

    state = AppState()
    state.set_trace(trace)
    sel, tv = SelectionView(state), TensorView(state)
    for w, size in ((sel, (360, 900)), (tv, (1000, 700))):
        qtbot.addWidget(w)
        w.resize(*size)
        w.show()
        qtbot.waitExposed(w)
    return state, sel, tv


def test_shows_the_vectors_of_the_selected_token(linked):
    state, sel, tv = linked
    trace = state.trace
    state.select(token=3, head=2, layer=1)
    q = trace[names.attn(1, "q")][0, 2]
    assert np.array_equal(sel.q.image.image, q[3][None, :])
    assert np.array_equal(sel.keys.image.image, trace[names.attn(1, "k")][0, 2])
    assert np.array_equal(sel.values.image.image, trace[names.attn(1, "v")][0, 2])
    assert np.array_equal(sel.received.image.image, trace[names.attn(1, "heads")][0, 2, 3][None, :])
    assert "3 “ pen”" in sel.heading.text()
    # the bars are exactly row 3 of the map the tensor view shows, which has row 3 outlined
    large = tv.large.image.image
    assert np.array_equal(large, trace.head_map(1, "weights", 0, 2))
    assert np.array_equal(sel.bar_heights(), large[3])
    assert tv.large.layers.highlighted()[0] == 3
    assert [t.textItem.toPlainText() for t in sel.bar_texts[:5]] == [fmt(v) for v in large[3]]
    # and Σ_j a_ij v_j is what the token receives (checked with numpy, not trusted from the view)
    assert np.allclose(sel.bar_heights() @ sel.values.image.image, sel.received.image.image[0], atol=1e-5)


def test_follows_the_last_token_until_one_is_picked(linked):
    state, sel, _ = linked
    assert state.selection.token is None
    assert np.array_equal(sel.bar_heights(), state.trace.head_map(0, "weights", 0, 0)[4])
    assert "no token selected" in sel.heading.text()


def test_clicking_a_bar_or_a_key_row_selects_the_key(linked, qtbot):
    state, sel, tv = linked
    state.select(token=4)
    qtbot.waitUntil(lambda: np.array_equal(sel.bar_heights(), state.trace.head_map(0, "weights", 0, 0)[4]))
    sel.bars_plot.grab()  # laid out and painted: the plot maps bars to pixels as a user sees them
    vb = sel.bars_plot.getViewBox()
    p = sel.bars_plot.mapFromScene(vb.mapViewToScene(QPointF(2.5, 0.01)))
    QTest.mouseClick(sel.bars_plot.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    assert state.selection.key == 2
    # the picked key is drawn as its own bar, in the highlight colour, over bar 2 and as tall
    assert list(sel.picked_bar.opts["x"]) == [2.5] and list(sel.picked_bar.opts["height"]) == [sel.bar_heights()[2]]
    assert sel.picked_bar.opts["brush"].color() == highlight_colour()
    assert tv.large.layers.highlighted() == (4, 2)  # the tensor view follows
    assert sel.keys.layers.highlighted() == (2, None)
    p = sel.keys.graphics.mapFromScene(sel.keys.layers.vb.mapViewToScene(QPointF(3.5, 1.5)))
    QTest.mouseClick(sel.keys.graphics.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    assert state.selection.key == 1


def test_window_links_tensor_view_and_selection(window, state):
    """In the real window: selecting token 2 highlights row 2 of every map and moves the dock."""
    tv, sel = window.views["tensor"], window.views["selection"]
    assert window.centralWidget() is tv
    window.open_panel("selection")  # a narrow window starts with the side panels on their strip
    state.select(stage="weights", token=2)
    assert tv.large.layers.highlighted()[0] == 2
    assert all(layers.highlighted()[0] == 2 for layers in tv.grid.maps)
    assert np.array_equal(sel.bar_heights(), state.trace.head_map(0, "weights", 0, 0)[2])


def test_a_fully_blocked_query_is_not_said_to_sum_to_1(qtbot):
    from explorer.config import MaskSpec, RunOptions
    from explorer.ui.views.tokens.selection_view import SelectionView

    matrix = [
        [False] * 5,
        [True, True, False, False, False],
        [True] * 3 + [False] * 2,
        [True] * 4 + [False],
        [True] * 5,
    ]
    trace = run_trace(load_preset("classroom"), "This is a pen .", RunOptions(mask=MaskSpec.explicit(matrix)))
    state = AppState()
    state.set_trace(trace)
    view = SelectionView(state)
    qtbot.addWidget(view)
    state.select(token=0)  # query 0 may see no key: its weights are all 0
    assert not trace["layers.0.attn.weights"][0, :, 0].any()
    assert "all 0" in view.captions["weights"].text() and "sum to 1" not in view.captions["weights"].text()
    state.select(token=2)
    assert "sum to 1" in view.captions["weights"].text()
