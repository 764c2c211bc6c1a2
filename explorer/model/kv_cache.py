"""The key/value cache of generation: each layer's keys and values of every position seen so far.

Writing token by token, the keys and values of earlier positions never change (a causal model's position j
reads only positions ≤ j), so a decode step computes q, k, v for the new token only and attends over the
stored keys. Keys are stored after RoPE (their rotation depends on their own position only) and with H_kv
heads: a grouped-query model caches H_kv, not H, heads, which is the point of grouping.
"""

from __future__ import annotations

import torch


class LayerKV:
    """One layer's cache: k (B, H_kv, C_total, D) and v (B, H_kv, C_total, D_v), None before the prefill.

    The tensors live in buffers that grow by doubling, so appending a token copies that token only (a
    torch.cat per step would copy the whole cache every step); ``k`` and ``v`` are views of the filled part.
    """

    def __init__(self) -> None:
        self._k: torch.Tensor | None = None  # (B, H_kv, capacity, D)
        self._v: torch.Tensor | None = None  # (B, H_kv, capacity, D_v)
        self._length = 0

    @property
    def length(self) -> int:
        return self._length

    @property
    def k(self) -> torch.Tensor | None:
        return None if self._k is None else self._k[:, :, : self._length]  # (B, H_kv, C_total, D)

    @property
    def v(self) -> torch.Tensor | None:
        return None if self._v is None else self._v[:, :, : self._length]  # (B, H_kv, C_total, D_v)

    def extend(self, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Append the new positions' k (B, H_kv, C_new, D) and v; return every position's k and v."""
        n = k.shape[2]
        needed = self._length + n
        if self._k is None or needed > self._k.shape[2]:
            capacity = max(needed, 2 * (0 if self._k is None else self._k.shape[2]), 16)
            grown_k = k.new_empty(*k.shape[:2], capacity, k.shape[3])  # (B, H_kv, capacity, D)
            grown_v = v.new_empty(*v.shape[:2], capacity, v.shape[3])  # (B, H_kv, capacity, D_v)
            if self._k is not None:
                grown_k[:, :, : self._length] = self.k
                grown_v[:, :, : self._length] = self.v
            self._k, self._v = grown_k, grown_v
        self._k[:, :, self._length : needed] = k
        self._v[:, :, self._length : needed] = v
        self._length = needed
        return self.k, self.v

    def truncate(self, length: int) -> None:
        """Forget every position from ``length`` on (to step back, or to time the same step again)."""
        self._length = max(0, min(length, self._length))


class KVCache:
    """Every layer's LayerKV; ``length`` is the number of positions already fed (the next one's index)."""

    def __init__(self, layers: int) -> None:
        self.layers = [LayerKV() for _ in range(layers)]

    @property
    def length(self) -> int:
        return self.layers[0].length if self.layers else 0

    def truncate(self, length: int) -> None:
        for kv in self.layers:
            kv.truncate(length)

    def nbytes(self) -> int:
        return sum(t.numel() * t.element_size() for kv in self.layers for t in (kv.k, kv.v) if t is not None)
