"""No C × C array at 16,384 tokens (issue 43): a real traced run of a tiny model, in a fresh process, reads a
query's whole row and a 512 × 512 tile of its maps while its memory is watched. One head's float32 map
would be 1 GiB and the causal mask as booleans 256 MiB: neither is made (the trace's mask is a view of 2C − 1
booleans, explorer/model/mask.py). tracemalloc sees numpy's allocations, the peak resident size everything
(torch's included): measured, the run grew by 63 MB in all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
C = 16_384
ONE_MAP = C * C * 4  # bytes of one head's float32 (C, C) map

SCRIPT = textwrap.dedent(f"""
    import json, resource, tracemalloc
    import numpy as np
    from explorer.config import ModelConfig, RunOptions
    from explorer.trace import run_trace
    from explorer.weights.bundle import random_bundle
    from explorer.weights.presets import preset_tokenizer

    C = {C}
    words = preset_tokenizer("words-en.json")
    cfg = ModelConfig(words.vocab_size, embed_dim=16, key_dim=8, heads=2, kv_heads=1, layers=2, positions="rope",
                      norm="rmsnorm", max_positions=C)
    bundle = random_bundle(cfg, words, seed=1)
    text = " ".join(["the cat sat on the mat"] * (C // 6 + 10))
    rss = lambda: int(open("/proc/self/statm").read().split()[1]) * 4096
    before = max(rss(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
    tracemalloc.start()
    trace = run_trace(bundle, text, RunOptions())
    row = trace.map_row(1, "weights", 0, 1, C - 1)
    tile = trace.tile(1, "weights", 0, 0, (C - 512, C), (C - 1024, C - 512))
    _, numpy_peak = tracemalloc.get_traced_memory()
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    kept = [n for n in trace.stored_names() if not n.startswith("params.") and trace[n].dtype != bool]
    print(json.dumps(dict(C=trace.C, tiled=[trace.tiled(l) for l in range(2)], row_sum=float(row.sum(dtype=np.float64)),
        tile=list(tile.shape), numpy_peak=numpy_peak, growth=growth, largest=max(trace[n].nbytes for n in kept),
        mask_span=int(np.subtract(*np.lib.array_utils.byte_bounds(trace["mask"])[::-1])),
        mask_exact=bool((np.array(trace["mask"][0, C - 300 :, C - 600 : C - 200])
                         == (np.arange(C - 600, C - 200)[None, :] <= np.arange(C - 300, C)[:, None])).all()))))
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for the resident size")
def test_a_16k_token_trace_holds_no_map():
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["C"] == C and got["tiled"] == [True, True]
    assert abs(got["row_sum"] - 1) <= 1e-5 and got["tile"] == [512, 512]
    assert got["largest"] < ONE_MAP / 64  # no float array of C × C (nor of C × C / 64) in the trace
    assert got["numpy_peak"] < ONE_MAP / 16  # numpy never held a map, nor a quarter of one's rows
    assert got["mask_span"] < 4 * C and got["mask_exact"]  # the mask: the causal values from 2C − 1 booleans
    assert got["growth"] < ONE_MAP / 8  # q, k, lse and the last rows: half of what a boolean mask alone would be


def test_the_memory_estimate_of_a_long_causal_text_holds_no_c_squared_term():
    """Checked before the work: a 16,384-token sentence under the causal mask counts no (C, C) of anything; two
    sentences (one may be padded) or a window mask count the boolean mask, which their run does make."""
    from explorer.config import MaskSpec, ModelConfig, RunOptions, estimate_memory
    from explorer.weights.presets import preset_tokenizer

    words = preset_tokenizer("words-en.json")
    cfg = ModelConfig(words.vocab_size, embed_dim=16, key_dim=8, heads=2, kv_heads=1, layers=2, positions="rope",
                      norm="rmsnorm", max_positions=C)  # fmt: skip
    one = estimate_memory(cfg, 1, C, RunOptions())
    assert one.peak_bytes < C * C  # not even one boolean per cell
    assert estimate_memory(cfg, 2, C, RunOptions()).peak_bytes > 2 * 2 * C * C  # the mask and its making
    assert estimate_memory(cfg, 1, C, RunOptions(mask=MaskSpec("window", 64))).peak_bytes > 2 * C * C
