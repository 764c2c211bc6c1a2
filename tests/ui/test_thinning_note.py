"""The note "more than 32 tokens: not every one is labelled" counts the sentence's tokens only: a stage's 64
embedding dimensions, the embedding table's ids or a sweep's layers are no tokens (issue 38: a 5-token
sentence said so on 13 of 31 slides, in the window and on BERT)."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.present.stages import stage_keys_for
from explorer.trace import run_trace
from explorer.ui.bridge.state import AppState, ModelSource
from explorer.weights.presets import load_preset

THINNED = "not every one is labelled"


def tensor_view(qtbot, text: str):
    from explorer.ui.views.tensor.tensor_view import TensorView

    state = AppState(source=ModelSource("preset", "classroom"))
    state.set_trace(run_trace(load_preset("classroom"), text))
    view = TensorView(state)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.waitExposed(view)
    return state, view


@pytest.fixture(scope="module")
def long_text():
    return " ".join(["the cat sat on the mat ."] * 8)  # well past 32 tokens whatever the vocabulary


def test_a_short_sentence_never_says_its_tokens_are_thinned(qtbot):
    state, view = tensor_view(qtbot, "This is a pen .")
    assert state.trace.rows[0].length <= 32
    wide = []
    for key in stage_keys_for(state.trace.config):
        state.select(stage=key)
        if view.large.isVisibleTo(view) and view.large.image.image is not None:
            wide.append(view.large.image.image.shape[1] > 32)
        assert THINNED not in view.large.note.text(), key
        for small in (view.table_map, *view.qkv.values()):
            assert THINNED not in small.note.text(), key
    assert any(wide)  # the sentence did meet stages with more than 32 columns (the embedding's dimensions)


def test_a_long_sentence_says_so_on_its_maps_and_its_matrices(qtbot, long_text):
    state, view = tensor_view(qtbot, long_text)
    assert state.trace.rows[0].length > 32
    for key in ("scores", "embed"):  # a (C, C) map, and a (C, E) matrix whose rows are the tokens
        state.select(stage=key)
        assert THINNED in view.large.note.text() and view.large.note.isVisibleTo(view.large), key


def test_dimensions_or_ids_on_both_axes_say_nothing(qtbot):
    from explorer.ui.views.map.heatmap import Heatmap

    h = Heatmap()
    qtbot.addWidget(h)
    ids, dims = [str(i) for i in range(100)], [str(d) for d in range(64)]
    h.set_token_axes(False, False)
    h.set_matrix(np.zeros((100, 64), dtype=np.float32), ids, dims, True)
    assert THINNED not in h.note.text() and not h.note.isVisibleTo(h)
    tokens = [f"{i} t{i}" for i in range(5)]
    h.set_token_axes(True, False)
    h.set_matrix(np.zeros((5, 64), dtype=np.float32), tokens, dims, True)
    assert not h.note.isVisibleTo(h)
