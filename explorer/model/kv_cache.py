"""The key/value cache of generation: each layer's keys and values of every position seen so far.

Writing token by token, the keys and values of earlier positions never change (a causal model's position j
reads only positions ≤ j), so a decode step computes q, k, v for the new token only and attends over the
stored keys. Keys are stored after RoPE (their rotation depends on their own position only) and with H_kv
heads: a grouped-query model caches H_kv, not H, heads, which is the point of grouping.
"""

from __future__ import annotations

import torch


class LayerKV:
    """One layer's cache: k (B, H_kv, C_total, D) and v (B, H_kv, C_total, D_v), None before the prefill."""

    def __init__(self) -> None:
        self.k: torch.Tensor | None = None
        self.v: torch.Tensor | None = None

    @property
    def length(self) -> int:
        return 0 if self.k is None else int(self.k.shape[2])

    def extend(self, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Append the new positions' k (B, H_kv, C_new, D) and v; return every position's k and v."""
        if self.k is None:
            self.k, self.v = k, v
        else:
            self.k = torch.cat((self.k, k), dim=2)  # (B, H_kv, C_total + C_new, D)
            self.v = torch.cat((self.v, v), dim=2)  # (B, H_kv, C_total + C_new, D_v)
        return self.k, self.v


class KVCache:
    """Every layer's LayerKV; ``length`` is the number of positions already fed (the next one's index)."""

    def __init__(self, layers: int) -> None:
        self.layers = [LayerKV() for _ in range(layers)]

    @property
    def length(self) -> int:
        return self.layers[0].length if self.layers else 0

    def nbytes(self) -> int:
        return sum(t.numel() * t.element_size() for kv in self.layers for t in (kv.k, kv.v) if t is not None)
