"""Hand-outs without Qt (issue 24): a stage's figure as a scene of primitives, its SVG, the colours and the
hatching, and the exercises of a worksheet, each checked against an independent recomputation (numpy,
the colour table read by hand, geometry)."""

from __future__ import annotations

import base64
import math
import re
import struct
import xml.etree.ElementTree as ET
import zlib

import numpy as np
import pytest

from explorer.config import RunOptions
from explorer.handouts import colours as col
from explorer.handouts.hatching import blocked_runs, clip_diagonal, hatch_segments
from explorer.handouts.map_draw import VECTOR_LIMIT, draw_map
from explorer.handouts.map_layout import Box, MapSpec
from explorer.handouts.png import png_bytes
from explorer.handouts.scene import Image, Line, Rect, Text
from explorer.handouts.stage_figure import Frame, stage_scene
from explorer.handouts.svg import svg_text
from explorer.handouts.text import plain, text_width, wrap
from explorer.handouts.worksheet import EXERCISES, number, parse_exercises, worksheet
from explorer.present.stages import stage_keys_for
from explorer.session.open import open_source
from explorer.session.request import ModelSource, Selection
from explorer.trace import run_trace

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def classroom():
    return run_trace(open_source(ModelSource("preset", "classroom")), "This is a pen .", RunOptions())


@pytest.fixture(scope="module")
def toy():
    return run_trace(open_source(ModelSource("preset", "seed-toy")), "This is a pen .", RunOptions())


def _cells(items) -> list[Rect]:
    return [it for it in items if isinstance(it, Rect) and it.fill is not None and it.stroke is None]


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[k : k + 2], 16) for k in (1, 3, 5))


# ------------------------------------------------------------------------------------------ colours


def test_colour_of_a_value_is_pyqtgraphs_table_entry():
    values = np.array([-1.0, 0.0, 0.001, 0.5, 0.99999, 1.0, 2.0, -np.inf])
    idx = col.colour_indices(values, (0.0, 1.0))
    assert idx.tolist() == [0, 0, 0, 128, 255, 255, 255, 0]  # ⌊v·256⌋ clipped; −∞ takes the lowest entry
    table = col.lookup_table(False)
    assert (
        table.shape == (256, 3) and tuple(table[0]) == (68, 1, 84) and tuple(table[-1]) == (253, 231, 37)
    )  # viridis' ends
    diverging = col.lookup_table(True)
    centre = diverging[128].astype(int)
    assert centre.min() > 220  # CET-D1 is near white at 0 (symmetric levels put 0 in the middle)
    assert diverging[0][2] > diverging[0][0] and diverging[-1][0] > diverging[-1][2]  # blue below, red above


def test_cells_take_the_colour_of_their_value_and_blocked_cells_the_mask_grey():
    data = np.array([[0.0, -np.inf], [0.25, 1.0]])
    spec = MapSpec(data, ("a", "b"), ("a", "b"), False, (0.0, 1.0), square=True)
    items, lay = draw_map(spec, Box(0, 0, 400), 12, col.theme("light"))
    cells = _cells(items)[:4]
    table = col.lookup_table(False)
    expected = [tuple(table[0]), _rgb(col.MASK_FILL), tuple(table[64]), tuple(table[255])]
    assert [_rgb(c.fill) for c in cells] == expected
    assert cells[0].w >= lay.cell_w and abs(cells[1].x - lay.cell_w - lay.x) < 1e-9  # touching, no seams
    texts = [t.text for t in items if isinstance(t, Text)]
    for shown in ("0", "−∞", "0.25", "1.00"):  # the numbers where they fit, as the window prints them
        assert shown in texts


def test_a_wide_map_is_one_picture_of_its_cells():
    rng = np.random.default_rng(0)
    data = rng.random((VECTOR_LIMIT + 6, VECTOR_LIMIT + 6))
    data[np.triu_indices_from(data, 1)] = -np.inf
    labels = tuple(str(i) for i in range(len(data)))
    items, lay = draw_map(
        MapSpec(data, labels, labels, False, (0.0, 1.0), square=True), Box(0, 0, 600), 12, col.theme("light")
    )
    pictures = [it for it in items if isinstance(it, Image)]
    assert len(pictures) == 1 and not any(isinstance(it, Line) and it.colour == col.MASK_HATCH for it in items)
    pix = pictures[0].pixels
    assert pix.shape == (*data.shape, 3)
    assert tuple(pix[0, 1]) == _rgb(col.MASK_FILL)
    assert tuple(pix[5, 2]) == tuple(col.lookup_table(False)[int(math.floor(data[5, 2] * 256))])
    assert not [
        t for t in items if isinstance(t, Text) and re.fullmatch(r"0\.\d\d", t.text) and lay.x < t.x < lay.x + lay.w
    ]  # no numbers in the cells: too many cells (the colour bar beside them has its own)


# ------------------------------------------------------------------------------------------ hatching


def test_diagonal_clipping():
    assert clip_diagonal(5, 0, 0, 10, 10) == (0, 5, 5, 0)
    assert clip_diagonal(15, 0, 0, 10, 10) == (5, 10, 10, 5)
    assert clip_diagonal(25, 0, 0, 10, 10) is None


def test_hatching_lies_on_blocked_cells_only_and_covers_each():
    blocked = np.triu(np.ones((6, 6), dtype=bool), 1)
    blocked[4, 0] = True
    segments = hatch_segments(blocked_runs(blocked), 10.0, 20.0, 8.0, 8.0, 3.0)
    hit = np.zeros_like(blocked)
    for x1, y1, x2, y2 in segments:
        assert abs((x1 + y1) - (x2 + y2)) < 1e-9  # "/" lines, as Qt's BDiagPattern
        for t in np.linspace(0.02, 0.98, 9):  # every point of a segment is on a blocked cell
            x, y = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
            i, j = int((y - 20.0) // 8.0), int((x - 10.0) // 8.0)
            assert blocked[i, j], (i, j)
            hit[i, j] = True
    assert np.array_equal(hit, blocked)


# ------------------------------------------------------------------------------------------ figures


@pytest.mark.parametrize(
    "stage",
    [
        "tokens",
        "embed",
        "qkv",
        "scores",
        "scaled",
        "masked",
        "weights",
        "heads",
        "concat",
        "out",
        "residual",
        "ffn",
        "block",
        "final_norm",
        "logits",
        "probs",
        "norm_attn",
        "norm_ffn",
    ],
)
def test_every_stage_draws(classroom, stage):
    if stage not in stage_keys_for(classroom.config):
        pytest.skip("this model has no such stage")
    scene = stage_scene(classroom, Selection(stage=stage, head=1, token=2), Frame(600))
    assert scene.height > 100 and scene.items
    assert any(t.bold for t in scene.items if isinstance(t, Text))
    ET.fromstring(svg_text(scene))  # well-formed


def test_a_map_figure_is_the_heads_map_on_the_layers_shared_levels(classroom):
    sel = Selection(stage="weights", layer=1, head=2, token=3)
    scene = stage_scene(classroom, sel, Frame(600))
    n = classroom.rows[0].length
    maps = [classroom.head_map(1, "weights", 0, h)[:n, :n] for h in range(classroom.config.H)]
    hi = max(float(m.max()) for m in maps)  # numpy: the largest weight of every head of the layer
    data = maps[2]
    allowed = np.tril(np.ones((n, n), dtype=bool))
    table = col.lookup_table(False)
    cells = _cells(scene.items)[: n * n]
    for k, cell in enumerate(cells):
        i, j = divmod(k, n)
        want = tuple(table[min(255, int(math.floor(data[i, j] / hi * 256)))]) if allowed[i, j] else _rgb(col.MASK_FILL)
        assert _rgb(cell.fill) == want
    texts = scene.texts()
    assert "Step 8 of 18: Attention weights (softmax) — layer 1" in texts
    assert "query (row) attends to key (column) — head 2" in texts
    assert "blocked by the mask (−∞ before softmax): weight 0" in texts
    frames = [it for it in scene.items if isinstance(it, Rect) and it.stroke == "#000000"]
    assert frames  # the selected token's row is framed


def test_selection_that_does_not_exist_is_one_line(classroom):
    from explorer.errors import ConfigError

    for sel, said in (
        (Selection(stage="weights", head=9), "head 9 does not exist"),
        (Selection(stage="weights", layer=5), "layer 5"),
        (Selection(stage="weights", token=40), "token 40 does not exist"),
    ):
        with pytest.raises(ConfigError, match=said):
            stage_scene(classroom, sel, Frame(600))


def test_svg_keeps_token_text_as_text_and_markup_inert():
    hostile = '<img src="/etc/passwd"> & "x"\x07'
    data = np.array([[1.0]])
    items, _ = draw_map(
        MapSpec(data, (hostile,), ("k",), False, (0.0, 1.0), title=hostile), Box(0, 0, 300), 12, col.theme("light")
    )
    from explorer.handouts.scene import Scene

    scene = Scene(300, 200, items=items)
    root = ET.fromstring(svg_text(scene))
    assert not [e for e in root.iter() if e.tag.endswith("img")]
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert any(t.startswith('<img src="/etc/passwd"> & "x"') for t in texts)  # the characters, drawn as text
    assert "\x07" not in svg_text(scene)


def _decode_png(data: bytes) -> np.ndarray:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", data[16:24])
    idat = b"".join(
        data[p + 8 : p + 8 + struct.unpack(">I", data[p : p + 4])[0]]
        for p in [m.start() - 4 for m in re.finditer(b"IDAT", data)]
    )
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(h, w * 3 + 1)
    assert not raw[:, 0].any()
    return raw[:, 1:].reshape(h, w, 3)


def test_svg_of_a_long_input_carries_a_sharp_picture(classroom):
    long = run_trace(
        open_source(ModelSource("preset", "classroom")), " ".join(["the cat sees a dog ."] * 24), RunOptions()
    )
    n = long.rows[0].length
    assert n > VECTOR_LIMIT
    svg = svg_text(stage_scene(long, Selection(stage="weights"), Frame(600)))
    images = list(ET.fromstring(svg).iter(f"{SVG}image"))
    assert (
        len(images) == 1
        and "pixelated" in images[0].get("style")
        and images[0].get("image-rendering") == "optimizeSpeed"
    )
    href = images[0].get("{http://www.w3.org/1999/xlink}href")
    pixels = _decode_png(base64.b64decode(href.split(",", 1)[1]))
    factor = pixels.shape[0] // n
    assert factor >= 2 and pixels.shape[:2] == (n * factor, n * factor)
    assert np.array_equal(
        pixels[::factor, ::factor], pixels[factor - 1 :: factor, factor - 1 :: factor]
    )  # whole blocks per cell


def test_png_bytes_round_trip():
    pixels = np.random.default_rng(1).integers(0, 256, (7, 5, 3), dtype=np.uint8)
    assert np.array_equal(_decode_png(png_bytes(pixels)), pixels)


# ------------------------------------------------------------------------------------------ text


def test_wrap_breaks_at_spaces_or_anywhere_and_bounds_the_lines():
    lines = wrap("The quick brown fox jumps over the lazy dog", 12, 90)
    assert (
        all(text_width(line, 12) <= 90 for line in lines)
        and " ".join(lines) == "The quick brown fox jumps over the lazy dog"
    )
    ja = wrap("これは日本語の長い文章です。改行は任意の位置で行われます。", 12, 100)
    assert len(ja) > 1 and "".join(ja) == "これは日本語の長い文章です。改行は任意の位置で行われます。"
    huge = wrap("x" * 1_000_000, 12, 300, max_lines=5)
    assert len(huge) == 5 and huge[-1].endswith("…")


def test_plain_text_is_bounded_and_without_controls():
    assert plain("a\x00b\x1b[31mc\td\ne") == "ab[31mc d\ne"
    assert len(plain("y" * 10_000_000)) == 4000


def test_worksheet_answers_are_the_arithmetic_of_its_inputs(toy):
    """Recomputed with numpy from the printed inputs' full values: what the student is asked to do."""
    ex = {e.key: e for e in worksheet(toy)}
    assert list(ex) == list(EXERCISES)
    q, k = (np.asarray(x.value) for x in ex["qk"].inputs)
    assert float(ex["qk"].answer.value) == pytest.approx(float(q @ k), abs=1e-5)
    s, D = (float(x.value) for x in ex["scale"].inputs)
    assert float(ex["scale"].answer.value) == pytest.approx(s / math.sqrt(D), abs=1e-5)
    row, allowed = (np.asarray(x.value) for x in ex["mask"].inputs)
    assert np.array_equal(np.isneginf(ex["mask"].answer.value), allowed == 0)
    masked = np.asarray(ex["softmax"].inputs[0].value)
    e = np.exp(masked - masked[np.isfinite(masked)].max())
    assert np.allclose(ex["softmax"].answer.value, e / e.sum(), atol=1e-6)
    a, V = (np.asarray(x.value) for x in ex["av"].inputs)
    assert np.allclose(ex["av"].answer.value, a @ V, atol=1e-5)
    concat, w = (np.asarray(x.value) for x in ex["wo"].inputs[:2])
    assert float(ex["wo"].answer.value) == pytest.approx(float(concat @ w), abs=1e-5)
    l, T, Z = (float(x.value) for x in ex["prob"].inputs)
    assert float(ex["prob"].answer.value) == pytest.approx(math.exp(l / T) / Z, rel=1e-4)
    assert ex["prob"].params["token"] == toy.rows[0].tokens[2].strip()  # the token that really follows


def test_worksheet_refuses_what_is_not_done_by_hand(classroom, toy):
    from explorer.errors import ConfigError

    with pytest.raises(ConfigError, match="small model"):
        worksheet(classroom)
    with pytest.raises(ConfigError, match="--exercises"):
        parse_exercises("qk,nope")
    assert parse_exercises("softmax,qk") == ("softmax", "qk")
    assert number(-0.0001, 2) == "0.00" and number(-np.inf, 2) == "−∞" and number(-1.5, 2) == "−1.50"
