"""The reference attention a student reads (model.attention.attention) against the chunked, memory-saving
path beside it (model.attention_chunked): equal bit for bit (torch.equal), over random sizes, every mask
kind (causal, window, painted, padding), grouped-query heads, RoPE, odd E, with and without scaling.
The reference itself is checked against torch's own fused attention (to rounding), an independent oracle.
"""

from __future__ import annotations

import random

import pytest
import torch
import torch.nn.functional as F

from explorer.config import MaskSpec, ModelConfig
from explorer.model import attention_chunked
from explorer.model.attention import MultiHeadAttention, attention
from explorer.model.attention_chunked import attend_chunked, attention_maps
from explorer.model.mask import build_mask, empty_rows, per_head
from explorer.model.positions import rope_cos_sin


def _case(seed: int):
    rng = random.Random(seed)
    H_kv = rng.choice([1, 2, 3])
    H = H_kv * rng.choice([1, 2, 3])
    D = rng.choice([2, 4, 6, 8])
    E = rng.choice([3, 5, 7, 9, 16])  # odd E included (the note's toy has E = 3)
    C = rng.randint(1, 12)
    B = rng.randint(1, 3)
    kind = rng.choice(["causal", "none", "window", "prefix", "explicit"])
    if kind == "window" or kind == "prefix":
        spec = MaskSpec(kind, size=rng.randint(1, C + 1))
    elif kind == "explicit":  # painted: some rows block every key
        spec = MaskSpec("explicit", matrix=tuple(tuple(rng.random() < 0.4 for _ in range(C)) for _ in range(C)))
    else:
        spec = MaskSpec(kind)
    lengths = [C] + [rng.randint(1, C) for _ in range(B - 1)]  # padding in every row but the first
    rope = rng.random() < 0.5
    cfg = ModelConfig(
        vocab_size=10,
        embed_dim=E,
        key_dim=D,
        heads=H,
        kv_heads=H_kv,
        bias=rng.random() < 0.5,
        positions="rope" if rope else "sinusoidal",
        value_dim=rng.choice([None, 3]),
    )
    torch.manual_seed(seed)
    attn = MultiHeadAttention(cfg)
    with torch.no_grad():
        for p in attn.parameters():
            p.normal_()
    x = torch.randn(B, C, E)
    allowed = per_head(build_mask(spec, lengths, C))  # (B, 1, C, C)
    angles = rope_cos_sin(C, D, 10_000.0, "cpu", torch.float32) if rope else None
    return attn, x, allowed, angles, rng.random() < 0.8


def _record(store: dict):
    def see(stage: str, t: torch.Tensor) -> torch.Tensor:
        store[stage] = t
        return t

    return see


@pytest.mark.parametrize("seed", range(40))
def test_chunked_path_equals_the_reference_bit_for_bit(seed, monkeypatch):
    attn, x, allowed, rope, scale = _case(seed)
    empty = empty_rows(allowed)
    monkeypatch.setattr(attention_chunked, "ATTENTION_CHUNK_BYTES", 1)  # one head per chunk: the most splitting
    with torch.inference_mode():
        ref, chunked = {}, {}
        out_ref = attention(attn, x, allowed, empty, scale, rope, see=_record(ref))

        def mix(Q, K, V):
            R, S, A = attend_chunked(Q, K, V, allowed, empty, scale, keep_maps=True)
            chunked["scores"], chunked["weights"] = S, A
            return R

        out_chunked = attention(attn, x, allowed, empty, scale, rope, see=_record(chunked), mix=mix)
        assert torch.equal(out_ref, out_chunked)
        for stage in ("heads", "concat", "scores", "weights"):
            assert torch.equal(ref[stage], chunked[stage]), stage
        R, S, A = attend_chunked(*_qkv(attn, ref), allowed, empty, scale, keep_maps=False)
        assert S is None and A is None and torch.equal(R, ref["heads"])


def _qkv(attn, seen):
    g = attn.H // attn.H_kv
    K = seen.get("k_rot", seen["k"]).repeat_interleave(g, dim=1)
    return seen.get("q_rot", seen["q"]), K, seen["v"].repeat_interleave(g, dim=1)


@pytest.mark.parametrize("seed", range(40, 60))
def test_maps_derived_per_head_equal_the_references(seed):
    # what a lazy trace does when a head is looked at: attention_maps on that head's q and k alone
    attn, x, allowed, rope, scale = _case(seed)
    empty = empty_rows(allowed)
    with torch.inference_mode():
        ref: dict = {}
        attention(attn, x, allowed, empty, scale, rope, see=_record(ref))
        Q, K, _ = _qkv(attn, ref)
        for h in range(attn.H):
            S, S_scaled, S_masked, A = attention_maps(Q[:, h : h + 1], K[:, h : h + 1], allowed, scale)
            assert torch.equal(S, ref["scores"][:, h : h + 1]) and torch.equal(A, ref["weights"][:, h : h + 1])
            blocked = ~allowed.expand_as(S_masked)
            assert torch.isneginf(S_masked[blocked]).all() and torch.equal(S_masked[~blocked], S_scaled[~blocked])


@pytest.mark.parametrize("seed", range(60, 75))
def test_reference_agrees_with_torch_fused_attention(seed):
    attn, x, allowed, rope, scale = _case(seed)
    empty = empty_rows(allowed)
    with torch.inference_mode():
        ref: dict = {}
        attention(attn, x, allowed, empty, scale, rope, see=_record(ref))
        Q, K, V = _qkv(attn, ref)
        live = ~empty.expand(-1, attn.H, -1, -1).squeeze(-1)  # (B, H, C): rows that see a key
        fused = F.scaled_dot_product_attention(
            Q.double(), K.double(), V.double(), attn_mask=allowed, scale=None if scale else 1.0
        )
        torch.testing.assert_close(ref["heads"][live].double(), fused[live], rtol=1e-4, atol=1e-5)
        assert (ref["heads"][~live] == 0).all() and (ref["weights"][~live] == 0).all()


def test_an_empty_row_is_computed_once_per_forward(monkeypatch):
    # the Transformer derives mask.empty_rows once and hands it to every layer (issue 14: it was three times)
    from explorer.model import mask, transformer
    from explorer.model.transformer import Transformer

    calls = []
    real = mask.empty_rows
    monkeypatch.setattr(transformer, "empty_rows", lambda a: calls.append(1) or real(a))
    from explorer.model import attention as attention_module

    monkeypatch.setattr(attention_module, "empty_rows", lambda a: calls.append(1) or real(a))
    model = Transformer(ModelConfig(vocab_size=10, layers=3))
    with torch.inference_mode():
        model(torch.tensor([[1, 2, 3]]))
    assert len(calls) == 1
