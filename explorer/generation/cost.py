"""What one generation step costs, counted from the shapes (no tensors): multiply-adds with and without the
KV cache, and the cache's memory. The window's cost line and the CLI's JSON read these numbers.

One token through one layer, with C keys in view:
  projections  E·(H·D) for q, E·(H_kv·D) for k, E·(H_kv·D_v) for v, (H·D_v)·E for W_o
  attention    H·C·D for q·Kᵀ and H·C·D_v for weights·V
  FFN          E·F up (twice for a gated FFN) and F·E down
and the unembedding E·V. Without the cache a step recomputes all C positions: C times the per-token work,
H·C²·(D + D_v) for the maps (every earlier query is computed again) and C·E·V for the logits of every
position (the model computes them all; only the last is used).
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.config import ModelConfig


def _per_token_linear(cfg: ModelConfig) -> int:
    E, D, Dv, H, Hkv, F = cfg.E, cfg.D, cfg.D_v, cfg.H, cfg.H_kv, cfg.F
    w_o = 0 if cfg.unfactored_value else H * Dv * E
    ffn = E * F * (2 if cfg.gated else 1) + F * E
    return E * H * D + E * Hkv * D + E * Hkv * Dv + w_o + ffn


def step_macs(cfg: ModelConfig, C: int, cached: bool) -> int:
    """Multiply-adds of the step whose query is at position C − 1 (C keys in view)."""
    H, D, Dv, L = cfg.H, cfg.D, cfg.D_v, cfg.L
    if cached:
        return L * (_per_token_linear(cfg) + H * C * (D + Dv)) + cfg.E * cfg.V
    return L * (C * _per_token_linear(cfg) + H * C * C * (D + Dv)) + C * cfg.E * cfg.V


def cache_bytes(cfg: ModelConfig, C: int, itemsize: int, B: int = 1, heads: int | None = None) -> int:
    """Bytes of the cache after C positions: k and v of every layer, ``heads`` key/value heads (H_kv)."""
    heads = cfg.H_kv if heads is None else heads
    return B * cfg.L * heads * C * (cfg.D + cfg.D_v) * itemsize


@dataclass(frozen=True)
class StepCost:
    keys: int  # C: the keys the new query sees
    macs_cache: int
    macs_no_cache: int
    cache_bytes: int  # the cache holding H_kv heads
    cache_bytes_all_heads: int  # what it would hold with H heads (equal unless grouped-query)

    @property
    def saving(self) -> float:
        """How many times fewer multiply-adds the cache needs."""
        return self.macs_no_cache / max(self.macs_cache, 1)


def step_cost(cfg: ModelConfig, C: int, itemsize: int = 4) -> StepCost:
    return StepCost(
        C,
        step_macs(cfg, C, True),
        step_macs(cfg, C, False),
        cache_bytes(cfg, C, itemsize),
        cache_bytes(cfg, C, itemsize, heads=cfg.H),
    )
