"""Exact tiles of a layer's (C, C) maps, computed from what a long text's trace keeps instead of the maps:
each head's q rows, its key head's k rows and each query row's log-sum-exp (``layers.{l}.attn.lse``).

    scores  = q[r0:r1] · k[c0:c1]ᵀ                         (rows × cols, never C × C)
    scaled  = scores / √D            masked = −∞ where the layer's mask blocks (after Gemma 2's soft-cap)
    weights = exp(masked − lse[r0:r1])                     the softmax's own value, without its row sum

A trace that did not keep lse (a shorter text traced lazily) gets it for the rows asked by a pass over
blocks of those rows against every key they see (explorer/model/attention_rows.py): the same formula.
Everything here reads rows × C numbers at most, so a 32k-token map is never built to show a corner of it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import torch

from explorer import names
from explorer.config import ModelConfig
from explorer.model.attention_rows import key_span, masked_block, rows_per_block
from explorer.trace.layer_mask import allowed_block

Span = tuple[int, int]


@dataclass(frozen=True)
class LayerMaps:
    """What one layer's tiles are computed from: the trace's arrays (q, k, lse, mask), its model's config and
    whether the scores were scaled."""

    arrays: Mapping[str, np.ndarray]
    cfg: ModelConfig
    scale: bool
    layer: int

    @property
    def root(self) -> float | None:
        """What the scores are divided by: √D (Gemma 2/3: √query_pre_attn_scalar); None when not scaled."""
        return math.sqrt(self.cfg.score_dim) if self.scale else None


def seen_keys(mask: np.ndarray, cfg: ModelConfig, layer: int, b: int, rows: Span) -> Span:
    """(k0, k1): every key these query rows may see in ``layer`` lies in k0 … k1 − 1 ((0, 0): none)."""
    C = mask.shape[-1]
    return key_span(torch.from_numpy(np.array(allowed_block(mask, cfg, layer, b, rows, (0, C)))))


def _q_and_k(maps: LayerMaps, b: int, h: int, rows: Span, cols: Span) -> tuple[torch.Tensor, torch.Tensor]:
    """Head h's q rows (r, D) and its key head's k rows (c, D) as torch tensors (copies of rows × D)."""
    cfg = maps.cfg
    q_name, k_name = names.qk(maps.layer, cfg.positions)
    g = names.kv_head_of(h, cfg.H, cfg.H_kv)  # grouped-query attention: the key head query head h reads
    q = torch.from_numpy(np.array(maps.arrays[q_name][b, h, rows[0] : rows[1]]))
    k = torch.from_numpy(np.array(maps.arrays[k_name][b, g, cols[0] : cols[1]]))
    return q, k


def _allowed(maps: LayerMaps, b: int, rows: Span, cols: Span) -> torch.Tensor:
    return torch.from_numpy(np.array(allowed_block(maps.arrays["mask"], maps.cfg, maps.layer, b, rows, cols)))


def rows_lse(maps: LayerMaps, b: int, h: int, rows: Span) -> np.ndarray:
    """(r,) each query row's log-sum-exp: the stored ``attn.lse`` where the trace kept it, else computed
    from q and k by blocks of rows against the keys they see (−∞ for a row that sees none)."""
    stored = names.attn(maps.layer, "lse")
    if stored in maps.arrays:
        return maps.arrays[stored][b, h, rows[0] : rows[1]]
    C = maps.arrays["mask"].shape[-1]
    dtype = maps.arrays[names.qk(maps.layer, maps.cfg.positions)[0]].dtype
    out = np.full(rows[1] - rows[0], -np.inf, dtype=dtype)
    step = rows_per_block(1, 1, C, out.itemsize)
    with torch.inference_mode():
        for r0 in range(rows[0], rows[1], step):
            r1 = min(rows[1], r0 + step)
            allowed = _allowed(maps, b, (r0, r1), (0, C))  # (r, C)
            k0, k1 = key_span(allowed)
            if k0 == k1:
                continue
            q, k = _q_and_k(maps, b, h, (r0, r1), (k0, k1))
            masked = masked_block(q, k, allowed[:, k0:k1], maps.root, maps.cfg.attn_softcap)  # (r, k)
            out[r0 - rows[0] : r1 - rows[0]] = torch.logsumexp(masked, dim=-1).numpy()
    return out


def compute_tile(maps: LayerMaps, stage: str, b: int, h: int, rows: Span, cols: Span) -> np.ndarray:
    """(r1 − r0, c1 − c0): the cells of head (b, h)'s ``stage`` map of the layer in rows × cols, computed
    from q, k and the rows' lse with the model's order of steps. Read-only."""
    if stage not in names.PAIRWISE_STAGES:
        raise ValueError(f"stage must be one of {', '.join(names.PAIRWISE_STAGES)}, got {stage!r}")
    with torch.inference_mode():
        if stage in ("masked", "weights"):
            out = _after_mask(maps, stage, b, h, rows, cols)
        else:
            q, k = _q_and_k(maps, b, h, rows, cols)
            out = torch.mm(q, k.T)  # (r, D) · (D, c) → (r, c)
            if stage == "scaled" and maps.root is not None:
                out = out / maps.root
        tile = out.numpy()
    tile.flags.writeable = False
    return tile


def _after_mask(maps: LayerMaps, stage: str, b: int, h: int, rows: Span, cols: Span) -> torch.Tensor:
    """The masked scores or the weights exp(masked − lse) of one tile. Only the keys some row of the tile
    may see are computed: the rest is −∞ (weight 0) by the mask alone (a causal tile above the diagonal)."""
    allowed = _allowed(maps, b, rows, cols)  # (r, c)
    dtype = maps.arrays[names.qk(maps.layer, maps.cfg.positions)[0]].dtype
    out = torch.full(tuple(allowed.shape), float("-inf") if stage == "masked" else 0.0, dtype=_torch_dtype(dtype))
    k0, k1 = key_span(allowed)
    if k0 == k1:
        return out
    q, k = _q_and_k(maps, b, h, rows, (cols[0] + k0, cols[0] + k1))
    masked = masked_block(q, k, allowed[:, k0:k1], maps.root, maps.cfg.attn_softcap)  # (r, k1 − k0)
    if stage == "weights":
        lse = torch.from_numpy(np.array(rows_lse(maps, b, h, rows), dtype=dtype)).unsqueeze(1)  # (r, 1)
        masked = torch.exp(masked.sub_(lse)).masked_fill_(torch.isneginf(lse), 0.0)  # a row without keys: 0
    out[:, k0:k1] = masked
    return out


def _torch_dtype(dtype: np.dtype) -> torch.dtype:
    return torch.from_numpy(np.zeros(0, dtype)).dtype
