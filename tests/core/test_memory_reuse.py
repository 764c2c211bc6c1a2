"""Freed memory between traces (explorer.util.memory.prepare_for): a moderate trace keeps the pages the
last one freed for reuse (a GPT-2-small trace of 256 tokens spent a fifth of its time faulting fresh pages
in), a large one hands them back as it goes (its peak stays low). Measured as how much of a freed 40 MB
block stays resident, in a fresh process each (the allocator settings are process-wide)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import os, sys
    import numpy as np
    from explorer.util.memory import TRIM_THRESHOLD_BYTES, prepare_for

    reuse = prepare_for(TRIM_THRESHOLD_BYTES // 4 if sys.argv[1] == "moderate" else 4 * TRIM_THRESHOLD_BYTES)
    rss = lambda: int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    before = rss()
    block = np.ones(40 * 2**20 // 8)  # 40 MB, every page touched
    del block
    print(reuse, (rss() - before) // 2**20)  # MB of the freed block still resident, ready for the next trace
""")


def _run(kind: str) -> tuple[str, int]:  # (reusing?, MB kept)
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, kind],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
    ).stdout.split()
    return out[0], int(out[1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the allocator settings are glibc's")
def test_a_moderate_trace_reuses_freed_pages_and_a_large_one_returns_them():
    reused, moderate_kept = _run("moderate")
    returned, large_kept = _run("large")
    if reused == "False":
        pytest.skip("not glibc: nothing to set")
    assert returned == "False"
    assert moderate_kept >= 30  # the freed block's pages stay, for the next trace to use without faults
    assert large_kept <= 5  # given back to the system when freed
