"""Which keys each query may see: the boolean (B, C, C) matrix that the note's mask step uses.

True means "query i (row) may attend to key j (column)". The attention sets the blocked scores to −inf.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
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


def causal_view(B: int, C: int) -> np.ndarray:
    """The causal (B, C, C) mask as a read-only numpy view of 2C − 1 booleans: allowed[b, i, j] = v[C − 1 + i − j],
    True where i ≥ j. A long text's trace keeps this instead of C × C booleans (256 MiB at 16,384 tokens, 1 GiB at
    32,768); slicing it, as every reader of a trace's mask does, gives the same values as the full matrix."""
    v = np.zeros(2 * C - 1, dtype=bool)
    v[C - 1 :] = True
    start = v[C - 1 :]  # allowed[b, 0, 0]; a step down a row is +1, a step along it −1 (never below v[0])
    view = np.lib.stride_tricks.as_strided(start, shape=(B, C, C), strides=(0, 1, -1), writeable=False)
    return view


def causal_stand_in(B: int, C: int) -> torch.Tensor:
    """What the model receives for a causal mask it never reads (a long text on the CPU, see
    ``explorer.trace.run``): a (B, C, C) tensor of no memory, vouched causal, so that the fused kernel applies its
    own causal masking and ``empty_rows`` finds, rightly, that every query sees a key (itself). Only for a model
    whose layers take the plain causal kernel: no sliding layers, no soft-cap, no intervention on the mask."""
    from explorer.model.attention_fused import vouch_causal

    stand_in = torch.ones((), dtype=torch.bool).expand(B, C, C)  # (B, C, C), one boolean of storage
    vouch_causal(stand_in)
    return stand_in
