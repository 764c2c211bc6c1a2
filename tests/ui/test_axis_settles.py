"""A window left alone does no work (issue 22): an axis that makes room for its labels changes the cells it
labels, which may call for another arrangement of the labels. The key axis once flipped between token labels
and indices several times a second on an idle window (80–96 % of a core). Every map here, at every size of a
sweep, must come to rest: once settled, painting again lays no label out again."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from explorer.ui.views.map.heatmap import Heatmap
from explorer.ui.views.map.token_axis import TokenAxis, _Latch


def _count_layouts(monkeypatch) -> dict:
    counts = {"n": 0}
    original = TokenAxis._layout

    def counted(self):
        counts["n"] += 1
        return original(self)

    monkeypatch.setattr(TokenAxis, "_layout", counted)
    return counts


def _settle(h: Heatmap, rounds: int = 12) -> None:
    for _ in range(rounds):
        QApplication.processEvents()
        h.grab()


@pytest.mark.parametrize("C, word", [(5, "tokenized"), (16, "tok"), (28, "word"), (32, "w")])
def test_every_map_comes_to_rest_at_every_size(qtbot, monkeypatch, C, word):
    counts = _count_layouts(monkeypatch)
    h = Heatmap()
    qtbot.addWidget(h)
    h.show()
    labels = [f"{i} {word}{i}" for i in range(C)]
    data = np.random.default_rng(C).random((C, C), dtype=np.float32)
    restless = []
    for width, height in [(w, hh) for w in (380, 520, 700) for hh in range(150, 460, 7)]:
        h.resize(width, height)
        h.set_matrix(data, labels, labels, False, square=True)
        _settle(h)
        counts["n"] = 0
        _settle(h, 4)
        if counts["n"]:
            restless.append((width, height, counts["n"]))
    assert not restless, restless


def test_the_latch_settles_a_cycle_on_the_arrangement_that_fits_the_smallest_cells():
    latch = _Latch()
    need = {"wide": 30.0, "narrow": 12.0}.get
    outside = ("labels", 12, 1, (500, 400))
    assert latch.hold(outside, "wide", need) == "wide"
    for k in range(20):  # its own room flips it back and forth
        got = latch.hold(outside, "narrow" if k % 2 == 0 else "wide", need)
    assert latch.settled and got == "narrow"
    assert latch.hold(outside, "wide", need) == "narrow"  # nothing outside changed: it stays
    assert latch.hold(("labels", 12, 1, (510, 400)), "wide", need) == "wide"  # the plot was resized: free again
