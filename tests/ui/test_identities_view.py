"""The identities panel: both sides of Σᵢ Rⁱ·W_oⁱ = concat·W_o from the trace's real numbers, and the
low-rank slider's error and parameter counts."""

from __future__ import annotations

import numpy as np
import pytest
from live_state import make_trace


@pytest.fixture
def view(qtbot, state):
    from explorer.ui.views.identities_view import IdentitiesView

    v = IdentitiesView(state)
    qtbot.addWidget(v)
    v.resize(1100, 420)
    v.show()
    return v


def test_sum_of_heads_beside_concat_with_the_trace_numbers(state, view):
    trace = make_trace()
    state.set_trace(trace)
    W_o = trace["params.layers.0.attn.W_o"].astype(np.float64)
    heads = trace["layers.0.attn.heads"][0].astype(np.float64)  # (H, C, D)
    by_head = sum(heads[h] @ W_o[h * 32 : (h + 1) * 32] for h in range(4))  # independent Σᵢ Rⁱ·W_oⁱ
    np.testing.assert_allclose(view.sum_plot.data(), by_head, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(view.concat_plot.data(), trace["layers.0.attn.out"][0], rtol=1e-4, atol=1e-5)
    assert view.sum_plot.data().shape == (5, 128)  # C × E
    assert 0 <= view.result.max_abs_difference < 1e-5
    assert "equal" in view.difference.text() and "NOT" not in view.difference.text()
    assert "float32" in view.difference.text()


def test_float64_difference_is_tiny_and_layer_follows_selection(state, view):
    trace = make_trace(dtype="float64")
    state.set_trace(trace)
    assert view.result.max_abs_difference < 1e-12
    first = view.sum_plot.data().copy()
    state.select(layer=1)
    assert "Layer 1" in view.heads_caption.text()
    np.testing.assert_allclose(view.sum_plot.data(), trace["layers.1.attn.out"][0], rtol=1e-5, atol=1e-6)
    assert not np.allclose(view.sum_plot.data(), first)


def test_rank_slider_reports_error_and_counts(state, view):
    from explorer.analysis import identities as ident

    trace = make_trace()
    state.set_trace(trace)
    assert view.rank_spin.value() == 12  # starts at E/10, like the note's E = 100, r = 10
    M = trace["params.layers.0.attn.W_v"].astype(np.float64) @ trace["params.layers.0.attn.W_o"].astype(np.float64)
    view.rank_slider.setValue(10)
    assert view.rank_spin.value() == 10
    text = view.rank_numbers.text()
    assert "16,384 → 2,560" in text and "-84%" in text  # 128·128 → 128·10 + 10·128
    U, s, Vt = np.linalg.svd(M)
    expected = np.linalg.norm(M - (U[:, :10] * s[:10]) @ Vt[:10]) / np.linalg.norm(M)
    assert f"{expected:.2e}" in text
    view.rank_spin.setValue(128)
    assert view.rank_error < 1e-6  # full rank: exact
    assert "16,384 → 32,768" in view.rank_numbers.text()  # and twice the parameters
    assert view.rank_line.value() == pytest.approx(128.5)
    assert "10,000 → 2,000" in view.note_example.text() and "80%" in view.note_example.text()
    assert ident.parameter_counts(64, 64, 10).after == 1280


def test_unfactored_model_has_nothing_to_sum(state, view):
    from live_state import preset_bundle

    from explorer.config import ModelConfig
    from explorer.trace import run_trace
    from explorer.weights.bundle import random_bundle

    tok = preset_bundle("classroom").tokenizer
    cfg = ModelConfig(vocab_size=tok.vocab_size, embed_dim=8, key_dim=4, heads=1, layers=1, unfactored_value=True)
    state.set_trace(run_trace(random_bundle(cfg, tok, 0), "This is a pen ."))
    assert view.maps.isHidden()
    assert "no W_o" in view.heads_caption.text()
    assert "W_v (8×8)" in view.rank_numbers.text()


def test_a_large_value_matrix_is_factored_off_the_gui_thread(qtbot):
    """A 300×300 W_v·W_o (above SYNC_SVD_SIZE) is decomposed in a thread; the panel says so, then shows it."""
    import numpy as np

    from explorer.config import ModelConfig
    from explorer.trace import run_trace
    from explorer.ui.bridge.state import AppState
    from explorer.ui.views import identities_view
    from explorer.ui.views.identities_view import IdentitiesView
    from explorer.weights.bundle import random_bundle
    from explorer.weights.presets import preset_tokenizer

    tok = preset_tokenizer("words-en.json")
    bundle = random_bundle(
        ModelConfig(vocab_size=tok.vocab_size, embed_dim=300, key_dim=20, heads=2, layers=1, positions="none"),
        tok,
        seed=1,
    )
    trace = run_trace(bundle, "This is a pen .")
    state = AppState()
    view = IdentitiesView(state)
    qtbot.addWidget(view)
    state.set_trace(trace)
    assert identities_view.SYNC_SVD_SIZE < 300
    assert view._lowrank is None and "computing" in view.rank_numbers.text()
    qtbot.waitUntil(lambda: view._lowrank is not None, timeout=30_000)
    W_v, W_o = trace["params.layers.0.attn.W_v"], trace["params.layers.0.attn.W_o"]
    expected = np.linalg.svd((W_v @ W_o).astype(np.float64), compute_uv=False)
    assert np.allclose(view._lowrank.s, expected, rtol=1e-6, atol=1e-9)
