"""The window as Orca sees it (issue 27): the installed app on an Xvfb display, its accessible tree read over
the AT-SPI bus by a separate client (tests/e2e/atspi_probe.py, run with the system Python that Debian's
python3-pyatspi is built for), in a private D-Bus session.

Checked: no unnamed push button, spin box, combo box, check box, slider or tab anywhere in the tree (hidden
panels too); every control on screen has a description; a client that focuses the central map and presses
Down, Down, Down, Right hears the cell: "query 3 pen, key 1 is, weight …, row sum 1".

Skipped only when the Debian packages are absent (packaging/debian-packages.txt installs them).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.xvfb import start_xvfb, stop_xvfb

pytestmark = pytest.mark.e2e

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SYSTEM_PYTHON = "/usr/bin/python3"
BUS_LAUNCHERS = ("/usr/libexec/at-spi-bus-launcher", "/usr/lib/at-spi2-core/at-spi-bus-launcher")
PACKAGES = "xvfb dbus at-spi2-core python3-pyatspi (sudo apt-get install $(cat packaging/debian-packages.txt))"


def _missing() -> str | None:
    if shutil.which("Xvfb") is None:
        return "Xvfb"
    if shutil.which("dbus-run-session") is None:
        return "dbus-run-session (package dbus)"
    if not any(Path(p).exists() for p in BUS_LAUNCHERS):
        return "at-spi-bus-launcher (package at-spi2-core)"
    if not Path(SYSTEM_PYTHON).exists():
        return SYSTEM_PYTHON
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, text=True)
    if probe.returncode != 0:
        return "python3-pyatspi for /usr/bin/python3"
    return None


@pytest.fixture(scope="module")
def display():
    missing = _missing()
    if missing is not None:
        pytest.skip(f"the AT-SPI check needs {missing}: install {PACKAGES}")
    proc, display = start_xvfb("1600x1000")
    yield display
    stop_xvfb(proc)


def _app_command() -> list[str]:
    exe = Path(sys.executable).with_name("attention-explorer")
    start = [str(exe)] if exe.exists() else [sys.executable, "-m", "explorer"]
    return [*start, "gui", "--size", "1400x900", "--text", "This is a pen .", "--preset", "classroom"]


@pytest.fixture(scope="module")
def seen(display, tmp_path_factory):
    cfg = tmp_path_factory.mktemp("cfg")
    env = {
        **os.environ,
        "DISPLAY": display,
        "QT_QPA_PLATFORM": "xcb",
        "QT_ACCESSIBILITY": "1",
        "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
        "XDG_CONFIG_HOME": str(cfg),
        "NO_AT_BRIDGE": "0",
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p),
    }
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)  # a bus of our own: dbus-run-session starts it, and AT-SPI's
    proc = subprocess.run(
        ["dbus-run-session", "--", SYSTEM_PYTHON, str(HERE / "atspi_probe.py"), "--", *_app_command()],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert lines, f"the probe printed no result (exit {proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    result = json.loads(lines[-1])
    assert result.get("ok"), f"{result.get('error')}\n{proc.stderr[-3000:]}"
    return result


def test_the_tree_has_the_window_controls(seen):
    counts = seen["counts"]
    # A real tree: hundreds of nodes, the kinds of control the window has (an empty bridge would pass the rest).
    assert counts.get("push button", 0) > 30 and counts.get("spin button", 0) > 10
    assert (
        counts.get("combo box", 0) > 5 and counts.get("check box", 0) > 5 and counts.get("page tab", 0) > 2
    )  # most panels wait on their strips (issue 22)
    assert counts.get("slider", 0) >= 1


def test_no_unnamed_control(seen):
    assert seen["unnamed"] == []


def test_every_control_on_screen_is_described(seen):
    assert seen["undescribed"] == []


def test_the_focused_map_cell_is_announced(seen):
    assert seen["focus_granted"]
    said = " ".join(seen["focused_map"].split())
    assert said.startswith("query 3 pen, key 1 is, weight "), said
    assert said.endswith(", row sum 1"), said
    weight = float(said.split("weight ")[1].split(",")[0])
    assert 0 <= weight <= 1
    # Orca speaks what it hears: the name-change events of the cell, one per key, ending on this cell.
    assert seen["heard"] and " ".join(seen["heard"][-1].split()) == said
    assert len(seen["heard"]) >= 4
    assert "Arrow keys" in seen["description"]
