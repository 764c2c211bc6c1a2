"""Rⁱ together with each query row's log-sum-exp, for a trace that serves its maps as tiles (a long text).

    lseᵢ = log Σⱼ exp(maskedᵢⱼ)          over the keys query i may see (−∞ for a query that sees none)
    Aᵢⱼ  = exp(maskedᵢⱼ − lseᵢ)           so any one weight needs its q row, its k row and lseᵢ alone

With lse kept, the trace recomputes any tile of the map exactly (explorer/trace/tiles.py) without a (C, C)
map ever existing. Two ways give it:

* PyTorch's fused CPU kernel returns lse beside Rⁱ (``_scaled_dot_product_flash_attention_for_cpu``): used for
  a plain causal mask (no padding, no soft-cap, no per-head edit), where it skips the blocks above the
  diagonal. It takes other masks only as a float matrix of C × C numbers, which is what this path avoids.
* Everywhere else (a window or sliding mask, padding, Gemma 2's soft-cap, another device) a pass over blocks
  of query rows: each block's scores against the keys its rows may see, never more than a block × C alive.
"""

from __future__ import annotations

import torch

from explorer.config import ATTENTION_CHUNK_BYTES
from explorer.model.mask import per_head
from explorer.model.score_transforms import soft_cap


def rows_per_block(B: int, H: int, C_k: int, itemsize: int) -> int:
    """Query rows per block: the block's scores, masked scores and weights (3·B·H·rows·C_k numbers) stay
    under the attention's chunk budget."""
    return max(1, min(4096, ATTENTION_CHUNK_BYTES // max(3 * B * H * C_k * itemsize, 1)))


def key_span(allowed_rows: torch.Tensor) -> tuple[int, int]:
    """The first and one past the last key any of these query rows may see (0, 0 when none): a causal block
    reads no key after its last row, a window block none before its first row's window."""
    seen = allowed_rows.reshape(-1, allowed_rows.shape[-1]).any(dim=0)  # (C_k,)
    where = torch.nonzero(seen)
    if where.numel() == 0:
        return 0, 0
    return int(where[0]), int(where[-1]) + 1


def masked_block(
    Q: torch.Tensor, K: torch.Tensor, allowed: torch.Tensor, root: float | None, cap: float | None
) -> torch.Tensor:
    """The masked scores of a block of query rows: Q (B, H, r, D) against K (B, H, k, D), allowed
    (B, 1 or H, r, k) → (B, H, r, k), with the model's order of steps (÷√D, soft-cap, −∞ where blocked)."""
    S = torch.matmul(Q, K.transpose(-1, -2))  # (B, H, r, D) · (B, H, D, k) → (B, H, r, k)
    if root is not None:
        S = S.div_(root)  # divided, as the reference writes it, not multiplied by 1/√D
    if cap is not None:  # Gemma 2: c·tanh(s / c) before the mask
        S = soft_cap(S, cap)
    return S.masked_fill_(~allowed, float("-inf"))


def rows_with_lse(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    allowed: torch.Tensor,
    root: float | None,
    cap: float | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """R (B, H, C, D_v) and lse (B, H, C), block of query rows by block. Q (B, H, C, D); K, V (B, H, C_k, ·)
    already repeated for grouped heads; allowed (B, C, C_k) or (B, H, C, C_k). A row that sees no key gets R
    = 0 and lse = −∞, as the reference defines it."""
    B, H, C, _ = Q.shape
    allowed = per_head(allowed)  # (B, 1 or H, C, C_k)
    step = rows_per_block(B, H, K.shape[-2], Q.element_size())
    R = Q.new_zeros(B, H, C, V.shape[-1])
    lse = Q.new_full((B, H, C), float("-inf"))
    for r0 in range(0, C, step):
        r1 = min(C, r0 + step)
        block = allowed[:, :, r0:r1]  # (B, 1 or H, r, C_k)
        k0, k1 = key_span(block)
        if k0 == k1:
            continue  # no row of the block sees a key: R 0, lse −∞
        masked = masked_block(Q[:, :, r0:r1], K[:, :, k0:k1], block[..., k0:k1], root, cap)
        row_lse = torch.logsumexp(masked, dim=-1)  # (B, H, r): −∞ for a row without keys
        A = torch.exp(masked.sub_(row_lse.unsqueeze(-1)))  # (B, H, r, k); NaN in a row without keys
        A = A.nan_to_num_(0.0)
        R[:, :, r0:r1] = torch.matmul(A, V[:, :, k0:k1])  # (B, H, r, k) · (B, H, k, D_v)
        lse[:, :, r0:r1] = row_lse
    return R, lse


def attention_with_lse(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    allowed: torch.Tensor,
    causal: bool,
    root: float | None,
    cap: float | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """R (B, H, C, D_v) and lse (B, H, C): the fused CPU kernel for a plain causal mask, the row-block pass
    for anything else. ``causal``: ``allowed`` is exactly the causal triangle with no empty row."""
    if causal and cap is None and Q.device.type == "cpu" and Q.shape[-2] == K.shape[-2]:
        kernel = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu
        R, lse = kernel(Q, K, V, 0.0, True, scale=1.0 if root is None else 1.0 / root)
        return R, lse.to(Q.dtype)
    return rows_with_lse(Q, K, V, allowed, root, cap)
