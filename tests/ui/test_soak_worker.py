"""Soak through the window's worker: 1,000 re-traces requested from the state, each computed on the
TraceWorker's thread and handed back to the state, keep the resident memory flat.

Bound as in tests/core/test_soak.py: less than 30 MB of growth after a warm-up of 100 requests. Each
request is waited for, so every one is really traced (none is dropped by newest-wins).
"""

from __future__ import annotations

import gc
import os

import pytest
from live_state import live

from explorer.ui.bridge.state import AppState

pytestmark = pytest.mark.slow

GROWTH_BOUND_MB = 30
TEXTS = [
    "This is a pen .",
    "The cat sat on the mat .\nIs this a dog ?",
    "The big red dog runs to the park . " * 5,
    "zzqx 😀",
]


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1024**2


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc to read the resident set")
def test_a_thousand_worker_retraces_keep_memory_flat(qtbot):
    state = AppState(text="warm up")
    with live(state, qtbot):

        def retrace(i: int) -> None:
            with qtbot.waitSignal(state.traceChanged, timeout=20_000):
                state.set_text(TEXTS[i % len(TEXTS)] + " ." * (i % 2))  # always a new request

        for i in range(100):
            retrace(i)
        gc.collect()
        start = rss_mb()
        for i in range(1000):
            retrace(i)
        gc.collect()
        growth = rss_mb() - start
    print(
        f"\nworker soak: 1,000 traces, resident {start:.0f} MB after warm-up, growth {growth:+.1f} MB (bound "
        f"{GROWTH_BOUND_MB} MB)"
    )
    assert growth < GROWTH_BOUND_MB
