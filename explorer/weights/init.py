"""Random initialisation that makes the note's story visible even before training.

Weight matrices get standard deviation 1/√fan_in, so a projection keeps unit variance: with unit-variance
inputs each entry of Q and K has variance about 1, Q·Kᵀ has variance about D, and dividing by √D brings it
back to 1 — the reason for the scaling, there to be seen on the first screen. Embedding tables are N(0, 1),
norms start as the identity, biases at 0. The generator runs on the CPU in float64 then casts, so a seed
gives the same numbers on every device and dtype. A large parameter is drawn a block at a time: the float64
draw of a whole 128,256 × 2,048 embedding was a 2.1 GB second copy beside the float32 weights.
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
                _normal_into(p, gen, 1.0)
                continue
            else:  # W_q, W_k, W_v, W_o, W_in, W_gate, W_out, W_u: (fan_in, fan_out); experts' (X, fan_in, fan_out)
                _normal_into(p, gen, math.sqrt(p.shape[-2]))
                continue
            p.copy_(values.to(p.dtype))


# Numbers drawn per block (float64: 8 MB). A multiple of 16: torch draws normals 16 at a time, so blocks of it
# continue one stream exactly as one draw of the whole would (a last block of fewer than 16 would not: it is
# joined to the one before).
BLOCK = 1 << 20


def _normal_into(p: torch.Tensor, gen: torch.Generator, divisor: float) -> None:
    """Fill ``p`` with N(0, 1) / divisor drawn in float64, block by block: the numbers of one whole draw."""
    flat, n, start = p.view(-1), p.numel(), 0
    while start < n:
        stop = n if n - start < BLOCK + 16 else start + BLOCK
        values = torch.randn(stop - start, generator=gen, dtype=torch.float64)
        flat[start:stop] = (values / divisor if divisor != 1.0 else values).to(p.dtype)
        start = stop
