"""The window's generation outside the Generate panel: the central tensor view draws the growing map (the
prompt's C×C map, one row per decode step beneath it, the current step's row outlined, following the step
slider), and presentation mode walks on into the generation with every text of its figures at 20 px on a
1080-line projector. The numbers drawn are checked against the generation's stored rows read with numpy and
against an independent full pass of the model (torch, captured at its named points)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
import torch
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QApplication, QWidget

from explorer.generation.loop import GenerateOptions, generate
from explorer.model.capture import CaptureSink, capturing
from tests.ui.live_state import make_trace, preset_bundle

TEXT = "This is a"
T = 5


@lru_cache(maxsize=1)
def generation():
    return generate(preset_bundle("classroom"), TEXT, gen=GenerateOptions(max_new_tokens=T))


def full_pass(ids) -> dict[str, np.ndarray]:
    """The model run once over ``ids``, every capture point kept: the independent path."""
    sink = CaptureSink()
    with torch.inference_mode(), capturing(preset_bundle("classroom").model, sink):
        preset_bundle("classroom").model(torch.tensor([ids]))
    return {n: t.numpy() for n, t in sink.tensors.items()}


def drawn(heatmap) -> np.ndarray:
    return np.asarray(heatmap.image.image)  # row-major: rows are queries


@pytest.fixture
def centre(qtbot, state):
    from explorer.ui.views.tensor.tensor_view import TensorView

    state.set_trace(make_trace(TEXT))
    state.select(stage="weights", layer=1, head=1)
    tv = TensorView(state)
    qtbot.addWidget(tv)
    tv.resize(900, 700)
    tv.show()
    return tv


def test_the_centre_draws_the_generation_rows_growing_one_per_step(qtbot, state, centre):
    g = generation()
    C, layer, head = g.prompt_tokens, 1, 1
    state.generation.set_generation(g, step=0)
    gm = centre.generation_centre.map
    assert gm.isVisible() and not centre.splitter.isVisible()
    stored = np.asarray(g.trace[f"gen.layers.{layer}.attn.weights"])[0, head]  # (T, C_total), read with numpy
    prompt = make_trace(TEXT)["layers.1.attn.weights"][0, head]  # the window's own trace of the prompt
    for t in range(T):
        state.generation.set_step(t)
        m = drawn(gm)
        assert m.shape == (C + t, C + t)  # one more row (and key) per step
        np.testing.assert_allclose(m[:C, :C], prompt, atol=1e-6)  # the prefill block is the prompt's map
        for s in range(1, t + 1):
            np.testing.assert_allclose(m[C - 1 + s, : C + s], stored[s, : C + s], atol=1e-6)
            assert not m[C - 1 + s, C + s :].any()  # later keys: not written yet
        assert gm.highlighted_row() == C - 1 + t
        assert np.allclose(np.tril(m).sum(axis=1), 1.0, atol=1e-5)  # every row a distribution over the past
    # the last row is what a full pass over the text so far computes (prompt + the first T−1 tokens)
    ids = list(preset_bundle("classroom").tokenizer.encode(TEXT).ids) + [s.token_id for s in g.steps[:-1]]
    full = full_pass(ids)[f"layers.{layer}.attn.weights"][0, head]
    np.testing.assert_allclose(drawn(gm), np.tril(full), atol=1e-5)
    assert "step 5 of 5" in centre.title.text().lower()


def test_the_panel_slider_scrubs_the_centre_row(qtbot, state, centre):
    from explorer.ui.views.generation.generate_view import GenerateView

    panel = GenerateView(state)
    qtbot.addWidget(panel)
    g = generation()
    C = g.prompt_tokens
    state.generation.set_generation(g)  # as the panel's job hands it over: the last step, shown in the centre
    gm = centre.generation_centre.map
    assert panel.slider.maximum() == T - 1 and panel.slider.value() == T - 1 and gm.highlighted_row() == C + T - 2
    panel.slider.setValue(1)
    assert gm.highlighted_row() == C and drawn(gm).shape == (C + 1, C + 1)
    assert panel.step_label.text().startswith("Step 2")
    panel.slider.setValue(0)
    assert gm.highlighted_row() == C - 1 and drawn(gm).shape == (C, C)
    state.generation.set_step(3)  # presentation's arrow keys move the panel's slider too
    assert panel.slider.value() == 3
    gm.cellClicked.emit(C, 0)  # a click on decode step 1's row in the centre shows that step
    assert state.generation.step == 1 and panel.slider.value() == 1 and gm.highlighted_row() == C


def test_choosing_a_stage_brings_the_stage_back(qtbot, state, centre):
    state.generation.set_generation(generation())
    assert centre.generation_centre.button.isVisible() and centre.generation_centre.button.isChecked()
    state.select(stage="scores")
    assert not centre.generation_centre.map.isVisible() and centre.splitter.isVisible()
    assert not state.generation.shown
    centre.generation_centre.button.click()  # the Generation button shows it again
    assert centre.generation_centre.map.isVisible() and state.generation.shown


def _font_px(widget) -> int:
    return QFontInfo(widget.font()).pixelSize()


def test_presentation_shows_the_generation_with_large_text_and_walks_into_it(qtbot, state):
    from explorer.present.stages import stage_keys_for
    from explorer.ui.classroom import presentation
    from tests.ui.test_layout import figure_text_px, paint, settle

    state.set_trace(make_trace(TEXT))
    g = generation()
    state.generation.set_generation(g, show=False)
    parent = QWidget()
    qtbot.addWidget(parent)
    slides = presentation.show_for(state, parent)
    qtbot.waitExposed(slides)
    slides.setWindowState(slides.windowState() & ~slides.windowState())
    slides.setFixedSize(1920, 1080)
    settle(qtbot)
    last = stage_keys_for(state.trace.config)[-1]
    state.select(stage=last)
    assert not slides.details.isVisible()
    slides.step(1)  # past the last stage: the generation's first token
    settle(qtbot)
    paint(slides)
    assert state.generation.shown and state.generation.step == 0 and slides.details.isVisible()
    gm = slides.tensor.generation_centre.map
    assert gm.isVisible() and drawn(gm).shape == (g.prompt_tokens,) * 2
    d = slides.details
    texts = {
        "text": _font_px(d.text_label),
        "cost line": _font_px(d.cost_label),
        "K title": _font_px(d.k_title),
        "chosen title": _font_px(d.top_title),
    }
    for name, table in (("K", d.k_table), ("V", d.v_table), ("chosen", d.top_table)):
        texts[f"{name} cells"] = _font_px(table)
        texts[f"{name} columns"] = _font_px(table.horizontalHeader())
        texts[f"{name} rows"] = _font_px(table.verticalHeader())
        texts[f"{name} bold items"] = min(
            (
                QFontInfo(table.item(r, 0).font()).pixelSize()
                for r in range(table.rowCount())
                if table.item(r, 0).font().bold()
            ),
            default=99,
        )
    texts.update({f"map {k}": v for k, v in figure_text_px(gm).items()})
    assert all(px >= 20 - 0.5 for px in texts.values()), texts
    assert d.k_table.rowCount() == g.prompt_tokens and "attends to" in d.cost_label.text()
    slides.step(1)
    assert state.generation.step == 1 and drawn(gm).shape == (g.prompt_tokens + 1,) * 2
    slides.step(-1)
    slides.step(-1)  # back before the first token: the stages again
    assert not state.generation.shown and not slides.details.isVisible() and state.selection.stage == last
    slides.close()
    QApplication.processEvents()
