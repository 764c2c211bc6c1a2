"""Random initialisation that makes the note's story visible even before training.

Weight matrices get standard deviation 1/√fan_in, so a projection keeps unit variance: with unit-variance
inputs each entry of Q and K has variance about 1, Q·Kᵀ has variance about D, and dividing by √D brings it
back to 1 — the reason for the scaling, there to be seen on the first screen. Embedding tables are N(0, 1),
norms start as the identity, biases at 0. The generator runs on the CPU in float64 then casts, so a seed
gives the same numbers on every device and dtype.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from explorer.config import check_seed


def init_params(model: nn.Module, seed: int) -> None:
    gen = torch.Generator().manual_seed(check_seed(seed))  # a huge seed: ConfigError, not torch's ValueError
    with torch.no_grad():
        for name, p in model.named_parameters():
            leaf = name.rsplit(".", 1)[-1]
            if leaf == "weight":  # LayerNorm / RMSNorm scale
                values = torch.ones(p.shape, dtype=torch.float64)
            elif leaf == "bias" or leaf.startswith("b_"):
                values = torch.zeros(p.shape, dtype=torch.float64)
            elif leaf in ("tok", "pos"):
                values = torch.randn(p.shape, generator=gen, dtype=torch.float64)
            else:  # W_q, W_k, W_v, W_o, W_in, W_gate, W_out, W_u: (fan_in, fan_out); experts' (X, fan_in, fan_out)
                values = torch.randn(p.shape, generator=gen, dtype=torch.float64) / math.sqrt(p.shape[-2])
            p.copy_(values.to(p.dtype))
