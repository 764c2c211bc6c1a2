"""A print figure's labels sit against the cells they name (issue 38: at 28 tokens wide figures drew the row
labels twice, in two columns, one far from the cells). Read from the SVG the `figure` command writes: the
cells' rectangles, then every row label and key label, each once, at most 24 px (CSS pixels: the figure's
own, 1/96 inch) from the cells, on its row or under its column; a second, staggered line of key positions
right under the first (at 1920×1080 the figure's text is 30 px: two lines of them cannot both be 24 px from
the cells)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from explorer.config import RunOptions
from explorer.handouts.sizes import figure_size
from explorer.handouts.stage_figure import stage_scene
from explorer.handouts.svg import svg_text
from explorer.handouts.text import ASCENT, DESCENT
from explorer.session.open import open_source
from explorer.session.request import ModelSource, Selection
from explorer.trace import run_trace
from explorer.weights.presets import DEFAULT_PRESET
from tests.e2e.sentences import sentence_of

SVG = "{http://www.w3.org/2000/svg}"
GAP = 24  # px between a label and the cells it names, at most
SIZES = [("--width-mm 160", figure_size(160.0)), ("--size 1920x1080", figure_size(size="1920x1080"))]
SIZES += [("--size 1280x720", figure_size(size="1280x720")), ("--width-mm 80", figure_size(80.0))]


@pytest.fixture(scope="module")
def traces():
    bundle = open_source(ModelSource("preset", DEFAULT_PRESET))
    return {n: run_trace(bundle, sentence_of(n), RunOptions()) for n in (16, 28)}


def _cells(root) -> tuple[list[tuple[float, float, float, float]], float]:
    """The map's cells: the rectangles of the most common height, about as wide as tall (a square map)."""
    rects = [
        tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))
        for r in root.iter(f"{SVG}rect")
        if r.get("width") and r.get("height")
    ]
    side = Counter(round(h, 1) for _x, _y, _w, h in rects).most_common(1)[0][0]
    cells = [r for r in rects if abs(r[3] - side) < 0.1 * side and 0.3 * side < r[2] < 1.1 * side]
    return cells, side


def _labels(root):
    """(x, y, text, turned) of every text drawn right-aligned at its anchor: the row labels (flat) and the
    upright key labels (turned, their end at the axis)."""
    out = []
    for t in root.iter(f"{SVG}text"):
        if t.get("text-anchor") == "end":
            out.append((float(t.get("x")), float(t.get("y")), t.text or "", "rotate" in (t.get("transform") or "")))
    return out


@pytest.mark.parametrize("tokens", [16, 28])
@pytest.mark.parametrize(("said", "size"), SIZES, ids=[s for s, _ in SIZES])
def test_every_label_once_and_against_its_cells(traces, tokens, said, size):
    trace = traces[tokens]
    root = ET.fromstring(svg_text(stage_scene(trace, Selection(stage="weights"), size.frame)))
    cells, _side = _cells(root)
    left = min(x for x, _y, _w, _h in cells)
    top = min(y for _x, y, _w, _h in cells)
    row_tops = sorted({round(y, 1) for _x, y, _w, _h in cells})
    assert len(row_tops) == tokens, said  # the cells found are the map's
    side = (row_tops[-1] - row_tops[0]) / (tokens - 1)  # the rows' pitch (a cell is drawn a little larger)
    bottom = top + tokens * side
    labels = _labels(root)
    rows = [(x, y, text) for x, y, text, turned in labels if not turned and x < left and top <= y <= bottom + side]
    assert len(rows) == tokens, (said, rows)  # every row labelled once: no second column
    assert len({round(x, 1) for x, _y, _t in rows}) == 1, (said, rows)  # one column, right-aligned
    for x, y, text in rows:
        assert 0 <= left - x <= GAP, (said, text, left - x)
        row = int(text.split()[0])
        assert top + row * side <= y <= top + (row + 1) * side + 0.5 * side, (said, text)  # on its row
    keys = [(x, y, text) for x, y, text, turned in labels if turned]
    flat_keys = [t for t in root.iter(f"{SVG}text") if t.get("text-anchor") == "middle" and _below(t, bottom)]
    if keys:  # upright key labels: their end at the axis
        assert len(keys) == tokens and all(0 <= y - bottom <= GAP for _x, y, _t in keys), (said, keys)
    else:  # flat ones (positions), perhaps staggered on two lines: the first line within reach of the cells,
        # the second right under it (its labels sit between the first line's, under their own columns)
        tops = sorted({round(float(t.get("y")) - float(t.get("font-size")) * ASCENT - bottom, 1) for t in flat_keys})
        size = max(float(t.get("font-size")) for t in flat_keys)
        assert len(flat_keys) == tokens and 0 <= tops[0] <= GAP and len(tops) <= 2, (said, tops)
        assert all(b - a <= (ASCENT + DESCENT) * size + 1 for a, b in zip(tops, tops[1:])), (said, tops)


def _below(text, bottom: float) -> bool:
    y = float(text.get("y"))
    return bottom < y <= bottom + 3 * float(text.get("font-size")) and re.fullmatch(r"\d+", text.text or "") is not None
