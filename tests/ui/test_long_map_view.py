"""A long text's map in the central view (issue 43): a layer served only as tiles opens on its overview (each
cell the largest weight of a block of tokens), zooming in and scrolling paint the exact cells of what is on
screen, and hovering a cell explains that cell's exact number. Every expected number is computed here, in
float64 from the trace's stored q and k, never by the code under test."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from PySide6.QtCore import QRectF

from explorer.config import memory
from explorer.present import long_map
from explorer.trace import run_trace
from explorer.ui.bridge.state import AppState, ModelSource
from explorer.weights.presets import load_preset

LAYER, HEAD = 1, 2
WORDS = "the big dog runs to the park and a cat sees it".split()


@pytest.fixture(scope="module")
def long_trace():
    """A 300-token text traced as a long one: the policy's threshold lowered below its map's bytes, so the trace
    keeps q, k and each row's log-sum-exp and serves its maps only as tiles."""
    text = " ".join(WORDS[i % len(WORDS)] for i in range(300))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(memory, "TILED_MAP_BYTES", 256 * 256 * 4)
        trace = run_trace(load_preset("classroom"), text)
    assert trace.tiled(LAYER)
    return trace


@pytest.fixture
def long_policy(monkeypatch, long_trace):
    """A 40-cell overview (blocks of 8 tokens); exact cells from 96 a side."""
    monkeypatch.setattr(long_map, "OVERVIEW_CELLS", 40)
    monkeypatch.setattr(long_map, "EXACT_SPAN", 96)
    monkeypatch.setattr(long_map, "ALIGN", 16)


def weights_from_qk(trace, layer: int, head: int) -> np.ndarray:
    """softmax(q·kᵀ / √D) with the causal mask, in float64 from the stored q and k."""
    q = trace[f"layers.{layer}.attn.q"][0, head].astype(np.float64)
    k = trace[f"layers.{layer}.attn.k"][0, head].astype(np.float64)
    s = q @ k.T / math.sqrt(q.shape[-1])
    C = s.shape[0]
    s[np.triu(np.ones((C, C), dtype=bool), 1)] = -np.inf
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def block_max(a: np.ndarray, f: int) -> np.ndarray:
    n = math.ceil(a.shape[0] / f)
    return np.array([[a[r * f : (r + 1) * f, c * f : (c + 1) * f].max() for c in range(n)] for r in range(n)])


@pytest.fixture
def view(qtbot, long_policy, long_trace):
    from explorer.ui.views.tensor.tensor_view import TensorView

    state = AppState(source=ModelSource("preset", "classroom"))
    v = TensorView(state)
    qtbot.addWidget(v)
    v.resize(1100, 760)
    v.show()
    qtbot.waitExposed(v)
    state.set_trace(long_trace)
    state.select(stage="weights", layer=LAYER, head=HEAD)
    qtbot.waitUntil(lambda: v.large.long_map is not None and v.large.long_map.shown is not None, timeout=30_000)
    return v


def test_a_long_map_opens_on_its_overview_of_block_maxima(view, long_trace):
    w = weights_from_qk(long_trace, LAYER, HEAD)
    expected = block_max(w, 8)  # 300 tokens in 40 cells: 8 tokens a block
    drawn = view.large.image.image
    assert drawn.shape == expected.shape == (38, 38)
    assert np.allclose(drawn, expected, atol=1e-6)
    assert not view.large.long_map.exact.isVisible()  # the whole map on screen: too many cells for exact ones
    assert view.large.left.labels[:3] == ("0", "1", "2")  # positions while zoomed out


def _exact_matches(view, w) -> bool:
    painter = view.large.long_map
    if painter.tile is None or not painter.exact.isVisible():
        return False
    rect = painter.exact.mapRectToParent(painter.exact.boundingRect())  # where the tile's cells are drawn
    r0, c0 = round(rect.top()), round(rect.left())
    image = painter.exact.image
    return np.allclose(image, w[r0 : r0 + image.shape[0], c0 : c0 + image.shape[1]], atol=1e-6)


def _covered(view, rows, cols) -> bool:
    painter = view.large.long_map
    if painter.tile is None or not painter.exact.isVisible():
        return False
    rect = painter.exact.mapRectToParent(painter.exact.boundingRect())
    return rect.top() <= rows[0] and rect.bottom() >= rows[1] and rect.left() <= cols[0] and rect.right() >= cols[1]


def test_zooming_in_and_scrolling_paint_the_exact_cells_on_screen(view, long_trace, qtbot):
    w = weights_from_qk(long_trace, LAYER, HEAD)
    vb = view.large.plot.getViewBox()
    vb.setRange(QRectF(150, 160, 60, 60), padding=0)  # keys 150–210, queries 160–220
    qtbot.waitUntil(lambda: _covered(view, (160, 220), (150, 210)), timeout=10_000)
    assert _exact_matches(view, w)
    assert view.large.left.labels[5].startswith("5 ")  # zoomed in: "position token"
    (x0, x1), (y0, y1) = vb.viewRange()
    vb.setRange(QRectF(x0, y1, x1 - x0, y1 - y0), padding=0)  # one screen down
    rows = (math.ceil(y1), math.floor(2 * y1 - y0))
    qtbot.waitUntil(lambda: _covered(view, rows, (math.ceil(x0), math.floor(x1))), timeout=10_000)
    assert _exact_matches(view, w)


def test_hovering_a_long_map_explains_the_exact_cell(view, long_trace):
    w = weights_from_qk(long_trace, LAYER, HEAD)
    i, j = 250, 37
    text = view.cell_explanation(HEAD, i, j)
    first = text.splitlines()[0]
    value = float(re.search(r"= (-?[0-9.]+(?:e-?[0-9]+)?)$", first).group(1))
    digits = len(first.rsplit(".", 1)[-1]) if "." in first.rsplit("=", 1)[-1] else 0
    assert abs(value - w[i, j]) <= 0.5 * 10**-digits + 1e-9
    # and the softmax step ends on the same weight, from this row's own keys
    assert text.splitlines()[1].rstrip().endswith(first.rsplit("= ", 1)[-1])
    top = int(np.argmax(w[i]))
    assert f"{top} (" in text.splitlines()[-1]  # the row's strongest key among the readouts


def test_the_keyboard_cell_of_an_overview_is_a_block_and_says_its_tokens(view, long_trace, qtbot):
    """On the overview a cell is a block of 8 × 8 tokens: the keyboard's cell names the tokens it covers and its
    largest weight, outlines the whole block, and explains the block's first token (not token (2, 1))."""
    w = weights_from_qk(long_trace, LAYER, HEAD)
    access = view.large.access
    hovered = []
    view.large.cellHovered.connect(lambda i, j: hovered.append((i, j)))
    access.view.setFocus()
    qtbot.waitUntil(access.view.hasFocus, timeout=10_000)
    access.move_to(3, 2)
    said = access.announcement()
    assert "24–31" in said and "16–23" in said, said
    number = re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", said.split("16–23", 1)[1])[0]
    digits = len(number.split(".", 1)[1]) if "." in number and "e" not in number else 0
    value = float(number)
    if "e" in number:
        assert math.isclose(value, w[24:32, 16:24].max(), rel_tol=1e-2), (value, said)
    else:  # as printed: within half a unit of its last digit (0.13 for 0.1317 is right, 1.3 % off)
        assert abs(value - w[24:32, 16:24].max()) <= 0.5 * 10**-digits + 1e-9, (value, said)
    assert hovered[-1] == (24, 16)
    frame = access._frames[0].rect()
    assert (frame.left(), frame.top(), frame.width(), frame.height()) == (16, 24, 8, 8)
