"""End to end: the installed ``attention-explorer`` entry point opens a real window under Xvfb."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.xvfb import start_xvfb, stop_xvfb

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def display():
    proc, display = start_xvfb("1600x1000")
    yield display
    stop_xvfb(proc)


def _entry_point() -> str:
    exe = Path(sys.executable).with_name("attention-explorer")
    assert exe.exists(), "the attention-explorer entry point is not installed in this environment"
    return str(exe)


def _distinct_colours(png: Path) -> int:
    from PySide6.QtGui import QImage

    img = QImage(str(png))
    assert not img.isNull()
    seen = set()
    for y in range(0, img.height(), 7):
        for x in range(0, img.width(), 7):
            seen.add(img.pixel(x, y))
    return len(seen)


def test_real_window_screenshot_is_not_blank(display, tmp_path):
    out = tmp_path / "window.png"
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    proc = subprocess.run(
        [_entry_point(), "gui", "--screenshot", str(out), "--size", "1400x900"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert out.is_file()
    # A blank or crashed window has a handful of colours; maps, colour bars and text have hundreds.
    assert _distinct_colours(out) > 50


def test_real_window_japanese_interface(display, tmp_path):
    out = tmp_path / "ja.png"
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    proc = subprocess.run(
        [_entry_point(), "gui", "--screenshot", str(out), "--language", "ja", "--preset", "japanese"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _distinct_colours(out) > 50
