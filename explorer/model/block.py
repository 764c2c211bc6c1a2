"""One Transformer block: attention, then FFN, each with a pre-norm and a residual (as GPT-2).

With norm "none" and residual off it is the note's bare "Attention then FFN". The shape stays (C, E)
throughout, which is why blocks can be stacked.
"""

from __future__ import annotations

import torch

from explorer.config import ModelConfig
from explorer.model.attention import MultiHeadAttention
from explorer.model.capture import Captured
from explorer.model.ffn import FeedForward
from explorer.model.norm import make_norm


class Block(Captured):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.ln_attn = make_norm(cfg.norm, cfg.E, cfg.norm_eps)
        self.attn = MultiHeadAttention(cfg)
        self.ln_ffn = make_norm(cfg.norm, cfg.E, cfg.norm_eps)
        self.ffn = FeedForward(cfg)
        self.residual = cfg.residual

    def forward(self, x: torch.Tensor, allowed: torch.Tensor, scale: bool, rope=None, kv=None, empty=None) -> torch.Tensor:
        a = self.attn(self.ln_attn(x) if self.ln_attn is not None else x, allowed, scale, rope, kv, empty)  # (B, C, E)
        mid = self.capture("mid", x + a if self.residual else a)  # (B, C, E)
        f = self.ffn(self.ln_ffn(mid) if self.ln_ffn is not None else mid)  # (B, C, E)
        return self.capture("out", mid + f if self.residual else f)  # (B, C, E)
