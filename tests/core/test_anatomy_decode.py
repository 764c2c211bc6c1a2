"""The anatomy of a weight a decode step wrote (issue 39 item 5): built from the generation's own query rows
and KV cache, its last step is the stored weight bit for bit, and its steps agree with a float64 recomputation
from a full pass over the text (a causal row is the same from the cache or one pass)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from explorer import names
from explorer.anatomy import Cell
from explorer.anatomy.decode_cells import decode_anatomy, decode_steps, holds_decode_anatomy
from explorer.config import MaskSpec, ModelConfig, RunOptions
from explorer.errors import ConfigError
from explorer.generation import GenerateOptions, generate
from explorer.model.capture import CaptureSink, capturing
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import load_preset, preset_tokenizer

sys.path.insert(0, str(Path(__file__).parent))
from test_generation import PROMPT, gpt2_shaped, llama_gqa  # noqa: E402


def gemma2_shaped():
    """Soft-capped scores and a sliding layer: the two score steps a plain model lacks."""
    tok = preset_tokenizer("words-en.json")
    cfg = ModelConfig(
        vocab_size=tok.vocab_size,
        embed_dim=32,
        key_dim=8,
        heads=4,
        kv_heads=2,
        layers=2,
        positions="rope",
        norm="rmsnorm",
        ffn_activation="gelu_tanh_gated",
        attn_softcap=5.0,
        sliding_window=3,
        sliding_layers=(0,),
        family="gemma2",
    )
    return random_bundle(cfg, tok, seed=7, name="gemma2-shaped")


MODELS = {"classroom": lambda: load_preset("classroom"), "gpt2": gpt2_shaped, "llama-gqa": llama_gqa}


@pytest.fixture(scope="module", params=list(MODELS))
def made(request):
    bundle = MODELS[request.param]()
    return bundle, generate(bundle, PROMPT, gen=GenerateOptions(max_new_tokens=5))


def _full_pass(bundle, ids: list[int]) -> dict[str, np.ndarray]:
    """Every tensor of one float64 forward pass over the whole text: the independent reference."""
    model, sink = bundle.model_for("float64", "cpu"), CaptureSink()
    with torch.inference_mode(), capturing(model, sink):
        model(torch.tensor([ids]))
    return {n: t.numpy() for n, t in sink.tensors.items()}


def _rel(a: float, b: float) -> float:
    return abs(a - b) / max(abs(b), 1e-30)


def test_the_last_step_is_the_stored_weight_bit_for_bit_and_the_steps_agree_with_numpy_in_float64(made):
    _, g = made
    cfg, C = g.trace.config, g.prompt_tokens
    checked = 0
    for step in range(1, len(g.steps)):
        i = C - 1 + step
        for layer in range(cfg.layers):
            q = g.trace[f"gen.layers.{layer}.attn.q"][0].astype(np.float64)  # (H, T, D)
            K = g.trace[f"cache.layers.{layer}.k"][0].astype(np.float64)  # (H_kv, C_total, D)
            for head in range(cfg.H):
                S = K[names.kv_head_of(head, cfg.H, cfg.H_kv), : i + 1] @ q[head, step]  # (i + 1,) keys 0 … i
                S_scaled = S / math.sqrt(cfg.D)
                A = np.exp(S_scaled - S_scaled.max()) / np.exp(S_scaled - S_scaled.max()).sum()
                for key in {0, i // 2, i}:
                    steps = decode_steps(g, step, layer, head, key)
                    stored = g.trace[f"gen.layers.{layer}.attn.weights"][0, head, step, key]
                    assert steps[-1].op == "cell" and steps[-1].running == stored  # bit for bit …
                    assert np.float32(steps[-1].running) == stored  # … in the trace's dtype
                    products = [s for s in steps if s.op == "product"]
                    assert len(products) == cfg.D and _rel(products[-1].running, S[key]) <= 1e-12
                    scaled = next(s for s in steps if s.op == "scale")
                    assert _rel(float(scaled.result), S_scaled[key]) <= 1e-6
                    divide = next(s for s in steps if s.op == "divide" and s.index == key)
                    assert _rel(float(divide.result), A[key]) <= 1e-6
                    assert abs(float(divide.result) - float(stored)) <= 1e-6  # the steps and the model's kernel
                    assert sum(s.result for s in steps if s.op == "divide") == pytest.approx(1.0, abs=1e-6)
                    checked += 1
    assert checked >= 3 * cfg.layers * cfg.H


def test_the_stored_query_rows_are_the_queries_of_the_text_and_cost_L_H_D_per_step(made):
    bundle, g = made
    cfg = g.trace.config
    fed = list(g.trace.rows[0].ids) + list(g.token_ids[:-1])
    ref = _full_pass(bundle, fed)
    q_stage = names.qk_stages(cfg.positions)[0]
    C, T = g.prompt_tokens, len(g.steps)
    for layer in range(cfg.layers):
        q = g.trace[f"gen.layers.{layer}.attn.q"]
        assert q.shape == (1, cfg.H, T, cfg.D) and q.dtype == np.float32
        np.testing.assert_allclose(q[0], ref[names.attn(layer, q_stage)][0, :, C - 1 : C - 1 + T], atol=1e-5)
    kept = sum(g.trace[f"gen.layers.{l}.attn.q"].nbytes for l in range(cfg.layers))
    assert kept == T * cfg.layers * cfg.H * cfg.D * 4


def test_softcap_and_a_sliding_layer_each_have_their_step_and_still_end_on_the_stored_weight():
    g = generate(gemma2_shaped(), PROMPT, gen=GenerateOptions(max_new_tokens=4))
    C = g.prompt_tokens
    step, i = 3, C + 2
    near = decode_steps(g, step, 0, 1, i - 1)  # inside the sliding layer's window of 3
    far = decode_steps(g, step, 0, 1, 0)  # outside it
    assert [s.op for s in near[: g.trace.config.D + 2]][-2:] == ["scale", "softcap"]
    softcap = next(s for s in near if s.op == "softcap")
    x, c = float(softcap.operands["x"]), softcap.operands["c"]
    assert _rel(float(softcap.result), c * math.tanh(x / c)) <= 1e-6
    assert next(s for s in far if s.op == "mask").operands["reason"] == "sliding window"
    assert far[-1].running == 0.0 == g.trace["gen.layers.0.attn.weights"][0, 1, step, 0]
    assert next(s for s in decode_steps(g, step, 1, 1, 0) if s.op == "mask").operands["reason"] == "visible"
    for steps, key in ((near, i - 1), (far, 0)):
        assert steps[-1].running == g.trace["gen.layers.0.attn.weights"][0, 1, step, key]


def test_a_window_mask_and_a_later_key_are_masked_with_their_reason():
    g = generate(llama_gqa(), PROMPT, RunOptions(mask=MaskSpec("window", 3)), GenerateOptions(max_new_tokens=4))
    C = g.prompt_tokens
    outside = decode_steps(g, 2, 1, 0, 0)  # query C + 1 sees keys C − 1 … C + 1
    assert next(s for s in outside if s.op == "mask").operands["reason"] == "window" and outside[-1].running == 0.0
    later = decode_steps(g, 1, 1, 0, C + 1)  # query C sees no later key: the cache holds it now, the step did not
    mask = next(s for s in later if s.op == "mask")
    assert mask.operands["reason"] == "causal" and mask.result == -math.inf and later[-1].running == 0.0


def test_shortened_like_every_anatomy_and_refusals_in_one_line(made):
    _, g = made
    C = g.prompt_tokens
    cell = Cell("weights", 0, 0, C + 1, key=1, sentence=0)
    assert _json(decode_anatomy(g, cell, whole=True)) == _json(decode_steps(g, 2, 0, 0, 1))
    assert _json(decode_anatomy(g, cell)[-1:]) == _json(decode_steps(g, 2, 0, 0, 1)[-1:])
    with pytest.raises(ConfigError, match="decode step 0 does not exist"):
        decode_steps(g, 0, 0, 0, 0)  # the prompt's last row: the prefill's trace explains it
    with pytest.raises(ConfigError, match="never fed"):
        decode_steps(g, 1, 0, 0, C + len(g.steps))
    with pytest.raises(ConfigError, match="weight cell"):
        decode_anatomy(g, Cell("scores", 0, 0, C, key=0))


def test_without_the_cache_there_is_no_decode_anatomy_of_its_own():
    g = generate(llama_gqa(), PROMPT, gen=GenerateOptions(max_new_tokens=3, use_cache=False))
    assert "gen.layers.0.attn.q" in g.trace.stored_names() and not holds_decode_anatomy(g, 0)
    with pytest.raises(ConfigError, match="no query rows or no KV cache"):
        decode_steps(g, 1, 0, 0, 0)


@pytest.mark.parametrize("fmt", ["npz", "safetensors"])
def test_a_snapshot_of_the_generation_gives_the_same_steps(made, tmp_path, fmt):
    from explorer.export.snapshot import read_generation, write_generation

    _, g = made
    back = read_generation(write_generation(g, tmp_path / f"gen.{fmt}"))
    for layer in range(g.trace.config.layers):
        np.testing.assert_array_equal(back.trace[f"gen.layers.{layer}.attn.q"], g.trace[f"gen.layers.{layer}.attn.q"])
    C = g.prompt_tokens
    assert _json(decode_steps(back, 2, 0, 0, C)) == _json(decode_steps(g, 2, 0, 0, C))


def _json(steps) -> list[dict]:
    return [s.to_json() for s in steps]
