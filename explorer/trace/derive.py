"""A trace's (C, C) maps derived when they are looked at, with the model's own arithmetic, so a derived map
equals the model's bit for bit.

A full trace stores S (scores) and A (weights); S/√D and the masked scores follow by one element-wise step
each. A lazy trace stores q and k; a head's four maps come from ``attention_maps`` on that head alone.

A run in a half dtype (bfloat16, float16) stored its tensors as float32 (explorer/trace/readable.py): they are
cast back to that dtype (exactly) and the maps derived in it, as the model computed them, then returned as
float32 again. Derived in float32 instead, S/√D and the weights would differ from the model's.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import torch

from explorer import names
from explorer.config import ModelConfig, RunOptions
from explorer.model.attention_chunked import attention_maps, mask_scores, scale_scores, scores_and_weights
from explorer.model.mask import empty_rows
from explorer.model.mask import per_head as per_head_mask
from explorer.model.score_transforms import soft_cap
from explorer.trace.layer_mask import layer_allowed
from explorer.trace.readable import as_run_tensor, readable


def derive_maps(
    arrays: Mapping[str, np.ndarray],
    cfg: ModelConfig,
    options: RunOptions,
    qk: tuple[str, str],
    layer: int,
    b: int | None,
    h: int | None,
    steps: bool = True,
) -> tuple[np.ndarray | None, ...]:
    """The four maps (scores, scaled, masked, weights) of head (b, h), or of every head when b is None:
    4 × (b, h, C, C) read-only arrays. ``qk``: the names of the stored q and k (after RoPE when it has one).
    ``steps=False``: only scores and weights (scaled and masked None), with fewer maps alive on the way.
    ``options``: the run's (its scaling, and its dtype, which the maps are derived in)."""
    scale, dtype = options.scale, options.dtype
    batch = slice(0, len(arrays["tokens"])) if b is None else slice(b, b + 1)
    heads = slice(0, cfg.H) if h is None else slice(h, h + 1)
    allowed = torch.from_numpy(np.array(layer_allowed(arrays["mask"][batch], cfg, layer)))  # (b, C, C): this layer's
    cap = cfg.attn_softcap  # Gemma 2: the mask applies to c·tanh(scaled / c)
    stored = names.attn(layer, "scores")
    with torch.inference_mode():
        if stored in arrays:
            S = as_run_tensor(arrays[stored][batch, heads], dtype)  # (b, h, C, C)
            S_scaled = scale_scores(S, cfg.score_dim, scale)
            A = as_run_tensor(arrays[names.attn(layer, "weights")][batch, heads], dtype)  # (b, h, C, C)
            return _frozen((S, S_scaled, mask_scores(S_scaled if cap is None else soft_cap(S_scaled, cap), allowed), A))
        if cfg.is_sliding(layer):  # the sliding window may block more than the run's mask
            empty = empty_rows(allowed)  # (b, 1, C, 1)
        elif "mask.empty_rows" in arrays:  # as the model had it
            empty = torch.from_numpy(np.array(arrays["mask.empty_rows"][batch]))[:, None, :, None]  # (b, 1, C, 1)
        else:  # a snapshot written before the trace stored it
            empty = empty_rows(allowed)  # (b, 1, C, 1)
        per_head = []
        for i in range(heads.start, heads.stop):
            g = names.kv_head_of(i, cfg.H, cfg.H_kv)  # the key head query head i reads
            q = as_run_tensor(arrays[qk[0]][batch, i : i + 1], dtype)  # (b, 1, C, D)
            k = as_run_tensor(arrays[qk[1]][batch, g : g + 1], dtype)  # (b, 1, C, D)
            if steps:
                per_head.append(attention_maps(q, k, allowed, scale, empty, cap, cfg.score_dim))
            else:
                S, A = scores_and_weights(q, k, ~per_head_mask(allowed), scale, empty, cap=cap, score_dim=cfg.score_dim)
                per_head.append((S, None, None, A))
        stages = range(4) if steps else (0, 3)
        maps = {s: torch.cat([p[s] for p in per_head], dim=1) for s in stages}  # (b, h, C, C) each
        return _frozen(tuple(maps.get(s) for s in range(4)))


def scaled_and_masked(
    S: np.ndarray, allowed: np.ndarray, D: float, scale: bool, cap: float | None = None, dtype: str = "float32"
) -> tuple[np.ndarray, np.ndarray]:
    """One head's S/√D and masked scores (C, C) from its S, by the model's own element-wise steps
    (``allowed``: the layer's mask, explorer/trace/layer_mask.py; ``cap``: Gemma 2's soft-cap)."""
    with torch.inference_mode():
        S_scaled = scale_scores(as_run_tensor(S, dtype), D, scale)
        capped = S_scaled if cap is None else soft_cap(S_scaled, cap)
        return _frozen((S_scaled, mask_scores(capped, torch.from_numpy(np.array(allowed)))))


def _frozen(maps) -> tuple[np.ndarray, ...]:
    """Torch maps → read-only numpy arrays (no copy; float32 for a half run, as the trace stores it)."""
    out = []
    for m in maps:
        if m is None:
            out.append(None)
            continue
        a = readable(m)
        a.flags.writeable = False
        out.append(a)
    return tuple(out)
