"""PyTorch's fused attention kernel, used where no map is kept (training, generation, lazy traces): equal to the
reference to the documented tolerance (tests/core/fused_tolerance.py), layer by layer and through whole
models; where the model uses it and where it does not; a causal mask handed over as ``is_causal``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from explorer import names
from explorer.config import MaskSpec, ModelConfig, RunOptions
from explorer.model import attention_fused
from explorer.model.attention import attention
from explorer.model.attention_fused import fused_heads, is_causal
from explorer.model.mask import build_mask, empty_rows
from explorer.trace import run_trace
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import preset_tokenizer
from tests.core.fused_tolerance import assert_fused_close, relative_error

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_attention_reference import _case, _qkv, _record  # noqa: E402


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_fused_heads_equal_the_reference_to_the_tolerance(seed, dtype):
    attn, x, allowed, rope, scale = _case(seed)
    attn, x = attn.to(dtype), x.to(dtype)
    rope = None if rope is None else tuple(t.to(dtype) for t in rope)
    empty = empty_rows(allowed)
    empty = empty if bool(empty.any()) else None
    with torch.inference_mode():
        ref: dict = {}
        out_ref = attention(attn, x, allowed, empty, scale, rope, see=_record(ref))
        Q, K, V = _qkv(attn, ref)
        R = fused_heads(Q, K, V, allowed, empty, scale, causal=False)
        out = attention(
            attn, x, allowed, empty, scale, rope, mix=lambda q, k, v: fused_heads(q, k, v, allowed, empty, scale, False)
        )
    assert_fused_close(R.numpy(), ref["heads"].numpy(), "heads")
    assert_fused_close(out.numpy(), out_ref.numpy(), "out")
    if empty is not None:  # a query that sees no key: a row of zeros, exactly as the reference defines it
        rows = empty.expand(-1, attn.H, -1, -1).squeeze(-1)
        assert (R[rows] == 0).all()


def test_is_causal_only_for_the_exact_lower_triangle():
    C = 9
    assert is_causal(build_mask(MaskSpec("causal"), [C], C))
    assert is_causal(build_mask(MaskSpec("causal"), [C, C], C))
    assert not is_causal(build_mask(MaskSpec("causal"), [C, 5], C))  # padding blocks keys of row 2
    assert not is_causal(build_mask(MaskSpec("window", size=3), [C], C))
    assert not is_causal(build_mask(MaskSpec("none"), [C], C))
    assert not is_causal(torch.ones(1, 2, C, C, dtype=torch.bool).tril())  # per-head masks go as they are
    edited = build_mask(MaskSpec("causal"), [C], C)
    assert is_causal(edited)
    edited[0, 4, 2] = False  # changed in place after it was checked: checked again
    assert not is_causal(edited)


@pytest.fixture(scope="module")
def words():
    return preset_tokenizer("words-en.json")


def _spy(monkeypatch):
    calls = []
    real = F.scaled_dot_product_attention

    def spy(*args, **kwargs):
        calls.append(kwargs.get("is_causal", False))
        return real(*args, **kwargs)

    monkeypatch.setattr(attention_fused.F, "scaled_dot_product_attention", spy)
    return calls


def test_a_lazy_trace_runs_the_kernel_in_every_layer_and_an_eager_one_never(words, monkeypatch):
    b = random_bundle(ModelConfig(words.vocab_size, embed_dim=16, key_dim=4, heads=2, layers=3), words, 1)
    calls = _spy(monkeypatch)
    run_trace(b, "This is a pen .", RunOptions(lazy_pairwise=True))
    assert calls == [True, True, True]  # one sentence under the causal mask: handed over as is_causal
    calls.clear()
    run_trace(b, "This is a pen .\nA dog", RunOptions(lazy_pairwise=True))
    assert calls == [False, False, False]  # padding: the mask itself
    calls.clear()
    run_trace(b, "This is a pen .", RunOptions(layers_to_capture=(1,)))
    run_trace(b, "This is a pen .")
    assert calls == []  # an eager trace computes every layer step by step, kept or not


def test_a_deep_lazy_trace_stays_within_the_tolerance(words):
    # grouped-query heads, RoPE, RMSNorm, SwiGLU, four layers, a long text (the eager side runs the chunked
    # path), float32: the rounding of the fused kernel does not grow past the tolerance through the layers
    cfg = ModelConfig(
        words.vocab_size,
        embed_dim=32,
        key_dim=8,
        heads=4,
        kv_heads=2,
        layers=4,
        positions="rope",
        norm="rmsnorm",
        ffn_activation="silu_gated",
        max_positions=512,
    )
    b = random_bundle(cfg, words, 7)
    text = " ".join(["the cat sat on the mat and the dog ran to the park ."] * 25)
    eager = run_trace(b, text)
    lazy = run_trace(b, text, RunOptions(lazy_pairwise=True))
    assert lazy.C == eager.C > 300
    errors = {}
    for name in ("logits", *(names.attn(l, s) for l in range(4) for s in ("heads", "out", "q_rot"))):
        errors[name] = relative_error(lazy[name], eager[name])
        assert_fused_close(lazy[name], eager[name], name)
    for l in range(4):
        assert_fused_close(lazy.head_map(l, "weights", 0, 3), eager.head_map(l, "weights", 0, 3), f"layer {l} weights")
    print("relative errors:", {k: f"{v:.1e}" for k, v in errors.items()})


def test_training_runs_the_kernel(words, monkeypatch):
    b = random_bundle(ModelConfig(words.vocab_size, embed_dim=16, key_dim=4, heads=2, layers=2), words, 1)
    calls = _spy(monkeypatch)
    ids = torch.tensor([[1, 2, 3, 4]])
    b.model(ids).sum().backward()  # no capture: nobody looks at the maps
    assert calls == [True, True]
    assert np.isfinite(b.model.layers[0].attn.W_q.grad.numpy()).all()
