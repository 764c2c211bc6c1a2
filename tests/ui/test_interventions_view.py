"""The window's interventions: ablate from the head grid's context menu, cut an edge from the large map's,
see the KL and the difference map (recomputed here with numpy), remove one and get the baseline back."""

from __future__ import annotations

import math
import re

import numpy as np
from PySide6.QtWidgets import QMenu

from explorer.interventions.spec import EdgeCut, HeadAblation
from tests.ui.live_state import wait_trace


def _menu_from(view, emit):
    """Run ``emit`` (a context-menu request) and return the menu the view popped up."""
    view.context_menu = None
    emit()
    assert isinstance(view.context_menu, QMenu) and view.context_menu.isVisible()
    return view.context_menu


def _action(menu, pattern):
    return next(a for a in menu.actions() if re.search(pattern, a.text()))


def test_ablate_from_the_head_grid_then_compare_and_remove(window, qtbot, monkeypatch):
    state = window.state
    state.select(stage="weights", layer=0, head=0)
    plain = state.trace
    tensor = window.views.get("tensor")
    grid = tensor.grid
    qtbot.waitUntil(lambda: len(grid.maps) > 1)
    centre = grid.maps[1].vb.sceneBoundingRect().center()  # head 1's thumbnail
    menu = _menu_from(tensor, lambda: grid.customContextMenuRequested.emit(grid.mapFromScene(centre)))
    _action(menu, r"head 1 .*\(zero\)").trigger()
    trace = wait_trace(qtbot, state, lambda t: bool(t.interventions))
    assert state.interventions.ablations == (HeadAblation(0, 1, "zero"),)

    window.docks["interventions"].raise_()
    panel = window.views.get("interventions")
    qtbot.waitUntil(lambda: "KL" in panel.kl_label.text())
    last = trace.rows[0].length - 1
    p, q = plain.probs_row(0, last).astype(np.float64), trace.probs_row(0, last).astype(np.float64)
    kl = float(np.sum(p * np.log(p / q)))
    assert kl > 0
    shown = float(re.search(r"= ([0-9.]+) nats", panel.kl_label.text()).group(1))
    assert math.isclose(shown, kl, abs_tol=1e-4)
    assert panel.list.count() == 1 and "head 1" in panel.list.item(0).text()

    # Difference of head 1's map in layer 1 (layer 0's ablation changes what layer 1 reads).
    state.select(layer=1, head=1)
    panel.mode_combo.setCurrentIndex(2)
    expected = trace["layers.1.attn.weights"][0, 1] - plain["layers.1.attn.weights"][0, 1]
    n = trace.rows[0].length
    np.testing.assert_allclose(panel.shown_map, expected[:n, :n], atol=1e-6)
    assert np.abs(panel.shown_map).max() > 0

    panel.list.setCurrentRow(0)
    panel.remove_button.click()
    back = wait_trace(qtbot, state, lambda t: not t.interventions)
    np.testing.assert_array_equal(back["logits"], plain["logits"])
    assert panel.list.count() == 1 and not panel.remove_button.isEnabled()  # "(none …)"


def test_cut_an_edge_from_the_large_map(window, qtbot, monkeypatch):
    state = window.state
    state.select(stage="weights", layer=0, head=2)
    tensor = window.views.get("tensor")
    large = tensor.large
    vb = large.plot.getViewBox()
    scene_point = vb.mapViewToScene(vb.mapSceneToView(vb.sceneBoundingRect().center()))
    cell = large.layers.cell_at(scene_point)
    assert cell is not None
    i, j = max(cell), min(cell)  # a cell the causal mask lets through
    from PySide6.QtCore import QPointF

    point = vb.mapViewToScene(QPointF(j + 0.5, i + 0.5))
    menu = _menu_from(
        tensor, lambda: large.graphics.customContextMenuRequested.emit(large.graphics.mapFromScene(point))
    )
    _action(menu, r"Cut edge").trigger()
    trace = wait_trace(qtbot, state, lambda t: bool(t.interventions))
    assert state.interventions.cuts == (EdgeCut(0, 2, i, j),)
    assert trace["layers.0.attn.weights"][0, 2, i, j] == 0.0
    clear = _menu_from(
        tensor, lambda: large.graphics.customContextMenuRequested.emit(large.graphics.mapFromScene(point))
    )
    _action(clear, r"Clear all").trigger()
    wait_trace(qtbot, state, lambda t: not t.interventions)
