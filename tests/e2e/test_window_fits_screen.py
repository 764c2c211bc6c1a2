"""A real window under Xvfb on a 1366×768 laptop screen opens inside 90 % of it (it opened at 1400×900 and
overflowed); with the display gone, the command says so in one line instead of Qt's abort."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.xvfb import start_xvfb, stop_xvfb

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def laptop_display():
    proc, display = start_xvfb("1366x768")
    yield display
    stop_xvfb(proc)


def test_a_first_launch_fits_a_laptop_screen(laptop_display, tmp_path):
    marks = tmp_path / "marks.json"
    env = {
        **os.environ,
        "DISPLAY": laptop_display,
        "QT_QPA_PLATFORM": "xcb",
        "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
        "PYTHONPATH": str(ROOT),
        "ATTENTION_EXPLORER_TIMINGS": str(marks),
    }  # quits once the first trace is drawn
    res = subprocess.run(
        [sys.executable, "-m", "explorer", "gui", "--preset", "seed-toy"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    got = json.loads(marks.read_text())
    x, y, w, h = got["window"]
    ax, ay, aw, ah = got["available"]
    assert (aw, ah) == (1366, 768)
    assert w <= 0.9 * aw and h <= 0.9 * ah, got
    assert ax <= x and ay <= y and x + w <= ax + aw and y + h <= ay + ah
