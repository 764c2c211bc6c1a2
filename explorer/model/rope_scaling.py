"""RoPE's frequencies, plain or scaled, as transformers computes them (transformers/modeling_rope_utils.py,
the same operations in the same order, so that a float32 trace equals it to rounding).

The plain frequency of pair i of R turning dimensions is θ^(−2i/R): pair 0 turns by one radian a position,
the last pair barely at all. A scaling (explorer/config/rope_scaling.py) divides some of them so that a text
longer than the training context turns no pair further than training did. ``dynamic`` and ``longrope``
depend on the text's length ``seq_len`` (the positions 0 … seq_len − 1 the forward pass sees), as in
transformers.
"""

from __future__ import annotations

import math

import torch

from explorer.config.rope_scaling import RopeScaling


def plain_inv_freq(R: int, theta: float | torch.Tensor, device, work: torch.dtype) -> torch.Tensor:
    """(R/2,) θ^(−2i/R), i = 0 … R/2 − 1."""
    return 1.0 / (theta ** (torch.arange(0, R, 2, dtype=torch.int64, device=device).to(work) / R))


def inv_freq(
    scaling: RopeScaling | None, R: int, theta: float, seq_len: int, device, work: torch.dtype
) -> torch.Tensor:
    """(R/2,) the angle per position of each turning pair, for a forward pass over ``seq_len`` positions."""
    if scaling is None:
        return plain_inv_freq(R, theta, device, work)
    kind = scaling.kind
    if kind == "linear":
        return plain_inv_freq(R, theta, device, work) / scaling.factor
    if kind == "dynamic":
        return _dynamic(scaling, R, theta, seq_len, device, work)
    if kind == "yarn":
        return _yarn(scaling, R, theta, device, work)
    if kind == "llama3":
        return _llama3(scaling, R, theta, device, work)
    factors = scaling.long_factor if seq_len > scaling.original_max else scaling.short_factor  # longrope
    shape = torch.arange(0, R, 2, dtype=torch.int64, device=device).to(work) / R
    return 1.0 / (torch.tensor(factors, dtype=work, device=device) * theta**shape)


def _dynamic(s: RopeScaling, R: int, theta: float, seq_len: int, device, work: torch.dtype) -> torch.Tensor:
    """NTK-aware: past original_max the base grows, θ·(f·n/n₀ − (f − 1))^(R/(R−2)); below it, plain."""
    n = max(seq_len, s.original_max)
    if n == s.original_max:  # transformers keeps the frequencies it made at load time (its factor is exactly 1)
        return plain_inv_freq(R, theta, device, work)
    # transformers computes this base from a tensor length (float32); so do we, to match its rounding
    length = torch.tensor(n, dtype=torch.int64, device=device)
    base = theta * ((s.factor * length / s.original_max) - (s.factor - 1)) ** (R / (R - 2))
    return plain_inv_freq(R, base.to(work), device, work)


def _yarn(s: RopeScaling, R: int, theta: float, device, work: torch.dtype) -> torch.Tensor:
    """Pairs that turn fewer than beta_slow times over original_max are interpolated (÷ factor), more than
    beta_fast times kept, a linear ramp between."""

    def correction_dim(rotations: float) -> float:
        return (R * math.log(s.original_max / (rotations * 2 * math.pi))) / (2 * math.log(theta))

    low, high = correction_dim(s.beta_fast), correction_dim(s.beta_slow)
    if s.truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, R - 1)
    if low == high:
        high += 0.001  # as transformers: no division by zero
    pos_freqs = theta ** (torch.arange(0, R, 2, device=device).to(work) / R)
    extrapolation, interpolation = 1.0 / pos_freqs, 1.0 / (s.factor * pos_freqs)
    ramp = torch.clamp((torch.arange(R // 2, dtype=torch.float32, device=device) - low) / (high - low), 0, 1)
    keep = 1 - ramp.to(work)  # 1: the pair keeps its frequency (extrapolated), 0: divided by factor
    return interpolation * (1 - keep) + extrapolation * keep


def _llama3(s: RopeScaling, R: int, theta: float, device, work: torch.dtype) -> torch.Tensor:
    """Wavelengths above original_max / low_freq_factor ÷ factor, below original_max / high_freq_factor
    kept, a smooth blend between."""
    plain = plain_inv_freq(R, theta, device, work)
    low_wavelen, high_wavelen = s.original_max / s.low_freq_factor, s.original_max / s.high_freq_factor
    wavelen = 2 * math.pi / plain
    scaled = torch.where(wavelen > low_wavelen, plain / s.factor, plain)
    smooth = (s.original_max / wavelen - s.low_freq_factor) / (s.high_freq_factor - s.low_freq_factor)
    smoothed = (1 - smooth) * scaled / s.factor + smooth * scaled
    medium = ~(wavelen < high_wavelen) * ~(wavelen > low_wavelen)
    return torch.where(medium, smoothed, scaled)


def attention_factor(scaling: RopeScaling | None) -> float:
    """What cos and sin are multiplied by (yarn, longrope; 1 otherwise): q·k then grows by its square."""
    return 1.0 if scaling is None else scaling.attention_factor
