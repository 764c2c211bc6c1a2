"""Soak: 1,000 re-traces of the classroom preset keep the process's resident memory flat.

Bound: after a warm-up of 100 traces (allocator pools, lazy imports, the float64 copy of the model), 1,000
more traces of varying texts, masks and precisions grow the resident set by less than 30 MB. A leak of one
trace's arrays per run (about 0.3 MB here) would add 300 MB; a leak of a few kilobytes per run would still
show up as tens of MB.
"""

from __future__ import annotations

import gc
import os

import pytest

from explorer.config import MaskSpec, RunOptions
from explorer.trace import run_trace
from explorer.weights.presets import load_preset

pytestmark = pytest.mark.slow

GROWTH_BOUND_MB = 30
TEXTS = [
    "This is a pen .",
    "The cat sat on the mat .\nIs this a dog ?",
    "The big red dog runs to the park and the cat sat on the mat . " * 6,
    "zzqx florb 😀 これは",
]
OPTIONS = [
    RunOptions(),
    RunOptions(mask=MaskSpec.parse("window:2"), scale=False),
    RunOptions(mask=MaskSpec.parse("none"), dtype="float64"),
    RunOptions(mask=MaskSpec.parse("prefix:3"), temperature=0.5),
]


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1024**2


def soak(n: int, trace_once) -> tuple[float, float]:
    """(resident MB after the warm-up, growth in MB over ``n`` more runs)."""
    kept = None
    for i in range(100):
        kept = trace_once(i)
    gc.collect()
    start = rss_mb()
    for i in range(n):
        kept = trace_once(i)  # the window keeps the latest trace too: one alive at a time
    del kept
    gc.collect()
    return start, rss_mb() - start


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc to read the resident set")
def test_a_thousand_retraces_keep_memory_flat():
    bundle = load_preset("classroom")
    start, growth = soak(
        1000, lambda i: run_trace(bundle, TEXTS[i % len(TEXTS)], OPTIONS[(i // len(TEXTS)) % len(OPTIONS)])
    )
    print(
        f"\ncore soak: 1,000 traces, resident {start:.0f} MB after warm-up, growth {growth:+.1f} MB (bound "
        f"{GROWTH_BOUND_MB} MB)"
    )
    assert growth < GROWTH_BOUND_MB
