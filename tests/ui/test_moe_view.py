"""A mixture of experts in the central view (issue 42): the router's stage draws the tokens × experts
probabilities with the experts a token does not run drawn as blocked, the experts' stage each token's chosen
expert (the head control stepping through the K choices), and a dense layer of a Qwen-MoE model (no router)
draws nothing rather than another layer's map."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from explorer.trace import run_trace
from explorer.ui.bridge.state import AppState, ModelSource
from explorer.weights.loaders import load_model

pytest.importorskip("transformers")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))


@pytest.fixture(scope="module")
def qwen_moe(tmp_path_factory):
    from test_hf_moe import build  # the random-weight Qwen-MoE of the core tests: layer 1 dense
    from tiny_bpe import train_tokenizer

    folder = tmp_path_factory.mktemp("qwen_moe")
    build(folder, "qwen2_moe", train_tokenizer().to_str())
    return folder, run_trace(load_model(folder), "The cat sat on the mat .")


def test_the_router_and_experts_stages_draw_what_the_trace_holds(qtbot, qwen_moe):
    from explorer.ui.views.tensor.tensor_view import TensorView

    folder, trace = qwen_moe
    state = AppState(source=ModelSource("path", str(folder)))
    state.set_trace(trace, editable_sizes=False)
    view = TensorView(state)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.waitExposed(view)
    n, K = trace.rows[0].length, trace.config.experts_per_token
    state.select(stage="router", layer=0)
    probs = trace["layers.0.ffn.router_probs"][0, :n]
    assert np.array_equal(view.large.image.image, probs)
    chosen = trace["layers.0.ffn.experts_chosen"][0, :n]
    runs = np.zeros_like(probs, dtype=bool)
    np.put_along_axis(runs, chosen, True, axis=1)
    assert (view.large.overlay.image[~runs] > 0).all() and (view.large.overlay.image[runs] == 0).all()
    assert "does not run" in view.large.legend_text.text()
    state.select(stage="experts", head=1)
    assert np.array_equal(view.large.image.image, trace["layers.0.ffn.expert_out"][0, 1 % K, :n])
    assert "expert #2" in view.large.bottom.labelText
    state.select(stage="router", layer=1)  # mlp_only_layers: a dense FFN, no router
    assert not view.large.isVisibleTo(view) and "no router" in view.edge.text()
    state.select(stage="ffn", layer=1)
    assert view.large.isVisibleTo(view)
    assert np.array_equal(view.large.image.image, trace["layers.1.ffn.hidden"][0, :n])
