"""Interventions travel in the trace request; the worker runs the intervened trace and hands the baseline to
the state. Checked against the core run without the window (zeroed W_o rows are the core tests' oracle)."""

from __future__ import annotations

import numpy as np

from explorer.interventions.spec import EdgeCut, HeadAblation, Interventions
from explorer.ui.bridge.state import AppState
from tests.ui.live_state import live, make_trace, wait_trace


def test_an_ablation_reaches_the_worker_and_removing_it_restores_the_baseline(qtbot):
    state = AppState()
    with live(state, qtbot):
        plain = state.trace
        assert state.baseline is None and plain.interventions is None
        state.add_intervention(HeadAblation(0, 1, "zero"))
        trace = wait_trace(qtbot, state, lambda t: bool(t.interventions))
        assert trace.interventions["ablations"] == [{"layer": 0, "head": 1, "mode": "zero"}]
        np.testing.assert_array_equal(trace["layers.0.attn.heads"][:, 1], 0.0)  # head 1's Rⁱ is zero
        assert np.abs(trace["layers.0.attn.heads"][:, 0]).max() > 0
        # The baseline is the plain run of the same request, bit for bit.
        np.testing.assert_array_equal(state.baseline["logits"], plain["logits"])
        np.testing.assert_array_equal(trace["baseline.logits"], plain["logits"])
        assert not np.array_equal(trace["logits"], plain["logits"])
        state.remove_intervention(HeadAblation(0, 1, "zero"))
        back = wait_trace(qtbot, state, lambda t: not t.interventions)
        assert state.interventions.empty and state.baseline is None
        np.testing.assert_array_equal(back["logits"], plain["logits"])


def test_one_mode_per_head_and_no_duplicate_cuts(qtbot):
    state = AppState()
    seen = []
    state.interventionsChanged.connect(seen.append)
    state.add_intervention(HeadAblation(0, 0, "zero"))
    state.add_intervention(HeadAblation(0, 0, "mean"))
    state.add_intervention(EdgeCut(0, 0, 2, 1))
    state.add_intervention(EdgeCut(0, 0, 2, 1))
    assert state.interventions == Interventions(ablations=(HeadAblation(0, 0, "mean"),), cuts=(EdgeCut(0, 0, 2, 1),))
    assert len(seen) == 3
    assert state.request.interventions == state.interventions
    state.clear_interventions()
    assert state.interventions.empty and seen[-1] == Interventions()


def test_a_cut_edge_is_zero_in_the_shown_map(qtbot):
    state = AppState()
    with live(state, qtbot):
        state.add_intervention(EdgeCut(0, 0, 3, 1))
        trace = wait_trace(qtbot, state, lambda t: bool(t.interventions))
        weights = trace["layers.0.attn.weights"][0, 0]
        base = make_trace()["layers.0.attn.weights"][0, 0]
        assert base[3, 1] > 0 and weights[3, 1] == 0.0
        np.testing.assert_allclose(weights[3].sum(), 1.0, rtol=1e-5)  # the row is renormalised without key 1
        np.testing.assert_array_equal(state.baseline["layers.0.attn.weights"][0, 0], base)
