"""head_qk and head_av (explorer/model/head_matmul.py): the attention's products, one (sentence, head) pair at a time.

Checked against numpy's float64 product (to float32 rounding), and for the property the chunked path and the
derived maps rely on: a head's product is the same number, bit for bit, whatever else is in the batch and
however the operands are laid out (a batched ``@`` broke this on an AVX-512 machine with MKL).
"""

from __future__ import annotations

import numpy as np
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.model.head_matmul import head_av, head_qk


def _heads(B: int, H: int, C: int, D: int, seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return torch.randn(B, C, H * D, generator=g).view(B, C, H, D).transpose(1, 2)  # (B, H, C, D), as split_heads gives


sizes = st.tuples(st.integers(1, 3), st.integers(1, 12), st.integers(1, 70), st.sampled_from([1, 3, 4, 6, 8, 64]))


@settings(max_examples=60, deadline=None)
@given(sizes, st.integers(0, 2**16))
def test_each_head_equals_numpy_and_itself_in_any_batch(size, seed):
    B, H, C, D = size
    Q, K = _heads(B, H, C, D, seed), _heads(B, H, C, D, seed + 1)
    S = head_qk(Q, K)  # (B, H, C, C)
    expected = np.einsum("bhcd,bhkd->bhck", Q.double().numpy(), K.double().numpy())
    np.testing.assert_allclose(S.numpy(), expected, rtol=1e-5, atol=1e-5 * np.abs(expected).max())
    for h in range(H):  # one head at a time (the chunked path, a derived map), from a strided slice
        assert torch.equal(head_qk(Q[:, h : h + 1], K[:, h : h + 1]), S[:, h : h + 1])
    for b in range(B):  # one sentence, from contiguous copies (a trace keeps q and k as contiguous arrays)
        alone = head_qk(Q[b : b + 1].contiguous(), K[b : b + 1].contiguous())
        assert torch.equal(alone, S[b : b + 1])
    assert torch.equal(head_qk(_shifted(Q), _shifted(K)), S)  # the same numbers starting at another address


def _shifted(x: torch.Tensor) -> torch.Tensor:
    """A contiguous copy of ``x`` that starts one float past an aligned address (a view into a larger buffer)."""
    buffer = torch.empty(x.numel() + 1)
    buffer[1:].copy_(x.reshape(-1))
    return buffer[1:].view(x.shape)


def test_weights_times_values_per_head_equal_the_whole():
    Q, K, V = (_heads(2, 9, 37, 8, s) for s in (1, 2, 3))
    A = torch.softmax(head_qk(Q, K), dim=-1)  # (2, 9, 37, 37)
    R = head_av(A, V)  # (2, 9, 37, 8)
    np.testing.assert_allclose(R.numpy(), A.double().numpy() @ V.double().numpy(), rtol=1e-5, atol=1e-6)
    parts = torch.cat([head_av(A[:, h : h + 3].clone(), V[:, h : h + 3].contiguous()) for h in range(0, 9, 3)], dim=1)
    assert torch.equal(parts, R)
