"""The attention's two products, Qⁱ·Kⁱᵀ and Aⁱ·Vⁱ, one sentence's head at a time.

The note writes them per head, and so does this: every (sentence, head) pair is its own 2-D product of
contiguous operands into a fresh result. A batched product (``Q @ K.transpose(-2, -1)`` on (B, H, C, D)) is
the same mathematics, but on some CPUs its last bits depend on how the batch is laid out: how many heads
are in it, their strides, where the result starts in memory (seen with MKL on an AVX-512 machine: the
whole (B, H) batch, one head's slice and a contiguous copy of the same numbers gave three different last
bits). The chunked path computes a few heads at a time and a trace derives one head's maps when it is looked
at; doing every product the same way is what keeps those numbers equal to the reference bit for bit, on
any machine (tests/core/test_attention_reference.py, tests/core/test_head_matmul.py).
"""

from __future__ import annotations

import torch


def head_matmul(X: torch.Tensor, Y: torch.Tensor) -> torch.Tensor:
    """X (B, h, M, K) · Y (B, h, K, N) → (B, h, M, N), each (sentence, head) pair a product of its own."""
    B, h, M, _ = X.shape
    N = Y.shape[-1]
    products = [torch.mm(X[b, i].contiguous(), Y[b, i].contiguous()) for b in range(B) for i in range(h)]  # (M, N) each
    return torch.stack(products).view(B, h, M, N)  # (B·h, M, N) → (B, h, M, N)
