"""The end-to-end tests' X servers (tests/e2e/xvfb.py): started at the same moment, as modules on different
test workers are, each gets a display of its own that stays up; scanning for a free number gave two of them
the same one, and the first to end took the other's display with it."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.e2e.xvfb import start_xvfb, stop_xvfb

pytestmark = pytest.mark.e2e


def test_servers_started_together_get_displays_of_their_own():
    with ThreadPoolExecutor(4) as pool:
        started = list(pool.map(lambda _k: start_xvfb("320x240"), range(4)))
    try:
        displays = [display for _proc, display in started]
        assert len(set(displays)) == 4, displays
        for proc, display in started:
            assert proc.poll() is None, f"the server of {display} exited"
            assert Path(f"/tmp/.X11-unix/X{display[1:]}").exists()
    finally:
        for proc, _display in started:
            stop_xvfb(proc)
    assert all(proc.poll() is not None for proc, _d in started)
