"""Long inputs are drawn one view per turn of the event loop; short ones at once."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QObject

from explorer.present import matrices
from explorer.trace import run_trace
from explorer.ui.background.render_queue import STAGGER_TOKENS, RenderQueue
from explorer.ui.bridge.state import AppState, ModelSource
from explorer.weights.presets import load_preset


def test_one_job_per_turn_latest_wins_and_deleted_owners_are_skipped(qtbot):
    queue = RenderQueue()
    a, b, gone = QObject(), QObject(), QObject()
    ran = []
    queue.post(a, "draw", lambda: ran.append("a1"))
    queue.post(b, "draw", lambda: ran.append("b"))
    queue.post(a, "draw", lambda: ran.append("a2"))  # replaces a1, keeps a's turn before b
    queue.post(gone, "draw", lambda: ran.append("gone"))
    import shiboken6

    shiboken6.delete(gone)  # its window closed before its turn
    assert ran == []  # nothing runs inside post
    QCoreApplication.processEvents()
    assert ran == ["a2"]  # one job per turn: the event loop gets in between
    qtbot.waitUntil(lambda: queue.pending() == 0, timeout=30_000)
    assert ran == ["a2", "b"]
    queue.post(a, "draw", lambda: ran.append("flushed"))
    queue.flush()
    assert ran[-1] == "flushed" and queue.pending() == 0


@pytest.fixture(scope="module")
def long_trace():
    words = "the big dog runs to the park and a cat sees it".split()
    text = " ".join(words[i % len(words)] for i in range(STAGGER_TOKENS + 44))
    return run_trace(load_preset("classroom"), text)


def test_a_long_trace_is_drawn_in_later_turns_with_pooled_thumbnails(qtbot, long_trace):
    from explorer.ui.views.map.head_grid import THUMB_CELLS
    from explorer.ui.views.tensor.tensor_view import TensorView

    state = AppState(source=ModelSource("preset", "classroom"))
    view = TensorView(state)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.waitExposed(view)
    state.set_trace(long_trace)
    assert view.large.image.image is None  # not drawn inside the signal: the window stays responsive
    n = long_trace.rows[0].length
    qtbot.waitUntil(lambda: view.large.image.image is not None, timeout=30_000)
    assert np.array_equal(view.large.image.image, long_trace.head_map(0, "weights", 0, 0)[:n, :n])
    # thumbnails of a map larger than THUMB_CELLS are its block maxima, drawn over the full matrix's cells
    for h, layers in enumerate(view.grid.maps):
        want = matrices.pooled(long_trace.head_map(0, "weights", 0, h)[:n, :n], THUMB_CELLS)
        assert layers.image.image.shape[0] <= THUMB_CELLS
        assert np.array_equal(layers.image.image, want)
        assert layers.shape == (n, n)
    # a short trace after it is drawn at once (and the pending long redraw, if any, is dropped)
    short = run_trace(load_preset("classroom"), "This is a pen .")
    state.set_trace(short)
    assert np.array_equal(view.large.image.image, short.head_map(0, "weights", 0, 0))
