"""PyTorch's fused attention kernel (F.scaled_dot_product_attention) for the layers whose maps nobody keeps:
training, generation's uncaptured passes, and every layer of a lazy trace (which keeps q and k and derives a
head's maps from them, with the reference's arithmetic, when it is looked at).

The kernel computes the same Rⁱ = softmax(mask(Qⁱ·Kⁱᵀ/√D))·Vⁱ without ever holding a (C, C_k) map, in its
own order of operations, so it equals the reference to rounding, not bit for bit:
tests/core/test_attention_fused.py holds it to a relative error of 1e-6 (float32), layer by layer and over a
whole model.

A causal mask is handed to the kernel as ``is_causal`` rather than as a (C, C) matrix: the kernel then skips
the blocks above the diagonal instead of reading a mask for them (about half the work at long contexts, and
no (C, C) float copy of the mask).
"""

from __future__ import annotations

import threading
import weakref

import torch
import torch.nn.functional as F

_causal_seen: dict[int, tuple[weakref.ref, int, bool]] = {}  # id(allowed) → (the tensor, its version, causal?)
_causal_lock = threading.Lock()


def fused_heads(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    allowed: torch.Tensor,
    empty: torch.Tensor | None,
    scale: bool,
    causal: bool,
    score_dim: float | None = None,
) -> torch.Tensor:
    """Rⁱ for every head: Q (B, H, C, D), K and V (B, H, C_k, ·) already repeated for grouped-query heads;
    allowed (B, 1 or H, C, C_k); empty (B, 1 or H, C, 1) or None. (B, H, C, D_v) out; a query that sees no
    key gets a row of zeros, as in the reference. ``score_dim``: what √ divides the scores (None: D)."""
    factor = (None if score_dim is None else score_dim**-0.5) if scale else 1.0
    if causal:
        R = F.scaled_dot_product_attention(Q, K, V, is_causal=True, scale=factor)
    else:
        R = F.scaled_dot_product_attention(Q, K, V, attn_mask=allowed, scale=factor)
    return R if empty is None else R.masked_fill(empty, 0.0)  # (B, H, C, D_v)


def is_causal(allowed: torch.Tensor) -> bool:
    """True when ``allowed`` (B, C, C) is exactly the causal lower triangle for every row of the batch (no
    padding, no edited cell). Checked once per mask tensor: every layer of a forward pass receives the same
    one, and a check at 8192 tokens reads 64 MB."""
    if allowed.dim() != 3 or allowed.shape[-1] != allowed.shape[-2]:
        return False
    key = id(allowed)
    with _causal_lock:
        seen = _causal_seen.get(key)
        if seen is not None and seen[0]() is allowed and seen[1] == _version(allowed):
            return seen[2]
    causal = _lower_triangle(allowed)
    with _causal_lock:
        if len(_causal_seen) >= 8:
            _causal_seen.clear()
        _causal_seen[key] = (weakref.ref(allowed), _version(allowed), causal)
    return causal


def vouch_causal(allowed: torch.Tensor) -> None:
    """Record that ``allowed`` (B, C, C) is the causal triangle, as its builder knows (a causal mask with no
    padding, explorer/model/mask.py): ``is_causal`` then need not read it (at 16k tokens, 256 MB read)."""
    with _causal_lock:
        if len(_causal_seen) >= 8:
            _causal_seen.clear()
        _causal_seen[id(allowed)] = (weakref.ref(allowed), _version(allowed), True)


def _lower_triangle(allowed: torch.Tensor, rows: int = 1024) -> bool:
    """True when every (C, C) matrix of ``allowed`` (B, C, C) is the lower triangle, compared a block of rows
    at a time (a whole (C, C) triangle and its comparison were 2 GB more at 32k tokens)."""
    C = allowed.shape[-1]
    j = torch.arange(C, device=allowed.device)
    for r0 in range(0, C, rows):
        i = torch.arange(r0, min(C, r0 + rows), device=allowed.device).unsqueeze(1)  # (r, 1) query positions
        if not bool((allowed[:, r0 : r0 + rows] == (j <= i)).all()):
            return False
    return True


def _version(t: torch.Tensor) -> int:
    """The tensor's in-place version; −1 for a tensor made under inference_mode, which keeps none (the masks
    built in a forward pass are never changed in place: an intervention's edge cut edits a copy)."""
    try:
        return t._version
    except RuntimeError:
        return -1
