"""The attention's two products, Qⁱ·Kⁱᵀ and Aⁱ·Vⁱ, one sentence's head at a time.

The note writes them per head, and so does this: every (sentence, head) pair is its own 2-D product of
contiguous, aligned operands into a fresh result. A batched product (``Q @ K.transpose(-2, -1)`` on (B, H, C, D)) is
the same mathematics, but on some CPUs its last bits depend on how the batch is laid out: how many heads
are in it, their strides, where an operand or the result starts in memory (seen with MKL on an AVX-512 machine: the
whole (B, H) batch, one head's slice and a contiguous copy of the same numbers gave three different last
bits). The chunked path computes a few heads at a time and a trace derives one head's maps when it is looked
at; doing every product the same way is what keeps those numbers equal to the reference bit for bit, on
any machine (tests/core/test_attention_reference.py, tests/core/test_head_matmul.py).
"""

from __future__ import annotations

import torch

ALIGN = 64  # bytes: where torch's allocator starts every tensor (an AVX-512 register's width)


def _canonical(x: torch.Tensor) -> torch.Tensor:
    """``x`` contiguous and starting on an ALIGN-byte boundary, as a fresh tensor is: copied only when it is
    not (the result depended on both, with the same numbers in it)."""
    if x.is_contiguous() and x.data_ptr() % ALIGN == 0:
        return x
    return x.clone(memory_format=torch.contiguous_format)


def head_qk(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    """Qⁱ·Kⁱᵀ for every sentence and head: Q (B, h, C, D), K (B, h, C_k, D) → (B, h, C, C_k)."""
    B, h, C, _ = Q.shape
    # Kⁱᵀ as the transpose of Kⁱ itself: a cache's keys are not copied
    products = [
        torch.mm(_canonical(Q[b, i]), _canonical(K[b, i]).T) for b in range(B) for i in range(h)
    ]  # (C, C_k) each
    return torch.stack(products).view(B, h, C, K.shape[-2])  # (B·h, C, C_k) → (B, h, C, C_k)


def head_av(A: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """Aⁱ·Vⁱ for every sentence and head: A (B, h, C, C_k), V (B, h, C_k, D_v) → (B, h, C, D_v)."""
    B, h, C, _ = A.shape
    products = [torch.mm(_canonical(A[b, i]), _canonical(V[b, i])) for b in range(B) for i in range(h)]  # (C, D_v) each
    return torch.stack(products).view(B, h, C, V.shape[-1])  # (B·h, C, D_v) → (B, h, C, D_v)
