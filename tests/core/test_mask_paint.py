"""explorer.analysis.mask_paint: painted masks grow causally and keep what was painted."""

from __future__ import annotations

import numpy as np

from explorer.analysis import mask_paint
from explorer.analysis.token_text import visible


def test_extend_keeps_the_painting_and_adds_causal_rows():
    painted = np.array([[True, False, True], [False, False, False], [True, True, True]])
    out = mask_paint.extend_causal(painted, 5)
    np.testing.assert_array_equal(out[:3, :3], painted)
    for i in range(3, 5):
        np.testing.assert_array_equal(out[i], np.arange(5) <= i)
    assert not out[:3, 3:].any()  # earlier queries do not see the new (future) keys
    np.testing.assert_array_equal(mask_paint.extend_causal(painted, 2), painted)  # never shrinks


def test_padded_size_leaves_room_for_typing():
    # (the refusal is read from MaskTooSmall's fields now, no longer from its sentence: tests/core/test_session.py)
    assert mask_paint.padded_size(5) > 5


def test_visible_whitespace():
    assert visible("pen") == "pen"
    assert visible(" ") == "␣"
    assert visible(" is") == "␣is"
    assert visible("") == "∅"
