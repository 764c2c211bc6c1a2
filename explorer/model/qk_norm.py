"""Query/key normalisation (Qwen 3, Gemma 3, OLMo 2): q and k are RMS-normalised before RoPE and the scores.

Without it a query or key can grow long and one score dominate every softmax (the "attention logit growth"
that destabilised training of large models); with it each q and k has root-mean-square 1 times a learned
scale γ, so q·k is bounded by the lengths γ allows. Qwen 3 and Gemma 3 normalise each head's D numbers on
their own; OLMo 2 normalises all H·D numbers of a position together.
"""

from __future__ import annotations

import torch

from explorer.model.norm import RMSNorm


def make_qk_norm(kind: str, width: int, eps: float) -> RMSNorm | None:
    """The norm of q (width D or H·D) or of k (D or H_kv·D); None without q/k norm."""
    return None if kind == "none" else RMSNorm(width, eps)


def norm_heads(norm: RMSNorm, X: torch.Tensor, per_head: bool) -> torch.Tensor:
    """RMSNorm of (B, h, C, D) queries or keys, over each head's D numbers or over all h·D of a position."""
    if per_head:
        return norm(X)  # (B, h, C, D): each head's vector on its own
    B, h, C, D = X.shape
    flat = X.transpose(1, 2).reshape(B, C, h * D)  # (B, C, h·D): the heads side by side again
    return norm(flat).view(B, C, h, D).transpose(1, 2)  # (B, h, C, D)
