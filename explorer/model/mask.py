"""Which keys each query may see: the boolean (B, C, C) matrix that the note's mask step uses.

True means "query i (row) may attend to key j (column)". The attention sets the blocked scores to −inf.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from explorer.config import MaskSpec
from explorer.errors import ConfigError, MaskTooSmall
from explorer.vocab import window_first_key


def base_mask(spec: MaskSpec, C: int, device: torch.device | str = "cpu") -> torch.Tensor:
    """The (C, C) pattern of a mask spec, before padding."""
    i = torch.arange(C, device=device).unsqueeze(1)  # (C, 1) query positions
    j = torch.arange(C, device=device).unsqueeze(0)  # (1, C) key positions
    if spec.kind == "causal":
        return j <= i  # (C, C) lower triangle: no peeking at the future
    if spec.kind == "none":
        return torch.ones(C, C, dtype=torch.bool, device=device)
    if spec.kind == "window":
        return (j <= i) & (j >= window_first_key(i, spec.size))  # query i sees keys i−W+1 … i
    if spec.kind == "prefix":
        return (j <= i) | ((i < spec.size) & (j < spec.size))  # the first P see each other
    if spec.kind == "explicit":
        matrix = torch.tensor(spec.matrix, dtype=torch.bool, device=device)
        n = matrix.shape[0]
        if n < C:
            raise MaskTooSmall(painted=n, tokens=C)
        return matrix[:C, :C]
    raise ConfigError(f"unknown mask {spec.kind!r}")


def build_mask(spec: MaskSpec, lengths: Sequence[int], C: int, device: torch.device | str = "cpu") -> torch.Tensor:
    """(B, C, C) allowed matrix: the spec's pattern, with padding keys (j ≥ length of row b) blocked."""
    pattern = base_mask(spec, C, device)  # (C, C)
    lengths_t = torch.tensor(list(lengths), device=device)  # (B,)
    key_is_real = torch.arange(C, device=device).unsqueeze(0) < lengths_t.unsqueeze(1)  # (B, C)
    if len(lengths) == 1 and spec.kind != "explicit":  # in place: one (C, C) alive, not two (32k tokens: 1 GB)
        return pattern.logical_and_(key_is_real).unsqueeze(0)  # (1, C, C)
    return pattern.unsqueeze(0) & key_is_real.unsqueeze(1)  # (B, C, C)


def mask_notices(spec: MaskSpec, C: int) -> list[str]:
    """Plain-words remarks on a mask that is legal but does not do what its name suggests at this C."""
    if spec.kind == "window" and spec.size >= C:
        return [f"window {spec.size} ≥ C = {C}: every query sees all earlier keys, the same as causal"]
    if spec.kind == "prefix" and spec.size >= C:
        return [f"prefix {spec.size} ≥ C = {C}: every token sees every other, the same as no mask"]
    return []


def per_head(allowed: torch.Tensor) -> torch.Tensor:
    """(B, C, C) → (B, 1, C, C), shared by every head; a per-head (B, H, C, C) mask is returned as it is."""
    return allowed.unsqueeze(1) if allowed.dim() == 3 else allowed


def empty_rows(allowed: torch.Tensor) -> torch.Tensor:
    """(B, 1, C, 1) (or (B, H, C, 1) for a per-head mask): True for a query that may see no key at all.

    Softmax over a row of −∞ gives 0/0; the attention defines such a row as all 0. The model computes this
    once per forward pass (and again only in a layer whose mask an intervention changed)."""
    return ~per_head(allowed).any(dim=-1, keepdim=True)
