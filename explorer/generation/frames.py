"""What the Generate panel shows at step t of a generation, cut from its arrays (numpy only, no torch).

The window renders these and computes nothing: the attention seen so far (the prefill's C×C map with the
decode rows beneath it), the K or V cache of one key/value head as it stood after step t, which of its rows
are new at that step, and the labels of every position.
"""

from __future__ import annotations

import numpy as np

from explorer.generation.result import Generation


def positions(generation: Generation, step: int) -> int:
    """Positions fed to the model by step t (0-based): the prompt and t generated tokens; also the
    number of keys step t's query sees and the rows of the cache after it."""
    return generation.prompt_tokens + step


def labels(generation: Generation, step: int) -> list[str]:
    """Token text of positions 0 … C + t − 1."""
    prompt = list(generation.trace.rows[0].tokens)
    return prompt + [s.token for s in generation.steps[:step]]


def attention_so_far(generation: Generation, layer: int, head: int, step: int) -> tuple[np.ndarray, np.ndarray]:
    """(map, blocked): an (n, n) matrix, n = C + t. Rows 0 … C−1 are the prefill's map; row C − 1 + s for
    s = 1 … t is decode step s's query row (step 0's row is the prefill's last row). ``blocked`` marks the
    keys a query cannot see (later positions)."""
    C = generation.prompt_tokens
    n = positions(generation, step)
    out = np.zeros((n, n), dtype=np.float32)
    out[:C, :C] = generation.trace.head_map(layer, "weights", 0, head)[:C, :C]
    rows = generation.trace[f"gen.layers.{layer}.attn.weights"][0, head]  # (T, C_total)
    for s in range(1, step + 1):
        out[C - 1 + s, : C + s] = rows[s, : C + s]
    blocked = np.triu(np.ones((n, n), dtype=bool), k=1)  # key j > query i: the future
    return out, blocked


def cache_table(generation: Generation, layer: int, kv_head: int, step: int, which: str) -> np.ndarray | None:
    """Head ``kv_head``'s cached keys (``which`` = "k") or values ("v") after step t: (C + t, D). None when
    the generation ran without the cache."""
    name = f"cache.layers.{layer}.{which}"
    if name not in generation.trace:
        return None
    return generation.trace[name][0, kv_head, : positions(generation, step)]


def new_rows(generation: Generation, step: int) -> range:
    """The cache rows written by step t: the whole prompt at step 0 (the prefill), then one row per step
    (the token chosen at the step before)."""
    C = generation.prompt_tokens
    return range(0, C) if step == 0 else range(C - 1 + step, C + step)
