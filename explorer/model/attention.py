"""Multi-head attention exactly as the lecture note writes it.

    Q = x·W_q,  K = x·W_k,  V = x·W_v                      (note section "Query, key, value")
    Rⁱ = softmax(mask(Qⁱ·Kⁱᵀ / √D)) · Vⁱ                    (steps 1–3, per head)
    MultiHead(x) = [R¹ … Rᴴ] · [W_o¹; …; W_oᴴ]              (the efficient form of Σᵢ Rⁱ·W_oⁱ)

Weights are stored in the note's (in, out) orientation, so ``x @ W_q`` reads like ``x · W_q``. Head h owns
columns h·D … h·D+D−1 of W_q, W_k and W_v and rows h·D_v … of W_o.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from explorer.config import ModelConfig
from explorer.model.capture import Captured
from explorer.model.positions import apply_rope


def attention_maps(q: torch.Tensor, k: torch.Tensor, allowed: torch.Tensor, scale: bool) -> tuple[torch.Tensor, ...]:
    """The four (C, C) stages of the note for every head: scores, scaled, masked, weights.

    q (B, H, C, D) and k (B, H, C, D) with k already repeated for grouped-query heads; allowed (B, C, C).
    The trace derives maps on demand with this same function, so lazily derived maps equal eager ones.
    """
    D = q.shape[-1]
    scores = q @ k.transpose(-2, -1)  # (B, H, C, D) · (B, H, D, C) → (B, H, C, C)
    scaled = scores / math.sqrt(D) if scale else scores  # (B, H, C, C)
    blocked = ~allowed.unsqueeze(1)  # (B, 1, C, C)
    masked = scaled.masked_fill(blocked, float("-inf"))  # (B, H, C, C)
    weights = torch.softmax(masked, dim=-1)  # (B, H, C, C), rows sum to 1
    # A query whose every key is blocked has no distribution; softmax would give 0/0. Define it as all 0.
    empty = blocked.all(dim=-1, keepdim=True)  # (B, 1, C, 1)
    weights = weights.masked_fill(empty, 0.0)
    return scores, scaled, masked, weights


def attend(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, allowed: torch.Tensor, scale: bool, keep_maps: bool
) -> tuple[torch.Tensor, tuple[torch.Tensor, ...] | None]:
    """Rⁱ = weights · Vⁱ for every head, one head at a time.

    Going head by head bounds the transient memory to one (B, C, C) map, and it is the same arithmetic,
    in the same order, as the trace's on-demand derivation of a single head: the maps a lazy trace
    shows are bit-for-bit those of the full computation. Returns (heads, maps or None).
    """
    heads, kept = [], []
    for h in range(q.shape[1]):
        maps = attention_maps(q[:, h : h + 1], k[:, h : h + 1], allowed, scale)  # 4 × (B, 1, C, C)
        heads.append(maps[3] @ v[:, h : h + 1])  # (B, 1, C, C) · (B, 1, C, D_v) → (B, 1, C, D_v)
        if keep_maps:
            kept.append(maps)
    out = torch.cat(heads, dim=1)  # (B, H, C, D_v)
    if not keep_maps:
        return out, None
    return out, tuple(torch.cat([m[i] for m in kept], dim=1) for i in range(4))  # 4 × (B, H, C, C)


def repeat_kv(x: torch.Tensor, groups: int) -> torch.Tensor:
    """(B, H_kv, C, D) → (B, H, C, D): key/value head g serves query heads g·groups … g·groups+groups−1."""
    return x if groups == 1 else x.repeat_interleave(groups, dim=1)


class MultiHeadAttention(Captured):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        E, D, H, Hkv, Dv = cfg.E, cfg.D, cfg.H, cfg.H_kv, cfg.D_v
        self.H, self.H_kv, self.D, self.D_v = H, Hkv, D, Dv
        self.unfactored = cfg.unfactored_value
        self.W_q = nn.Parameter(torch.empty(E, H * D))
        self.W_k = nn.Parameter(torch.empty(E, Hkv * D))
        self.W_v = nn.Parameter(torch.empty(E, Hkv * Dv))  # (E, E) in the unfactored form
        self.W_o = None if self.unfactored else nn.Parameter(torch.empty(H * Dv, E))
        if cfg.bias:
            self.b_q = nn.Parameter(torch.zeros(H * D))
            self.b_k = nn.Parameter(torch.zeros(Hkv * D))
            self.b_v = nn.Parameter(torch.zeros(Hkv * Dv))
            self.b_o = None if self.unfactored else nn.Parameter(torch.zeros(E))
        else:
            self.b_q = self.b_k = self.b_v = self.b_o = None

    @staticmethod
    def _project(x: torch.Tensor, W: torch.Tensor, b: torch.Tensor | None, heads: int) -> torch.Tensor:
        B, C, _ = x.shape
        y = x @ W  # (B, C, E) · (E, heads·d) → (B, C, heads·d)
        if b is not None:
            y = y + b
        return y.view(B, C, heads, -1).transpose(1, 2).contiguous()  # (B, heads, C, d)

    def forward(
        self,
        x: torch.Tensor,
        allowed: torch.Tensor,
        scale: bool,
        rope: tuple[torch.Tensor, torch.Tensor] | None = None,
    ) -> torch.Tensor:
        B, C, _ = x.shape  # x: (B, C, E)
        self.capture("in", x)
        q = self.capture("q", self._project(x, self.W_q, self.b_q, self.H))  # (B, H, C, D)
        k = self.capture("k", self._project(x, self.W_k, self.b_k, self.H_kv))  # (B, H_kv, C, D)
        v = self.capture("v", self._project(x, self.W_v, self.b_v, self.H_kv))  # (B, H_kv, C, D_v)
        if rope is not None:
            cos, sin = rope
            q = self.capture("q_rot", apply_rope(q, cos, sin))  # (B, H, C, D)
            k = self.capture("k_rot", apply_rope(k, cos, sin))  # (B, H_kv, C, D)
        groups = self.H // self.H_kv
        k = repeat_kv(k, groups)  # (B, H, C, D)
        v = repeat_kv(v, groups)  # (B, H, C, D_v)

        if self._sink is not None:  # tracing: the note's arithmetic, step by step
            keep = any(self.wants(s) for s in ("scores", "scaled", "masked", "weights"))
            heads, maps = attend(q, k, v, allowed, scale, keep)  # (B, H, C, D_v)
            if maps is not None:
                for stage, m in zip(("scores", "scaled", "masked", "weights"), maps):
                    self.capture(stage, m)  # (B, H, C, C)
        else:
            # Training and plain inference: nobody looks at the maps, and the fused kernel gives the same
            # Rⁱ (to rounding) without materialising C² numbers per head.
            heads = F.scaled_dot_product_attention(
                q, k, v, attn_mask=allowed.unsqueeze(1), scale=None if scale else 1.0
            )  # (B, H, C, D_v)
            empty = ~allowed.any(dim=-1)  # (B, C)
            if bool(empty.any()):
                heads = heads.masked_fill(empty[:, None, :, None], 0.0)
        self.capture("heads", heads)
        concat = self.capture("concat", heads.transpose(1, 2).reshape(B, C, self.H * self.D_v))  # (B, C, H·D_v)
        if self.W_o is None:
            return self.capture("out", concat)  # unfactored: V already has size E
        out = concat @ self.W_o  # (B, C, H·D_v) · (H·D_v, E) → (B, C, E)
        if self.b_o is not None:
            out = out + self.b_o
        return self.capture("out", out)
