"""Every head of a layer at once (``TraceResult.heads``, ``Figure.of_heads``, ``figure --all-heads``;
explorer/handouts/heads_figure.py): each map has the stage figure's colours for that head, the heads are laid
out in order, labels sit on the grid's outer edge without overlapping, the command writes the same SVG, and
a 512-token layer of 9 heads is a notebook SVG under 2 MB of pictures with the weights' colours."""

from __future__ import annotations

import base64
import math
import os
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import numpy as np
import pytest

import explorer as ax
from explorer.api.figure import Figure
from explorer.config import RunOptions
from explorer.errors import ConfigError
from explorer.handouts import colours as col
from explorer.handouts.scene import Image, Rect, Text, mm_to_px
from explorer.handouts.text import text_width
from explorer.present.figure import head_panel
from explorer.present.matrices import token_labels
from explorer.session.open import open_source
from explorer.session.request import ModelSource, Selection
from explorer.trace import run_trace

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
PEN = "This is a pen ."


@pytest.fixture(scope="module")
def classroom():
    return ax.trace(PEN, preset="classroom")  # 3 layers × 4 heads


def _toy(heads: int, tokens: int):
    words = ("the cat sat on the mat and then it ran to a dog . " * 60).split()[:tokens]
    trace = run_trace(
        open_source(ModelSource("preset", "seed-toy").with_sizes(heads=heads)), " ".join(words), RunOptions()
    )
    assert trace.rows[0].length == tokens and trace.config.H == heads
    return trace


@pytest.fixture(scope="module")
def wide():
    return _toy(12, 64)


def _after(items: list, title: str, count: int) -> list[Rect]:
    """The ``count`` filled squares drawn right after the map titled ``title``: its cells."""
    start = next(k for k, it in enumerate(items) if isinstance(it, Text) and it.text == title)
    cells = [it for it in items[start:] if isinstance(it, Rect) and it.stroke is None]
    return cells[:count]


@pytest.mark.parametrize(("stage", "layer"), [("weights", 1), ("scores", 2), ("masked", 0)])
def test_each_map_has_the_stage_figures_colours_for_that_head(classroom, stage, layer):
    grid = classroom.heads(stage=stage, layer=layer).scene
    n = len(classroom.tokens)
    for h in range(classroom.config.H):
        single = classroom.map(stage=stage, layer=layer, head=h).scene
        title = f"query (row) attends to key (column) — head {h}"
        expected = [r.fill for r in _after(single.items, title, n * n)]
        got = _after(grid.items, f"head {h}", n * n)
        assert [r.fill for r in got] == expected
        assert len({round(r.w, 6) for r in got}) <= 2  # the cells of one map (the last column has no overlap)


def _titles(scene) -> dict[int, Text]:
    return {int(it.text.split()[1]): it for it in scene.items if isinstance(it, Text) and it.text.startswith("head ")}


@pytest.mark.parametrize(("columns", "per_row"), [(None, 4), (6, 6), (5, 5)])
def test_heads_are_laid_out_in_order_row_by_row(wide, columns, per_row):
    scene = Figure.of_heads(wide, Selection(stage="weights"), columns=columns).scene
    titles = _titles(scene)
    assert sorted(titles) == list(range(12))
    for h, t in titles.items():
        r, c = divmod(h, per_row)
        assert t.x == pytest.approx(titles[c].x) and t.y == pytest.approx(titles[r * per_row].y)
        if c:
            assert t.x > titles[h - 1].x
        if r:
            assert t.y > titles[h - per_row].y
    assert len({round(t.y, 3) for t in titles.values()}) == math.ceil(12 / per_row)


def test_token_labels_only_on_the_grids_outer_edge(classroom):
    scene = classroom.heads(layer=1).scene  # 4 heads: 2 × 2
    labels = token_labels(classroom.core, 0)  # "1 is": the window's labels
    texts = [it for it in scene.items if isinstance(it, Text)]
    first_map_x = _after(scene.items, "head 0", 1)[0].x  # the first column's cells start here
    for label in labels:
        found = [t for t in texts if t.text == label]
        left = [t for t in found if t.anchor == "end"]
        bottom = [t for t in found if t.anchor == "middle"]
        assert len(left) == 2 and len(bottom) == 2, label  # one per grid row, one per grid column
        assert all(t.x < first_map_x for t in left)
        assert len({round(t.y, 3) for t in bottom}) == 1  # under the lowest row only


def test_a_12_head_64_token_layer_is_readable_at_160_mm(wide):
    scene = Figure.of_heads(wide, Selection(stage="weights"), width_px=mm_to_px(160)).scene
    assert len(_titles(scene)) == 12
    texts = [it for it in scene.items if isinstance(it, Text) and it.text[:1].isdigit() and not it.rotate]
    left = sorted((t for t in texts if t.anchor == "end"), key=lambda t: (t.x, t.y))
    bottom = sorted((t for t in texts if t.anchor == "middle" and t.size < 20), key=lambda t: (t.y, t.x))
    assert left and bottom and min(t.size for t in left + bottom) >= 8  # the window's smallest tick text
    for a, b in zip(left, left[1:]):
        if a.x == b.x and b.y > a.y:
            assert b.y - a.y >= a.size * 0.85, (a.text, b.text)  # rows of labels never overlap
    row = [t for t in bottom if t.y == bottom[0].y]
    for a, b in zip(row, row[1:]):  # key labels under neighbouring maps stay apart, by more than a space
        space = (b.x - text_width(b.text, b.size) / 2) - (a.x + text_width(a.text, a.size) / 2)
        assert space >= a.size * 0.45, (a.text, b.text)
    assert any(isinstance(it, Image) for it in scene.items)  # 12 × 64² cells: pictures, not 49 152 squares


def _env(tmp_path: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / ".config"),
        "XDG_CACHE_HOME": str(tmp_path / ".cache"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    env.pop("QT_QPA_PLATFORM", None)
    env.pop("DISPLAY", None)
    return env


def test_the_svg_is_the_figure_commands_all_heads_file(classroom, tmp_path):
    out = tmp_path / "cli.svg"
    argv = ["figure", PEN, "--preset", "classroom", "--stage", "scores", "--layer", "2", "--all-heads"]
    argv += ["--columns", "3", "--token", "2", "--width-mm", "190.5", "-o", str(out)]
    r = subprocess.run(
        [sys.executable, "-m", "explorer", *argv], capture_output=True, env=_env(tmp_path), cwd=tmp_path, timeout=300
    )
    assert r.returncode == 0, r.stderr
    figure = classroom.heads(stage="scores", layer=2, columns=3, token=2)  # 190.5 mm = 720 CSS pixels
    assert figure.svg() == out.read_text(encoding="utf-8")
    assert len(_titles(figure.scene)) == 4


def _png_pixels(data: bytes) -> np.ndarray:
    """An 8-bit RGB PNG without interlace, decoded with zlib (every row's filter byte undone)."""
    w, h, depth, kind = struct.unpack(">IIBB", data[16:26])
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and (depth, kind) == (8, 2)
    idat, at = b"", 8
    while at < len(data):
        n = struct.unpack(">I", data[at : at + 4])[0]
        if data[at + 4 : at + 8] == b"IDAT":
            idat += data[at + 8 : at + 8 + n]
        at += 12 + n
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(h, w * 3 + 1)
    assert not raw[:, 0].any()
    return raw[:, 1:].reshape(h, w, 3)


def test_a_512_token_layer_of_9_heads_is_a_notebook_svg_under_2_mb():
    trace = _toy(9, 512)
    figure = Figure.of_heads(trace, Selection(stage="weights"))
    svg = figure._repr_mimebundle_()["image/svg+xml"]
    assert len(svg.encode("utf-8")) < 2_000_000
    assert "<script" not in svg.lower() and "http" not in svg.lower()
    images = list(ET.fromstring(svg).iter(f"{SVG}image"))
    assert len(images) == 9
    lo, hi = head_panel(trace, Selection()).levels  # the single-head figure's colour scale
    blocked = np.triu(np.ones((512, 512), dtype=bool), 1)  # the causal mask
    for h in (0, 4, 8):
        pixels = _png_pixels(base64.b64decode(images[h].get("href").removeprefix("data:image/png;base64,")))
        weights = np.asarray(trace["layers.0.attn.weights"])[0, h].astype(np.float64)
        index = np.clip(np.floor((weights - lo) * 256 / (hi - lo)), 0, 255).astype(int)
        expected = col.lookup_table(False)[index]
        expected[blocked] = (200, 200, 204)
        assert np.array_equal(pixels, expected), f"head {h}"


def test_what_has_no_map_per_head_is_refused_in_one_line(classroom):
    with pytest.raises(ConfigError, match=r"^stage ffn has no map per head; every head is drawn for scores"):
        classroom.heads(stage="ffn")
    with pytest.raises(ConfigError, match=r"^columns must be a whole number from 1 to 4, got 0$"):
        classroom.heads(columns=0)
    with pytest.raises(ConfigError, match=r"^layer 3 does not exist"):
        classroom.heads(layer=3)
    japanese = [it.text for it in classroom.heads(language="ja").scene.items if isinstance(it, Text)]
    assert "ヘッド 3" in japanese and "head 3" not in japanese


def test_a_fixed_size_keeps_every_map_inside_and_centres_the_grid(classroom):
    from explorer.handouts.heads_figure import heads_scene
    from explorer.handouts.stage_figure import Frame

    long = ax.trace("the cat sat on the mat and then it ran to a dog . the cat sat on the mat", preset="classroom")
    scene = heads_scene(long.core, Selection(stage="masked"), Frame(1280.0, 720.0))
    assert scene.height == 720.0
    rects = [it for it in scene.items if isinstance(it, Rect)]
    assert max(r.y + r.h for r in rects) <= 720.0 and max(t.y for t in scene.items if isinstance(t, Text)) <= 720.0
    titles = _titles(scene)
    cells = [_after(scene.items, f"head {h}", 20 * 20) for h in (0, 1)]
    left, right = cells[0][0].x, max(r.x + r.w for r in cells[1])
    bar = max(r.x + r.w for r in rects if r.stroke is not None)  # the colour bar's frame, right of the grid
    assert len(titles) == 4 and left < right < bar
    y_title = next(t for t in scene.items if isinstance(t, Text) and t.rotate)
    assert y_title.x >= (1280 - bar) * 0.5  # the room the height leaves is shared by both sides, not all right
