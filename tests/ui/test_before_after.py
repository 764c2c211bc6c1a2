"""Before and after (issue 15 item 3) in the output view and the central tensor view: both next-token
distributions and the KL (recomputed here with numpy from the trace's baseline.probs and probs), the
Baseline / Intervened / Difference switch (difference = intervened − baseline, on levels symmetric around 0),
hidden without interventions, and working on a reopened snapshot for the output stages it keeps."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.export.snapshot import read_snapshot, write_snapshot
from explorer.interventions import Interventions
from explorer.interventions.intervened_run import run_intervened
from explorer.interventions.spec import HeadAblation
from explorer.trace import run_trace
from explorer.ui.bridge.state import AppState, ModelSource
from explorer.weights.presets import load_preset

TEXT = "This is a pen ."


@pytest.fixture(scope="module")
def runs():
    bundle = load_preset("classroom")
    baseline = run_trace(bundle, TEXT)
    ablated = Interventions(ablations=(HeadAblation(0, 1, "zero"), HeadAblation(1, 2, "zero")))
    return baseline, run_intervened(bundle, TEXT, ablated, baseline=baseline)


def _state(baseline, trace) -> AppState:
    state = AppState(source=ModelSource("preset", "classroom"))
    state.set_baseline(baseline)
    state.set_trace(trace)
    return state


def _show(qtbot, view, size=(1100, 700)):
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    return view


def _kl(p, q) -> float:
    p, q = np.asarray(p, np.float64), np.asarray(q, np.float64)
    keep = p > 0
    return float(np.sum(p[keep] * np.log(p[keep] / q[keep])))


def test_output_view_shows_both_distributions_and_the_kl(qtbot, runs):
    from explorer.ui.views.tokens.output_view import OutputView

    baseline, trace = runs
    state = _state(baseline, trace)
    view = _show(qtbot, OutputView(state), (500, 700))
    last = trace.rows[0].length - 1
    before = np.asarray(trace["baseline.probs"][0, last], np.float64)
    after = np.asarray(trace["probs"][0, last], np.float64)
    assert view.compare_bars.isVisible() and not view.bars.isVisible()
    assert view.kl_label.isVisible()
    kl = _kl(before, after)
    assert kl > 1e-4  # the ablation changes the prediction
    assert view.kl == pytest.approx(kl, rel=1e-5, abs=1e-7)
    assert f"{kl:.4f}" in view.kl_label.text()
    items = view.compare_bars.items
    k = view.k_spin.value()
    top_before = set(np.argsort(-before, kind="stable")[:k])
    top_after = set(np.argsort(-after, kind="stable")[:k])
    assert len(items) == len(top_before | top_after)
    first = max(top_before, key=lambda t: before[t])  # listed first: the baseline's likeliest token
    assert items[0].before == pytest.approx(before[first]) and items[0].after == pytest.approx(after[first])
    assert items[0].rank_before == 1 and items[0].rank_after == 1 + int(np.sum(after > after[first]))
    # Another position: the bars follow the selection.
    state.select(token=1)
    assert view.kl == pytest.approx(_kl(trace["baseline.probs"][0, 1], trace["probs"][0, 1]), rel=1e-5, abs=1e-7)


def test_output_view_without_interventions_is_as_before(qtbot, runs):
    from explorer.ui.views.tokens.output_view import OutputView

    baseline, _ = runs
    state = _state(None, baseline)
    view = _show(qtbot, OutputView(state), (500, 700))
    assert view.bars.isVisible() and not view.compare_bars.isVisible() and not view.kl_label.isVisible()
    assert view.kl is None and len(view.bars.items) == view.k_spin.value()


def test_tensor_view_difference_is_intervened_minus_baseline(qtbot, runs):
    from explorer.ui.views.tensor.tensor_view import TensorView

    baseline, trace = runs
    state = _state(baseline, trace)
    view = _show(qtbot, TensorView(state))
    assert view.compare.isVisible()
    state.select(stage="weights", layer=1, head=0)
    n = trace.rows[0].length
    after = np.asarray(trace.head_map(1, "weights", 0, 0)[:n, :n], np.float64)
    before = np.asarray(baseline.head_map(1, "weights", 0, 0)[:n, :n], np.float64)
    np.testing.assert_array_equal(view.large.image.image, trace.head_map(1, "weights", 0, 0)[:n, :n])  # default

    view.compare.buttons["difference"].click()
    shown = np.asarray(view.large.image.image, np.float64)
    np.testing.assert_allclose(shown, after - before, atol=1e-6)
    assert np.abs(shown).max() > 1e-4  # layer 0's ablation reaches layer 1's maps
    lo, hi = view.large.image.getLevels()
    assert lo == pytest.approx(-hi) and hi > 0
    # one scale for the grid of heads, symmetric and covering every head's difference
    every = [
        np.asarray(trace.head_map(1, "weights", 0, h)[:n, :n], np.float64)
        - baseline.head_map(1, "weights", 0, h)[:n, :n]
        for h in range(trace.config.H)
    ]
    assert hi == pytest.approx(max(np.abs(d).max() for d in every), rel=1e-5)
    assert {tuple(m.image.getLevels()) for m in view.grid.maps} == {(lo, hi)}

    view.compare.buttons["baseline"].click()
    np.testing.assert_allclose(view.large.image.image, before, atol=0)

    # A (tokens, columns) stage: the block output, difference cell by cell.
    view.compare.buttons["difference"].click()
    state.select(stage="block", layer=1)
    expected = np.asarray(trace["layers.1.out"][0, :n], np.float64) - baseline["layers.1.out"][0, :n]
    np.testing.assert_allclose(view.large.image.image, expected, atol=1e-5)
    lo, hi = view.large.image.getLevels()
    assert lo == pytest.approx(-hi) and hi == pytest.approx(np.abs(expected).max(), rel=1e-5)
    assert "baseline" in view.large.title.text().lower()  # the title says which run is drawn


def test_the_switch_is_hidden_without_interventions(qtbot, runs):
    from explorer.ui.views.tensor.tensor_view import TensorView

    baseline, trace = runs
    state = _state(None, baseline)
    view = _show(qtbot, TensorView(state))
    assert not view.compare.isVisible()
    state.set_baseline(baseline)
    state.set_trace(trace)
    qtbot.waitUntil(view.compare.isVisible)
    state.set_trace(baseline)  # interventions cleared: a plain trace
    qtbot.waitUntil(lambda: not view.compare.isVisible())


def test_a_snapshot_with_interventions_compares_its_output(qtbot, runs, tmp_path):
    from explorer.ui.views.tensor.tensor_view import TensorView

    _, trace = runs
    snap = read_snapshot(write_snapshot(trace, tmp_path / "ablated.npz"))
    state = AppState(source=ModelSource("preset", "classroom"))
    state.set_trace(snap)
    view = _show(qtbot, TensorView(state))
    assert state.baseline is not None and view.compare.isVisible()
    state.select(stage="logits")
    view.compare.buttons["difference"].click()
    n = trace.rows[0].length
    columns = list(view._matrix.columns)
    expected = (
        np.asarray(snap["logits"][0, :n], np.float64)[:, columns]
        - np.asarray(snap["baseline.logits"][0, :n], np.float64)[:, columns]
    )
    np.testing.assert_allclose(view.large.image.image, expected, atol=1e-5)
    # A stage whose baseline the snapshot does not keep: Baseline and Difference are disabled, the run is drawn.
    state.select(stage="weights", layer=0, head=0)
    assert not view.compare.buttons["difference"].isEnabled() and view.compare.note.text()
    np.testing.assert_array_equal(view.large.image.image, snap.head_map(0, "weights", 0, 0)[:n, :n])


def test_hover_in_difference_mode_says_the_drawn_number(qtbot, runs):
    from explorer.ui.views.tensor.tensor_view import TensorView

    baseline, trace = runs
    state = _state(baseline, trace)
    view = _show(qtbot, TensorView(state))
    state.select(stage="weights", layer=1, head=0)
    view.compare.buttons["difference"].click()
    d = float(trace.head_map(1, "weights", 0, 0)[4, 1]) - float(baseline.head_map(1, "weights", 0, 0)[4, 1])
    text = view.cell_explanation(0, 4, 1)
    shown = float(text.split("baseline: ")[1].split(" ·")[0].replace("−", "-"))
    assert shown == pytest.approx(d, abs=1e-3) and abs(d) > 1e-3
    view.compare.buttons["intervened"].click()
    assert "baseline:" not in view.cell_explanation(0, 4, 1).split("\n")[0]
