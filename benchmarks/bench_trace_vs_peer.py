"""trace_vs_peer_ratio: the explorer's full trace of a GPT-2-small-shaped model (every named stage) against
transformers' GPT2LMHeadModel eager forward with output_attentions and output_hidden_states, same weights,
same ids, float32, C = 256. Medians of alternating runs in one process."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from common import emit, figure, gpt2_small_bundle, median, random_text


def main(repeats: int = 7, context: int = 256) -> None:
    import torch

    from explorer.config import RunOptions
    from explorer.trace import run_trace

    with tempfile.TemporaryDirectory() as tmp:
        hf, bundle = gpt2_small_bundle(Path(tmp))
    text, ids = random_text(context)
    ids_t = torch.tensor([ids])
    options = RunOptions()

    def ours():
        trace = run_trace(bundle, text, options)
        assert trace.C == context and not trace.options.lazy_pairwise
        return trace

    def peer():
        with torch.inference_mode():
            return hf(ids_t, output_attentions=True, output_hidden_states=True)

    ours(), peer()  # warm up both
    t_ours, t_peer = [], []
    for _ in range(repeats):
        t = time.perf_counter(); ours(); t_ours.append(time.perf_counter() - t)
        t = time.perf_counter(); peer(); t_peer.append(time.perf_counter() - t)
    ratio = median(t_ours) / median(t_peer)
    emit({"trace_vs_peer_ratio": figure(ratio, "ratio", "≤ 1.0", ratio <= 1.0,
                                        explorer_s=round(median(t_ours), 3), peer_s=round(median(t_peer), 3),
                                        context=context, repeats=repeats, threads=torch.get_num_threads())})


if __name__ == "__main__":
    main()
