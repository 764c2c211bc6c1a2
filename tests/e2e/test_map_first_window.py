"""Issue 22 in a real window (xcb under Xvfb): at 1280×720, 1366×768, 1400×900 and 1920×1080 the map's
cells take at least 45 % of the window's height with 16, 30 and 32 tokens, each labelled on both axes;
Focus leaves the pipeline and the map; theme and language switch live; the window left alone uses under
1 % of a core at every size (its process's CPU time over 10 s at 1366×768, 3 s at the others) and every stage; settings
written on a 1920×1080 screen open cleanly on a 1280×720 one, and Ctrl+Q ends the process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.xvfb import start_xvfb, stop_xvfb

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
XDOTOOL = shutil.which("xdotool")


@pytest.fixture(scope="module")
def desk():
    proc, display = start_xvfb("1920x1080")
    yield display
    stop_xvfb(proc)


@pytest.fixture(scope="module")
def projector():
    proc, display = start_xvfb("1280x720")
    yield display
    stop_xvfb(proc)


def _env(display: str, config: Path, **more) -> dict:
    return {
        **os.environ,
        "DISPLAY": display,
        "QT_QPA_PLATFORM": "xcb",
        "XDG_CONFIG_HOME": str(config),
        "PYTHONPATH": str(ROOT),
        **more,
    }


@pytest.fixture(scope="module")
def probed(desk, tmp_path_factory):
    cfg = tmp_path_factory.mktemp("cfg")
    res = subprocess.run(
        [sys.executable, str(ROOT / "tests/e2e/window_probe.py"), "10"],
        env=_env(desk, cfg),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_the_map_takes_45_percent_with_every_token_labelled_at_four_sizes(probed):
    assert probed["platform"] == "xcb"
    for measured in probed["sizes"]:
        width, height = measured["size"]
        for C, got in measured["maps"].items():
            assert got["window"] == [width, height]
            assert got["tokens"] == int(C)
            cells_w, cells_h = got["cells"]
            assert cells_h >= 0.45 * height, (measured["size"], C, got)
            assert abs(cells_w - cells_h) <= 1.5  # square cells
            assert got["left"] == got["bottom"] == int(C)  # every token labelled on both axes


def test_focus_leaves_the_pipeline_and_the_map(probed):
    focus = probed["focus"]
    assert focus["docks"] == ["flow"] and not focus["bar"]
    assert focus["cells"] > focus["cells_before"]
    assert "flow" in focus["back"] and "input" in focus["back"]


def test_a_window_left_alone_does_no_work(probed):
    for size, got in probed["idle"].items():
        assert got["weights_long"] < 0.01, (size, got["weights_long"])  # under 1 % of a core over 10 s
        busy = {stage: load for stage, load in got["stages"].items() if load >= 0.02}
        assert not busy, (size, busy)  # every stage comes to rest too


def test_theme_and_language_switch_live(probed):
    live = probed["live"]
    assert live["dark_backgrounds"] == ["#252528"]  # every plot, at once
    assert "パラメータ" in live["status_ja"] and "parameters" in live["status_en"]


def _wait_for_window(display: str, timeout: float = 120) -> str:
    res = subprocess.run(
        [XDOTOOL, "search", "--sync", "--name", "^Attention Explorer$"],
        env={**os.environ, "DISPLAY": display},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert res.returncode == 0 and res.stdout.strip(), res.stderr
    return res.stdout.split()[0]


def _wait_until_idle(pid: int, timeout: float = 120) -> None:
    """Until the process has used no CPU for a second (its first trace drawn, its panels built)."""

    def ticks() -> int:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime

    deadline, last, calm = time.monotonic() + timeout, -1, 0
    while time.monotonic() < deadline and calm < 4:
        now = ticks()
        calm = calm + 1 if now == last else 0
        last = now
        time.sleep(0.25)


def test_settings_from_a_large_screen_open_cleanly_on_a_projector(desk, projector, tmp_path):
    if XDOTOOL is None:
        pytest.skip("xdotool is not installed")
    cfg = tmp_path / "cfg"
    desk_run = subprocess.Popen(
        [sys.executable, "-m", "explorer", "gui", "--size", "1900x1040"],
        env=_env(desk, cfg),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wid = _wait_for_window(desk)
        if Path(f"/proc/{desk_run.pid}/stat").exists():
            _wait_until_idle(desk_run.pid)
        env = {**os.environ, "DISPLAY": desk}
        subprocess.run([XDOTOOL, "windowfocus", "--sync", wid], env=env, capture_output=True, timeout=30)
        asked = time.monotonic()
        subprocess.run([XDOTOOL, "key", "--window", wid, "ctrl+q"], env=env, timeout=30)
        _out, err = desk_run.communicate(timeout=60)
        print(f"Ctrl+Q to exit: {time.monotonic() - asked:.2f} s")  # issue 22: under 0.5 s on a quiet machine
    finally:
        if desk_run.poll() is None:
            desk_run.kill()
    assert desk_run.returncode == 0 and "Traceback" not in err, err[-2000:]
    saved = json.loads(
        (cfg / "AttentionExplorer" / "attention-explorer.json").read_text()
    )  # explorer/ui/preferences/settings.py
    assert "window/geometry" in saved and "window/state" in saved
    marks = tmp_path / "marks.json"
    res = subprocess.run(
        [sys.executable, "-m", "explorer", "gui"],
        env=_env(projector, cfg, ATTENTION_EXPLORER_TIMINGS=str(marks)),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr[-2000:]
    got = json.loads(marks.read_text())
    x, y, w, h = got["window"]
    ax, ay, aw, ah = got["available"]
    assert (aw, ah) == (1280, 720)
    assert ax <= x and ay <= y and x + w <= ax + aw and y + h <= ay + ah, got  # fitted to this screen
    assert got["minimum"][0] <= 1280 and got["minimum"][1] <= 700, got
    assert got["status_bar_bottom"] is not None and got["status_bar_bottom"] < h  # the status bar on screen


def test_damaged_settings_are_dropped_with_a_note(projector, tmp_path):
    cfg = tmp_path / "cfg"
    (cfg / "AttentionExplorer").mkdir(parents=True)
    (cfg / "AttentionExplorer" / "attention-explorer.ini").write_text(
        "[window]\ngeometry=not a geometry\nstate=@ByteArray(\\0\\0\\0\\xff garbage)\n[General]\ntheme=purple\n"
    )
    marks = tmp_path / "marks.json"
    res = subprocess.run(
        [sys.executable, "-m", "explorer", "gui"],
        env=_env(projector, cfg, ATTENTION_EXPLORER_TIMINGS=str(marks)),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr[-2000:]
    assert (
        "note: the setting window/geometry was dropped" in res.stderr
    )  # the schema: explorer/ui/preferences/settings_schema.py
    assert "note: the setting theme was dropped" in res.stderr
    assert "note: the saved panel layout is from another version or damaged" in res.stderr
    x, y, w, h = json.loads(marks.read_text())["window"]
    assert w <= 1280 and h <= 720
