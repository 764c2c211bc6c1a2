"""The pipeline view: click a stage, follow the selection, real shapes, Play, arrow keys."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QComboBox, QLineEdit, QPlainTextEdit

from explorer.trace.run import run_trace
from explorer.weights.presets import load_preset
from tests.ui.waits import wait_laid_out


@pytest.fixture
def view(qtbot, state, trace):
    from explorer.ui.views.pipeline.flow_view import FlowView

    state.set_trace(trace)
    v = FlowView(state)
    qtbot.addWidget(v)
    v.resize(1400, 200)
    v.show()
    qtbot.waitExposed(v)
    return v


def _fill(box) -> QColor:
    image = box.grab().toImage()
    return image.pixelColor(4, image.height() // 2)  # inside the rounded border, left of the text


def test_clicking_a_stage_box_selects_it(view, state, qtbot):
    qtbot.mouseClick(view.boxes["scores"], Qt.MouseButton.LeftButton)
    assert state.selection.stage == "scores"
    qtbot.mouseClick(view.boxes["probs"], Qt.MouseButton.LeftButton)
    assert state.selection.stage == "probs"


def test_selection_from_elsewhere_highlights_the_box(view, state):
    highlight = view.palette().color(QPalette.ColorRole.Highlight)
    state.select(stage="masked")
    assert [k for k, b in view.boxes.items() if b.selected] == ["masked"]
    assert _fill(view.boxes["masked"]) == highlight
    assert _fill(view.boxes["weights"]) != highlight
    assert "mask" in view.detail.text() and "causal" in view.caption.text().lower()


def test_boxes_print_real_shapes_and_the_layer(view, state):
    assert view.boxes["qkv"].shape_text == "(5, 32)"
    assert view.boxes["qkv"].note.endswith("4 heads") or "4" in view.boxes["qkv"].note
    assert "x (5, 128) · W_q (128, 32) → Q (5, 32)" in view.boxes["qkv"].edge
    assert "(5, 128) · W_q (128, 32)" in view.boxes["qkv"].toolTip()
    assert view.boxes["masked"].note == "causal"
    state.select(layer=1)
    assert view.layer_label.text().startswith("layer 1 of L = 3")


def test_edge_labels_follow_a_size_change(traced, qtbot):
    from explorer.ui.views.pipeline.flow_view import FlowView

    state = traced
    flow = FlowView(state)
    qtbot.addWidget(flow)
    assert "(5, 128)" in flow.boxes["qkv"].edge
    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        state.set_sizes(embed_dim=32)
    assert "x (5, 32) · W_q (32, 32)" in flow.boxes["qkv"].edge
    assert flow.boxes["embed"].shape_text == "(5, 32)"
    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        state.set_options(scale=False)
    assert flow.boxes["scaled"].note == "scaling off"
    assert "scaling off" in flow.boxes["scaled"].edge


def test_play_advances_through_every_layer_and_stops_at_the_end(view, state, qtbot):
    view.timer.setInterval(20)
    state.select(stage="block", layer=0)
    qtbot.mouseClick(view.play, Qt.MouseButton.LeftButton)
    assert view.play.isChecked() and view.timer.isActive()
    qtbot.waitUntil(lambda: state.selection.stage == "qkv", timeout=30_000)
    assert state.selection.layer == 1  # block out of layer 1 leads into layer 2
    qtbot.waitUntil(lambda: not view.play.isChecked(), timeout=30_000)
    assert state.selection.stage == "probs" and not view.timer.isActive()


def test_play_pauses_with_the_same_button_and_space(view, state, qtbot):
    view.timer.setInterval(10_000)
    state.select(stage="tokens")
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert view.timer.isActive() and "Pause" in view.play.text()
    qtbot.mouseClick(view.play, Qt.MouseButton.LeftButton)
    assert not view.timer.isActive() and "Play" in view.play.text()


def test_arrow_keys_move_stages_but_not_inside_a_text_field(view, state, qtbot):
    state.select(stage="tokens", layer=0)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert state.selection.stage == "embed"
    qtbot.keyClick(view, Qt.Key.Key_Right)  # the classroom model normalises x before attention: a stage
    assert (state.selection.stage, state.selection.layer) == ("norm_attn", 0)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert (state.selection.stage, state.selection.layer) == ("qkv", 0)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert state.selection.stage == "embed"
    field = QLineEdit("text", view)
    view.layout().addWidget(field)
    field.show()
    field.setFocus()
    qtbot.keyClick(field, Qt.Key.Key_Right)
    assert state.selection.stage == "embed"


def test_stage_number_is_shown(view, state):
    # 15 stages and the three norms of a pre-norm model (before attention, before the FFN, final)
    state.select(stage="probs")
    assert "(stage 18 / 18)" in view.detail.text()
    state.select(stage="qkv", layer=1)
    assert "(stage 4 / 18)" in view.detail.text()


def test_norm_stages_show_only_for_a_model_with_norms(view, state, qtbot):
    for key in ("norm_attn", "norm_ffn", "final_norm"):
        assert view.boxes[key].isVisible() and view.boxes[key].shape_text == "(5, 128)"
    state.select(stage="norm_attn", layer=0)
    assert (
        "LayerNorm" in view.caption.text() and "Q, K and V are computed from this normalised x" in view.caption.text()
    )
    assert "γ + β" in view.detail.text()
    bare = run_trace(load_preset("classroom", random_weights=True, norm="none", residual=False), "This is a pen .")
    state.set_trace(bare)
    for key in ("norm_attn", "norm_ffn", "final_norm"):
        assert not view.boxes[key].isVisible()
        assert key not in view.arrows or not view.arrows[key].isVisible()
    assert view.boxes["qkv"].isVisible() and not view.arrows["qkv"].isVisible()  # Q K V now opens the layer group
    state.select(stage="probs")
    assert "(stage 15 / 15)" in view.detail.text()


def test_weights_caption_counts_fully_blocked_rows(view, state):
    from explorer.config import MaskSpec, RunOptions

    assert "sum to 1" in view.boxes["weights"].edge
    matrix = [[False] * 5, [True, True, False, False, False], [False] * 5, [True] * 3 + [False] * 2, [True] * 5]
    blocked = run_trace(load_preset("classroom"), "This is a pen .", RunOptions(mask=MaskSpec.explicit(matrix)))
    state.set_trace(blocked)
    state.select(stage="weights")
    caption = view.caption.text()
    assert "2 of the 5 rows have every key blocked" in caption and "weights are all 0" in caption
    assert "that sum to 1" not in caption
    assert "except 2 fully blocked rows" in view.boxes["weights"].edge


def test_arrows_are_window_wide_in_the_real_window_but_not_while_typing(window, state, qtbot):
    from PySide6.QtWidgets import QApplication

    flow = window.views["flow"]
    assert window.docks["flow"].widget() is flow
    state.select(stage="scores", layer=0)
    window.activateWindow()
    window.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_Right)  # nothing in particular has focus: the window steps
    assert state.selection.stage == "scaled"
    qtbot.mouseClick(flow.boxes["weights"], Qt.MouseButton.LeftButton)
    assert state.selection.stage == "weights"
    qtbot.keyClick(flow.boxes["weights"], Qt.Key.Key_Left)  # a box ignores arrows: they reach the window
    assert state.selection.stage == "masked"
    fields = [QPlainTextEdit("typing here"), QComboBox()]  # text fields and choice boxes of other panels
    fields[1].addItems(["causal", "none"])
    for field in fields:
        flow.layout().addWidget(field)
        field.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=30_000)
    for field in fields:
        field.setFocus()
        qtbot.waitUntil(lambda field=field: QApplication.focusWidget() is field, timeout=30_000)
        qtbot.keyClick(field, Qt.Key.Key_End)
        qtbot.keyClick(field, Qt.Key.Key_Right)  # a combo box lets it through to the window: still no step
        assert state.selection.stage == "masked"
        qtbot.keyClick(field, Qt.Key.Key_Left)
        assert state.selection.stage == "masked"


def test_weights_caption_when_every_row_is_blocked(view, state):
    from explorer.config import MaskSpec, RunOptions

    nothing = run_trace(
        load_preset("classroom"), "This is a pen .", RunOptions(mask=MaskSpec.explicit([[False] * 5] * 5))
    )
    state.set_trace(nothing)
    state.select(stage="weights")
    assert "every weight is 0" in view.caption.text() and "sum to 1" not in view.caption.text()
    assert "sum to 1" not in view.boxes["weights"].edge and "every row fully blocked" in view.boxes["weights"].edge


NINETEEN_TOKENS = "The cat sat on the mat and the dog sat on the rug by the big red door ."  # one token a word


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_box_is_inside_the_pipeline_dock_at_1280x720(window, state, qtbot, language):
    """Issue 11 at the laptop size: with a 19-token sentence the Japanese notes once pushed the last softmax
    box onto a second row, which the pipeline dock's height hid. Every box, at every stage, lies inside the
    part of the dock that is on screen."""
    from PySide6.QtCore import QPoint, QRect

    from explorer.present.stages import STAGE_KEYS
    from explorer.ui.preferences import i18n

    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        state.set_text(NINETEEN_TOKENS)
    assert state.trace.C == 19
    try:
        window.actions_.set_language(language)
        window.resize(1280, 720)
        window.apply_default_sizes()
        flow = window.views["flow"]
        dock = window.docks["flow"]
        for key in STAGE_KEYS:
            state.select(stage=key)
            wait_laid_out(qtbot, [window])
            assert (window.width(), window.height()) == (1280, 720)
            seen = QRect(dock.mapTo(window, QPoint(0, 0)), dock.size()).intersected(window.rect())
            boxes = [b for b in flow.boxes.values() if b.isVisible()]
            assert len(boxes) >= 16  # the model's stages (classroom has the pre-norms)
            for box in boxes:
                rect = QRect(box.mapTo(window, QPoint(0, 0)), box.size())
                assert seen.contains(rect), (language, key, box.key, rect, seen)
            # one row: the last box stands level with the first (a wrapped one stood below it)
            assert (
                flow.boxes["probs"].mapTo(window, QPoint(0, 0)).y()
                == flow.boxes["tokens"].mapTo(window, QPoint(0, 0)).y()
            )
    finally:
        i18n.install_language("en")
        window.actions_.set_language("en")


def test_a_new_word_of_the_same_length_relayouts_nothing_and_a_longer_shape_refits(view, state, qtbot):
    """Fitting the diagram asks the whole window to lay out again; an edit that keeps every box's text
    (one word for another) must not, and a longer shape (more tokens) must still make the boxes fit."""
    preset = load_preset("classroom")
    fits = []
    original = view._diagram.fit
    view._diagram.fit = lambda: (fits.append(1), original())
    state.set_trace(run_trace(preset, "This is a dog ."))  # five tokens, as before: the same shapes
    assert fits == []
    assert view.boxes["qkv"].shape_text == "(5, 32)"
    state.set_trace(run_trace(preset, "This is a big red dog ."))  # seven tokens
    assert fits == [1]
    assert view.boxes["qkv"].shape_text == "(7, 32)"
    assert (
        view._diagram.layout().sizeHint().width() <= view._diagram.width()
        or view._diagram.height() >= view._diagram.layout().heightForWidth(view._diagram.width())
    )
