"""Direct attribution sums to the model's own logit (the constants computed from biases alone, never as
logit minus the parts), and the logit lens at the last layer is the model's probs; other layers against a
numpy recomputation of the final norm and unembedding."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.config import ModelConfig, RunOptions
from explorer.errors import ConfigError, InputError
from explorer.interventions.attribution import attribute, resolve_target
from explorer.trace.run import run_trace
from explorer.weights.bundle import random_bundle

TEXT = "the cat sat on the dog ."

CONFIGS = {
    "explorer": dict(),
    "gpt2-like": dict(
        bias=True, positions="learned", ffn_activation="gelu_tanh", tie_embeddings=True, unembed_bias=True
    ),
    "llama-like": dict(positions="rope", norm="rmsnorm", kv_heads=2, ffn_activation="silu_gated", value_dim=8),
    "no-norm": dict(norm="none"),
    "unfactored": dict(unfactored_value=True, heads=1),
}


def make(tokenizer, **over):
    over.setdefault("heads", 4)
    cfg = ModelConfig(vocab_size=tokenizer.vocab_size, embed_dim=32, key_dim=8, layers=3, **over)
    return random_bundle(cfg, tokenizer, seed=11)


def layernorm(x, w, b, eps):
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + eps) * w + b


@pytest.mark.parametrize("kind", CONFIGS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_contributions_and_constant_sum_to_the_logit(tokenizer, kind, dtype):
    bundle = make(tokenizer, **CONFIGS[kind])
    trace = run_trace(bundle, TEXT, RunOptions(dtype=dtype))
    for position, target in ((6, 5), (2, 119), (0, 3)):
        out = attribute(bundle, trace, target, position)
        total = sum(c["value"] for c in out["contributions"]) + out["constant"]
        logit = float(trace["logits"][0, position, target])
        assert out["logit"] == logit
        assert abs(total - logit) <= 1e-4 * max(1.0, abs(logit)), (total, logit)
        H = bundle.config.H
        expected = ["embed"] + [
            n for l in range(3) for n in [f"layers.{l}.attn.head.{h}" for h in range(H)] + [f"layers.{l}.ffn"]
        ]
        assert [c["component"] for c in out["contributions"]] == expected


def test_constant_is_zero_without_biases_or_norm_shift(tokenizer):
    bundle = make(tokenizer, norm="rmsnorm")
    out = attribute(bundle, run_trace(bundle, TEXT), 5)
    assert out["constant"] == 0.0 and out["position"] == 6


@pytest.mark.parametrize("kind", ["explorer", "gpt2-like", "llama-like"])
def test_logit_lens_last_layer_is_probs_and_earlier_layers_match_numpy(tokenizer, kind):
    bundle = make(tokenizer, **CONFIGS[kind])
    trace = run_trace(bundle, TEXT)
    target, position = 5, 4
    out = attribute(bundle, trace, target, position)
    lens = out["logit_lens"]
    assert [r["layer"] for r in lens] == [0, 1, 2]
    probs = trace["probs"][0, position]
    assert abs(lens[-1]["prob"] - probs[target]) < 1e-6
    assert lens[-1]["rank"] == 1 + int((probs > probs[target]).sum())
    assert lens[-1]["top"] == trace.vocab[int(probs.argmax())]
    p = trace.params()
    W_u = p["params.unembed.W_u"] if "params.unembed.W_u" in p else p["params.embed.tok"].T
    b_u = p.get("params.unembed.b_u", 0.0)
    for l in range(3):
        x = trace[f"layers.{l}.out"][0, position].astype(np.float64)
        if bundle.config.norm == "layernorm":
            y = layernorm(x, p["params.ln_final.weight"], p["params.ln_final.bias"], bundle.config.norm_eps)
        else:
            y = x / np.sqrt((x**2).mean() + bundle.config.norm_eps) * p["params.ln_final.weight"]
        z = y @ W_u + b_u
        q = np.exp(z - z.max())
        q /= q.sum()
        assert abs(lens[l]["prob"] - q[target]) < 1e-5
        assert lens[l]["top"] == trace.vocab[int(q.argmax())]


def test_target_resolution_and_refusals(tokenizer):
    bundle = make(tokenizer)
    (dog,) = tokenizer.encode(" dog").ids  # the classroom's subword vocabulary glues the space to the word
    assert resolve_target(bundle, " dog", None) == dog
    assert resolve_target(bundle, None, 7) == 7
    with pytest.raises(InputError, match="not one token"):
        resolve_target(bundle, "the cat", None)
    with pytest.raises(ConfigError, match="ids run 0"):
        resolve_target(bundle, None, bundle.config.V)
    with pytest.raises(ConfigError, match="--position 7 does not exist"):
        attribute(bundle, run_trace(bundle, TEXT), 5, 7)
    bare = make(tokenizer, residual=False)
    with pytest.raises(ConfigError, match="no residual connections"):
        attribute(bare, run_trace(bare, TEXT), 5)
