"""Issue 44 item 2 in the window: a trace holding NaN shows its finite-check line whole in a banner (not only
cut short in the status bar), the map draws the NaN cells in their own colour with their own legend line (not
the mask's grey), the hover says NaN, and a finite trace takes the banner away again."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QColor

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from nan_trace import NAN_POSITION, nan_trace  # noqa: E402

from explorer.ui.shell.nonfinite_banner import NonfiniteBanner  # noqa: E402
from explorer.ui.views.map.map_layers import MASK_FILL, NAN_FILL  # noqa: E402


@pytest.fixture(scope="module")
def nan():
    return nan_trace()


def _near(colour: QColor, rgba) -> bool:
    return max(abs(colour.red() - rgba[0]), abs(colour.green() - rgba[1]), abs(colour.blue() - rgba[2])) <= 12


def _colour_at(heatmap, i: int, j: int) -> QColor:
    """The colour drawn a little inside cell (i, j)'s top-left corner, clear of the hatching's lines' middle."""
    from PySide6.QtCore import QPointF

    image = heatmap.graphics.grab().toImage()
    vb = heatmap.layers.vb
    ratio = image.devicePixelRatio()
    samples = []
    for dy in (0.2, 0.35, 0.5, 0.65, 0.8):  # several points: a hatch line may cross one of them
        p = heatmap.graphics.mapFromScene(vb.mapViewToScene(QPointF(j + dy, i + 0.5)))
        samples.append(image.pixelColor(int(p.x() * ratio), int(p.y() * ratio)))
    return max(samples, key=lambda c: sum(_near(c, rgba) for rgba in (NAN_FILL, MASK_FILL)))


def test_a_nan_trace_is_marked_in_the_window(window, state, qtbot, nan):
    banner = window.findChild(NonfiniteBanner, "nonfiniteBanner")
    assert banner is not None and not window.nonfinite_bar.isVisible()  # a finite trace: no banner
    state.set_trace(nan, True)
    qtbot.waitUntil(lambda: window.nonfinite_bar.isVisible(), timeout=10_000)
    line = next(n for n in nan.notices if n.startswith("NaN or infinite values from embed.tok"))
    assert line in banner.message.text()  # the whole line, not the status bar's cut
    # every wrapped row of it on screen, and no more: a toolbar once gave the label half the window
    rows = banner.message.height() / banner.message.fontMetrics().lineSpacing()
    needed = banner.message.fontMetrics().horizontalAdvance(banner.message.text()) / banner.message.width()
    assert math.ceil(needed) <= rows + 0.5 and rows <= math.ceil(needed) + 1.5, (rows, needed)
    state.select(stage="weights", layer=0, head=0)
    from explorer.ui.views.tensor.tensor_view import TensorView

    view = window.findChild(TensorView)
    weights = nan.head_map(0, "weights", 0, 0)
    qtbot.waitUntil(lambda: view.large.layers.nonfinite is not None, timeout=10_000)
    assert np.array_equal(view.large.layers.nonfinite, np.isnan(weights))
    assert view.large.nan_legend.isVisibleTo(view) and "NaN" in view.large.nan_legend_text.text()
    qtbot.waitUntil(lambda: view.large.graphics.isVisible() and view.large.graphics.width() > 50, timeout=10_000)
    i = NAN_POSITION
    assert _near(_colour_at(view.large, i, 1), NAN_FILL)  # a NaN weight: the NaN colour
    assert not _near(_colour_at(view.large, 1, 0), NAN_FILL)  # a finite weight: the scale's colour
    assert _near(_colour_at(view.large, 1, 3), MASK_FILL)  # the mask's cell keeps the mask's grey
    from explorer.ui.views.tensor.tensor_hover import cell_explanation

    said = cell_explanation(view, 0, i, 1)
    assert said.split("\n")[0].endswith("= NaN"), said
    assert math.isnan(weights[i, 1])


def test_the_stepper_of_a_nan_weight_says_where_the_nan_came_from(window, state, qtbot, nan):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    state.set_trace(nan, True)
    state.select(stage="weights", layer=0, head=0)
    view = window.centralWidget()
    qtbot.waitUntil(lambda: view.large.layers.nonfinite is not None, timeout=10_000)
    view.ask_anatomy((NAN_POSITION, 1))
    qtbot.waitUntil(lambda: window.docks["anatomy"].isVisible(), timeout=5000)
    stepper = window.views["anatomy"].stepper
    qtbot.waitUntil(lambda: len(stepper.steps) > 0, timeout=20_000)
    assert [s.op for s in stepper.steps] == ["nonfinite", "cell"]  # not the softmax's "every key blocked"
    QTest.keyClick(stepper, Qt.Key.Key_Right)
    shown = stepper.lines["label"].text() + " " + stepper.accessibleName()
    assert "NaN" in shown and "every key blocked" not in shown
    assert "embed.tok" in stepper.accessibleName() and "layers.0.attn.q" in stepper.accessibleName()


def test_a_finite_trace_takes_the_banner_away(window, state, qtbot, nan, trace):
    state.set_trace(nan, True)
    qtbot.waitUntil(lambda: window.nonfinite_bar.isVisible(), timeout=10_000)
    state.set_trace(trace, True)
    qtbot.waitUntil(lambda: not window.nonfinite_bar.isVisible(), timeout=10_000)
    assert window.nonfinite_banner.line is None


def test_minus_infinity_is_the_masks_only_on_a_map_the_mask_reaches(qtbot):
    """A −∞ in a residual or in Q is a fault like NaN (a hostile weight's overflow), not "−∞ (masked)"."""
    from explorer.present.figure import Panel
    from explorer.ui.views.map.heatmap import Heatmap

    data = np.array([[0.5, -np.inf], [np.inf, 0.25]], dtype=np.float32)
    labels = ("a", "b")
    shown = {}
    for masked in (True, False):
        m = Heatmap()
        qtbot.addWidget(m)
        m.show_panel(Panel(data, labels, labels, False, (0.0, 1.0), masked=masked), {})
        shown[masked] = (m.layers.nonfinite.tolist(), m.layers.has_blocked, m.overlay.image.tolist())
    assert shown[True] == ([[False, False], [True, False]], True, [[0, 1], [2, 0]])
    assert shown[False] == ([[False, True], [True, False]], False, [[0, 2], [2, 0]])


def test_nan_cells_are_cross_hatched_past_the_masks_hatching_limit(qtbot):
    """Colour alone does not tell the NaN magenta from viridis for a protanope: a NaN row of a 100-token map
    (past the 64 a side where the mask's hatching stops) is still hatched."""
    from explorer.present.hatching import HATCH_LIMIT
    from explorer.ui.views.map.heatmap import Heatmap

    n = HATCH_LIMIT + 36
    data = np.full((n, n), 0.5, dtype=np.float32)
    data[7] = np.nan
    m = Heatmap()
    qtbot.addWidget(m)
    m.set_matrix(data, [str(i) for i in range(n)], [str(i) for i in range(n)], False, (0.0, 1.0))
    box = m.layers.nan_hatch.path().boundingRect()
    assert (box.top(), box.bottom(), box.left(), box.right()) == (7, 8, 0, n)
