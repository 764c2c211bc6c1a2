"""trace_vs_peer_ratio (C = 256) and trace_vs_peer_ratio_1024 (C = 1024): the explorer's full trace of a
GPT-2-small-shaped model (every named stage; at C = 1024 the maps are derived on demand, as the app does)
against transformers' GPT2LMHeadModel eager forward with output_attentions and output_hidden_states, same
weights, same ids, float32. Medians of alternating runs in one process, so a loaded machine slows both
sides alike; the figure is the median of three such ratios (rounds of alternating runs).

The explorer's side is request → the next-token distribution after the last token, what the window's
"Next token" panel shows first: a trace derives its logits from final.out when they are read
(explorer/trace/logits.py), here the 64-row block holding the last row. The peer computes every row's
logits; ``all_logits_ratio`` in the detail is the explorer's side with every row's logits read as well.

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
        trace.probs_row(0, context - 1)  # the distribution the window shows first
        return trace

    def ours_all():
        return run_trace(bundle, text, options)["logits"]  # every row's logits, as the peer computes

    def peer():
        with torch.inference_mode():
            return hf(ids_t, output_attentions=True, output_hidden_states=True)

    ours(), ours_all(), peer()  # warm up
    ratios, all_ratios, t_ours, t_all, t_peer = [], [], [], [], []
    for _ in range(ROUNDS):
        mine, every, theirs = [], [], []
        for _ in range(repeats):
            t = time.perf_counter()
            ours()
            mine.append(time.perf_counter() - t)
            t = time.perf_counter()
            peer()
            theirs.append(time.perf_counter() - t)
            t = time.perf_counter()
            ours_all()
            every.append(time.perf_counter() - t)
        ratios.append(median(mine) / median(theirs))
        all_ratios.append(median(every) / median(theirs))
        t_ours += mine
        t_all += every
        t_peer += theirs
    ratio = median(ratios)
    load = os.getloadavg()[0]
    return {
        KEYS[context]: figure(
            ratio,
            "ratio",
            "≤ 0.95",
            ratio <= 0.95,
            rounds=[round(r, 3) for r in ratios],
            explorer_s=round(median(t_ours), 3),
            peer_s=round(median(t_peer), 3),
            all_logits_ratio=round(median(all_ratios), 3),
            all_logits_s=round(median(t_all), 3),
            context=context,
            repeats=repeats,
            threads=torch.get_num_threads(),
            load_1min=round(load, 2),
        )
    }


def main(contexts: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        hf, bundle = gpt2_small_bundle(Path(tmp))
    figures: dict = {}
    for context in contexts:
        figures.update(measure(hf, bundle, context, REPEATS.get(context, 5)))
    emit(figures)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [256, 1024])
