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

from explorer.config import ATTENTION_CHUNK_BYTES, ModelConfig
from explorer.model.capture import Captured
from explorer.model.kv_cache import LayerKV
from explorer.model.linear import affine
from explorer.model.positions import apply_rope


def attention_maps(
    q: torch.Tensor,
    k: torch.Tensor,
    allowed: torch.Tensor,
    scale: bool,
    empty: torch.Tensor | None = None,
    keep_steps: bool = True,
) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor | None, torch.Tensor]:
    """The four (C, C) stages of the note for every head given: scores, scaled, masked, weights.

    q (B, h, C, D) and k (B, h, C, D) with k already repeated for grouped-query heads; allowed (B, C, C), or
    (B, h, C, C) when an intervention cuts single edges of single heads; empty (B, 1 or h, C, 1) marks
    queries whose every key is blocked (computed here when not given). The trace
    derives maps on demand with this same function, so derived maps equal the model's bit for bit.
    With ``keep_steps=False`` (the forward pass, which keeps only scores and weights) the mask is written
    into the scaled scores in place, saving a (B, h, C, C) copy; the numbers are the same, and scaled and
    masked come back as None.
    """
    D = q.shape[-1]
    scores = q @ k.transpose(-2, -1)  # (B, h, C, D) · (B, h, D, C) → (B, h, C, C)
    scaled = scale_scores(scores, D, scale)  # (B, h, C, C)
    if keep_steps or scaled is scores:  # unscaled: masking in place would overwrite the scores
        masked = mask_scores(scaled, allowed)  # (B, h, C, C)
    else:
        masked, scaled = scaled.masked_fill_(~per_head(allowed), float("-inf")), None  # (B, h, C, C)
    weights = torch.softmax(masked, dim=-1)  # (B, h, C, C), rows sum to 1
    if not keep_steps:
        scaled = masked = None
    if empty is None:
        empty = empty_rows(allowed)
    if bool(empty.any()):
        # A query whose every key is blocked has no distribution; softmax gives 0/0. Define it as all 0.
        weights = weights.masked_fill(empty, 0.0)
    return scores, scaled, masked, weights


def scale_scores(scores: torch.Tensor, D: int, scale: bool) -> torch.Tensor:
    """Step 1½: divide by √D so the scores keep a variance near 1 (or not, to watch softmax saturate)."""
    return scores / math.sqrt(D) if scale else scores


def per_head(allowed: torch.Tensor) -> torch.Tensor:
    """(B, C, C) → (B, 1, C, C), shared by every head; a per-head (B, h, C, C) mask is returned as it is."""
    return allowed.unsqueeze(1) if allowed.dim() == 3 else allowed


def mask_scores(scaled: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    """−∞ where query i may not see key j: softmax turns those into exact zeros."""
    return scaled.masked_fill(~per_head(allowed), float("-inf"))  # (B, h, C, C)


def empty_rows(allowed: torch.Tensor) -> torch.Tensor:
    """(B, 1, C, 1) (or (B, h, C, 1) for a per-head mask): True for a query that may see no key at all."""
    return ~per_head(allowed).any(dim=-1, keepdim=True)


def heads_per_chunk(B: int, H: int, C: int, itemsize: int) -> int:
    """How many heads to compute at once. It depends on the sizes only, so a full trace and a lazy one
    split the heads the same way and compute identical numbers."""
    per_head = 3 * B * C * C * itemsize  # scores, masked and weights alive together
    return max(1, min(H, ATTENTION_CHUNK_BYTES // max(per_head, 1)))


def attend(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, allowed: torch.Tensor, scale: bool, keep_maps: bool
) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor] | None]:
    """Rⁱ = softmax(mask(Qⁱ·Kⁱᵀ/√D)) · Vⁱ for every head. Returns (heads (B, H, C, D_v), (scores, weights) or None).

    Only scores and weights are kept: scaled and masked follow from scores by one element-wise step each,
    and the trace re-applies exactly that step when they are looked at.
    """
    B, H, C, _ = q.shape
    empty = empty_rows(allowed)  # (B, 1, C, 1), once for every head
    step = heads_per_chunk(B, H, C, q.element_size())
    heads, kept = [], []
    shared = allowed.dim() == 3  # one mask for every head, or (B, H, C, C) with an edge cut here and there
    for h in range(0, H, step):
        a, e = (allowed, empty) if shared else (allowed[:, h : h + step], empty[:, h : h + step])
        scores, _, _, weights = attention_maps(q[:, h : h + step], k[:, h : h + step], a, scale, e, keep_steps=False)
        heads.append(weights @ v[:, h : h + step])  # (B, h, C, C) · (B, h, C, D_v) → (B, h, C, D_v)
        if keep_maps:
            kept.append((scores, weights))
    if len(heads) == 1:
        return heads[0], (kept[0] if keep_maps else None)
    out = torch.cat(heads, dim=1)  # (B, H, C, D_v)
    if not keep_maps:
        return out, None
    return out, (torch.cat([m[0] for m in kept], dim=1), torch.cat([m[1] for m in kept], dim=1))


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
        y = affine(x, W, b)  # (B, C, E) · (E, heads·d) + b → (B, C, heads·d)
        return y.view(B, C, heads, -1).transpose(1, 2)  # (B, heads, C, d)

    def forward(
        self,
        x: torch.Tensor,
        allowed: torch.Tensor,
        scale: bool,
        rope: tuple[torch.Tensor, torch.Tensor] | None = None,
        kv: LayerKV | None = None,
    ) -> torch.Tensor:
        """``kv`` (generation): the keys and values of earlier positions; x holds only the new ones, and
        ``allowed`` is (B, C_new, C_total): new queries against every key."""
        B, C, _ = x.shape  # x: (B, C, E)
        x = self.capture("in", x)
        allowed = self.edit("allowed", allowed)  # (B, C, C), or (B, H, C, C) when an intervention cuts edges
        q = self.capture("q", self._project(x, self.W_q, self.b_q, self.H))  # (B, H, C, D)
        k = self.capture("k", self._project(x, self.W_k, self.b_k, self.H_kv))  # (B, H_kv, C, D)
        v = self.capture("v", self._project(x, self.W_v, self.b_v, self.H_kv))  # (B, H_kv, C, D_v)
        if rope is not None:
            cos, sin = rope
            q = self.capture("q_rot", apply_rope(q, cos, sin))  # (B, H, C, D)
            k = self.capture("k_rot", apply_rope(k, cos, sin))  # (B, H_kv, C, D)
        if kv is not None:
            k, v = kv.extend(k, v)  # (B, H_kv, C_total, D): the cached keys, then the new ones
        groups = self.H // self.H_kv
        k = repeat_kv(k, groups)  # (B, H, C_total, D)
        v = repeat_kv(v, groups)  # (B, H, C_total, D_v)

        if self._sink is not None:  # tracing: the note's arithmetic, step by step
            heads, maps = attend(q, k, v, allowed, scale, self.wants("scores") or self.wants("weights"))
            if maps is not None:
                self.capture("scores", maps[0])  # (B, H, C, C)
                self.capture("weights", maps[1])  # (B, H, C, C)
        else:
            # Training and plain inference: nobody looks at the maps, and the fused kernel gives the same
            # Rⁱ (to rounding) without materialising C² numbers per head.
            heads = F.scaled_dot_product_attention(
                q, k, v, attn_mask=per_head(allowed), scale=None if scale else 1.0
            )  # (B, H, C, D_v)
            empty = empty_rows(allowed)  # (B, 1 or H, C, 1)
            if bool(empty.any()):
                heads = heads.masked_fill(empty, 0.0)
        heads = self.capture("heads", heads)  # (B, H, C, D_v); an ablation replaces it here
        concat = self.capture("concat", heads.transpose(1, 2).reshape(B, C, self.H * self.D_v))  # (B, C, H·D_v)
        if self.W_o is None:
            return self.capture("out", concat)  # unfactored: V already has size E
        out = affine(concat, self.W_o, self.b_o)  # (B, C, H·D_v) · (H·D_v, E) + b_o → (B, C, E)
        return self.capture("out", out)
