"""The Compare view's bar for a model that is not a preset (issue 40): the random-weight twin of a checkpoint
(the same config, other weights), and another checkpoint of the shown model's training run (run B is that
checkpoint's weights, as an independent load and trace of it gives)."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.config import ModelConfig
from explorer.tokenize import Tokenizer
from explorer.trace.run import run_trace
from explorer.ui.views.compare.compare_bar import CHECKPOINT, TWIN
from explorer.util.paths import resource
from explorer.weights.bundle import random_bundle
from explorer.weights.checkpoint import load_checkpoint, save_checkpoint

TEXT = "abcab"


@pytest.fixture
def run(tmp_path):
    """A training run's folder with two checkpoints of one config and different weights."""
    tok = Tokenizer.from_file(resource("tokenizers", "letters.json"))
    cfg = ModelConfig(
        vocab_size=tok.vocab_size, embed_dim=16, key_dim=4, heads=2, layers=2, positions="learned", max_positions=16
    )
    for step, seed in ((10, 1), (20, 2)):
        save_checkpoint(random_bundle(cfg, tok, seed=seed), tmp_path / "run" / f"step-{step:06d}", step=step)
    return tmp_path / "run"


def _compare(open_window, state, qtbot, shown, kind):
    w = open_window(state)
    state.open_model(str(shown))
    qtbot.waitUntil(lambda: state.trace is not None and state.trace.source.endswith(shown.name), timeout=30_000)
    state.set_text(TEXT)
    qtbot.waitUntil(lambda: state.trace.rows[0].text == TEXT, timeout=30_000)
    w.actions_.compare.trigger()
    view = w.views["compare"]
    view.bar.choose(kind)
    return w, view


def _go(view, qtbot):
    view.bar.go.click()
    qtbot.waitUntil(lambda: view.comparison is not None, timeout=60_000)
    return view.comparison.pair.a.trace, view.comparison.pair.b.trace


def test_the_twin_of_a_checkpoint_has_its_config_and_other_weights(run, open_window, state, qtbot):
    w, view = _compare(open_window, state, qtbot, run / "step-000010", TWIN)
    a, b = _go(view, qtbot)
    assert a.config == b.config
    assert not np.allclose(a["params.embed.tok"], b["params.embed.tok"])
    assert "random weights" in view.comparison.pair.b.made["model"]
    w.close()


def test_another_checkpoint_of_the_run_is_compared_with_the_shown_one(run, open_window, state, qtbot):
    w, view = _compare(open_window, state, qtbot, run / "step-000010", CHECKPOINT)
    steps = [view.bar.steps.itemText(i) for i in range(view.bar.steps.count())]
    assert steps == ["step 10", "step 20"]
    assert view.bar.steps.currentData() == str(run / "step-000020")  # the other step, not the shown one
    a, b = _go(view, qtbot)
    expected_b = run_trace(load_checkpoint(run / "step-000020"), TEXT, state.request.options)
    expected_a = run_trace(load_checkpoint(run / "step-000010"), TEXT, state.request.options)
    for name in ("layers.0.attn.weights", "layers.1.attn.weights"):
        np.testing.assert_allclose(b[name], expected_b[name], atol=1e-6)
        np.testing.assert_allclose(a[name], expected_a[name], atol=1e-6)
    assert not np.allclose(a["layers.0.attn.weights"], b["layers.0.attn.weights"])
    w.close()
