"""trace_vs_peer_ratio (C = 256) and trace_vs_peer_ratio_1024 (C = 1024): the explorer's full trace of a
GPT-2-small-shaped model (every named stage; at C = 1024 the maps are derived on demand, as the app does)
against transformers' GPT2LMHeadModel eager forward with output_attentions and output_hidden_states, same
weights, same ids, float32. Medians of alternating runs in one process, so a loaded machine slows both
sides alike; the figure is the median of three such ratios (rounds of alternating runs).

The explorer's side is request → the next-token distribution after the last token, what the window's
"Next token" panel shows first: a trace derives its logits from final.out when they are read
(explorer/trace/logits.py), here the 64-row block holding the last row. The peer computes every row's
logits; ``all_logits_ratio`` in the detail is the explorer's side with every row's logits read as well.

trace_vs_peer_ratio_busy: the same C = 256 figure with one CPU-bound process (a Python ``while True`` loop, at
the same priority) running beside both sides all along, as on a laptop where another program is busy. Our
side then takes the cores the other program leaves (explorer/util/threads.py); the peer keeps torch's count.

    python benchmarks/bench_trace_vs_peer.py            # both contexts, then the busy figure
    python benchmarks/bench_trace_vs_peer.py 256        # one
    python benchmarks/bench_trace_vs_peer.py busy       # the busy figure alone
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from common import emit, figure, gpt2_small_bundle, median, random_text

REPEATS = {256: 5, 1024: 3}
ROUNDS = 3
KEYS = {256: "trace_vs_peer_ratio", 1024: "trace_vs_peer_ratio_1024"}
TARGETS = {"trace_vs_peer_ratio_busy": 0.9}
HOG = "while True: pass"


@contextmanager
def one_core_taken():
    """One CPU-bound process beside the benchmark, started before and stopped after it."""
    hog = subprocess.Popen([sys.executable, "-c", HOG])
    try:
        time.sleep(1.0)  # running, and seen by the cores' counters
        yield
    finally:
        hog.kill()
        hog.wait()


def measure(hf, bundle, context: int, repeats: int, key: str | None = None) -> dict:
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
    key = key or KEYS[context]
    target = TARGETS.get(key, 0.95)
    from explorer.util.threads import threads_wanted

    return {
        key: figure(
            ratio,
            "ratio",
            f"≤ {target}",
            ratio <= target,
            rounds=[round(r, 3) for r in ratios],
            explorer_s=round(median(t_ours), 3),
            peer_s=round(median(t_peer), 3),
            all_logits_ratio=round(median(all_ratios), 3),
            all_logits_s=round(median(t_all), 3),
            context=context,
            repeats=repeats,
            threads=torch.get_num_threads(),
            explorer_threads=threads_wanted(context * bundle.config.parameter_count()),
            load_1min=round(load, 2),
        )
    }


def main(contexts: list[int], busy: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        hf, bundle = gpt2_small_bundle(Path(tmp))
    figures: dict = {}
    for context in contexts:
        figures.update(measure(hf, bundle, context, REPEATS.get(context, 5)))
    if busy:
        with one_core_taken():
            figures.update(measure(hf, bundle, 256, REPEATS[256], key="trace_vs_peer_ratio_busy"))
    emit(figures)


if __name__ == "__main__":
    asked = sys.argv[1:]
    numbers = [int(a) for a in asked if a != "busy"]
    main(numbers or ([] if asked == ["busy"] else [256, 1024]), busy=not asked or "busy" in asked)
