"""The notebook picture of a trace (issue 41, explorer/api/display.py): one SVG that parses, carries no script
and no "http", names the pipeline's stages with the selected one marked, shows the selected map with the
trace's own numbers (a 512-token map as an embedded picture, under 2 MB) and the next-token bars with the
probabilities of an independent softmax of the logits."""

from __future__ import annotations

import base64
import re
import struct
import xml.etree.ElementTree as ET
import zlib

import numpy as np
import pytest

from explorer.api.display import TOP_TOKENS, trace_svg, trace_text
from explorer.config import RunOptions
from explorer.errors import ConfigError
from explorer.handouts import colours as col
from explorer.present.figure import head_panel
from explorer.present.stages import stage, stages_for
from explorer.session.open import open_source
from explorer.session.request import ModelSource, Selection
from explorer.trace import run_trace

SVG = "{http://www.w3.org/2000/svg}"
PEN = "This is a pen ."


@pytest.fixture(scope="module")
def classroom():
    return run_trace(open_source(ModelSource("preset", "classroom")), PEN, RunOptions())


@pytest.fixture(scope="module")
def long_trace():
    """512 tokens through the note's toy model (random weights, 1024 positions): a map of 512 × 512 cells."""
    words = ("this is a pen . " * 103).split()[:512]
    return run_trace(open_source(ModelSource("preset", "seed-toy")), " ".join(words), RunOptions())


def _texts(root) -> list[ET.Element]:
    return list(root.iter(f"{SVG}text"))


def _softmax(row: np.ndarray, temperature: float) -> np.ndarray:
    z = row.astype(np.float64) / temperature
    e = np.exp(z - z.max())
    return e / e.sum()


def _printed(p: float) -> str:
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


def test_one_svg_that_parses_with_no_script_and_no_http(classroom):
    svg = trace_svg(classroom)
    root = ET.fromstring(svg)  # well-formed XML, as an <img> of it (VS Code, JupyterLab) needs
    assert root.tag == f"{SVG}svg"  # the namespace is the SVG one (written with a character reference)
    assert "<script" not in svg.lower() and "http" not in svg.lower() and "xlink" not in svg
    assert not re.search(r"(?:href|src)=\"(?!data:)", svg)  # nothing links outside the picture
    # JupyterLab adds an SVG namespace where this pattern finds none (renderSVG): a second one would break the XML
    assert re.search("<svg[^>]+xmlns=[^>]+svg", svg)
    assert float(root.get("width").removesuffix("px")) == 720


def test_the_strip_names_every_stage_in_order_and_marks_the_selected_one(classroom):
    sel = Selection(stage="qkv", layer=1, head=2)
    root = ET.fromstring(trace_svg(classroom, sel))
    symbols = [s.symbol for s in stages_for(classroom.config)]
    texts = [t.text for t in _texts(root)]
    start = texts.index(symbols[0])
    assert texts[start : start + len(symbols)] == symbols
    marked = [t.text for t in _texts(root) if t.get("font-weight") == "bold" and t.get("fill") == "#ffffff"]
    assert marked == [stage("qkv").symbol]
    assert "Step 4 of 18: Queries, keys, values — layer 1" in texts  # the selected stage's figure below it
    assert any(t.startswith("Queries Q — head 2") for t in texts)  # the selected head


def _bars(root) -> tuple[str, list[tuple[str, str]], list[float]]:
    """The bars' heading, their (label, printed probability) rows and the bars' lengths."""
    texts = _texts(root)
    at = next(k for k, t in enumerate(texts) if t.text.startswith(("Next token after", "The token at")))
    rows = [(texts[k].text, texts[k + 1].text) for k in range(at + 2, len(texts) - 1, 2)]
    heading_y = float(texts[at].get("y"))
    lengths = [
        float(r.get("width"))
        for r in root.iter(f"{SVG}rect")
        if float(r.get("y")) > heading_y and r.get("stroke") is None and r.get("fill") != "#ffffff"
    ]
    return texts[at].text, rows, lengths


@pytest.mark.parametrize("token", [None, 2])
def test_next_token_bars_are_an_independent_softmax_of_the_logits(classroom, token):
    root = ET.fromstring(trace_svg(classroom, Selection(token=token)))
    heading, rows, lengths = _bars(root)
    pos = 4 if token is None else token
    probs = _softmax(np.asarray(classroom["logits"])[0, pos], classroom.options.temperature)
    order = np.argsort(-probs, kind="stable")[:TOP_TOKENS]
    assert [p for _, p in rows] == [_printed(probs[i]) for i in order]
    labels = [classroom.vocab[i].replace(" ", "␣") for i in order]
    assert [label for label, _ in rows] == labels
    assert heading == ("Next token after “This is a pen .”" if token is None else "Next token after “This is a”")
    assert len(lengths) == TOP_TOKENS  # each bar as long as its probability relative to the likeliest
    expected = np.maximum(1.0, lengths[0] * probs[order] / probs[order[0]])  # at least a hairline
    np.testing.assert_allclose(lengths, expected, rtol=1e-3, atol=0.01)  # coordinates have two decimals


def _png_pixels(data: bytes) -> np.ndarray:
    """An 8-bit RGB PNG without interlace, decoded with zlib (every row's filter byte undone)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h, depth, kind = struct.unpack(">IIBB", data[16:26])
    assert (depth, kind) == (8, 2)
    idat, at = b"", 8
    while at < len(data):
        n = struct.unpack(">I", data[at : at + 4])[0]
        if data[at + 4 : at + 8] == b"IDAT":
            idat += data[at + 8 : at + 8 + n]
        at += 12 + n
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(h, w * 3 + 1)
    assert not raw[:, 0].any()  # filter "none" on every row (what the writer uses)
    return raw[:, 1:].reshape(h, w, 3)


def test_a_512_token_map_is_one_picture_of_the_weights_under_2_mb(long_trace):
    assert long_trace.rows[0].length == 512
    svg = trace_svg(long_trace)
    assert len(svg.encode("utf-8")) < 2_000_000
    assert "http" not in svg and "<script" not in svg
    images = list(ET.fromstring(svg).iter(f"{SVG}image"))
    assert len(images) == 1
    pixels = _png_pixels(base64.b64decode(images[0].get("href").removeprefix("data:image/png;base64,")))
    assert pixels.shape == (512, 512, 3)  # one pixel per cell: the browser scales it, pixelated
    weights = np.asarray(long_trace["layers.0.attn.weights"])[0, 0].astype(np.float64)
    lo, hi = head_panel(long_trace, Selection()).levels
    assert lo <= weights.min() and lo < hi  # the layer's colour scale (saturating above hi, as the window)
    index = np.clip(np.floor((weights - lo) * 256 / (hi - lo)), 0, 255).astype(int)
    expected = col.lookup_table(False)[index]
    blocked = np.triu(np.ones((512, 512), dtype=bool), 1)  # the causal mask
    expected[blocked] = (200, 200, 204)
    assert np.array_equal(pixels, expected)
    assert "Step 7 of 15: Attention weights (softmax) — layer 0" in [t.text for t in _texts(ET.fromstring(svg))]


def test_a_selection_that_does_not_exist_is_one_line(classroom):
    with pytest.raises(ConfigError, match=r"^head 9 does not exist: the model has 4 heads \(counted from 0\)$"):
        trace_svg(classroom, Selection(head=9))
    with pytest.raises(ConfigError, match="token 7 does not exist"):
        trace_text(classroom, Selection(token=7))


def test_the_plain_text_names_the_model_the_tokens_the_view_and_the_likeliest_tokens(classroom):
    text = trace_text(classroom, Selection(stage="scores", layer=2, head=3))
    lines = text.splitlines()
    assert lines[0] == "Trace: classroom · 3 layers × 4 heads · E=128 · 1 sentence of 5 tokens"
    assert lines[1] == "tokens: This | ␣is | ␣a | ␣pen | ␣."
    assert lines[2] == "shown: Step 5 of 18: Scores Q·Kᵀ — layer 2, head 3"
    ffn = trace_text(classroom, Selection(stage="ffn", layer=1, head=3)).splitlines()[2]
    assert ffn == "shown: Step 14 of 18: Feed-forward network — layer 1"  # one layer's, not a head's
    probs = _softmax(np.asarray(classroom["logits"])[0, 4], classroom.options.temperature)
    best = int(np.argmax(probs))
    assert lines[3].startswith(f"Next token after “This is a pen .”: {classroom.vocab[best].replace(' ', '␣')} ")
    assert _printed(probs[best]) in lines[3]


def test_the_picture_in_japanese_says_the_figure_commands_and_the_windows_words(classroom):
    from explorer.api.figure import Figure

    sel = Selection(stage="weights", layer=1, head=2, token=3)
    texts = [t.text for t in _texts(ET.fromstring(trace_svg(classroom, sel, language="ja")))]
    figure = [t.text for t in _texts(ET.fromstring(Figure.of_stage(classroom, sel, language="ja").svg()))]
    assert figure[0].startswith("ステップ 8 / 18：")  # the figure is the Japanese one (its svg is the command's)
    starts = [i for i in range(len(texts)) if texts[i : i + len(figure)] == figure]
    assert starts, "the Japanese figure is not in the picture"
    # the bars' heading: the window's next-token panel in Japanese (its .ts translations)
    assert "「This is a pen」の次のトークン" in texts
    assert f"位置 3（0〜4）· 温度 {classroom.options.temperature:g}" in texts
    with pytest.raises(ConfigError, match=r"^unknown language 'fr': choose one of en, ja$"):
        trace_svg(classroom, sel, language="fr")
