"""A new map is painted once, and a long input's map and head grid are drawn in separate turns (issue 28).

pyqtgraph lays its items out and fits its ViewBoxes in later turns of the event loop; each moved items the
window had just painted, and the 1024-token map was painted three times, the head grid twice, in one stall."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtGui import QFontMetrics

from explorer.trace import run_trace
from explorer.ui.background.render_queue import STAGGER_TOKENS, RenderQueue
from explorer.ui.bridge.state import AppState, ModelSource
from explorer.ui.views.map.head_grid import HeadGrid
from explorer.ui.views.map.heatmap import Heatmap
from explorer.weights.presets import load_preset


class Paints(QObject):
    def __init__(self, widget) -> None:
        super().__init__()
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def _drain() -> None:
    """Run every chain of posted events to its end: layout requests, the scenes' queued item updates and the
    repaints they ask for post one another, with no timer between (so no waiting on the clock)."""
    for _ in range(30):
        QCoreApplication.sendPostedEvents()
        QCoreApplication.processEvents()


def _labels(n: int) -> list[str]:
    return [f"tok{i}" for i in range(n)]


def _on_screen(qtbot, widget, width: int, height: int):
    qtbot.addWidget(widget)
    widget.resize(width, height)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


@pytest.mark.parametrize("n", [300, 1024])
def test_a_new_large_map_is_painted_once(qtbot, n):
    h = _on_screen(qtbot, Heatmap(), 760, 600)
    rng = np.random.default_rng(0)
    h.set_matrix(rng.random((40, 40)), _labels(40), _labels(40), signed=False, levels=(0.0, 1.0), square=True)
    _drain()
    paints = Paints(h.graphics.viewport())
    h.set_matrix(
        rng.random((n, n)),
        _labels(n),
        _labels(n),
        signed=False,
        levels=(0.0, 1.0),
        square=True,
        blocked=np.triu(np.ones((n, n), dtype=bool), 1),
        note="a remark",
    )
    _drain()
    assert paints.count == 1


def test_a_new_set_of_head_maps_is_painted_once(qtbot):
    grid = _on_screen(qtbot, HeadGrid(), 260, 640)
    rng = np.random.default_rng(1)
    grid.set_maps([rng.random((20, 20)) for _ in range(12)], (0.0, 1.0), False, [f"head {h}" for h in range(12)])
    _drain()
    paints = Paints(grid.viewport())
    grid.set_maps([rng.random((400, 400)) for _ in range(12)], (0.0, 1.0), False, [f"head {h}" for h in range(12)])
    _drain()
    assert paints.count == 1


def test_a_long_inputs_map_comes_first_and_its_head_grid_in_a_later_turn(qtbot, monkeypatch):
    """Drawn in one job, the map and the grid with their repaints held the window for 10–16 ms."""
    from explorer.ui.views.tensor.tensor_view import TensorView

    running = {"job": None}
    numbers = itertools.count()
    post = RenderQueue.post

    def numbered(self, owner, slot, job):
        def run():
            running["job"] = next(numbers)
            try:
                job()
            finally:
                running["job"] = None

        post(self, owner, slot, run)

    monkeypatch.setattr(RenderQueue, "post", numbered)
    words = "the big dog runs to the park and a cat sees it".split()
    trace = run_trace(load_preset("classroom"), " ".join(words[i % len(words)] for i in range(STAGGER_TOKENS + 20)))
    state = AppState(source=ModelSource("preset", "classroom"))
    view = TensorView(state)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.waitExposed(view)
    drawn = []
    for name, widget, method in (("map", view.large, "set_matrix"), ("grid", view.grid, "set_maps")):
        original = getattr(widget, method)
        monkeypatch.setattr(
            widget, method, lambda *a, _o=original, _n=name, **k: (drawn.append((_n, running["job"])), _o(*a, **k))
        )
    state.set_trace(trace)
    qtbot.waitUntil(lambda: {n for n, _ in drawn} == {"map", "grid"}, timeout=60_000)
    (first, map_job), (second, grid_job) = drawn[:2]
    assert (first, second) == ("map", "grid")
    assert map_job is not None and grid_job is not None and grid_job > map_job
    n = trace.rows[0].length
    assert np.array_equal(view.large.image.image, trace.head_map(0, "weights", 0, 0)[:n, :n])
    assert all(layers.shape == (n, n) for layers in view.grid.maps)


def test_a_new_sentence_keeps_the_key_axis_depth_and_is_painted_once(qtbot):
    """The key labels of a classroom sentence are staggered on two lines; a new sentence's labels used to
    reset the axis to one line until the next paint arranged them again: the plot was resized twice, the map
    jumped 14 px and was painted twice on every edit."""
    h = _on_screen(qtbot, Heatmap(), 600, 600)
    rng = np.random.default_rng(2)
    # short enough to stagger whole on two lines (longer ones turn upright since a label is cut only past the
    # width of 11 digits, issue 38)
    words = ["lessons", "teacher", "student", "windows", "attends", "keyword"]
    first = [f"{words[i % 6]}{i}" for i in range(12)]
    h.set_matrix(rng.random((12, 12)), first, first, signed=False, levels=(0.0, 1.0), square=True)
    _drain()
    depth = h.bottom.style["tickTextHeight"]
    assert (
        depth >= 2 * QFontMetrics(h.bottom.style["tickFont"]).height() - 2
    )  # staggered on two lines: the case at stake
    paints = Paints(h.graphics.viewport())
    second = [f"{words[(i + 1) % 6]}{i}" for i in range(12)]
    h.set_matrix(rng.random((12, 12)), second, second, signed=False, levels=(0.0, 1.0), square=True)
    assert h.bottom.style["tickTextHeight"] == depth  # before the paint
    _drain()
    assert h.bottom.style["tickTextHeight"] == depth
    assert paints.count == 1


@pytest.mark.parametrize(
    "second", ["This is a big red apple and that is a dog .", "This is a big red pen and that is a cat and a bird ."]
)
def test_a_classroom_edit_paints_the_tensor_views_map_once(qtbot, second):
    """A map that prints its numbers (a classroom sentence) fits them to its laid-out cells; laid out in the
    turns after the edit, it was painted two or three times per edit in the window (a word or the length changed)."""
    from explorer.ui.views.tensor.tensor_view import TensorView

    model = load_preset("classroom")
    state = AppState(source=ModelSource("preset", "classroom"))
    view = _on_screen(qtbot, TensorView(state), 1000, 640)
    state.set_trace(run_trace(model, "This is a big red pen and that is a dog ."))
    _drain()
    assert view.large.layers.cell_font_px()  # the case at stake: the cells print their numbers
    paints = Paints(view.large.graphics.viewport())
    trace = run_trace(model, second)
    state.set_trace(trace)
    _drain()
    assert paints.count == 1
    n = trace.rows[0].length
    assert view.large.layers.shape == (n, n)


@pytest.mark.parametrize("rows, height", [(12, 600), (30, 330)])
def test_a_new_sentence_keeps_the_query_axis_width_and_is_painted_once(qtbot, rows, height):
    """The query axis reserved its width when the labels were set and again, differently, when the paint
    arranged them: 2 px more for a label long enough to be elided, one column where the paint staggered
    them in two. Each difference moved the map after its first paint and painted it two more times."""
    h = _on_screen(qtbot, Heatmap(), 600, height)
    rng = np.random.default_rng(3)
    words = ["representation", "classroom", "tokenisation", "transformer", "embedding", "positional"]
    first = [f"{words[i % 6]}{i}" for i in range(rows)]
    h.set_matrix(rng.random((rows, rows)), first, first, signed=False, levels=(0.0, 1.0), square=True)
    _drain()
    width = h.left.style["tickTextWidth"]
    paints = Paints(h.graphics.viewport())
    second = [f"{words[(i + 1) % 6]}{i}" for i in range(rows)]
    h.set_matrix(rng.random((rows, rows)), second, second, signed=False, levels=(0.0, 1.0), square=True)
    assert h.left.style["tickTextWidth"] == width  # before the paint
    _drain()
    assert h.left.style["tickTextWidth"] == width
    assert paints.count == 1


def test_a_text_edit_repaints_no_spin_box_of_the_controls(qtbot):
    """The model controls and the tensor view's bar are set from the state after every request, a text edit
    included; QSpinBox.setValue repaints even with the value it shows (eight boxes on every key)."""
    from PySide6.QtWidgets import QAbstractSpinBox

    from explorer.ui.views.controls_view import ControlsView
    from explorer.ui.views.tensor.tensor_view import TensorView

    model = load_preset("classroom")
    state = AppState(source=ModelSource("preset", "classroom"), text="This is a big red pen .")
    controls = _on_screen(qtbot, ControlsView(state), 400, 900)
    tensors = _on_screen(qtbot, TensorView(state), 1000, 640)
    state.set_trace(run_trace(model, state.text))
    _drain()
    boxes = [b for w in (controls, tensors) for b in w.findChildren(QAbstractSpinBox) if b.isVisible()]
    assert len(boxes) >= 8
    values = [b.value() for b in boxes]
    paints = [Paints(b) for b in boxes]
    state.set_text("This is a big red dog .")
    state.set_trace(run_trace(model, state.text))
    _drain()
    assert [b.value() for b in boxes] == values
    assert sum(p.count for p in paints) == 0
