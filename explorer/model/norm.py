"""The normalisations a block can use before attention and FFN: LayerNorm (GPT-2) and RMSNorm (Llama)."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


class LayerNorm(nn.Module):
    """(x − mean) / √(var + ε) · weight + bias, over the last axis E."""

    def __init__(self, E: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(E))
        self.bias = nn.Parameter(torch.zeros(E))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.layer_norm(x, (x.shape[-1],), self.weight, self.bias, self.eps)


class RMSNorm(nn.Module):
    """x / √(mean(x²) + ε) · weight: LayerNorm without centring and without bias."""

    def __init__(self, E: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(E))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dtype in (torch.bfloat16, torch.float16):  # as Llama computes it: the norm in float32, then × weight
            x32 = x.float()
            return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)).to(x.dtype) * self.weight
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def make_norm(kind: str, E: int, eps: float) -> nn.Module | None:
    if kind == "layernorm":
        return LayerNorm(E, eps)
    if kind == "rmsnorm":
        return RMSNorm(E, eps)
    return None  # the note's bare block: no normalisation
