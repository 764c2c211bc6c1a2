"""A trace's numbers do not depend on the thread that computes it (issue 28).

MKL's matrix product gives different roundings with one and with two threads for some shapes (a long inner
dimension: an FFN's down-projection of 3,072, a single row against 768 columns; measured on this project's
machines), and torch's thread count belongs to each thread (torch.set_num_threads on the calling one; a new
thread starts from whatever was set last, anywhere). So the same request traced on the window's worker and
on the main thread differed in the last bits whenever the two threads had come to different counts. Every
trace now sets its own count from its size alone (explorer/util/threads.py), on the thread that runs it.
"""

from __future__ import annotations

import threading

import numpy as np
import torch

from explorer.config import ModelConfig
from explorer.trace import run_trace
from explorer.util.threads import default_threads
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import preset_tokenizer

TEXT = "This is a pen .\nThe cat is on the mat ."


def _on_thread(fn, threads: int):
    """fn() on a fresh thread whose torch thread count is ``threads`` when it starts."""
    out = {}

    def run():
        torch.set_num_threads(threads)
        out["value"] = fn()

    t = threading.Thread(target=run)
    t.start()
    t.join()
    return out["value"]


def test_the_same_trace_on_any_thread_with_any_thread_count_is_bit_for_bit_the_same():
    words = preset_tokenizer("words-en.json")
    # an FFN inner size of 3,072 (GPT-2 small's): its down-projection rounds differently on 1 and 2 threads
    cfg = ModelConfig(words.vocab_size, embed_dim=64, key_dim=16, heads=4, layers=2, ffn_dim=3072)
    bundle = random_bundle(cfg, words, 3)
    default_threads()  # read before this test changes any count (large runs of later tests keep it)
    before = torch.get_num_threads()
    try:
        traces = [_on_thread(lambda: run_trace(bundle, TEXT), n) for n in (1, 2)]
        torch.set_num_threads(2)
        traces.append(run_trace(bundle, TEXT))
        torch.set_num_threads(1)
        traces.append(run_trace(bundle, TEXT))
    finally:
        torch.set_num_threads(before)
    first = traces[0]
    for other in traces[1:]:
        for name in first.stored_names():
            assert np.array_equal(first[name], other[name]), name
