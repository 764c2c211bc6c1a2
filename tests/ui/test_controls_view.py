"""The model controls: every change re-traces, bad sizes say why and keep the last trace, fixed-size models
disable the sizes, and the controls follow the state without sending anything back."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from live_state import live, make_trace, wait_trace


@pytest.fixture
def view(qtbot, state):
    from explorer.ui.views.controls_view import ControlsView

    v = ControlsView(state)
    qtbot.addWidget(v)
    v.resize(380, 900)
    v.show()
    return v


def _choose(combo, data):
    """As a user picks an entry: the index changes and ``activated`` fires."""
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def test_heads_spin_box_gives_a_trace_with_that_many_heads(qtbot, state, view):
    with live(state, qtbot):
        assert state.trace.config.H == 4
        view.sizes["heads"].setValue(2)
        trace = wait_trace(qtbot, state, lambda t: t.config.H == 2)
        assert trace["layers.0.attn.weights"].shape[1] == 2
        assert trace.config.E == 128 and trace.config.D == 32  # the other sizes kept
        assert state.source.random_weights  # trained weights do not fit other sizes


def test_window_mask_gives_a_lower_band(qtbot, state, view):
    with live(state, qtbot):
        _choose(view.mask, "window")
        assert not view.mask_size.isHidden()  # the W box appears with the window mask
        view.mask_size.setValue(2)
        trace = wait_trace(qtbot, state, lambda t: str(t.options.mask) == "window:2")
        w = trace.head_map(0, "weights", 0, 0)
        C = trace.C
        band = np.array([[i - 2 < j <= i for j in range(C)] for i in range(C)])
        assert np.all(w[~band] == 0)
        assert np.all(w[band] > 0)
        np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=1e-5)
        _choose(view.mask, "none")
        assert view.mask_size.isHidden()
        trace = wait_trace(qtbot, state, lambda t: str(t.options.mask) == "none")
        assert np.all(trace.head_map(0, "weights", 0, 0) > 0)  # every token sees the future


def test_scaling_and_temperature_reach_the_trace(qtbot, state, view):
    with live(state, qtbot):
        view.scale.setChecked(False)
        trace = wait_trace(qtbot, state, lambda t: t.options.scale is False)
        np.testing.assert_array_equal(trace.head_map(0, "scaled", 0, 0), trace.head_map(0, "scores", 0, 0))
        view.temperature.setValue(2.0)
        trace = wait_trace(qtbot, state, lambda t: t.options.temperature == 2.0)


def test_a_bad_size_shows_why_and_keeps_the_last_trace(qtbot, state, view):
    with live(state, qtbot):
        view.positions.activated.emit(view.positions.findData("rope"))
        wait_trace(qtbot, state, lambda t: t.config.positions == "rope")
        before = state.trace
        assert view.error_text() == ""
        with qtbot.waitSignal(state.errorRaised, timeout=20_000):
            view.sizes["key_dim"].setValue(15)  # rotary positions need an even D (odd E is fine since issue 12)
        assert "D must be even" in view.error_text()
        assert state.trace is before
        assert view.sizes["key_dim"].value() == 15  # what the user typed stays, to be fixed
        assert "cannot work" in view.params.text()
        view.sizes["key_dim"].setValue(8)
        wait_trace(qtbot, state, lambda t: t.config.D == 8)
        assert view.error_text() == ""


def test_sizes_are_disabled_and_show_the_model_when_not_editable(qtbot, state, view):
    trace = make_trace()
    fixed = dataclasses.replace(trace.config, heads=1, key_dim=8)  # a "loaded model" with its own sizes
    trace.config = fixed
    state.set_trace(trace, editable_sizes=False)
    assert not view.sizes["heads"].isEnabled()
    assert not view.positions.isEnabled()
    assert view.sizes["heads"].value() == 1 and view.sizes["key_dim"].value() == 8
    assert view.mask.isEnabled() and view.scale.isEnabled()  # still switchable
    state.set_trace(make_trace(), editable_sizes=True)
    assert view.sizes["heads"].isEnabled() and view.sizes["heads"].value() == 4


def test_controls_follow_a_preset_switch_without_feedback(qtbot, state, view):
    requests = []
    state.requestChanged.connect(requests.append)
    state.set_preset("seed-toy")  # from the Model menu
    assert len(requests) == 1  # showing the preset's values sends nothing back
    assert view.preset.currentData() == "seed-toy"
    assert (view.sizes["embed_dim"].value(), view.sizes["key_dim"].value(), view.sizes["heads"].value()) == (3, 2, 2)
    assert view.sizes["ffn_dim"].value() == 6
    assert view.sizes["value_dim"].text() == "= D"
    assert view.positions.currentData() == "none"


def test_preset_weights_seed_and_device(qtbot, state, view):
    _choose(view.preset, "seed-toy")
    assert state.source.name == "seed-toy"
    view.random_weights.setChecked(True)
    assert state.source.random_weights
    view.seed.setValue(5)
    assert state.source.seed == 5
    view.random_weights.setChecked(False)  # back to the preset's own weights
    assert state.source.seed is None and not state.source.random_weights
    assert [view.device.itemData(i) for i in range(view.device.count())][0] == "cpu"
    _choose(view.dtype, "float64")
    assert state.options.dtype == "float64"


def test_every_control_has_a_tooltip(view):
    from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QComboBox

    controls = [w for kind in (QComboBox, QAbstractSpinBox, QAbstractButton) for w in view.findChildren(kind)]
    assert len(controls) > 15
    missing = [w for w in controls if not w.toolTip()]
    assert not missing, [f"{type(w).__name__} {getattr(w, 'text', lambda: '')()}" for w in missing]


def test_over_the_memory_budget_is_refused_with_the_reason(qtbot, state, view, monkeypatch):
    with live(state, qtbot):
        before = state.trace
        monkeypatch.setenv("ATTENTION_EXPLORER_MEMORY_GB", "0.001")  # 1 MiB: the default model fits, E=256 not
        with qtbot.waitSignal(state.errorRaised, timeout=20_000):
            view.sizes["embed_dim"].setValue(256)
        assert "budget" in view.error_text()
        assert state.trace is before


def test_language_change_rebuilds_every_text(qtbot, state, view):
    from PySide6.QtCore import QCoreApplication, QEvent

    state.set_trace(make_trace())
    view.mask.setItemText(0, "")
    QCoreApplication.sendEvent(view, QEvent(QEvent.Type.LanguageChange))
    assert view.mask.itemText(0) == "causal"
    assert view.sizes["value_dim"].specialValueText() == "= D"
    assert "parameters" in view.params.text()


def test_norm_and_residuals_reach_the_model_and_bare_is_neither(qtbot, state, view):
    """The CLI's --norm and --no-residual in the window (issue 12): choices from explorer.vocab."""
    from explorer import vocab

    assert tuple(view.norm.itemData(i) for i in range(view.norm.count())) == vocab.NORMS
    assert tuple(view.positions.itemData(i) for i in range(view.positions.count())) == vocab.POSITIONS
    with live(state, qtbot):
        assert view.norm.currentData() == state.trace.config.norm == "layernorm" and view.residual.isChecked()
        _choose(view.norm, "rmsnorm")
        trace = wait_trace(qtbot, state, lambda t: t.config.norm == "rmsnorm")
        x = trace["embed.out"][0].astype(np.float64)
        gamma = trace["params.layers.0.ln_attn.weight"].astype(np.float64)
        np.testing.assert_allclose(
            trace["layers.0.attn.in"][0],
            x / np.sqrt((x**2).mean(-1, keepdims=True) + 1e-5) * gamma,
            rtol=1e-4,
            atol=1e-5,
        )
        _choose(view.norm, "none")
        view.residual.setChecked(False)
        trace = wait_trace(qtbot, state, lambda t: t.config.norm == "none" and not t.config.residual)
        np.testing.assert_array_equal(trace["layers.0.attn.in"], trace["embed.out"])  # bare: attention reads x itself
        np.testing.assert_array_equal(trace["layers.0.mid"], trace["layers.0.attn.out"])
        assert view.norm.currentData() == "none" and not view.residual.isChecked()


def test_the_notes_E_3_traces_with_sinusoidal_positions(qtbot, state, view):
    """Issue 12: E = 3 on the classroom preset (sinusoidal positions) was refused; the last cosine is dropped."""
    with live(state, qtbot):
        assert state.trace.config.positions == "sinusoidal"
        view.sizes["embed_dim"].setValue(3)
        trace = wait_trace(qtbot, state, lambda t: t.config.E == 3)
        assert view.error_text() == ""
        p = np.arange(trace.C)
        np.testing.assert_allclose(
            trace["embed.pos"][0], np.stack([np.sin(p), np.cos(p), np.sin(p / 10000 ** (2 / 3))], 1), atol=1e-6
        )


def test_one_size_edit_builds_the_model_config_once(qtbot, state, view, monkeypatch):
    """A size edit used to build its ModelConfig three times (twice in load_preset, once for the parameter
    count); the session now builds it once and passes it on to the count and to the model."""
    from explorer.config import ModelConfig
    from explorer.session.open import preset_source_config
    from explorer.weights.presets import shipped_config

    with live(state, qtbot):
        preset_source_config.cache_clear()  # an earlier test may have asked for the same sizes
        shipped_config("classroom")  # the preset's own sizes: built once per process, before any edit
        built = []
        original = ModelConfig.__post_init__

        def counting(self):
            built.append(self.heads)
            original(self)

        monkeypatch.setattr(ModelConfig, "__post_init__", counting)
        view.sizes["heads"].setValue(2)
        trace = wait_trace(qtbot, state, lambda t: t.config.H == 2)
        qtbot.waitUntil(
            lambda: view.params.text().startswith(f"{trace.config.parameter_count():,} ")
        )  # the count's redraw
        assert trace.config.H == 2
        assert built == [2], built


def test_the_half_dtypes_are_offered_traced_and_counted_in_their_bytes(qtbot, state, view):
    """bfloat16 and float16 (issue 42): the control offers them, the trace computes in the one chosen (its
    numbers are that dtype's, held as float32), and the status bar's weights figure is two bytes a number."""
    from explorer.ui.shell.status_bar import StatusBar
    from explorer.ui.words.byte_size import human_bytes

    offered = [view.dtype.itemData(i) for i in range(view.dtype.count())]
    assert offered == ["float32", "float64", "bfloat16", "float16"]
    bar = StatusBar(state)
    qtbot.addWidget(bar)
    with live(state, qtbot):
        count = state.trace.config.parameter_count()
        assert human_bytes(count * 4) in bar.params.text()
        _choose(view.dtype, "bfloat16")
        trace = wait_trace(qtbot, state, lambda t: t.options.dtype == "bfloat16")
        weights = trace["layers.0.attn.weights"]
        assert weights.dtype == np.float32
        halved = weights.view(np.uint32) & 0xFFFF  # a bfloat16 number held as float32 has 16 zero low bits
        assert not halved.any()
        qtbot.waitUntil(lambda: human_bytes(count * 2) in bar.params.text())
