"""``figure TEXT_A --compare TEXT_B`` (issue 40 item 5): one head of two runs as one print figure. The scene
holds three maps' cells and labels and a title saying what is compared and how it was aligned; the
difference panel's numbers are the comparison's B − A of that head (and A's, B's its gathered weights, on one
scale); PNG, SVG and PDF are written by the real command; a bad option is one `error:` line."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from cli_zygote import run_completed

from explorer.compare import Pair, Run, compare
from explorer.handouts import colours as col
from explorer.handouts.compare_figure import compare_scene, compare_specs
from explorer.handouts.scene import Rect
from explorer.handouts.stage_figure import Frame
from explorer.handouts.svg import svg_text
from explorer.session import ModelSource
from explorer.session.open import open_source
from explorer.trace import run_trace
from tests.cli.png_size import png_size

ROOT = Path(__file__).resolve().parents[2]
A = "the cat sat on the mat because it was very tired ."
B = "the cat sat on the mat because it was very wide ."
LAYER, HEAD = 1, 1


@pytest.fixture(scope="module")
def comparison():
    bundle = open_source(ModelSource("preset", "classroom"))
    made = {"model": "classroom"}
    return compare(Pair(Run(run_trace(bundle, A), made), Run(run_trace(bundle, B), made)))


def test_the_scene_holds_three_maps_cells_labels_and_a_title(comparison):
    scene = compare_scene(comparison, LAYER, HEAD, Frame(900.0))
    texts = scene.texts()
    svg = svg_text(scene)
    assert f"Two runs compared: where does head {LAYER}.{HEAD} look?" in texts and scene.title in svg
    assert f"A: “{A}”" in texts and f"B: “{B}”" in texts
    assert any("summed over its keys" in t for t in texts)  # how rows and columns were gathered
    assert texts.count("key (aligned)") == 3
    units = comparison.alignment.units
    one_sided = [u for u in units if not u.shared]
    assert {u.text.strip() for u in one_sided} == {"tired", "wide"}
    for unit in units:
        word = unit.text.strip()
        # rows and columns of all three maps: unbracketed on a map whose run has the token, bracketed on the
        # map whose run lacks it and on the difference (either run lacks it)
        plain, bracketed = texts.count(word), texts.count(f"[{word}]")
        shown_plain = 6 if unit.shared else 2
        assert plain >= shown_plain and bracketed == (0 if unit.shared else 4), (word, plain, bracketed)
    cells = [it for it in scene.items if isinstance(it, Rect) and it.stroke is None]
    assert len(cells) >= 3 * len(units) ** 2
    # hatched: a causal model's cells above the diagonal, and the row and column of the unit a run lacks (on
    # the difference: both one-sided units); the one more is the legend's swatch
    hatched = sum(it.fill == col.MASK_FILL for it in cells)
    lacks_a, lacks_b = _hatched(len(units), [_at(units, "wide")]), _hatched(len(units), [_at(units, "tired")])
    either = _hatched(len(units), [_at(units, "wide"), _at(units, "tired")])
    assert hatched == lacks_a + lacks_b + either + 1


def _at(units, word: str) -> int:
    return next(i for i, u in enumerate(units) if u.text.strip() == word)


def _hatched(n: int, missing: list[int]) -> int:
    cells = np.triu(np.ones((n, n), bool), 1)
    for k in missing:
        cells[k, :] = cells[:, k] = True
    return int(cells.sum())


def test_the_difference_panel_is_the_comparisons_difference(comparison):
    a_spec, b_spec, diff_spec = compare_specs(comparison, LAYER, HEAD)
    expected = comparison.difference(LAYER, HEAD).values
    np.testing.assert_array_equal(diff_spec.data, expected)
    gathered_a, gathered_b = comparison.pair.gathered(comparison.alignment, LAYER, HEAD)
    np.testing.assert_array_equal(a_spec.data, gathered_a.values)
    np.testing.assert_array_equal(b_spec.data, gathered_b.values)
    both = np.isfinite(gathered_a.values) & np.isfinite(gathered_b.values)
    np.testing.assert_allclose(diff_spec.data[both], (gathered_b.values - gathered_a.values)[both], atol=1e-12)
    assert np.isnan(diff_spec.data[~both]).all()
    top = max(np.nanmax(gathered_a.values), np.nanmax(gathered_b.values))
    assert a_spec.levels == b_spec.levels == (0.0, pytest.approx(top))  # one colour scale serves both runs
    low, high = diff_spec.levels
    assert diff_spec.signed and low == -high and high == pytest.approx(np.nanmax(np.abs(diff_spec.data)))
    assert not a_spec.colour_bar and b_spec.colour_bar and diff_spec.colour_bar


def cli(tmp_path: Path, *argv, timeout: float = 300):
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / ".config"),
        "XDG_CACHE_HOME": str(tmp_path / ".cache"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    env.pop("QT_QPA_PLATFORM", None)  # the command needs no screen, and must not ask for one
    env.pop("DISPLAY", None)
    return run_completed([str(a) for a in argv], env, tmp_path, timeout)


def test_png_svg_and_pdf_are_written(tmp_path):
    for fmt in ("png", "svg", "pdf"):
        out = tmp_path / f"c.{fmt}"
        argv = ["figure", A, "--compare", B, "--layer", LAYER, "--head", HEAD, "-o", out, "--dpi", "100"]
        r = cli(tmp_path, *argv, *(["--language", "ja"] if fmt == "svg" else []))
        assert r.returncode == 0 and r.stderr == "", r.stderr
        assert r.stdout.startswith(f"wrote {out}")
    width, height = png_size(tmp_path / "c.png")
    assert width == round(240 / 25.4 * 100) and 0 < height < width  # three maps in a row: landscape
    svg = (tmp_path / "c.svg").read_text(encoding="utf-8")
    assert "B − A（赤: B のほうが多く注目、青: 少なく）" in svg  # the Compare view's words, in Japanese
    assert "ヘッド 1.1" in svg
    assert (tmp_path / "c.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--compare", B, "--stage", "scores", "-o", "f.svg"], "error: --compare draws the attention weights"),
        (["--model-b", "seed-toy", "--stage", "weights", "-o", "f.svg"], "error: --model-b, --random-b"),
        (["-o", "f.svg"], "error: give the stage to draw with --stage STAGE, or two runs to compare"),
        (["--compare", B, "--head", "9", "-o", "f.svg"], "error: head 0.9 is not a head both runs have"),
        (["--compare", B, "--token", "2", "-o", "f.svg"], "error: --compare draws whole maps: leave out --token"),
        (["--compare", B, "-o", "f.gif"], "error: -o must name a .png, .svg or .pdf file"),
    ],
)
def test_a_bad_option_is_one_error_line(tmp_path, argv, said):
    r = cli(tmp_path, "figure", A, *argv)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(said), r.stderr
    assert not list(tmp_path.glob("f.*"))
