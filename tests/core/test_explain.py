"""Hover explanations: every number in the string equals an independent numpy recomputation from the
trace's stored operands (q, k, x, W…), not just the value the cell already shows."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import torch

from explorer import names
from explorer.config import MaskSpec, ModelConfig, RunOptions
from explorer.present.explain import cell_text, explain_cell, explain_value, fmt, sub
from explorer.trace import run_trace
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import load_preset

NUMBER = r"−?\d+(?:\.\d+)?(?:e[+−-]?\d+)?"


def num(s: str) -> float:
    return float(s.replace("−", "-"))


def after(text: str, marker: str) -> float:
    """The number that follows ``marker`` in ``text``."""
    m = re.search(re.escape(marker) + r"\s*(" + NUMBER + ")", text)
    assert m, f"{marker!r} not followed by a number in {text!r}"
    return num(m.group(1))


def close(shown: float, exact: float) -> bool:
    """A printed number agrees with the exact one to the precision fmt() prints."""
    return abs(shown - exact) <= max(0.0051, 0.0051 * abs(exact))


@pytest.fixture(scope="module")
def toy():
    return run_trace(load_preset("seed-toy"), "This is\na pen")


@pytest.fixture(scope="module")
def biased(words):
    """Bias, grouped-query heads (H=4, H_kv=2), D_v ≠ D, 2 layers: the indexing cases."""
    cfg = ModelConfig(words.vocab_size, embed_dim=8, key_dim=3, heads=4, kv_heads=2, value_dim=5, layers=2, bias=True)
    return run_trace(random_bundle(cfg, words, 3), "This is a pen .")


def _recompute_maps(trace, layer, b, h):
    """The note's steps 1-2 in numpy float64, from the stored q and k and mask."""
    cfg = trace.config
    q = trace[names.attn(layer, "q")][b, h].astype(np.float64)
    k = trace[names.attn(layer, "k")][b, h // (cfg.H // cfg.H_kv)].astype(np.float64)
    scores = q @ k.T
    scaled = scores / math.sqrt(q.shape[-1]) if trace.options.scale else scores
    allowed = trace["mask"][b]
    masked = np.where(allowed, scaled, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(masked - masked.max(axis=-1, keepdims=True))
        weights = np.nan_to_num(e / e.sum(axis=-1, keepdims=True))
    return scores, scaled, allowed, weights


@pytest.mark.parametrize("trace_name", ["toy", "biased"])
def test_weights_chain_equals_numpy(request, trace_name):
    trace = request.getfixturevalue(trace_name)
    D = trace.config.D
    for b in range(trace.B):
        n = trace.rows[b].length
        for h in range(trace.config.H):
            scores, scaled, allowed, weights = _recompute_maps(trace, 0, b, h)
            for i in range(n):
                for j in range(n):
                    text = explain_cell(trace, "weights", 0, h, b, i, j)
                    assert text.startswith(f"q{sub(i)}·k{sub(j)}")
                    # the score is the last "= number" before the scaling arrow
                    head = text.split(" → ")[0]
                    assert close(num(re.findall(NUMBER, head)[-1]), scores[i, j]), text
                    assert close(after(text, f"÷√{D} ="), scaled[i, j]), text
                    if allowed[i, j]:
                        assert "masked" not in text
                        # softmax spells out e^(s̃) / Σ: its last number is the weight
                        assert close(num(re.findall(NUMBER, text.split("softmax")[1])[-1]), weights[i, j]), text
                    else:
                        assert "masked −∞" in text and text.endswith("softmax 0"), text


def test_dot_product_spelled_out_for_small_d(toy):
    """At the toy sizes (D = 2) the dot product's terms are printed: each is q[d]·k[d] from the trace."""
    q, k = toy["layers.0.attn.q"][0, 1, 1], toy["layers.0.attn.k"][0, 1, 0]
    text = explain_cell(toy, "scores", 0, 1, 0, 1, 0)
    terms = text.split(" = ")[1].split(" + ")
    assert len(terms) == 2
    for d, term in enumerate(terms):
        a, c = (num(x.strip("()")) for x in term.split("·"))
        assert close(a, q[d]) and close(c, k[d])
    assert " → " not in text  # the scores stage stops before scaling


def test_scaled_stage_stops_before_mask_and_scaling_off_says_so(words):
    cfg = ModelConfig(words.vocab_size, embed_dim=6, key_dim=4, heads=2, layers=1)
    trace = run_trace(random_bundle(cfg, words, 1), "This is a pen", RunOptions(scale=False))
    text = explain_cell(trace, "scaled", 0, 0, 0, 2, 1)
    assert "scaling off" in text and "softmax" not in text
    scores, *_ = _recompute_maps(trace, 0, 0, 0)
    assert close(num(re.findall(NUMBER, text)[-1]), scores[2, 1])


def test_query_with_every_key_blocked(words):
    cfg = ModelConfig(words.vocab_size, embed_dim=6, key_dim=4, heads=1, layers=1)
    matrix = [[False, False, False], [True, True, False], [True, True, True]]
    trace = run_trace(random_bundle(cfg, words, 1), "This is a", RunOptions(mask=MaskSpec.explicit(matrix)))
    text = explain_cell(trace, "weights", 0, 0, 0, 0, 1)
    assert "masked −∞" in text and "every key blocked: 0" in text


def test_translated_words_are_used(toy):
    text = explain_cell(toy, "weights", 0, 0, 0, 0, 1, words={"masked": "マスク", "softmax": "ソフトマックス"})
    assert "マスク −∞" in text and "ソフトマックス 0" in text


def test_projection_equals_x_times_w(biased):
    """q of head 2, column 1 is x · W_q[:, 2·D + 1] + b_q: the string names that column and its value."""
    cfg = biased.config
    x = biased["layers.1.attn.in"][0].astype(np.float64)
    for letter, h_store, width in (("q", 2, cfg.D), ("k", 1, cfg.D), ("v", 1, cfg.D_v)):
        W = biased[f"params.layers.1.attn.W_{letter}"].astype(np.float64)
        bias = biased[f"params.layers.1.attn.b_{letter}"].astype(np.float64)
        col = h_store * width + 1
        exact = x[3] @ W[:, col] + bias[col]
        text = explain_value(biased, names.attn(1, letter), 2, 0, 3, 1)  # query head 2 reads kv head 1
        assert f"W_{letter}[:, {col}]" in text, text
        assert close(num(re.findall(NUMBER, text)[-1]), exact), text


def test_head_output_is_weighted_sum_of_values(toy):
    w = toy.head_map(0, "weights", 1, 0)[1].astype(np.float64)
    v = toy["layers.0.attn.v"][1, 0, :, 1].astype(np.float64)
    text = explain_value(toy, "layers.0.attn.heads", 0, 1, 1, 1)
    terms = text.split(" = ")[1].split(" + ")
    assert len(terms) == 2
    for j, term in enumerate(terms):
        a, c = (num(x.strip("()")) for x in term.split("·"))
        assert close(a, w[j]) and close(c, v[j])
    assert close(num(re.findall(NUMBER, text)[-1]), float(w @ v))


def test_residual_and_ffn(toy):
    x, attn = toy["embed.out"][0, 1, 2], toy["layers.0.attn.out"][0, 1, 2]
    text = explain_value(toy, "layers.0.mid", 0, 0, 1, 2)
    shown = [num(s) for s in re.findall(NUMBER, text.split("=", 1)[1])]
    assert close(shown[0], x) and close(shown[1], attn) and close(shown[2], x + attn)
    # GELU(x · W_in[:, j]) with the pre-activation recomputed from the FFN input
    z = toy["layers.0.ffn.in"][0, 1].astype(np.float64) @ toy["params.layers.0.ffn.W_in"][:, 4].astype(np.float64)
    text = explain_value(toy, "layers.0.ffn.hidden", 0, 0, 1, 4)
    assert close(after(text, "= GELU("), z), text
    assert close(num(re.findall(NUMBER, text)[-1]), toy["layers.0.ffn.hidden"][0, 1, 4])


def test_probs_show_numerator_and_denominator(toy):
    z = toy["logits"][0, 1].astype(np.float64)
    j = int(np.argmax(z))
    text = explain_value(toy, "probs", 0, 0, 1, j)
    assert f"“{toy.vocab[j]}”" in text
    numerator, denominator = np.exp(z[j]), np.exp(z).sum()
    values = [num(s) for s in re.findall(NUMBER, text.split("=", 1)[1])]
    assert any(close(v, numerator) for v in values)
    assert any(abs(v - denominator) <= 0.01 * denominator for v in values)
    assert close(values[-1], numerator / denominator)


def test_logits_name_the_token(toy):
    text = explain_value(toy, "logits", 0, 0, 0, 7)
    assert "W_u[:, 7]" in text and f"“{toy.vocab[7]}”" in text
    exact = toy["final.out"][0, 0].astype(np.float64) @ toy["params.unembed.W_u"][:, 7].astype(np.float64)
    assert close(num(re.findall(NUMBER, text.split("(“")[0])[-1]), exact)


def test_every_stage_tensor_has_an_explanation(toy):
    from explorer.present import matrices, stages

    for key in stages.STAGE_KEYS:
        if key in stages.PAIRWISE_STAGE_KEYS:
            continue
        for name in matrices.stage_tensors(toy, key, 0):
            text = explain_value(toy, name, 1, 1, 1, 0)
            assert text and "=" in text or "→" in text or "0 (" in text, (name, text)


def test_fmt_and_cell_text():
    assert fmt(3.2149) == "3.21" and fmt(-0.8) == "−0.80" and fmt(0) == "0"
    assert fmt(float("-inf")) == "−∞" and fmt(123.45) == "123.5" and fmt(0.00123) == "0.00123"
    assert fmt(123456.0) == "1.23e+05"
    assert cell_text(1.0) == "1" and cell_text(-2.0) == "−2" and cell_text(0.456) == "0.46"


def test_qkv_hover_starts_from_the_shown_normalised_x():
    """Issue 12: with a pre-norm, Q = x·W_q multiplies the norm stage's x, not the embedding; the norm
    stage's own hover spells out the row's mean and variance, γ and β."""
    bundle = load_preset("seed-toy", norm="layernorm")
    with torch.no_grad():
        for name, p in bundle.model.named_parameters():
            if name.endswith("ln_attn.weight"):
                p.copy_(torch.tensor([1.5, 0.5, 2.0]))
    bundle.parameters_changed()
    trace = run_trace(bundle, "This is\na pen")
    text = explain_value(trace, "layers.0.attn.q", 1, 0, 1, 0)
    terms = text.split(" = ")[1].split(" + ")
    xs = [num(t.split("·")[0].strip("()")) for t in terms]
    normed, embedded = trace["layers.0.attn.in"][0, 1], trace["embed.out"][0, 1]
    assert all(close(a, b) for a, b in zip(xs, normed)), text
    assert not all(close(a, b) for a, b in zip(xs, embedded))
    x = embedded.astype(np.float64)
    text = explain_value(trace, "layers.0.attn.in", 0, 0, 1, 2)
    assert close(after(text, "μ = mean(x₁) ="), x.mean()) and close(after(text, "σ² = variance(x₁) ="), x.var()), text
    assert "· 2.00 + 0.00 =" in text or "· 2.0" in text  # γ[2] = 2, β[2] = 0
    assert close(num(re.findall(NUMBER, text)[-1]), normed[2])
