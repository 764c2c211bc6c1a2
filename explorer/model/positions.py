"""Positional information: sinusoidal tables, learned tables, and rotary embeddings (RoPE).

Self-attention alone cannot tell "dog bites man" from "man bites dog": the weights depend on the set of
tokens, not their order. Absolute positions add a vector per position to the token embedding; rotary
positions instead rotate q and k so that q_i·k_j depends on i − j.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import torch

from explorer.config.rope_scaling import RopeScaling
from explorer.model import rope_scaling


def sinusoidal_table(
    C: int, E: int, device: torch.device | str = "cpu", dtype: torch.dtype = torch.float32
) -> torch.Tensor:
    """(C, E) table of "Attention Is All You Need": PE[p, 2i] = sin(p / 10000^(2i/E)), PE[p, 2i+1] = cos(…).

    Sines and cosines interleave; for an odd E (the note's toy has E = 3) the last pair keeps its sine and
    drops its cosine, so column E−1 is sin(p / 10000^((E−1)/E)).
    """
    position = torch.arange(C, dtype=torch.float64, device=device).unsqueeze(1)  # (C, 1)
    freq = torch.exp(torch.arange(0, E, 2, dtype=torch.float64, device=device) * (-math.log(10_000.0) / E))  # (⌈E/2⌉,)
    table = torch.zeros(C, E, dtype=torch.float64, device=device)  # (C, E)
    table[:, 0::2] = torch.sin(position * freq)  # ⌈E/2⌉ sine columns
    table[:, 1::2] = torch.cos(position * freq[: E // 2])  # ⌊E/2⌋ cosine columns
    return table.to(dtype)


class Rope(NamedTuple):
    """What a layer turns q and k by: (C, R) cosines and sines of the new positions (already × the scaling's
    attention factor), and the (C, R) angles they come from (captured as ``layers.{l}.attn.rope_angles``)."""

    cos: torch.Tensor
    sin: torch.Tensor
    angles: torch.Tensor


def rope_cos_sin(
    C: int,
    D: int,
    theta: float,
    device: torch.device | str,
    dtype: torch.dtype,
    scaling: RopeScaling | None = None,
    start: int = 0,
) -> Rope:
    """Cosines and sines of positions start … C − 1, (C − start, D) each, for rotating pairs (i, i + D/2),
    the "rotate half" layout of Llama. ``D`` is the number of dimensions that turn: R < D of a head for
    partial rotary embeddings. ``scaling``: rotary scaling (explorer/model/rope_scaling.py), whose dynamic
    and longrope kinds depend on C, the length of the whole forward pass, as in transformers."""
    # float32 as Llama computes it; float64 runs get float64 angles (float32 angles are off by ~1e-7)
    work = torch.float64 if dtype == torch.float64 else torch.float32
    inv = rope_scaling.inv_freq(scaling, D, theta, C, device, work)  # (D/2,)
    position = torch.arange(start, C, device=device).to(work)  # (C − start,)
    angles = torch.outer(position, inv)  # (C − start, D/2)
    angles = torch.cat((angles, angles), dim=-1)  # (C − start, D): pair (i, i + D/2) turns by one angle
    factor = rope_scaling.attention_factor(scaling)
    cos, sin = angles.cos(), angles.sin()
    if factor != 1.0:  # yarn, longrope: q·k grows by factor²
        cos, sin = cos * factor, sin * factor
    return Rope(cos.to(dtype), sin.to(dtype), angles.to(dtype))


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotate (B, H, C, D) queries or keys by their position. With (C, R) angles for R < D (partial rotary,
    GPT-NeoX's rotary_pct) the first R dimensions turn and the other D − R pass unchanged."""
    R = cos.shape[-1]
    if R < x.shape[-1]:
        return torch.cat((apply_rope(x[..., :R], cos, sin), x[..., R:]), dim=-1)  # (B, H, C, R) ‖ (B, H, C, D − R)
    return (x * cos + rotate_half(x) * sin).to(x.dtype)  # (B, H, C, D); float32 turns of half q, k rounded once
