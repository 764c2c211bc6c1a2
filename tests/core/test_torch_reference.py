"""The traced attention against PyTorch's own implementations of the same formula.

* ``F.scaled_dot_product_attention`` on the traced q, k, v (rotated ones for RoPE) with the trace's mask
  gives the traced ``heads`` (the note's Rⁱ).
* ``nn.MultiheadAttention`` loaded with the traced weights gives ``layers.0.attn.out`` (and the weights).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from explorer.config import MaskSpec, ModelConfig, RunOptions
from explorer.trace import run_trace
from explorer.weights.bundle import random_bundle

TEXT = "This is a pen .\nThe cat is on the mat .\nA dog"


def _sdpa_heads(trace, layer: int) -> tuple[torch.Tensor, np.ndarray]:
    cfg = trace.config
    rot = cfg.positions == "rope"
    q = torch.from_numpy(np.array(trace[f"layers.{layer}.attn.{'q_rot' if rot else 'q'}"]))
    k = torch.from_numpy(np.array(trace[f"layers.{layer}.attn.{'k_rot' if rot else 'k'}"]))
    v = torch.from_numpy(np.array(trace[f"layers.{layer}.attn.v"]))
    groups = cfg.heads // (cfg.kv_heads or cfg.heads)
    k, v = k.repeat_interleave(groups, 1), v.repeat_interleave(groups, 1)
    allowed = torch.from_numpy(np.array(trace["mask"]))[:, None]  # (B, 1, C, C), True = may attend
    scale = None if trace.options.scale else 1.0
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed, scale=scale)
    live = ~np.asarray(trace["mask.empty_rows"])  # (B, C): rows with at least one visible key
    return out, live


CASES = {
    "causal": (dict(), RunOptions()),
    "no-mask-unscaled": (dict(), RunOptions(mask=MaskSpec("none"), scale=False)),
    "window": (dict(value_dim=3), RunOptions(mask=MaskSpec.parse("window:2"))),
    "prefix-gqa": (dict(heads=4, kv_heads=2, key_dim=2), RunOptions(mask=MaskSpec.parse("prefix:3"))),
    "rope-float64": (dict(positions="rope", norm="rmsnorm"), RunOptions(dtype="float64")),
    "explicit-with-empty-row": (
        dict(bias=True),
        RunOptions(mask=MaskSpec.explicit([[j <= i and i != 1 for j in range(7)] for i in range(7)])),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_heads_match_scaled_dot_product_attention(words, case):
    sizes, options = CASES[case]
    cfg = ModelConfig(words.vocab_size, **{**dict(embed_dim=8, key_dim=4, heads=2, layers=2), **sizes})
    trace = run_trace(random_bundle(cfg, words, 11), TEXT, options)
    tol = 1e-12 if options.dtype == "float64" else 1e-5
    for layer in range(cfg.layers):
        ref, live = _sdpa_heads(trace, layer)
        heads = np.asarray(trace[f"layers.{layer}.attn.heads"])
        assert heads.shape == tuple(ref.shape)
        ref = ref.numpy()
        for b in range(trace.B):
            rows = live[b]
            np.testing.assert_allclose(heads[b][:, rows], ref[b][:, rows], rtol=tol, atol=tol)
            # rows whose every key is blocked: defined as 0 (SDPA itself is free to give NaN there)
            assert np.array_equal(heads[b][:, ~rows], np.zeros_like(heads[b][:, ~rows]))
    if case == "explicit-with-empty-row":
        assert trace["mask.empty_rows"][:, 1].all() and not np.isnan(trace["layers.0.attn.heads"]).any()


@pytest.mark.parametrize("mask", ["causal", "none", "window:2"])
def test_attention_out_matches_nn_multihead_attention(words, mask):
    E, H = 8, 2  # E == H·D, as nn.MultiheadAttention requires
    cfg = ModelConfig(
        words.vocab_size, embed_dim=E, key_dim=E // H, heads=H, layers=1, norm="none", residual=False, bias=False
    )
    trace = run_trace(random_bundle(cfg, words, 3), TEXT, RunOptions(mask=MaskSpec.parse(mask)))
    W_q, W_k, W_v, W_o = (
        torch.from_numpy(np.array(trace[f"params.layers.0.attn.{w}"])) for w in ("W_q", "W_k", "W_v", "W_o")
    )
    mha = torch.nn.MultiheadAttention(E, H, bias=False, batch_first=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([W_q.T, W_k.T, W_v.T], dim=0))  # nn stores (out, in)
        mha.out_proj.weight.copy_(W_o.T)
    x = torch.from_numpy(np.array(trace["layers.0.attn.in"]))  # (B, C, E)
    assert np.array_equal(trace["layers.0.attn.in"], trace["embed.out"])  # bare block: nothing in between
    allowed = np.asarray(trace["mask"])
    live = ~np.asarray(trace["mask.empty_rows"])  # padded queries of a window mask may see no key at all
    with torch.no_grad():
        for b in range(trace.B):
            blocked = torch.from_numpy(~allowed[b])  # nn.MultiheadAttention: True = may NOT attend
            out, w = mha(
                x[b : b + 1],
                x[b : b + 1],
                x[b : b + 1],
                attn_mask=blocked,
                need_weights=True,
                average_attn_weights=False,
            )
            rows = live[b]
            np.testing.assert_allclose(trace["layers.0.attn.out"][b][rows], out[0].numpy()[rows], rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(
                trace["layers.0.attn.weights"][b][:, rows], w[0].numpy()[:, rows], rtol=1e-5, atol=1e-6
            )
    assert live[0, :5].all()  # every real query of row 0 has keys, so the comparison covers them
