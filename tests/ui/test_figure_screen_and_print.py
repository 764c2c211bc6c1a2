"""Screen and print draw a map's axes and its blocked cells by one rule (explorer/present/axis_labels.py,
explorer/present/hatching.py): for the same trace, the labels the window painted (which cells, the texts as
cut, upright or flat, each label's band) are what print decides for the same room and the same fonts, and the
cells the window hatched are those print hatches. Either side deciding on its own (another cut length,
another stagger rule, another hatching limit) fails here.

Each renderer is read back from what it drew (the window's painted axis texts and hatch path, print's scene
items), not from what it was asked to draw."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from explorer.handouts import colours as col
from explorer.handouts import map_layout
from explorer.handouts.map_draw import draw_map
from explorer.handouts.map_layout import Box, MapSpec
from explorer.handouts.scene import Line, Rect, Text
from explorer.handouts.stage_figure import map_spec
from explorer.handouts.words import ENGLISH
from explorer.present.hatching import blocked_cells
from explorer.session.request import Selection
from explorer.trace import run_trace
from explorer.ui.bridge.state import AppState, ModelSource
from explorer.ui.views.map.heatmap import Heatmap
from explorer.ui.views.map.token_axis import FONT_MEASURE
from explorer.weights.presets import load_preset
from tests.ui.waits import wait_laid_out

SENTENCE = "The animal didn't cross the street because it was extraordinarily tired."


@pytest.fixture(scope="module")
def long_trace():
    return run_trace(load_preset("classroom"), SENTENCE)


def _window_at_weights(qtbot, trace, size):
    from explorer.ui.views.tensor.tensor_view import TensorView

    state = AppState(source=ModelSource("preset", "classroom"))
    state.set_trace(trace)
    view = TensorView(state)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    state.select(stage="weights", token=3)
    wait_laid_out(qtbot, [view])
    return state, view


def _painted(heatmap: Heatmap) -> None:
    for _ in range(6):  # an axis that makes room for its labels is painted again (token_axis._Latch)
        QApplication.processEvents()
        heatmap.grab()


def _screen_decisions(axis) -> tuple:
    """What the window's axis painted, read from its painted texts, with the rule's arrangement."""
    # a window whose own room made its labels cycle keeps the arrangement that fits (token_axis._Latch): print
    # has no such feedback, so compare where the window's choice was the rule's first answer
    assert not axis._latch.settled, "the window settled a cycle of arrangements at this size: choose another"
    painted = tuple(text for _rect, text, _whole in axis.drawn())
    assert painted == axis.arranged.texts  # the window draws the description, nothing of its own
    return axis.arranged.decisions()


def _print_decisions(monkeypatch, labels, axis, horizontal: bool, selected) -> tuple:
    """What print decides for the room the window's axis had, measured in the window's fonts."""
    monkeypatch.setattr(map_layout, "PRINT_MEASURE", FONT_MEASURE)
    return map_layout.axis_labels(labels, axis.arranged_in, horizontal, selected).decisions()


# query labels in one column or two, key labels upright at full size, smaller, in two bands and cut
@pytest.mark.parametrize(
    "size", [(1200, 700), (800, 500), (600, 400)]
)  # 600×380 settles a cycle with classroom's word labels
def test_the_labels_of_a_traced_map_are_decided_alike_on_screen_and_paper(qtbot, monkeypatch, long_trace, size):
    state, view = _window_at_weights(qtbot, long_trace, size)
    large = view.large
    _painted(large)
    spec = map_spec(long_trace, state.selection, ENGLISH)
    assert large.left.labels == spec.row_labels and large.bottom.labels == spec.col_labels  # the same tokens
    selected_key = spec.highlight[1] if spec.highlight[1] is not None else spec.highlight[0]
    for axis, labels, horizontal, selected in (
        (large.left, spec.row_labels, False, spec.highlight[0]),
        (large.bottom, spec.col_labels, True, selected_key),
    ):
        assert _screen_decisions(axis) == _print_decisions(monkeypatch, labels, axis, horizontal, selected)


def test_a_long_token_is_cut_at_the_same_length_on_screen_and_paper(qtbot, monkeypatch):
    labels = [f"{i} {w}" for i, w in enumerate(["a", "extraordinarily", "b", "incomprehensibilities", "c"])]
    h = Heatmap()
    qtbot.addWidget(h)
    h.resize(900, 500)
    h.show()
    data = np.random.default_rng(0).random((5, 5), dtype=np.float32)
    h.set_matrix(data, labels, labels, False, square=True)
    _painted(h)
    left = _screen_decisions(h.left)
    assert any(t.endswith("…") for t in left[1]) and not all(t.endswith("…") for t in left[1])  # only long ones
    assert left == _print_decisions(monkeypatch, labels, h.left, False, None)
    assert _screen_decisions(h.bottom) == _print_decisions(monkeypatch, labels, h.bottom, True, None)


def _print_axis_texts(items, lay) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The label texts print's scene holds left of the cells (top to bottom) and under them (left to right)."""
    texts = [t for t in items if isinstance(t, Text)]
    left = [t for t in texts if t.x < lay.x and lay.y <= t.y <= lay.y + lay.h + t.size and t.rotate == 0]
    below = lay.y + lay.h
    bottom = [t for t in texts if lay.x <= t.x <= lay.x + lay.w and below < t.y < lay.below_y + 1]
    return tuple(t.text for t in sorted(left, key=lambda t: t.y)), tuple(
        t.text for t in sorted(bottom, key=lambda t: t.x)
    )


@pytest.mark.parametrize("width", [500, 900, 1400])
def test_print_draws_the_labels_its_layout_decided(long_trace, width):
    """Print's scene holds exactly the labels of the shared rule's description (no rule of its own)."""
    spec = map_spec(long_trace, Selection(stage="weights", token=3), ENGLISH)
    items, lay = draw_map(spec, Box(10, 10, width), max(8.0, width / 44), col.theme("light"))
    left, bottom = _print_axis_texts(items, lay)
    assert left == lay.left.labels.texts
    assert bottom == lay.bottom.labels.texts


def _screen_hatched(layers) -> np.ndarray:
    rows, cols = layers.shape
    path = layers.hatch.path()
    return np.array([[path.contains(QPointF(j + 0.5, i + 0.5)) for j in range(cols)] for i in range(rows)])


def _print_hatched(items, lay) -> np.ndarray:
    """Cells of print's scene with a hatch line through them (a segment's midpoint in the cell)."""
    out = np.zeros((lay.rows, lay.cols), dtype=bool)
    for it in items:
        if isinstance(it, Line) and it.colour == col.MASK_HATCH:
            mx, my = (it.x1 + it.x2) / 2, (it.y1 + it.y2) / 2
            i, j = int((my - lay.y) // lay.cell_h), int((mx - lay.x) // lay.cell_w)
            if 0 <= i < lay.rows and 0 <= j < lay.cols:
                out[i, j] = True
    return out


def test_the_cells_hatched_on_screen_are_hatched_on_paper(qtbot, long_trace):
    state, view = _window_at_weights(qtbot, long_trace, (1000, 600))
    screen = _screen_hatched(view.large.layers)
    spec = map_spec(long_trace, state.selection, ENGLISH)
    items, lay = draw_map(spec, Box(0, 0, 800), 12, col.theme("light"))
    paper = _print_hatched(items, lay)
    greys = {
        (round((r.y - lay.y) / lay.cell_h), round((r.x - lay.x) / lay.cell_w))
        for r in items
        if isinstance(r, Rect) and r.fill == col.MASK_FILL and r.stroke is None and r.y < lay.y + lay.h  # no legend
    }
    assert screen.any() and not screen.all()  # causal: the future is blocked, the past is not
    assert np.array_equal(screen, paper)
    assert greys == set(zip(*np.nonzero(blocked_cells(spec.data, spec.blocked))))
    assert np.array_equal(screen, view.large.layers.hatched)


def test_a_map_too_large_to_hatch_is_grey_without_hatching_on_both(qtbot):
    n = 70  # past the shared limit
    data = np.where(np.tril(np.ones((n, n), dtype=bool)), 0.5, -np.inf).astype(np.float32)
    labels = [str(i) for i in range(n)]
    h = Heatmap()
    qtbot.addWidget(h)
    h.set_matrix(data, labels, labels, False, square=True)
    assert h.layers.has_blocked and not _screen_hatched(h.layers).any()
    items, lay = draw_map(
        MapSpec(data, tuple(labels), tuple(labels), False, (0.0, 1.0)), Box(0, 0, 900), 12, col.theme("light")
    )
    assert not _print_hatched(items, lay).any()


def _window_at(qtbot, trace, stage: str):
    state, view = _window_at_weights(qtbot, trace, (1100, 650))
    state.select(stage=stage)
    wait_laid_out(qtbot, [view])
    return state, view


@pytest.mark.parametrize("stage", ["weights", "masked", "embed", "ffn"])
def test_the_window_and_print_draw_the_same_panel(qtbot, long_trace, stage):
    """The stage's description (explorer/present/figure.py) on screen and on paper: the same numbers, scale,
    blocked cells, labels and words (read back from the window's map and print's map spec)."""
    from explorer.handouts.stage_figure import matrix_spec

    state, view = _window_at(qtbot, long_trace, stage)
    sel = state.selection
    pairwise = stage in ("weights", "masked")
    spec = map_spec(long_trace, sel, ENGLISH) if pairwise else matrix_spec(long_trace, sel, ENGLISH)
    large = view.large
    assert large.title.text() == spec.title
    assert large.plot.getAxis("left").labelText == spec.y_title
    assert large.plot.getAxis("bottom").labelText == spec.x_title
    assert (large.left.labels, large.bottom.labels) == (spec.row_labels, spec.col_labels)
    assert tuple(large.image.getLevels()) == pytest.approx(spec.levels)
    blocked = spec.all_blocked()
    assert np.array_equal(large.overlay.image > 0, blocked) if blocked.any() else not large.layers.has_blocked
    if blocked.any():
        assert large.legend_text.text() == spec.legend
    assert large.note.text().startswith(spec.note)


@pytest.mark.parametrize("stage", ["scores", "weights"])
def test_the_numbers_in_the_cells_read_the_same_on_screen_and_paper(qtbot, stage):
    """One number format per map (explorer/present/number_format.py): print once wrote "1" and "0.00432" where
    the window wrote "1.00" and "0"; now the cells print what the window prints."""
    trace = run_trace(load_preset("classroom"), "This is a pen .")
    state, view = _window_at(qtbot, trace, stage)
    screen = view.large.layers.cell_texts()
    spec = map_spec(trace, state.selection, ENGLISH)
    items, lay = draw_map(spec, Box(0, 0, 900), 12, col.theme("light"))
    inside = [
        t
        for t in items
        if isinstance(t, Text) and lay.x < t.x < lay.x + lay.w and lay.y < t.y < lay.y + lay.h and t.rotate == 0
    ]
    paper = [["" for _ in range(lay.cols)] for _ in range(lay.rows)]
    for t in inside:
        paper[int((t.y - lay.y) // lay.cell_h)][int((t.x - lay.x) // lay.cell_w)] = t.text
    assert screen and paper == screen
