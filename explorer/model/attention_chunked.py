"""The memory-saving path of the attention: the same arithmetic as ``attention.attention`` (the reference a
student reads), a few heads at a time, so that a long input never holds H maps of C × C numbers at once.

tests/core/test_attention_reference.py proves every number here equal to the reference bit for bit
(torch.equal) over random sizes, masks, grouped-query heads and RoPE. The trace also derives a head's maps
on demand with ``attention_maps``, so a derived map equals the model's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from explorer.config import ATTENTION_CHUNK_BYTES
from explorer.model.head_matmul import head_av, head_qk
from explorer.model.mask import empty_rows, per_head
from explorer.model.score_transforms import soft_cap


def scale_scores(S: torch.Tensor, D: float, scale: bool) -> torch.Tensor:
    """S / √D, as the reference writes it (or S itself when scaling is off); D is the model's score_dim."""
    return S / math.sqrt(D) if scale else S


def mask_scores(S_scaled: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    """−∞ where query i may not see key j (softmax turns those into exact zeros)."""
    return torch.where(per_head(allowed), S_scaled, float("-inf"))  # (B, h, C, C_k)


def attention_maps(
    Q: torch.Tensor,
    K: torch.Tensor,
    allowed: torch.Tensor,
    scale: bool,
    empty: torch.Tensor | None = None,
    cap: float | None = None,
    score_dim: float | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """The four (C, C_k) stages of the given heads: S, S/√D, masked, A.

    Q (B, h, C, D), K (B, h, C_k, D) already repeated for grouped-query heads; allowed (B, C, C_k) or
    (B, h, C, C_k); empty (B, 1 or h, C, 1) as ``mask.empty_rows`` gives it (computed here when None);
    ``cap``: Gemma 2's soft-cap, applied to S/√D before the mask (masked then holds the capped scores);
    ``score_dim``: what √ divides the scores (Gemma 2/3's query_pre_attn_scalar; None: D)."""
    S = head_qk(Q, K)  # (B, h, C, D) · (B, h, D, C_k) → (B, h, C, C_k)
    S_scaled = scale_scores(S, Q.shape[-1] if score_dim is None else score_dim, scale)
    S_masked = mask_scores(S_scaled if cap is None else soft_cap(S_scaled, cap), allowed)
    A = torch.softmax(S_masked, dim=-1)  # (B, h, C, C_k)
    A = A.masked_fill(empty_rows(allowed) if empty is None else empty, 0.0)
    return S, S_scaled, S_masked, A


def scores_and_weights(
    Q: torch.Tensor,
    K: torch.Tensor,
    blocked: torch.Tensor,
    scale: bool,
    empty: torch.Tensor | None,
    keep_S: bool = True,
    cap: float | None = None,
    score_dim: float | None = None,
) -> tuple[torch.Tensor | None, torch.Tensor]:
    """S and A of the given heads, the reference's arithmetic with at most three (C, C_k) maps alive at once
    (two when S is not kept: S/√D and the −∞ are then written into S itself, and S comes back as None).

    blocked (B, 1 or h, C, C_k): ~allowed; empty (B, 1 or h, C, 1) or None."""
    S = head_qk(Q, K)  # (B, h, C, D) · (B, h, D, C_k) → (B, h, C, C_k)
    root = math.sqrt(Q.shape[-1] if score_dim is None else score_dim)
    if keep_S:
        S_masked = S / root if scale else S.clone()
    else:
        S_masked, S = (S.div_(root) if scale else S), None
    if cap is not None:  # Gemma 2's soft-cap (explorer/model/score_transforms.py)
        S_masked = soft_cap(S_masked, cap)
    S_masked.masked_fill_(blocked, float("-inf"))  # in place: one (B, h, C, C_k) less alive
    A = torch.softmax(S_masked, dim=-1)  # (B, h, C, C_k)
    del S_masked
    if empty is not None:
        A.masked_fill_(empty, 0.0)  # A is new: filled in place
    return S, A


@dataclass(frozen=True)
class ScoreSteps:
    """What a family does to the scores beyond the note's S/√D: Gemma 2's soft-cap ``cap``, and Gemma 2/3's
    ÷√query_pre_attn_scalar (``score_dim``; None: D)."""

    cap: float | None = None
    score_dim: float | None = None


def heads_per_chunk(B: int, H: int, C: int, C_k: int, itemsize: int) -> int:
    """How many heads to compute at once. It depends on the sizes only, so a full trace and a lazy one
    split the heads the same way."""
    one_head = 3 * B * C * C_k * itemsize  # S, the masked scores and A alive together (when S is kept)
    return max(1, min(H, ATTENTION_CHUNK_BYTES // max(one_head, 1)))


def attend_chunked(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    allowed: torch.Tensor,
    empty: torch.Tensor | None,
    scale: bool,
    keep_maps: bool,
    extra: ScoreSteps = ScoreSteps(),
) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
    """R (B, H, C, D_v) = A·V for every head, and S and A (B, H, C, C_k) when ``keep_maps`` (else None).

    allowed (B, 1 or H, C, C_k) and empty (B, 1 or H, C, 1) or None, as the reference receives them."""
    B, H, C, D = Q.shape
    step = heads_per_chunk(B, H, C, K.shape[-2], Q.element_size())
    blocked = ~allowed  # (B, 1 or H, C, C_k), once for every chunk
    shared = allowed.shape[1] == 1  # one mask for every head, or one per head (an intervention's edge cuts)
    R, S_kept, A_kept = [], [], []
    for h in range(0, H, step):
        heads = slice(h, h + step)
        b = blocked if shared else blocked[:, heads]
        e = empty if shared or empty is None else empty[:, heads]
        S, A = scores_and_weights(Q[:, heads], K[:, heads], b, scale, e, keep_maps, extra.cap, extra.score_dim)
        R.append(head_av(A, V[:, heads]))  # (B, h, C, C_k) · (B, h, C_k, D_v) → (B, h, C, D_v)
        if keep_maps:
            S_kept.append(S)
            A_kept.append(A)
        del S, A
    if len(R) == 1:
        return R[0], (S_kept[0] if keep_maps else None), (A_kept[0] if keep_maps else None)
    if not keep_maps:
        return torch.cat(R, dim=1), None, None
    return torch.cat(R, dim=1), torch.cat(S_kept, dim=1), torch.cat(A_kept, dim=1)
