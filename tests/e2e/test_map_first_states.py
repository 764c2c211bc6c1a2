"""Issue 38, item 3, in a real window (xcb under Xvfb, with openbox managing it): the map stays first in every
state a teacher reaches. At 1280×720 and 1366×768, fresh and with settings prepared on a 1920×1080 screen
(125 % text, Next token and Generate open), the map's cells take at least 40 % of the window's height with 16
and 28 tokens; the labels sit next to the cells (no gap over 24 px), short tokens are not cut, key labels at
28 tokens have at least a 9 px cap height, and nothing is drawn outside the map's cells, labels, axes and
colour bar (clipped glyph fragments, read from a grab). Focus is never smaller than the normal view; the
window opens maximised on a small screen; at 200 % text the map stays the largest part and nothing is cut,
and back at 100 % it takes its room again; a layout saved on a small screen opens cleanly on a large one;
slides keep their labels against the cells. Each run opens the window once (layout_probe.py) and walks it
through its states."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.sentences import sentence_of
from tests.e2e.xvfb import start_xvfb, stop_xvfb

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
OPENBOX = shutil.which("openbox")
FLOOR = 0.40  # the map's cells' share of the window's height (issue 38)
GAP = 24  # px between a label and the cells it names, at most
KEY_CAP = 9  # px cap height of key labels at 28 tokens


@pytest.fixture(scope="module")
def screens():
    """One managed X screen per size, started on first use."""
    started: dict[str, tuple] = {}

    def screen(size: str) -> str:
        if size not in started:
            if OPENBOX is None:
                pytest.skip("openbox is not installed (sudo apt-get install openbox)")
            proc, display = start_xvfb(size)
            manager = subprocess.Popen(
                [OPENBOX, "--sm-disable"],
                env={**os.environ, "DISPLAY": display},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            started[size] = (proc, display, manager)
        return started[size][1]

    yield screen
    for proc, _display, manager in started.values():
        manager.terminate()
        manager.wait(10)
        stop_xvfb(proc)


def probe(display: str, config: Path, steps: list, **more) -> dict:
    """The window opened on ``display`` with the settings under ``config``, walked through ``steps``."""
    env = {
        **os.environ,
        "DISPLAY": display,
        "QT_QPA_PLATFORM": "xcb",
        "XDG_CONFIG_HOME": str(config),
        "PYTHONPATH": str(ROOT),
    }
    res = subprocess.run(
        [sys.executable, str(ROOT / "tests/e2e/layout_probe.py"), json.dumps({"steps": steps, **more})],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr[-3000:]
    got = json.loads(res.stdout.strip().splitlines()[-1])
    assert "error" not in got, got.get("error")
    return got


def assert_map_first(got: dict, tokens: int, floor: float = FLOOR) -> None:
    """The map's share, every token labelled, labels against the cells and whole, no stray pixels."""
    assert got["tokens"] == tokens
    assert got["share"] >= floor, got
    assert got["labels"] == [tokens, tokens], got
    assert got["row_gap"] <= GAP and got["key_gap"] <= GAP, got
    assert got["elided"] == [], got  # every token of these sentences is short: none is cut
    assert got["stray_pixels"] == 0, got  # nothing outside the cells, labels, axes and colour bar
    assert not got.get("title_cut"), got


def walk(tokens_16: str, tokens_28: str) -> list:
    return [
        {"text": tokens_16},
        {"measure": "16"},
        {"text": tokens_28},
        {"measure": "28"},
        {"focus": True},
        {"measure": "focus"},
        {"focus": False},
    ]


@pytest.fixture(scope="module")
def prepared_on_a_desk(screens, tmp_path_factory) -> Path:
    """Settings written on a 1920×1080 screen: 125 % text, Next token and Generate open, then quit."""
    config = tmp_path_factory.mktemp("desk")
    probe(
        screens("1920x1080"),
        config,
        [{"text": sentence_of(16)}, {"text_scale": 1.25}, {"open": "output"}, {"open": "generate"}, {"quit": True}],
    )
    saved = json.loads((config / "AttentionExplorer" / "attention-explorer.json").read_text())
    assert saved["text_scale"] == 1.25 and "window/state" in saved
    return config


@pytest.mark.parametrize("size", ["1280x720", "1366x768"])
def test_fresh_on_a_small_screen_the_map_comes_first(screens, tmp_path, size):
    got = probe(screens(size), tmp_path, walk(sentence_of(16), sentence_of(28)))
    assert got["16"]["maximized"], got["16"]  # every pixel of a small screen is the map's
    for tokens, name in ((16, "16"), (28, "28"), (28, "focus")):
        assert_map_first(got[name], tokens)
    assert got["28"]["key_cap"] >= KEY_CAP, got["28"]
    assert got["focus"]["cells"][3] >= got["28"]["cells"][3]  # Focus is never smaller than the normal view


@pytest.mark.parametrize("size", ["1280x720", "1366x768"])
def test_settings_from_a_desk_reopened_on_a_small_screen(screens, prepared_on_a_desk, tmp_path, size):
    config = tmp_path / "cfg"
    shutil.copytree(prepared_on_a_desk, config)
    got = probe(screens(size), config, walk(sentence_of(16), sentence_of(28)))
    assert got["16"]["maximized"], got["16"]
    for tokens, name in ((16, "16"), (28, "28"), (28, "focus")):
        assert_map_first(got[name], tokens)
    assert got["28"]["key_cap"] >= KEY_CAP, got["28"]
    assert got["focus"]["cells"][3] >= got["28"]["cells"][3]


def test_settings_from_a_small_screen_reopened_on_a_desk(screens, tmp_path):
    """The reverse: a layout saved at 1280×720 (Generate open) on a 1920×1080 screen, then slides there."""
    probe(screens("1280x720"), tmp_path, [{"text": sentence_of(16)}, {"open": "generate"}, {"quit": True}])
    steps = [{"measure": "16"}, {"slides": "slides"}, {"text": sentence_of(28)}, {"slides": "slides 28"}]
    got = probe(screens("1920x1080"), tmp_path, steps)
    assert_map_first(got["16"], 16)
    for name in ("slides", "slides 28"):  # a slide's labels keep their size, against the cells
        slides = got[name]
        assert slides["row_gap"] <= GAP and slides["key_gap"] <= GAP and slides["stray_pixels"] == 0, slides
        assert slides["share"] >= 0.5 and slides["elided"] == [], slides


@pytest.mark.parametrize("size", ["1280x720", "1366x768"])
def test_twice_the_text_size_keeps_the_map_first_and_gives_its_room_back(screens, tmp_path, size):
    """At 200 % text on a laptop the map kept 31 % of the height (the pipeline's lines, the hover line): the
    lines around it give way until it has its 40 %, nothing is cut, and back at 100 % they come back."""
    steps = [
        {"text": sentence_of(16)},
        {"measure": "before"},
        {"text_scale": 2.0},
        {"measure": "large 16"},
        {"text": sentence_of(28)},
        {"measure": "large 28"},
        {"focus": True},
        {"measure": "large focus"},
        {"focus": False},
        {"text": sentence_of(16)},
        {"text_scale": 1.0},
        {"measure": "back"},
    ]
    got = probe(screens(size), tmp_path, steps)
    for tokens in (16, 28):
        large = got[f"large {tokens}"]
        assert_map_first(large, tokens)  # at least 40 % of the height, labels whole and against the cells
        assert not large["caption_cut"], large  # the pipeline's lines and the hover line: whole, or cut with "…"
    assert got["large 28"]["key_cap"] >= KEY_CAP, got["large 28"]
    assert_map_first(got["large focus"], 28)
    assert got["large focus"]["cells"][3] >= got["large 28"]["cells"][3]  # Focus is never the smaller
    assert got["large 16"]["key_cap"] > got["before"]["key_cap"], got  # the labels grew with the text
    assert abs(got["back"]["cells"][3] - got["before"]["cells"][3]) <= 4, got  # no band left behind
    assert not got["back"]["folded"], got["back"]  # every line given back, whole


def test_in_japanese_the_map_comes_first_too(screens, tmp_path):
    got = probe(screens("1280x720"), tmp_path, walk(sentence_of(16), sentence_of(28)), lang="ja")
    for tokens, name in ((16, "16"), (28, "28"), (28, "focus")):
        assert_map_first(got[name], tokens)
