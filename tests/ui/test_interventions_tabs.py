"""The Interventions panel's tabs, checked against numbers computed here (the trace's own probs and logits,
the core's sweep and intervened run called directly): the logit lens's last layer is the model's output,
the attribution bars and constant add up to the logit shown, the sweep heatmap holds the core's sweep,
Cancel leaves the panel usable, and a patch added from the form is the core's patched run."""

from __future__ import annotations

import re

import numpy as np
import pytest

from explorer.analysis.token_text import visible
from explorer.interventions import Interventions, PatchSpec, patching_sweep, run_intervened
from explorer.ui.views.interventions import sweep_panel
from tests.ui.live_state import wait_trace

OTHER = "This is a cat ."  # as many tokens as the default "This is a pen ."


def _panel(window, tab: int):
    window.open_panel("interventions")  # a narrow window starts with the side panels on their strip
    panel = window.views.get("interventions")
    panel.tabs.setCurrentIndex(tab)
    return panel


def _bundle(window):
    return window.runner.models.get(window.state.source)  # the model the window traced with (kept, not rebuilt)


def test_logit_lens_last_layer_is_the_models_output(window, qtbot):
    lens = _panel(window, 1).lens
    qtbot.waitUntil(lambda: lens.result is not None, timeout=20_000)
    trace = window.state.trace
    n, L = trace.rows[0].length, trace.config.layers
    assert lens.grid.rowCount() == L and lens.grid.columnCount() == n
    for i in range(n):
        p = trace.probs_row(0, i).astype(np.float64)
        top = int(p.argmax())
        token, prob = lens.grid.item(L - 1, i).text().split("\n")
        assert token == visible(trace.vocab[top])
        assert abs(float(prob) - p[top]) < 5e-4
    lens.grid.cellClicked.emit(0, 2)  # choose position 2
    assert window.state.selection.token == 2
    p2 = trace.probs_row(0, 2).astype(np.float64)
    assert abs(lens.shown_bars[-1] - p2.max()) < 1e-5  # the predicted token's probability after the last layer
    assert visible(trace.vocab[int(p2.argmax())]) in lens.plot_title.text()


def _parse_sum(label: str) -> tuple[float, float, float, float]:
    return tuple(float(x) for x in re.findall(r"-?\d+\.\d+", label))  # parts, constant, total, logit


def test_attribution_bars_and_constant_sum_to_the_logit_shown(window, qtbot):
    window.state.select(token=3)
    att = _panel(window, 2).attribution
    qtbot.waitUntil(lambda: att.result is not None and att.result.position == 3, timeout=20_000)
    trace = window.state.trace
    logits = trace["logits"][0, 3].astype(np.float64)
    parts, constant, total, logit = _parse_sum(att.sum_label.text())
    heights = np.asarray(att.bars.opts["width"], np.float64)
    cfg = trace.config
    assert len(heights) == 1 + cfg.layers * (cfg.H + 1)  # embed, every head, every FFN
    assert abs(logit - logits.max()) < 1e-4  # the default target is the predicted token
    assert abs(heights.sum() + constant - logit) < 1e-3  # the bars drawn plus the constant shown
    assert abs(total - logit) < 1e-3 and abs(parts - heights.sum()) < 1e-3

    att.target.setText("#7")  # another target, by id
    att.apply_button.click()
    qtbot.waitUntil(lambda: att.result is not None and att.result.target == 7, timeout=20_000)
    parts, constant, total, logit = _parse_sum(att.sum_label.text())
    assert abs(logit - logits[7]) < 1e-4
    assert abs(np.sum(att.bars.opts["width"]) + constant - logits[7]) < 1e-3

    att.target.setText("no such token at all")
    att.apply_button.click()
    qtbot.waitUntil(lambda: "not one token" in att.status.text(), timeout=20_000)
    assert att.result is None and len(att.bars.opts["width"]) == 0


def _run_sweep(qtbot, sweep, corrupted: str, kind: int):
    sweep.corrupted.setText(corrupted)
    sweep.kind.setCurrentIndex(kind)
    sweep.run_button.click()
    assert sweep.job is not None and sweep.cancel_button.isEnabled() and not sweep.run_button.isEnabled()
    qtbot.waitUntil(lambda: sweep.job is None, timeout=60_000)


@pytest.mark.parametrize("kind", [0, 1])
def test_sweep_heatmap_is_the_cores_sweep(window, qtbot, kind):
    sweep = _panel(window, 3).sweep
    assert sweep.clean.text() == window.state.text
    _run_sweep(qtbot, sweep, OTHER, kind)
    expected = patching_sweep(
        _bundle(window), window.state.text, OTHER, ("resid", "heads")[kind], options=window.state.options
    )
    assert sweep.map.isVisible()
    np.testing.assert_allclose(sweep.shown, expected.recovered, atol=1e-6)
    image = sweep.map.image.image
    np.testing.assert_allclose(np.asarray(image).reshape(expected.recovered.shape), expected.recovered, atol=1e-5)
    assert np.abs(expected.recovered).max() > 0.05  # something comes back: the map is not all zeros


def test_sweep_with_texts_of_different_lengths_says_so(window, qtbot):
    sweep = _panel(window, 3).sweep
    _run_sweep(qtbot, sweep, "This is a cat on a mat .", 0)
    assert "same length in tokens" in sweep.message.text() and sweep.result is None


def test_cancel_stops_the_sweep_and_leaves_the_panel_usable(window, qtbot, monkeypatch):
    real, cells = sweep_panel.sweep_work, []

    def cancel_after_one(*args):
        work = real(*args)

        class Report:  # in the sweep's thread, right after cell 1: the sweep cannot finish before Cancel
            def __init__(self, report, cancel):
                self.report, self.cancel = report, cancel

            def progress(self, done, total, what=""):
                cells.append(done)
                self.report.progress(done, total, what)
                if done == 1:
                    self.cancel.set()

        return lambda report, cancel: work(Report(report, cancel), cancel)

    sweep = _panel(window, 3).sweep
    monkeypatch.setattr(sweep_panel, "sweep_work", cancel_after_one)
    sweep.corrupted.setText(OTHER)
    sweep.run_button.click()
    qtbot.waitUntil(lambda: sweep.job is None, timeout=60_000)
    assert cells == [1] and sweep.result is None and not sweep.map.isVisible()
    assert "cancelled" in sweep.message.text()
    assert sweep.run_button.isEnabled() and not sweep.cancel_button.isEnabled() and not sweep.progress.isVisible()

    monkeypatch.setattr(sweep_panel, "sweep_work", real)
    _run_sweep(qtbot, sweep, OTHER, 1)  # the panel still runs a whole sweep
    assert sweep.result is not None and sweep.map.isVisible()


def test_a_patch_added_from_the_form_is_the_cores_patched_run(window, qtbot):
    state = window.state
    panel = _panel(window, 3)
    form = panel.patch_form
    form.name.setCurrentText("layers.0.out")
    assert form.name.currentText() == "layers.0.out"
    form.positions.setText("2-3")
    form.source.setText(OTHER)
    form.add_button.click()
    trace = wait_trace(qtbot, state, lambda t: bool(t.interventions))
    spec = PatchSpec("layers.0.out", (2, 3))
    assert state.interventions.patches == (spec,) and state.interventions.patch_from == OTHER
    expected = run_intervened(
        _bundle(window), state.text, Interventions(patches=(spec,), patch_from=OTHER), state.options
    )
    np.testing.assert_allclose(trace["probs"], expected["probs"], atol=1e-6)
    assert np.abs(trace["probs"] - trace["baseline.probs"]).max() > 1e-4  # the patch changed the prediction
    assert any("patch layers.0.out" in panel.list.item(i).text() for i in range(panel.list.count()))

    panel.list.setCurrentRow(0)
    panel.remove_button.click()
    back = wait_trace(qtbot, state, lambda t: not t.interventions)
    assert state.interventions.patches == () and state.interventions.patch_from is None
    np.testing.assert_allclose(back["probs"], expected["baseline.probs"], atol=1e-6)


def test_the_form_offers_the_logits_which_the_trace_derives(window, qtbot):
    form = _panel(window, 3).patch_form
    trace = window.state.trace
    offered = [form.name.itemText(i) for i in range(form.name.count())]
    assert "logits" not in trace.stored_names() and "logits" in trace  # derived from final.out when read
    assert offered[-1] == "logits" and offered.count("logits") == 1


def test_a_malformed_patch_is_refused_in_the_form(window, qtbot):
    form = _panel(window, 3).patch_form
    form.positions.setText("two")
    form.source.setText(OTHER)
    form.add_button.click()
    assert "expected NAME[@POSITIONS][#HEADS]" in form.message.text() and state_has_no_patch(window.state)


def state_has_no_patch(state) -> bool:
    return state.interventions.patches == () and state.interventions.patch_from is None
