"""Every traced stage recomputed independently in numpy (tests/core/oracle_np.py) and compared.

The oracle reads only the trace's params and token ids; it shares no code with the engine. Parameters are
first set to random values everywhere (norm scales, biases included), so that a stage which ignored a
parameter that starts as 1 or 0 would still be caught.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from oracle_np import assert_matches, recompute, sinusoid

from explorer.config import MaskSpec, ModelConfig, RunOptions
from explorer.tokenize import word_tokenizer
from explorer.trace import run_trace
from explorer.weights.bundle import random_bundle

TEXT = "This is a pen .\nThe cat is on the mat ."
TOL = {"float32": 1e-5, "float64": 1e-10}


def randomize(bundle, seed: int = 123):
    """Random values for every parameter, norms and biases included (as a trained model would have)."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in bundle.model.named_parameters():
            if name.endswith("weight"):  # norm scales: around 1, but not 1
                p.copy_(1.0 + 0.3 * torch.randn(p.shape, generator=gen))
            elif name.rsplit(".", 1)[-1].startswith("b") and p.dim() == 1:  # every bias
                p.copy_(0.2 * torch.randn(p.shape, generator=gen))
    bundle.parameters_changed()
    return bundle


def check(trace, tol=None):
    tol = tol if tol is not None else TOL[trace.options.dtype]
    expected = recompute(trace)
    # every name the trace can give, stored or derived on demand (probs, lazy (C, C) maps)
    given = [n for n in trace.names() if not n.startswith("params.")]
    missing = [n for n in given if n not in expected]
    assert not missing, f"the oracle does not recompute {missing}"
    assert "probs" in given and "logits" in given
    for name in given:
        a = trace[name]
        if a.dtype.kind == "f":
            assert a.dtype == np.dtype(trace.options.dtype), f"{name} is {a.dtype}"
        assert_matches(name, a, expected[name], tol)
    for b in range(trace.B):  # the one-row accessor the output view uses
        for i in (0, trace.C - 1):
            assert_matches("probs_row", trace.probs_row(b, i), expected["probs"][b, i], tol)
    return expected


def make(words, seed=0, text=TEXT, options=None, **cfg):
    sizes = dict(vocab_size=words.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=2)
    sizes.update(cfg)
    bundle = randomize(random_bundle(ModelConfig(**sizes), words, seed), seed + 1)
    return run_trace(bundle, text, options or RunOptions())


# ------------------------------------------------------------------------------------ masks and scaling

MASKS = [
    MaskSpec("causal"),
    MaskSpec("none"),
    MaskSpec.parse("window:2"),
    MaskSpec.parse("prefix:2"),
    MaskSpec.explicit(np.random.default_rng(3).random((9, 9)) < 0.5),
]


@pytest.mark.parametrize("mask", MASKS, ids=str)
@pytest.mark.parametrize("scale", [True, False])
def test_every_stage_matches_numpy(words, mask, scale):
    trace = make(words, options=RunOptions(mask=mask, scale=scale))
    exp = check(trace)
    # The mask itself, as the spec defines it (spot checks written out by hand for row 0 of the batch)
    allowed = trace["mask"][0]
    if mask.kind == "causal":
        assert allowed[3, 3] and not allowed[3, 4] and allowed[4, 0]
    elif mask.kind == "window":
        assert allowed[4].tolist()[:5] == [False, False, False, True, True]
    elif mask.kind == "prefix":
        assert allowed[0, 1] and allowed[1, 0] and not allowed[2, 3] and not allowed[0, 2]
    elif mask.kind == "none":
        assert allowed[:5, :5].all()
    # scaled is scores/√D exactly when scaling is on, scores itself when off
    s, sc = exp["layers.0.attn.scores"], trace["layers.0.attn.scaled"]
    factor = 0.5 if scale else 1.0  # D = 4
    np.testing.assert_allclose(sc, s * factor, rtol=1e-5, atol=1e-5)


def test_explicit_mask_with_a_fully_blocked_row(words):
    matrix = np.tril(np.ones((5, 5), dtype=bool))
    matrix[2] = False  # query 2 may see nothing
    trace = make(words, text="This is a pen .", options=RunOptions(mask=MaskSpec.explicit(matrix)))
    check(trace)
    assert trace["mask.empty_rows"][0].tolist() == [False, False, True, False, False]
    for l in range(2):
        w = trace[f"layers.{l}.attn.weights"]
        assert np.array_equal(w[0, :, 2], np.zeros_like(w[0, :, 2]))  # defined as 0, exactly
        assert np.isneginf(trace[f"layers.{l}.attn.masked"][0, :, 2]).all()
        assert np.array_equal(trace[f"layers.{l}.attn.heads"][0, :, 2], np.zeros((2, 4), dtype=np.float32))
    for name in trace.names():
        a = trace[name]
        if a.dtype.kind == "f":
            assert not np.isnan(a).any(), name
    assert any("blocks every key" in n for n in trace.notices)


def test_explicit_mask_larger_than_the_text_is_cut_to_C(words):
    big = np.ones((12, 12), dtype=bool)
    big[0, :] = False  # query 0 sees nothing
    trace = make(words, text="This is a pen .", options=RunOptions(mask=MaskSpec.explicit(big)))
    check(trace)
    assert trace["mask"].shape == (1, 5, 5)
    assert trace["mask.empty_rows"][0].tolist() == [True, False, False, False, False]


# ------------------------------------------------------------------------------------ architectures


ARCHS = {
    "bare": dict(norm="none", residual=False),
    "unfactored-single-head": dict(heads=1, unfactored_value=True),
    "value-dim-differs": dict(value_dim=3),
    "E-not-H*D": dict(embed_dim=10, key_dim=3, heads=3),
    "grouped-query": dict(heads=4, kv_heads=2, key_dim=2),
    "multi-query": dict(heads=4, kv_heads=1, key_dim=2, value_dim=3),
    "llama-like": dict(norm="rmsnorm", ffn_activation="silu_gated", positions="rope", heads=4, kv_heads=2),
    "learned-positions": dict(positions="learned", max_positions=16),
    "no-positions": dict(positions="none"),
    "tied": dict(tie_embeddings=True),
    "biases": dict(bias=True, unembed_bias=True),
    "gelu-tanh": dict(ffn_activation="gelu_tanh", ffn_dim=12),
    "relu": dict(ffn_activation="relu", layers=3),
}


@pytest.mark.parametrize("arch", list(ARCHS))
def test_architectures_match_numpy(words, arch):
    trace = make(words, **ARCHS[arch])
    check(trace)
    cfg = trace.config
    if arch == "unfactored-single-head":
        assert trace["params.layers.0.attn.W_v"].shape == (8, 8)
        assert "params.layers.0.attn.W_o" not in trace
        assert trace["layers.0.attn.heads"].shape == (2, 1, 7, 8)
    if arch == "value-dim-differs":
        assert trace["layers.0.attn.v"].shape[-1] == 3 and trace["layers.0.attn.concat"].shape[-1] == 6
        assert trace["params.layers.0.attn.W_o"].shape == (6, 8)
    if arch == "E-not-H*D":
        assert trace["params.layers.0.attn.W_q"].shape == (10, 9)
    if arch in ("grouped-query", "multi-query"):
        assert trace["layers.0.attn.k"].shape[1] == cfg.kv_heads and trace["layers.0.attn.q"].shape[1] == 4
    if arch == "llama-like":
        assert "layers.0.attn.q_rot" in trace and not np.allclose(
            trace["layers.0.attn.q_rot"], trace["layers.0.attn.q"]
        )
        assert "params.layers.0.ln_attn.bias" not in trace
    if arch == "tied":
        assert "params.unembed.W_u" not in trace
    if arch == "biases":
        assert np.abs(trace["params.layers.0.attn.b_q"]).sum() > 0  # randomised, so they matter


def test_float64_path(words):
    for arch in ("biases", "llama-like", "grouped-query"):
        trace = make(words, options=RunOptions(dtype="float64", mask=MaskSpec.parse("window:3")), **ARCHS[arch])
        assert trace["logits"].dtype == np.float64 and trace["params.embed.tok"].dtype == np.float64
        check(trace, 1e-10)


def test_temperature_changes_probs_only(words):
    cold = make(words, options=RunOptions(temperature=0.5))
    hot = make(words, options=RunOptions(temperature=2.0))
    check(cold)
    check(hot)
    assert np.array_equal(cold["logits"], hot["logits"])
    assert cold["probs"].max(-1).mean() > hot["probs"].max(-1).mean()  # colder = more peaked


def test_batch_with_unequal_lengths_blocks_padding_keys(words):
    trace = make(words, text="This is a pen .\nA dog\nThe cat is on the mat .")
    check(trace)
    lengths = [r.length for r in trace.rows]
    assert lengths == [5, 2, 7]
    mask = trace["mask"]
    for b, n in enumerate(lengths):
        assert not mask[b, :, n:].any()  # no query sees a padding key
        w = trace["layers.1.attn.weights"][b]
        assert np.array_equal(w[..., n:], np.zeros_like(w[..., n:]))


def test_sinusoid_oracle_is_the_textbook_formula():
    # guard the oracle itself against a slip: PE[1, 0] = sin(1), PE[1, 1] = cos(1), PE[p, 2i] grows slower in i
    pe = sinusoid(3, 4)
    assert pe[1, 0] == pytest.approx(np.sin(1.0)) and pe[1, 1] == pytest.approx(np.cos(1.0))
    assert pe[2, 2] == pytest.approx(np.sin(2 / 100.0)) and pe[0].tolist() == [0, 1, 0, 1]


def test_word_tokenizer_built_in_place():
    tok = word_tokenizer("the cat sat on a mat .".split())
    bundle = randomize(random_bundle(ModelConfig(tok.vocab_size, embed_dim=6, key_dim=3, heads=2, layers=1), tok, 5))
    trace = run_trace(bundle, "the cat sat on a mat .\nthe dog sat", RunOptions(mask=MaskSpec.parse("prefix:2")))
    check(trace)
    assert trace.rows[1].unknown == (False, True, False)
