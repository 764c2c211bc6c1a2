"""A figure from Python (issue 41, explorer/api/figure.py): the very SVG the ``figure`` command writes for the
same arguments, PNG and PDF painted by the hidden ``paint-scene`` command in a child process (the right
pixel size; the title as the PDF's text), errors as one line, and no Qt in the process that asked."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from explorer.api.figure import Figure
from explorer.config import RunOptions
from explorer.errors import ConfigError, ExplorerError
from explorer.session.open import open_source
from explorer.session.request import ModelSource, Selection
from explorer.trace import run_trace

ROOT = Path(__file__).resolve().parents[2]
PEN = "This is a pen ."
poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils are not installed")


@pytest.fixture(scope="module")
def classroom():
    return run_trace(open_source(ModelSource("preset", "classroom")), PEN, RunOptions())


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


def _cli(tmp_path: Path, *argv, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "explorer", *map(str, argv)],
        input=stdin,
        capture_output=True,
        env=_env(tmp_path),
        cwd=tmp_path,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("sel", "argv"),
    [
        (
            Selection(stage="weights", layer=1, head=2, token=3),
            ["--stage", "weights", "--layer", "1", "--head", "2", "--token", "3"],
        ),
        (Selection(stage="probs"), ["--stage", "probs"]),  # a tensor's title: the window's caption, in English
    ],
)
def test_the_svg_is_the_figure_commands_file(classroom, tmp_path, sel, argv):
    out = tmp_path / "cli.svg"
    r = _cli(tmp_path, "figure", PEN, "--preset", "classroom", *argv, "--width-mm", "190.5", "-o", out)
    assert r.returncode == 0, r.stderr
    figure = Figure.of_stage(classroom, sel, width_px=720)  # 190.5 mm = 720 CSS pixels
    assert figure.svg() == out.read_text(encoding="utf-8")
    saved = figure.save(tmp_path / "api.svg")
    assert saved.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@poppler
def test_png_and_pdf_are_painted_in_a_child_process_at_the_figures_size(classroom, tmp_path):
    figure = Figure.of_stage(classroom, Selection(stage="scores", layer=2, head=1))
    w, h = figure.size
    assert w == 720
    png = figure.save(tmp_path / "f.png", dpi=150)
    assert _png_size(png.read_bytes()) == (round(w * 150 / 96), round(h * 150 / 96))
    assert _png_size(figure.png()) == (round(w), round(h))  # 96 dpi: one pixel per CSS pixel
    pdf = figure.save(tmp_path / "f.pdf")
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert figure.title == "Step 5 of 18: Scores Q·Kᵀ — layer 2"
    assert figure.title in text and "head 1" in text


def test_the_childs_error_line_is_the_exception(classroom, tmp_path):
    figure = Figure.of_stage(classroom, Selection())
    with pytest.raises(ExplorerError, match=r"^--dpi must lie between 36 and 2400, got 10$"):
        figure.save(tmp_path / "f.png", dpi=10)
    assert not (tmp_path / "f.png").exists()
    with pytest.raises(ExplorerError, match=r"^-o must name a \.png, \.svg or \.pdf file, got '.*f\.gif'$"):
        figure.save(tmp_path / "f.gif")
    with pytest.raises(ExplorerError, match="the folder does not exist"):
        figure.save(tmp_path / "missing" / "f.png")


@pytest.mark.parametrize(
    ("sel", "tensor", "argv"),
    [
        (
            Selection(stage="weights", layer=1, head=2, token=3),
            None,
            ["--stage", "weights", "--layer", "1", "--head", "2", "--token", "3"],
        ),
        (Selection(stage="masked", layer=2), None, ["--stage", "masked", "--layer", "2"]),  # the edge's words
        (Selection(stage="embed"), "embed.tok", ["--stage", "embed", "--tensor", "embed.tok"]),  # a tensor's title
        (Selection(stage="probs"), None, ["--stage", "probs"]),
    ],
)
def test_the_japanese_svg_is_the_figure_commands_file(classroom, tmp_path, sel, tensor, argv):
    """Japanese words without Qt (the .ts read in Python) are the ones Qt's translator gives the command."""
    out = tmp_path / "cli.svg"
    r = _cli(
        tmp_path, "figure", PEN, "--preset", "classroom", *argv, "--width-mm", "190.5", "--language", "ja", "-o", out
    )
    assert r.returncode == 0, r.stderr
    figure = Figure.of_stage(classroom, sel, width_px=720, language="ja", tensor=tensor)
    assert figure.svg() == out.read_text(encoding="utf-8")
    assert figure.title.startswith("ステップ ")  # Japanese indeed, not the English both could fall back to


def test_unknown_choices_are_refused_in_one_line(classroom):
    with pytest.raises(ConfigError, match=r"^unknown language 'fr': choose one of en, ja$"):
        Figure.of_stage(classroom, Selection(), language="fr")
    with pytest.raises(ConfigError, match=r"^unknown theme 'blue': choose one of light, dark$"):
        Figure.of_stage(classroom, Selection(), theme="blue")
    with pytest.raises(ConfigError, match=r"^head 4 does not exist"):
        Figure.of_stage(classroom, Selection(head=4))


def test_the_notebook_bundle_is_svg_without_script_or_http(classroom):
    figure = Figure.of_stage(classroom, Selection(stage="embed"), theme="dark")
    bundle = figure._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "text/plain"}
    svg = bundle["image/svg+xml"]
    assert "<script" not in svg and "http" not in svg
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.find("{http://www.w3.org/2000/svg}rect").get("fill") == "#252528"  # the dark paper
    assert bundle["text/plain"] == f"<Figure 'Step 2 of 18: Embedding', 720×{figure.size[1]:g} px>"
    assert figure._repr_svg_() == svg


def test_no_qt_in_the_process_that_draws(tmp_path):
    code = (
        "import sys\n"
        "from explorer.api.figure import Figure\n"
        "from explorer.api.display import trace_svg\n"
        "from explorer.config import RunOptions\n"
        "from explorer.session.open import open_source\n"
        "from explorer.session.request import ModelSource, Selection\n"
        "from explorer.trace import run_trace\n"
        "t = run_trace(open_source(ModelSource('preset', 'seed-toy')), 'this is a pen', RunOptions())\n"
        "trace_svg(t)\n"
        f"Figure.of_stage(t, Selection()).save({str(tmp_path / 'x.png')!r})\n"
        "assert not [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'pyqtgraph'))]\n"
        "print('clean')\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(tmp_path), timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "clean", r.stderr
    assert _png_size((tmp_path / "x.png").read_bytes())[0] == 720


def test_paint_scene_is_not_listed_and_refuses_what_is_not_a_scene(tmp_path):
    from explorer.cli import build_parser

    assert "paint-scene" not in build_parser().format_help()
    r = _cli(tmp_path, "paint-scene", "-o", tmp_path / "x.png", stdin=b"not a pickle")
    assert r.returncode == 2 and not (tmp_path / "x.png").exists()
    assert r.stderr.decode().strip().splitlines() == [
        "error: paint-scene reads a figure's scene pickled on standard input, as explorer.api sends it"
    ]


def test_the_notebook_picture_of_a_trace_is_a_figure_too(classroom, tmp_path):
    from explorer.api.display import trace_svg

    sel = Selection(stage="masked", layer=2, head=3, token=1)
    figure = Figure.of_trace(classroom, sel)
    assert figure._repr_svg_() == trace_svg(classroom, sel)  # the very picture the notebook shows
    assert figure.title == "Step 7 of 18: Mask — layer 2"
    saved = figure.save(tmp_path / "display.svg")
    root = ET.fromstring(saved.read_text(encoding="utf-8"))
    assert [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")] == [
        t.text for t in ET.fromstring(trace_svg(classroom, sel)).iter("{http://www.w3.org/2000/svg}text")
    ]
