"""trace_memory_ratio: resident bytes a trace adds to the process / bytes of the arrays it owns.

Parameters are excluded from both sides: a trace of a CPU float32 model shares them with the model (no
copy), so they add no resident memory. Classroom preset, a 600-token batch (maps stored: about 40 MB)."""

from __future__ import annotations

import gc

from common import current_rss_bytes, emit, figure


def main() -> None:
    import numpy as np

    from explorer.trace import run_trace
    from explorer.weights.presets import load_preset

    bundle = load_preset("classroom")
    text = "\n".join(["This is a pen . " * 60, "The big dog runs to the park . " * 50])
    run_trace(bundle, "This is a pen .")  # warm up: allocator pools, lazy imports
    gc.collect()
    before = current_rss_bytes()
    trace = run_trace(bundle, text)
    gc.collect()
    after = current_rss_bytes()
    own = sum(trace[n].nbytes for n in trace.stored_names() if not n.startswith("params."))
    ratio = (after - before) / own
    emit(
        {
            "trace_memory_ratio": figure(
                ratio,
                "ratio",
                "≤ 1.1",
                ratio <= 1.1,
                array_mb=round(own / 1e6, 1),
                resident_mb=round((after - before) / 1e6, 1),
                B=trace.B,
                C=trace.C,
            )
        }
    )
    del np


if __name__ == "__main__":
    main()
