"""Figures drawn by Qt (issue 24): the colour tables are the window's, and one scene drawn three ways (the Qt
painter's PNG, its SVG rendered by librsvg's rsvg-convert and by Qt's own SVG renderer) agrees pixel by
pixel within a small tolerance, hatching included; PDFs carry text and vectors, no pictures of cells."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtGui import QColor, QImage, QPainter

from explorer.handouts import colours as col
from explorer.handouts.scene import Rect
from explorer.handouts.stage_figure import Frame, stage_scene
from explorer.handouts.svg import write_svg
from explorer.session.request import Selection
from explorer.ui.printing.figure_paint import render_image, write_pdf

rsvg = pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="librsvg's rsvg-convert is not installed")
poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils are not installed")


@pytest.mark.parametrize("key", ["standard", "cividis", "high-contrast", "greyscale"])
def test_colour_tables_are_the_windows_in_every_palette(key):
    """A figure is coloured with the palette the window shows (View → Colours), entry for entry."""
    from explorer.present import palettes
    from explorer.ui.views.map.map_layers import colour_map

    before = palettes.current().key
    palettes.set_current(key)
    try:
        for signed in (False, True):
            assert np.array_equal(col.lookup_table(signed), colour_map(signed).getLookupTable(nPts=256)[:, :3])
        if key == "greyscale":
            table = col.lookup_table(False)
            assert np.array_equal(table[:, 0], table[:, 1]) and np.array_equal(table[:, 1], table[:, 2])
    finally:
        palettes.set_current(before)


def test_cell_colours_are_those_the_window_draws():
    """pyqtgraph's ImageItem (the central view's map) and the figure's table give every cell the same colour."""
    data = np.random.default_rng(2).uniform(-0.2, 1.2, (9, 11)).astype(np.float32)
    item = pg.ImageItem(axisOrder="row-major")
    from explorer.ui.views.map.map_layers import colour_map

    item.setColorMap(colour_map(False))  # the window's map of the chosen palette (View → Colours)
    item.setImage(data, levels=(0.0, 1.0), autoLevels=False)
    item.render()
    shown = np.array([[item.qimage.pixelColor(x, y).getRgb()[:3] for x in range(11)] for y in range(9)])
    assert np.array_equal(shown, col.colours(data, (0.0, 1.0), False))


def pixels(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    rows = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(h, image.bytesPerLine())[:, : w * 3]
    return rows.reshape(h, w, 3).astype(np.int16)


def qt_svg(path, size) -> QImage:
    from PySide6.QtSvg import QSvgRenderer

    image = QImage(size, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    QSvgRenderer(str(path)).render(painter)
    painter.end()
    return image


def blocks(a: np.ndarray, k: int = 4) -> np.ndarray:
    """Means of k×k blocks: anti-aliased edges of text differ by a pixel between renderers, shapes do not."""
    h, w = (a.shape[0] // k) * k, (a.shape[1] // k) * k
    return a[:h, :w].reshape(h // k, k, w // k, k, 3).mean(axis=(1, 3))


def hatch_share(a: np.ndarray, cell: Rect) -> float:
    """Share of dark hatching pixels inside a blocked cell (its inner part, away from the edges)."""
    x0, y0 = int(cell.x + cell.w * 0.2), int(cell.y + cell.h * 0.2)
    inner = a[y0 : int(cell.y + cell.h * 0.8), x0 : int(cell.x + cell.w * 0.8)]
    return float((inner.max(axis=2) < 150).mean())


@rsvg
@pytest.mark.parametrize(
    "stage, text",
    [
        ("weights", "This is a pen ."),
        ("masked", "This is a pen ."),
        ("scores", " ".join(["the cat sees a dog ."] * 14)),
    ],
)
def test_svg_renders_alike_in_qt_and_librsvg(trace, tmp_path, stage, text):
    from live_state import make_trace

    t = trace if text == "This is a pen ." else make_trace(text, "classroom")
    scene = stage_scene(t, Selection(stage=stage, head=1, token=2), Frame(640))
    svg = tmp_path / "f.svg"
    write_svg(scene, svg)
    painted = render_image(scene, 96)
    subprocess.run(
        ["rsvg-convert", "-d", "96", "-p", "96", str(svg), "-o", str(tmp_path / "r.png")], check=True, timeout=60
    )
    by_rsvg = QImage(str(tmp_path / "r.png"))
    by_qtsvg = qt_svg(svg, painted.size())
    a, b, c = pixels(painted), pixels(by_rsvg), pixels(by_qtsvg)
    assert a.shape == b.shape == c.shape
    for other in (b, c):
        diff = np.abs(blocks(a) - blocks(other)).max(axis=2)
        assert diff.mean() < 4 and np.quantile(diff, 0.99) < 60, (diff.mean(), np.quantile(diff, 0.99))
    blocked = [it for it in scene.items if isinstance(it, Rect) and it.fill == col.MASK_FILL and it.w > 20]
    if stage in ("weights", "masked"):
        assert blocked
        for cell in blocked[:6]:  # the hatching survives in every renderer
            shares = [hatch_share(x, cell) for x in (a, b, c)]
            assert min(shares) > 0.05 and max(shares) - min(shares) < 0.12, shares


@poppler
def test_pdf_figure_is_text_and_vectors(trace, tmp_path):
    scene = stage_scene(trace, Selection(stage="weights", head=1), Frame(600))
    out = write_pdf(scene, tmp_path / "f.pdf")
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    w = trace.head_map(0, "weights", 0, 1)  # (C, C): the figure's cells, printed with two decimals
    cell = next(f"{v:.2f}" for v in w[np.tril_indices(len(w))] if 0.1 < v < 0.99)  # neither 0.00 nor 1.00
    for words in ("Attention weights (softmax)", "query (row)", "key (column)", "0 This", cell):
        assert words in text or words.replace(" ", "") in text.replace(" ", "")
    listed = subprocess.run(["pdfimages", "-list", str(out)], capture_output=True, text=True, check=True).stdout
    assert len(listed.strip().splitlines()) == 2  # the header only: no picture in it
    fonts = subprocess.run(["pdffonts", str(out)], capture_output=True, text=True, check=True).stdout
    assert "DejaVuSans" in fonts and " yes " in fonts  # embedded


def test_figure_words_in_japanese(qapp):
    from explorer.ui.preferences import i18n
    from explorer.ui.words.figure_words import figure_words

    try:
        assert i18n.install_language("ja")
        words = figure_words()
        assert words["query axis"] != "query (row)" and words.stage_titles["weights"] != "Attention weights (softmax)"
        assert all(ord(c) < 0x3000 for c in figure_words().tensor_title("layers.0.attn.q")) is False
    finally:
        i18n.install_language("en")


def test_png_has_its_dpi_and_size(trace, tmp_path):
    from explorer.handouts.sizes import figure_size
    from explorer.ui.printing.figure_export import write_figure

    out, said = write_figure(trace, Selection(stage="scores"), tmp_path / "f.png", figure_size(80, None, 200))
    image = QImage(str(out))
    assert image.width() == round(80 / 25.4 * 200) and abs(image.dotsPerMeterX() - 200 / 0.0254) < 1
    out, _ = write_figure(trace, Selection(stage="scores"), tmp_path / "g.png", figure_size(None, "1280x720", None))
    assert (QImage(str(out)).width(), QImage(str(out)).height()) == (1280, 720)
