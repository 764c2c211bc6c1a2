"""End to end: ``show()``'s launcher (explorer/api/show.py) opens a real window (xcb, under Xvfb) in its own
process on a temporary snapshot, and removes the snapshot once the window has closed."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from explorer.api import show
from tests.e2e.xvfb import start_xvfb, stop_xvfb

pytestmark = pytest.mark.e2e

SELECTION = SimpleNamespace(stage="weights", layer=1, head=2, row=0, token=3)


@pytest.fixture(scope="module")
def display():
    proc, display = start_xvfb("1600x1000")
    yield display
    stop_xvfb(proc)


@pytest.fixture
def on_display(display, tmp_path, monkeypatch):
    monkeypatch.setenv("DISPLAY", display)
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


@pytest.fixture(scope="module")
def trace():
    from explorer.trace import run_trace
    from explorer.weights.presets import load_preset

    return run_trace(load_preset("classroom"), "This is a pen .")


def _cleaned_up(folder: Path) -> bool:
    for cleaner in [t for t in threading.enumerate() if t.name == "explorer-show-cleanup"]:
        cleaner.join(timeout=60)
    return not folder.exists()


def test_show_pictures_the_real_window_at_the_selection(on_display, trace, tmp_path):
    from PySide6.QtGui import QImage

    out = tmp_path / "shown.png"
    process = show.launch(trace, SELECTION, screenshot=out, size=(1400, 900))
    assert process.wait(timeout=180) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1400, 900)
    colours = {image.pixel(x, y) for y in range(0, 900, 7) for x in range(0, 1400, 7)}
    assert len(colours) > 50  # maps, colour bars and text, not a blank or crashed window
    assert _cleaned_up(Path(process.args[5]).parent)


def test_show_without_a_screenshot_opens_a_window_on_the_display(on_display, trace, tmp_path, monkeypatch):
    """No --screenshot: the display is checked and used. The window records when it showed the snapshot and
    ends (ATTENTION_EXPLORER_TIMINGS, as benchmarks/bench_start.py uses it)."""
    marks = tmp_path / "marks.json"
    monkeypatch.setenv("ATTENTION_EXPLORER_TIMINGS", str(marks))
    process = show.launch(trace, SELECTION)
    assert "--screenshot" not in process.args
    assert process.wait(timeout=180) == 0
    seen = json.loads(marks.read_text())
    assert seen["first_trace_painted"] >= seen["window_shown"]
    x, y, w, h = seen["window"]
    assert w > 200 and h > 200  # a window on the screen, not a screenshot's offscreen surface
    assert _cleaned_up(Path(process.args[5]).parent)
