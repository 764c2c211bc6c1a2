"""``attention-explorer lesson check|export`` and ``gui --lesson``: exit codes, one `error:` line, a PDF with
slides with their words as text (read back with pypdf), one PNG per slide, and a screenshot of a lesson step."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from explorer.cli import main
from tests.cli.png_size import png_size

THREE = """\
title.en = "Three steps"
title.ja = "3 ステップ"
languages = ["en", "ja"]

[[steps]]
title.en = "The map"
caption.en = "The attention map of head 1."
caption.ja = "ヘッド 1 の Attention マップ。"
question.en = "Which row is the longest?"
answer.en = "None: each row sums to 1."
stage = "weights"
head = 1

[[steps]]
caption.en = "No scaling, D = 128."
D = 128
scaling = false

[[steps]]
caption.en = "The toy."
preset = "seed-toy"
stage = "scores"
"""


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_check_builtin_is_ok(capsys):
    code, out, err = run_cli(capsys, "lesson", "check", "builtin")
    assert code == 0 and err == ""
    assert "ok: Attention, following the lecture note — 17 steps, languages en, ja" in out


def test_check_a_bad_file_is_one_error_line(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(THREE.replace("head = 1", "head = 1\nlayer = 9"), encoding="utf-8")
    code, out, err = run_cli(capsys, "lesson", "check", path)
    assert code == 2 and out == ""
    from explorer.weights.presets import get_preset

    layers = get_preset("classroom").sizes["layers"]  # the lesson's model: its size comes from the preset
    assert err.strip().splitlines() == [
        f"error: {path}:13: step 1: layer: layer 9 does not exist: the model has {layers} layers (counted from 0)"
    ]


def test_check_notes_missing_captions(capsys, tmp_path):
    path = tmp_path / "three.toml"
    path.write_text(THREE, encoding="utf-8")
    code, out, _ = run_cli(capsys, "lesson", "check", path)
    assert code == 0 and "note: no ja caption in steps 2, 3" in out


def test_export_pdf_is_slides_with_text(tmp_path):
    pypdf = pytest.importorskip("pypdf")
    path = tmp_path / "three.toml"
    path.write_text(THREE, encoding="utf-8")
    out = tmp_path / "handout.pdf"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [sys.executable, "-m", "explorer", "lesson", "export", str(path), "-o", str(out), "--language", "en"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no stray Qt messages
    reader = pypdf.PdfReader(str(out))
    assert len(reader.pages) == 5  # the title page, one page per step, the answers
    texts = [" ".join(p.extract_text().split()) for p in reader.pages]
    assert "Three steps" in texts[0]
    assert "The attention map of head 1." in texts[1] and "Which row is the longest?" in texts[1]
    assert "None: each row sums to 1." not in texts[1] and "None: each row sums to 1." in texts[4]  # answers at the end
    assert "No scaling, D = 128." in texts[2] and "The toy." in texts[3]
    assert "query (row) attends to key (column) — head 1" in texts[1]  # the figure's own words are text too
    assert [f"{n} / 5" in t for n, t in enumerate(texts, 1)] == [True] * 5
    assert not any(p.images for p in reader.pages)  # figures as vectors, not pictures of the window
    box = reader.pages[0].mediabox
    assert float(box.width) > float(box.height)  # landscape, like the screen
    proc = subprocess.run(
        [sys.executable, "-m", "explorer", "lesson", "export", str(path), "-o", str(out), "--no-answers"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0 and len(pypdf.PdfReader(str(out)).pages) == 4


def test_export_pngs_one_per_slide_in_japanese(tmp_path):
    out = tmp_path / "slides"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [sys.executable, "-m", "explorer", "lesson", "export", "builtin", "-o", str(out), "--language", "ja"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    names = sorted(f.name for f in out.iterdir())
    assert names == ["answers-1.png", "answers-2.png", *[f"step-{i:02d}.png" for i in range(1, 18)], "title.png"]
    assert png_size(out / "step-01.png") == (1920, 1080)


def test_export_refuses_a_folder_that_is_a_file(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run_cli(capsys, "lesson", "export", "builtin", "-o", blocker / "slides")
    assert code == 2 and err.startswith("error: cannot write") and len(err.strip().splitlines()) == 1


def test_gui_lesson_step_screenshot(tmp_path):
    shot = tmp_path / "step.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "explorer",
            "gui",
            "--lesson",
            "builtin",
            "--step",
            "11",
            "--size",
            "1400x900",
            "--screenshot",
            str(shot),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert png_size(shot)[0] == 1400


@pytest.mark.parametrize(
    "argv, message",
    [
        (["gui", "--lesson", "builtin", "--step", "18"], "error: this lesson has steps 1 to 17; there is no step 18"),
        (["gui", "--step", "2"], "error: --step needs --lesson"),
        (
            ["lesson", "export", "builtin", "-o", "x.pdf", "--size", "10x10"],
            "error: --size takes WIDTHxHEIGHT between 320x240",
        ),
    ],
)
def test_bad_arguments_are_one_error_line(capsys, argv, message):
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and err.strip().startswith(message) and len(err.strip().splitlines()) == 1
