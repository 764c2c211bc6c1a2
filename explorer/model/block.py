"""One Transformer block: attention, then FFN, each with a pre-norm and a residual (as GPT-2).

With norm "none" and residual off it is the note's bare "Attention then FFN". The shape stays (C, E)
throughout, which is why blocks can be stacked.

Real families move the norms (``ModelConfig.norm_placement``) or run the two sublayers side by side:

    pre       mid = x + attn(norm(x))            out = mid + ffn(norm(mid))            GPT-2, Llama
    post      mid = norm(x + attn(x))            out = norm(mid + ffn(mid))            BERT
    sandwich  mid = x + norm(attn(norm(x)))      out = mid + norm(ffn(norm(mid)))      Gemma 2 and 3
    output    mid = x + norm(attn(x))            out = mid + norm(ffn(mid))            OLMo 2
    parallel  mid = x + attn(norm(x))            out = mid + ffn(norm(x))              GPT-NeoX (the FFN reads x)
"""

from __future__ import annotations

import torch

from explorer.config import ModelConfig
from explorer.model.attention import MultiHeadAttention
from explorer.model.capture import Captured
from explorer.model.ffn import FeedForward
from explorer.model.moe import MixtureOfExperts
from explorer.model.norm import make_norm


class Block(Captured):
    def __init__(self, cfg: ModelConfig, layer: int = 0) -> None:
        super().__init__()

        def norm(present: bool):
            return make_norm(cfg.norm, cfg.E, cfg.norm_eps) if present else None

        self.ln_attn = norm(cfg.pre_norms or cfg.post_norms)  # before attention, or after its sum (post)
        self.attn = MultiHeadAttention(cfg)
        self.ln_attn_out = norm(cfg.out_norms)  # of attention's output, before the sum
        self.ln_ffn = norm(cfg.pre_norms or cfg.post_norms)
        self.ffn = MixtureOfExperts(cfg) if cfg.is_moe(layer) else FeedForward(cfg)  # Mixtral, OLMoE, Qwen-MoE
        self.ln_ffn_out = norm(cfg.out_norms)
        self.residual = cfg.residual
        self.post = cfg.post_norms
        self.parallel = cfg.parallel_block

    def forward(
        self, x: torch.Tensor, allowed: torch.Tensor, scale: bool, rope=None, kv=None, empty=None
    ) -> torch.Tensor:
        a = self.attn(self._pre(self.ln_attn, x), allowed, scale, rope, kv, empty)  # (B, C, E)
        if self.ln_attn_out is not None:
            a = self.capture("attn.out_norm", self.ln_attn_out(a))  # (B, C, E)
        mid = x + a if self.residual else a  # (B, C, E)
        if self.post:
            mid = self.ln_attn(self.capture("attn.sum", mid))  # (B, C, E)
        mid = self.capture("mid", mid)
        f = self.ffn(self._pre(self.ln_ffn, x if self.parallel else mid))  # (B, C, E)
        if self.ln_ffn_out is not None:
            f = self.capture("ffn.out_norm", self.ln_ffn_out(f))  # (B, C, E)
        out = mid + f if self.residual else f  # (B, C, E)
        if self.post:
            out = self.ln_ffn(self.capture("ffn.sum", out))  # (B, C, E)
        return self.capture("out", out)

    def _pre(self, norm, x: torch.Tensor) -> torch.Tensor:
        """What a sublayer reads: x through its pre-norm, or x itself (no norm, or the norm comes after)."""
        return norm(x) if norm is not None and not self.post else x
