"""trace_vs_peer_ratio (C = 256) and trace_vs_peer_ratio_1024 (C = 1024): the explorer's full trace of a
GPT-2-small-shaped model (every named stage; at C = 1024 the maps are derived on demand, as the app does)
against transformers' GPT2LMHeadModel eager forward with output_attentions and output_hidden_states, same
weights, same ids, float32. Medians of alternating runs in one process, so a loaded machine slows both
sides alike; the figure is the median of three such ratios (rounds of alternating runs).

    python benchmarks/bench_trace_vs_peer.py            # both contexts
    python benchmarks/bench_trace_vs_peer.py 256        # one
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from common import emit, figure, gpt2_small_bundle, median, random_text

REPEATS = {256: 5, 1024: 3}
ROUNDS = 3
KEYS = {256: "trace_vs_peer_ratio", 1024: "trace_vs_peer_ratio_1024"}


def measure(hf, bundle, context: int, repeats: int) -> dict:
    import torch

    from explorer.config import RunOptions
    from explorer.trace import run_trace

    text, ids = random_text(context)
    ids_t = torch.tensor([ids])
    options = RunOptions()

    def ours():
        trace = run_trace(bundle, text, options)
        assert trace.C == context
        return trace

    def peer():
        with torch.inference_mode():
            return hf(ids_t, output_attentions=True, output_hidden_states=True)

    ours(), peer()  # warm up both
    ratios, t_ours, t_peer = [], [], []
    for _ in range(ROUNDS):
        mine, theirs = [], []
        for _ in range(repeats):
            t = time.perf_counter(); ours(); mine.append(time.perf_counter() - t)
            t = time.perf_counter(); peer(); theirs.append(time.perf_counter() - t)
        ratios.append(median(mine) / median(theirs))
        t_ours += mine
        t_peer += theirs
    ratio = median(ratios)
    load = os.getloadavg()[0]
    return {KEYS[context]: figure(ratio, "ratio", "≤ 0.95", ratio <= 0.95, rounds=[round(r, 3) for r in ratios],
                                  explorer_s=round(median(t_ours), 3), peer_s=round(median(t_peer), 3),
                                  context=context, repeats=repeats, threads=torch.get_num_threads(),
                                  load_1min=round(load, 2))}


def main(contexts: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        hf, bundle = gpt2_small_bundle(Path(tmp))
    figures: dict = {}
    for context in contexts:
        figures.update(measure(hf, bundle, context, REPEATS.get(context, 5)))
    emit(figures)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [256, 1024])
