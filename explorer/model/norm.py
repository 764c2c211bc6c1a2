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


HALF = (torch.bfloat16, torch.float16)


class RMSNorm(nn.Module):
    """x / √(mean(x²) + ε) · weight: LayerNorm without centring and without bias.

    In a half dtype it computes as transformers does: the norm in float32, then Llama rounds and multiplies
    by its half weight, while Gemma and OLMo 2 (``float32_weight``, set by the Transformer for those families)
    multiply by γ in float32 and round once; γ then stays float32 whatever dtype the model is cast to (Gemma's
    γ = 1 + w held as one bfloat16 number would not be the γ transformers uses)."""

    float32_weight = False

    def __init__(self, E: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(E))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dtype in HALF:
            x32 = x.float()
            normed = x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)
            if self.float32_weight:
                return (normed * self.weight.float()).to(x.dtype)
            return normed.to(x.dtype) * self.weight
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight

    def _apply(self, fn, recurse: bool = True):
        """Casting to a half dtype keeps a float32 γ float32 (moved to the new device); other casts as usual."""
        before = self.weight.data
        out = super()._apply(fn, recurse)
        if self.float32_weight and before.dtype == torch.float32 and self.weight.dtype in HALF:
            self.weight.data = before.to(self.weight.device)
        return out


def make_norm(kind: str, E: int, eps: float) -> nn.Module | None:
    if kind == "layernorm":
        return LayerNorm(E, eps)
    if kind == "rmsnorm":
        return RMSNorm(E, eps)
    return None  # the note's bare block: no normalisation
