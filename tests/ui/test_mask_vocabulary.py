"""The sliding window is described once (explorer.vocab) and the model, the window's tooltip and the stage
caption agree on which keys row i sees (issue 14: they said "itself plus W−1", "itself plus W" and
i−W+1 … i; the caption was off by one)."""

from __future__ import annotations

import re

import numpy as np
from live_state import make_trace

from explorer import vocab
from explorer.config import MaskSpec

W = 3
TEXT = "This is a pen . This is"  # C > W + 1: rows past W show the window's far edge


def _allowed(trace) -> list[list[int]]:
    mask = trace["mask"][0]  # (C, C), True = query (row) may attend to key (column)
    return [list(np.flatnonzero(mask[i])) for i in range(trace.C)]


def test_the_model_follows_the_vocabulary():
    trace = make_trace(TEXT, mask=MaskSpec.parse(f"window:{W}"))
    assert trace.C > W + 1
    rows = _allowed(trace)
    assert rows[6] == [4, 5, 6]  # written out by hand: i−W+1 … i for i = 6, W = 3
    assert rows == [list(vocab.window_keys(i, W)) for i in range(trace.C)]


def test_the_caption_counts_the_keys_the_model_allows(qapp):
    from explorer.ui.words import captions

    trace = make_trace(TEXT, mask=MaskSpec.parse(f"window:{W}"))
    text = captions.caption("masked", trace)
    before = int(re.search(r"itself and the (\d+) tokens before it at most", text).group(1))
    assert before == max(len(r) for r in _allowed(trace)) - 1 == W - 1


def test_the_tooltip_names_the_first_key_the_model_allows(qtbot, state):
    from explorer.ui.views.controls_view import ControlsView

    view = ControlsView(state)
    qtbot.addWidget(view)
    tip = view.mask_size.toolTip()
    first = re.search(r"query i sees keys (\S+) … i", tip).group(1)  # e.g. i−W+1
    rows = _allowed(make_trace(TEXT, mask=MaskSpec.parse(f"window:{W}")))
    for i in range(W - 1, len(rows)):  # where the window, not key 0, is the limit
        assert eval(first.replace("−", "-"), {"i": i, "W": W}) == rows[i][0]  # noqa: S307 - our own tooltip


def test_mask_labels_follow_their_keys(qtbot, state):
    from explorer.ui.views.controls_view import ControlsView

    view = ControlsView(state)
    qtbot.addWidget(view)
    labels = {view.mask.itemData(i): view.mask.itemText(i) for i in range(view.mask.count())}
    assert set(labels) == set(vocab.MASK_KINDS)
    assert labels["window"] == "window W" and labels["prefix"] == "prefix P" and labels["explicit"] == "hand-painted"
    assert labels["none"].startswith("none")
