"""The scaling panel: the trace's score variance and row entropy with and without ÷√D, and the D sweep
with the current D marked."""

from __future__ import annotations

import math

import numpy as np
import pytest
from live_state import make_trace


@pytest.fixture
def view(qtbot, state):
    from explorer.ui.views.scaling_view import ScalingView

    v = ScalingView(state)
    qtbot.addWidget(v)
    v.resize(1100, 380)
    v.show()
    return v


def _entropy(row):
    p = np.exp(row - row.max())
    p /= p.sum()
    return -np.sum(p * np.log(p))


def test_trace_statistics_from_the_real_scores(state, view):
    trace = make_trace()
    state.set_trace(trace)
    scores = np.stack([trace.head_map(0, "scores", 0, h) for h in range(4)]).astype(np.float64)
    causal = np.tril(np.ones((5, 5), bool))
    cells = scores[:, causal]
    st = view.stats
    assert st.var_raw == pytest.approx(np.var(cells), rel=1e-6)
    assert st.var_scaled == pytest.approx(np.var(cells) / 32, rel=1e-6)  # classroom: D = 32
    raw = np.mean([_entropy(scores[h, i, : i + 1]) for h in range(4) for i in range(5)])
    scaled = np.mean([_entropy(scores[h, i, : i + 1] / math.sqrt(32)) for h in range(4) for i in range(5)])
    assert st.entropy_raw == pytest.approx(raw, rel=1e-6)
    assert st.entropy_scaled == pytest.approx(scaled, rel=1e-6)
    assert view.cells["var_raw"].text() == f"{st.var_raw:.3g}"
    assert view.cells["entropy_scaled"].text() == f"{st.entropy_scaled:.3g}"
    assert "D = 32" in view.trace_caption.text()


def test_sweep_curves_and_the_current_D_marker(state, view):
    x, y = view.var_raw_curve.getData()
    dims = np.array([1, 2, 4, 8, 16, 32, 64, 128, 256, 512], float)
    np.testing.assert_allclose(10**x if x.max() < 5 else x, dims)  # log-x plots may hand back log10(x)
    ys = 10**y if y.max() < 5 else y
    np.testing.assert_allclose(ys, dims, rtol=0.3)  # variance grows like D
    _, h_raw = view.h_raw_curve.getData()
    _, h_scaled = view.h_scaled_curve.getData()
    assert h_raw[-1] < 0.25 * h_scaled[-1]  # unscaled rows collapse, scaled ones do not
    state.set_trace(make_trace())
    assert view.d_lines[0].value() == pytest.approx(math.log10(32))
    from live_state import preset_bundle

    from explorer.config import ModelConfig
    from explorer.trace import run_trace
    from explorer.weights.bundle import random_bundle

    tok = preset_bundle().tokenizer
    cfg = ModelConfig(vocab_size=tok.vocab_size, embed_dim=32, key_dim=64, heads=2, layers=1)
    state.set_trace(run_trace(random_bundle(cfg, tok, 0), "This is a pen ."))
    assert view.d_lines[1].value() == pytest.approx(math.log10(64))
    assert "D = 64" in view.trace_caption.text()


def test_scaling_off_is_said_and_selection_picks_sentence(state, view):
    state.set_trace(make_trace("This is a pen .\nIs this a dog ?", scale=False))
    assert "off" in view.trace_note.text()
    first = view.stats
    state.select(row=1)
    assert "sentence 2" in view.trace_caption.text()
    assert view.stats != first
