"""The Generate panel: Generate runs in a worker thread, the slider scrubs, Play walks the steps, and what is
drawn (the decode row of the map, the cache table, the chosen token) equals an independent full pass of the
model over the text so far."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from explorer.model.capture import CaptureSink, capturing
from explorer.weights.presets import load_preset

TEXT = "This is a"


@pytest.fixture
def view(qtbot, state):
    from explorer.ui.views.generation.generate_view import GenerateView

    state.set_text(TEXT)
    v = GenerateView(state)
    qtbot.addWidget(v)
    v.resize(1400, 500)
    v.show()
    yield v
    v.shutdown()


def full_pass(ids):
    b = load_preset("classroom")
    sink = CaptureSink()
    with torch.inference_mode(), capturing(b.model, sink):
        b.model(torch.tensor([ids]))
    return {n: t.numpy() for n, t in sink.tensors.items()}


def generate(qtbot, view, n: int = 5):
    view.count.setValue(n)
    view.generation = None
    view.run_button.click()
    qtbot.waitUntil(
        lambda: view.job is None and (view.generation is not None or "Not" in view.message.text()), timeout=60_000
    )
    assert view.generation is not None, view.message.text()
    return view.generation


def test_generate_shows_the_last_step_equal_to_a_full_pass(qtbot, view, state):
    g = generate(qtbot, view, 5)
    assert len(g.steps) == 5 and view.slider.maximum() == 4 and view.slider.value() == 4
    ids = list(load_preset("classroom").tokenizer.encode(TEXT).ids)
    C = len(ids)
    for s in g.steps:  # greedy: each token is the argmax of a full pass over the text so far
        assert s.token_id == int(np.argmax(full_pass(ids)["logits"][0, -1]))
        ids.append(s.token_id)
    full = full_pass(ids[:-1])  # the positions fed by the last step
    layer, head = state.selection.layer, state.selection.head
    shown = np.asarray(view.map.image.image)  # what the heatmap holds (rows = queries)
    drawn = shown if shown.shape[0] == C + 4 else shown.T  # pyqtgraph stores images column-major
    np.testing.assert_allclose(drawn[-1], full[f"layers.{layer}.attn.weights"][0, head, -1], atol=1e-5)
    assert view.k_table.rowCount() == C + 4
    k = full[f"layers.{layer}.attn.k"][0, head]  # classroom: H_kv = H, no RoPE
    assert [view.k_table.item(C + 3, j).text() for j in range(3)] == [f"{x:.2f}" for x in k[-1, :3]]
    marked = view.k_table.item(C + 3, 0).background().color()
    assert marked != view.k_table.item(0, 0).background().color()
    assert g.steps[-1].token.replace(" ", "␣") in view.text_label.text()  # spaces drawn visibly, as in the chips
    assert "attends to" in view.cost_label.text() and "The cache holds" in view.cost_label.text()


def test_scrub_back_and_play(qtbot, view):
    g = generate(qtbot, view, 4)
    C = g.prompt_tokens
    view.slider.setValue(0)
    assert view.k_table.rowCount() == C and view.step_label.text().startswith("Step 1")
    top = [view.top_table.item(r, 0).text() for r in range(view.top_table.rowCount())]
    assert g.steps[0].token.replace(" ", "␣") in top
    view._play.setInterval(20)
    view.play_button.click()
    qtbot.waitUntil(lambda: view.slider.value() == 3 and not view._play.isActive(), timeout=30_000)
    view.step_once()  # at the end: stays
    assert view.slider.value() == 3


def test_no_cache_says_so(qtbot, view):
    view.use_cache.setChecked(False)
    g = generate(qtbot, view, 2)
    assert not g.use_cache and view.k_table.rowCount() == 0
    assert "No cache" in view.k_title.text()


def test_a_refused_prompt_is_one_line(qtbot, view, state):
    state.set_options(mask=state.options.mask.__class__("none"))
    view.run_button.click()
    qtbot.waitUntil(lambda: view.job is None and "Not generated" in view.message.text(), timeout=30_000)
    assert "causal mask" in view.message.text() and view.generation is None


def test_grouped_query_saving_is_shown_in_numbers(qtbot, view, state):
    """A classroom-sized model with 4 query heads sharing 2 key/value heads: the cost line gives the cache's
    bytes for H_kv = 2 and for H = 4, counted here from the shapes: 3 layers × heads × positions × (32 + 32) × 4."""
    state.set_sizes(kv_heads=2)
    g = generate(qtbot, view, 3)
    assert g.trace.config.H_kv == 2 and view.k_table.rowCount() == g.prompt_tokens + 2
    n = g.prompt_tokens + 2
    line = view.cost_label.text()
    assert "4 query heads share 2 key/value heads" in line
    assert f"{3 * 2 * n * 64 * 4 / 1e3:.3g} kB instead of {3 * 4 * n * 64 * 4 / 1e3:.3g} kB (50 % less)" in line


def test_save_and_reopen_read_only(qtbot, view, tmp_path):
    g = generate(qtbot, view, 3)
    path = tmp_path / "g.npz"
    view.save(str(path))
    assert path.is_file() and "Saved" in view.message.text()
    view.generation = None
    view.open(str(path))
    assert view.generation.read_only and view.generation.token_ids == g.token_ids
    assert "read-only" in view.message.text() and view.slider.maximum() == 2
    view.open(str(tmp_path / "missing.npz"))
    assert view.message.text().startswith("Not opened: ") and view.generation.token_ids == g.token_ids


def test_in_the_window_it_reuses_the_model_the_worker_built(qtbot, window, state):
    window.docks["generate"].raise_()
    view = window.views["generate"]
    models = window.runner.models
    assert models.has(state.source)
    built = models.loads
    view.count.setValue(2)
    view.run_button.click()
    qtbot.waitUntil(lambda: view.job is None and view.generation is not None, timeout=60_000)
    assert len(view.generation.steps) == 2
    assert models.loads == built  # the trace's model, not a second one


def test_step_before_any_generation_shows_the_first_step(qtbot, view):
    view.count.setValue(3)
    view.step_button.click()
    qtbot.waitUntil(lambda: view.job is None and view.generation is not None, timeout=60_000)
    assert view.slider.value() == 0 and view.step_label.text().startswith("Step 1 / 3")
    view.step_button.click()
    assert view.slider.value() == 1
