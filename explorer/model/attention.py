"""Multi-head attention exactly as the lecture note writes it.

    Q = x·W_q,  K = x·W_k,  V = x·W_v                      (note section "Query, key, value")
    Rⁱ = softmax(mask(Qⁱ·Kⁱᵀ / √D)) · Vⁱ                    (steps 1–3, per head)
    MultiHead(x) = [R¹ … Rᴴ] · [W_o¹; …; W_oᴴ]              (the efficient form of Σᵢ Rⁱ·W_oⁱ)

``attention`` below is the reference: the whole computation top to bottom, one step a line. A trace that
keeps the maps of a small input runs exactly it. Two other ways give the same Rⁱ without holding four maps
of C × C numbers per head: the chunked path (``attention_chunked``, equal bit for bit, for traces that keep
the maps of long inputs) and PyTorch's fused kernel (``attention_fused``, equal to rounding, 1e-6 relative,
wherever the maps are not kept: training, generation, and lazy traces, which derive a head's maps from the
kept q and k with the reference's arithmetic when it is looked at). ``MultiHeadAttention._mix`` is the one
place that chooses.

Weights are stored in the note's (in, out) orientation, so ``x · W_q`` is ``affine(x, W_q, b_q)``. Head h
owns columns h·D … h·D+D−1 of W_q, W_k and W_v and rows h·D_v … of W_o.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch import nn

from explorer.config import ATTENTION_CHUNK_BYTES, ModelConfig
from explorer.model.attention_chunked import ScoreSteps, attend_chunked, attention_maps, mask_scores, scale_scores
from explorer.model.attention_fused import fused_heads, is_causal
from explorer.model.attention_rows import attention_with_lse
from explorer.model.capture import Captured
from explorer.model.head_matmul import head_av, head_qk
from explorer.model.kv_cache import LayerKV
from explorer.model.linear import affine
from explorer.model.mask import empty_rows, per_head
from explorer.model.positions import apply_rope
from explorer.model.qk_norm import make_qk_norm, norm_heads
from explorer.model.score_transforms import soft_cap

__all__ = ["attention", "MultiHeadAttention", "attention_maps", "repeat_kv", "mask_scores", "scale_scores"]

See = Callable[[str, torch.Tensor], torch.Tensor]
Mix = Callable[[torch.Tensor, torch.Tensor, torch.Tensor], torch.Tensor]


def unseen(stage: str, tensor: torch.Tensor) -> torch.Tensor:
    return tensor


def attention(
    w: MultiHeadAttention,
    x: torch.Tensor,
    allowed: torch.Tensor,
    empty: torch.Tensor | None,
    scale: bool,
    rope: tuple[torch.Tensor, torch.Tensor] | None = None,
    kv: LayerKV | None = None,
    see: See = unseen,
    mix: Mix | None = None,
) -> torch.Tensor:
    """MultiHead(x) for x (B, C, E) with the weights of ``w``; (B, C, E) out.

    allowed (B, 1 or H, C, C_k): True where query i may see key j; empty (B, 1 or H, C, 1): the queries that
    see no key (None when every query sees one, the usual case). ``see(stage, tensor)`` shows a stage to a
    trace (which may replace it: an intervention) and returns it. ``mix`` computes R from Q, K, V another
    way (chunked or fused); None: the note's steps, below. Q = x·W_q is written affine(x, W_q, b_q): the
    note's product plus the bias real models have.
    """
    B, C, _ = x.shape  # x: (B, C, E)
    H, groups = w.H, w.H // w.H_kv
    Q = see("q", split_heads(affine(x, w.W_q, w.b_q), H))  # (B, C, E) · (E, H·D) → (B, H, C, D)
    K = see("k", split_heads(affine(x, w.W_k, w.b_k), w.H_kv))  # (B, C, E) · (E, H_kv·D) → (B, H_kv, C, D)
    V = see("v", split_heads(affine(x, w.W_v, w.b_v), w.H_kv))  # (B, C, E) · (E, H_kv·D_v) → (B, H_kv, C, D_v)
    if w.q_norm is not None:  # Qwen 3, Gemma 3, OLMo 2: q and k RMS-normalised before RoPE (explorer/model/qk_norm.py)
        Q = see("q_norm", norm_heads(w.q_norm, Q, w.qk_per_head))  # (B, H, C, D)
        K = see("k_norm", norm_heads(w.k_norm, K, w.qk_per_head))  # (B, H_kv, C, D)
    if rope is not None:  # rotary positions turn q and k by their position
        cos, sin = rope[0], rope[1]  # (C, R) each (explorer/model/positions.py), × a scaling's attention factor
        if len(rope) > 2:  # the angles, (C, R), shown per sentence: position i turns dimension d by i·ω_d
            see("rope_angles", rope[2].expand(B, *rope[2].shape))  # (B, C, R)
        Q = see("q_rot", apply_rope(Q, cos, sin))  # (B, H, C, D)
        K = see("k_rot", apply_rope(K, cos, sin))  # (B, H_kv, C, D)
    if kv is not None:  # generation: the keys and values of earlier positions come first
        K, V = kv.extend(K, V)  # (B, H_kv, C_k, D), C_k = earlier + C
    K, V = repeat_kv(K, groups), repeat_kv(V, groups)  # (B, H, C_k, D): a key head serves `groups` query heads
    if mix is None:
        S = see("scores", head_qk(Q, K))  # step 1, Qⁱ·Kⁱᵀ: (B, H, C, D) · (B, H, D, C_k) → (B, H, C, C_k)
        S_scaled = S / w.root if scale else S  # ÷√D keeps the scores' variance near 1 (Gemma 2/3: its own scalar)
        if w.cap is not None:  # Gemma 2 (explorer/model/score_transforms.py): c·tanh(s / c) before the mask
            S_scaled = see("capped", soft_cap(S_scaled, w.cap))  # (B, H, C, C_k)
        S_masked = torch.where(allowed, S_scaled, float("-inf"))  # mask: −∞ where query i may not see key j
        A = torch.softmax(S_masked, dim=-1)  # step 2: (B, H, C, C_k), each row sums to 1
        if empty is not None:  # a query that sees no key: softmax gave 0/0; its row is defined as all 0
            A = A.masked_fill(empty, 0.0)
        A = see("weights", A)  # (B, H, C, C_k)
        R = head_av(A, V)  # step 3, Rⁱ = Aⁱ·Vⁱ: (B, H, C, C_k) · (B, H, C_k, D_v) → (B, H, C, D_v)
    else:
        R = mix(Q, K, V)  # the same Rⁱ: (B, H, C, D_v)
    R = see("heads", R)  # (B, H, C, D_v)
    concat = see("concat", R.transpose(1, 2).reshape(B, C, H * w.D_v))  # [R¹ … Rᴴ]: (B, C, H·D_v)
    if w.W_o is None:  # unfactored single head: V already has size E
        return see("out", concat)
    return see("out", affine(concat, w.W_o, w.b_o))  # (B, C, H·D_v) · (H·D_v, E) → (B, C, E)


def split_heads(y: torch.Tensor, heads: int) -> torch.Tensor:
    """(B, C, heads·d) → (B, heads, C, d): head h is columns h·d … h·d+d−1 (a view, no copy)."""
    B, C, _ = y.shape
    return y.view(B, C, heads, -1).transpose(1, 2)  # (B, heads, C, d)


def repeat_kv(x: torch.Tensor, groups: int) -> torch.Tensor:
    """(B, H_kv, C, D) → (B, H, C, D): key/value head g serves query heads g·groups … g·groups+groups−1."""
    return x if groups == 1 else x.repeat_interleave(groups, dim=1)


def fits_at_once(B: int, H: int, C: int, C_k: int, itemsize: int) -> bool:
    """True when the reference's four (B, H, C, C_k) maps (S, S/√D, masked, A) fit the chunk budget."""
    return 4 * B * H * C * C_k * itemsize <= ATTENTION_CHUNK_BYTES


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
        self.q_norm = make_qk_norm(cfg.qk_norm, cfg.qk_norm_width(H), cfg.norm_eps)
        self.k_norm = make_qk_norm(cfg.qk_norm, cfg.qk_norm_width(Hkv), cfg.norm_eps)
        self.qk_per_head = cfg.qk_norm == "head"
        self.cap = cfg.attn_softcap
        self.score_dim = cfg.query_scalar  # None: the scores ÷ √D; Gemma 2/3: ÷ √query_pre_attn_scalar
        self.root = math.sqrt(cfg.score_dim)

    def forward(
        self,
        x: torch.Tensor,
        allowed: torch.Tensor,
        scale: bool,
        rope: tuple[torch.Tensor, torch.Tensor] | None = None,
        kv: LayerKV | None = None,
        empty: torch.Tensor | None = None,
    ) -> torch.Tensor:
        """x (B, C, E); allowed (B, C, C_k) (C_k > C with ``kv``: new queries against every key); empty its
        ``mask.empty_rows`` (B, 1, C, 1), computed once per forward pass by the Transformer."""
        x = self.capture("in", x)
        edited = self.edit("allowed", allowed)  # an intervention may cut single edges: (B, H, C, C_k)
        if edited is not allowed or empty is None:
            empty = empty_rows(edited)  # (B, 1 or H, C, 1)
        empty = empty if bool(empty.any()) else None  # the usual case: no row to fill with zeros
        allowed = per_head(edited)  # (B, 1 or H, C, C_k)
        mix = self._mix(x, edited, allowed, empty, scale)
        return attention(self, x, allowed, empty, scale, rope, kv, see=self.capture, mix=mix)

    def _mix(
        self, x: torch.Tensor, edited: torch.Tensor, allowed: torch.Tensor, empty: torch.Tensor | None, scale: bool
    ) -> Mix | None:
        """How this layer computes Rⁱ (the one place that chooses; None: the reference, step by step).

        The fused kernel where nobody keeps the maps and none will be derived from this very arithmetic:
        training, generation, and every layer of a trace that derives its maps from the kept q and k when
        they are looked at (a lazy trace). A trace that keeps this layer's maps runs the reference (small
        input) or the chunked path (equal bit for bit, no four (C, C_k) maps per head at once); so do the
        layers an eager trace leaves out of its capture, so that which layers are kept never changes a
        number."""
        keep = self.wants("scores") or self.wants("weights")
        if not keep and self.wants("lse"):  # a long text: its maps are served as tiles from q, k and row lse
            return self._with_lse(edited, allowed, empty, scale)
        fusable = self.cap is None  # the fused kernel cannot soft-cap (Gemma 2)
        if not keep and fusable and (self._sink is None or self._sink.derives_maps):
            causal = edited.dim() == 3 and empty is None and is_causal(edited)
            return lambda Q, K, V: fused_heads(Q, K, V, allowed, empty, scale, causal, self.score_dim)
        if keep and fits_at_once(x.shape[0], self.H, x.shape[1], allowed.shape[-1], x.element_size()):
            return None
        return self._chunked(allowed, empty, scale, keep)

    def _with_lse(self, edited: torch.Tensor, allowed: torch.Tensor, empty: torch.Tensor | None, scale: bool) -> Mix:
        causal = edited.dim() == 3 and empty is None and is_causal(edited)
        root = self.root if scale else None  # √D (Gemma 2/3: √query_pre_attn_scalar), as the reference divides

        def mix(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
            R, lse = attention_with_lse(Q, K, V, allowed, causal, root, self.cap)
            self.capture("lse", lse)  # (B, H, C)
            return R if empty is None else R.masked_fill(empty, 0.0)

        return mix

    def _chunked(self, allowed: torch.Tensor, empty: torch.Tensor | None, scale: bool, keep: bool) -> Mix:
        def mix(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
            R, S, A = attend_chunked(Q, K, V, allowed, empty, scale, keep, ScoreSteps(self.cap, self.score_dim))
            if keep:
                self.capture("scores", S)  # (B, H, C, C_k)
                self.capture("weights", A)  # (B, H, C, C_k)
            return R

        return mix
