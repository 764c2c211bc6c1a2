"""Rotary scaling (linear, dynamic, yarn, llama3, longrope) and sliding windows shorter than the text, against
``transformers`` (eager attention, float32), which nobody here wrote.

Each case saves a random-weight model of a family with one option set (transformers' own config and model
classes, E = 64, two layers), opens the folder with our loader, traces a text longer than the context the
unscaled frequencies were trained for (``original_max``: where dynamic NTK, YaRN's ramp and LongRoPE's long
factors matter) and compares every layer's attention weights (≤ 1e-5), the logits (≤ 1e-4 relative) and
the frequencies the layers turned by (``layers.{l}.attn.rope_angles``, position 1) with what transformers'
rotary embedding holds after the same forward pass.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

from explorer.trace.run import run_trace
from explorer.weights.loaders import load_model

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers = pytest.importorskip("transformers")
transformers.utils.logging.set_verbosity_error()

from test_hf_families import ATTN_TOL, LOGITS_REL, decoder_settings, vocab_size  # noqa: E402
from test_hf_oracle import sharpen  # noqa: E402
from tiny_bpe import train_tokenizer  # noqa: E402

# One line of 20-odd tokens: longer than every original context and window below, within max_positions
LONG_TEXT = "The cat sat on the mat because it was tired , and the dog saw it and ran ."
SHORT_TEXT = "This is a pen ."
ORIGINAL = 8  # the context the plain frequencies were "trained" for


def _llama3() -> dict:  # Llama 3.2's shape: wavelengths above 64 ÷ 32, below 16 kept, a blend between
    return {"rope_type": "llama3", "factor": 32.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
            "original_max_position_embeddings": 64, "rope_theta": 500000.0}  # fmt: skip


def _longrope(n: int) -> dict:  # Phi-3.5 / Phi-4-mini: a divisor per frequency, short and long
    return {"rope_type": "longrope", "short_factor": [1.0 + 0.1 * i for i in range(n)],
            "long_factor": [1.0 + 2.5 * i for i in range(n)], "rope_theta": 10000.0}  # fmt: skip


def _yarn(**more) -> dict:
    return {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": ORIGINAL,
            "rope_theta": 10000.0, **more}  # fmt: skip


def case(name: str, V: int):
    """(transformers config, model class) of one case."""
    t, d = transformers, decoder_settings(V)
    gemma = dict(d, head_dim=16, query_pre_attn_scalar=16, rms_norm_eps=1e-6)
    cases = {
        "llama-llama3": lambda: (t.LlamaConfig(**d, rope_parameters=_llama3()), t.LlamaForCausalLM),
        "llama-linear": lambda: (
            t.LlamaConfig(**d, rope_parameters={"rope_type": "linear", "factor": 4.0, "rope_theta": 10000.0}),
            t.LlamaForCausalLM,
        ),
        "llama-dynamic": lambda: (
            t.LlamaConfig(
                **dict(d, max_position_embeddings=ORIGINAL),
                rope_parameters={"rope_type": "dynamic", "factor": 4.0, "rope_theta": 10000.0},
            ),  # fmt: skip
            t.LlamaForCausalLM,
        ),
        "qwen2-yarn-window": lambda: (
            t.Qwen2Config(
                **d, rope_parameters=_yarn(), use_sliding_window=True, sliding_window=4, max_window_layers=1
            ),  # fmt: skip
            t.Qwen2ForCausalLM,
        ),
        "qwen3-yarn-mscale": lambda: (
            t.Qwen3Config(**d, head_dim=16, rope_parameters=_yarn(beta_fast=16, beta_slow=2, attention_factor=1.3)),
            t.Qwen3ForCausalLM,
        ),
        "mistral-window": lambda: (t.MistralConfig(**d, sliding_window=4), t.MistralForCausalLM),
        "phi3-longrope": lambda: (
            t.Phi3Config(
                **dict(d, pad_token_id=0),
                partial_rotary_factor=0.75,
                rope_parameters=_longrope(6),
                original_max_position_embeddings=ORIGINAL,
            ),  # fmt: skip
            t.Phi3ForCausalLM,
        ),
        "gemma2-linear": lambda: (
            t.Gemma2Config(
                **gemma, sliding_window=4, rope_parameters={"rope_type": "linear", "factor": 8.0, "rope_theta": 10000.0}
            ),  # fmt: skip
            t.Gemma2ForCausalLM,
        ),
        "gemma3-linear": lambda: (
            t.Gemma3TextConfig(
                **gemma,
                sliding_window=4,
                layer_types=["sliding_attention", "full_attention"],
                rope_parameters={
                    "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
                    "sliding_attention": {"rope_type": "default", "rope_theta": 1e4},
                },
            ),  # fmt: skip
            t.Gemma3ForCausalLM,
        ),
        # Gemma 2 27B and Gemma 3 27B: the scores ÷ √query_pre_attn_scalar (E/H), not √D
        "gemma2-scalar": lambda: (
            t.Gemma2Config(**dict(gemma, query_pre_attn_scalar=24), sliding_window=4, attn_logit_softcapping=5.0),
            t.Gemma2ForCausalLM,
        ),
        "gemma3-scalar": lambda: (
            t.Gemma3TextConfig(
                **dict(gemma, query_pre_attn_scalar=24),
                sliding_window=4,
                layer_types=["sliding_attention", "full_attention"],
            ),  # fmt: skip
            t.Gemma3ForCausalLM,
        ),
        "olmo2-llama3": lambda: (
            t.Olmo2Config(**dict(d, pad_token_id=0), rope_parameters=_llama3()),
            t.Olmo2ForCausalLM,
        ),
        "gpt_neox-dynamic": lambda: (
            t.GPTNeoXConfig(
                vocab_size=V,
                hidden_size=64,
                intermediate_size=96,
                num_hidden_layers=2,
                num_attention_heads=4,
                max_position_embeddings=ORIGINAL,
                rotary_pct=0.5,
                bos_token_id=0,
                eos_token_id=0,
                rope_scaling={"rope_type": "dynamic", "factor": 4.0},
            ),  # fmt: skip
            t.GPTNeoXForCausalLM,
        ),
    }
    return cases[name]()


CASES = ["llama-llama3", "llama-linear", "llama-dynamic", "qwen2-yarn-window", "qwen3-yarn-mscale", "mistral-window",
         "phi3-longrope", "gemma2-linear", "gemma3-linear", "gemma2-scalar", "gemma3-scalar", "olmo2-llama3",
         "gpt_neox-dynamic"]  # fmt: skip


@pytest.fixture(scope="module")
def bpe_json():
    return train_tokenizer().to_str()


def build(folder, name: str, tokenizer_json: str):
    cfg, cls = case(name, vocab_size(tokenizer_json))
    torch.manual_seed(0)
    model = cls(cfg).eval()
    sharpen(model, 7)
    model.save_pretrained(folder)
    (folder / "tokenizer.json").write_text(tokenizer_json, encoding="utf-8")
    return cls.from_pretrained(folder, attn_implementation="eager", dtype=torch.float32).eval()


def rotary_of(oracle, layer: int):
    """transformers' rotary embedding module and the buffer the layer's type reads (Gemma 3: one per type)."""
    inner = oracle.model if hasattr(oracle, "model") else oracle.gpt_neox
    rotary = inner.rotary_emb
    types = getattr(oracle.config, "layer_types", None)
    if isinstance(oracle.config.rope_parameters, dict) and "full_attention" in oracle.config.rope_parameters:
        return getattr(rotary, f"{types[layer]}_inv_freq")
    return rotary.inv_freq


def compare(folder, oracle, text: str) -> dict[str, float]:
    bundle = load_model(folder)
    trace = run_trace(bundle, text)
    ids = list(trace.rows[0].ids)
    assert trace.rows[0].length == len(ids) and trace.rows[0].text == text, "the text was cut"
    with torch.no_grad():
        out = oracle(torch.tensor([ids]), output_attentions=True)
    theirs = out.logits[0].numpy()
    worst = {"C": len(ids), "logits_rel": float(np.abs(trace["logits"][0] - theirs).max() / np.abs(theirs).max())}
    worst["attn"] = max(
        float(np.abs(trace[f"layers.{l}.attn.weights"][0] - out.attentions[l][0].numpy()).max())
        for l in range(bundle.config.layers)
    )
    worst["freqs"] = 0.0
    for l in range(bundle.config.layers):
        ours = trace[f"layers.{l}.attn.rope_angles"][0, 1]  # position 1: the angle is the frequency itself
        expected = rotary_of(oracle, l).numpy()
        np.testing.assert_array_equal(ours[: len(ours) // 2], ours[len(ours) // 2 :])
        np.testing.assert_allclose(trace[f"layers.{l}.attn.rope_angles"][0, -1], (len(ids) - 1) * ours, rtol=1e-6)
        worst["freqs"] = max(worst["freqs"], float(np.abs(ours[: len(ours) // 2] / expected - 1).max()))
    assert worst["logits_rel"] < LOGITS_REL, worst
    assert worst["attn"] < ATTN_TOL, worst
    assert worst["freqs"] < 1e-6, worst
    return worst


@pytest.mark.parametrize("name", CASES)
def test_scaled_rope_and_windows_match_transformers(tmp_path, bpe_json, name):
    oracle = build(tmp_path, name, bpe_json)
    worst = compare(tmp_path, oracle, LONG_TEXT)
    assert worst["C"] > ORIGINAL + 4  # longer than the original context and every window
    print(f"\n{name} vs transformers: {worst}")


@pytest.mark.parametrize("name", ["qwen3-yarn-mscale", "phi3-longrope", "llama-llama3"])
def test_the_rotation_hover_adds_up_with_the_scaled_angle(tmp_path, bpe_json, name):
    """The hover of q_rot writes the scaled angle (from rope_angles) and yarn's / longrope's attention factor:
    its arithmetic gives the traced value (the plain θ^(−2j/D) would not)."""
    import test_hover_arithmetic as checker

    from explorer.present.explain import explain_value

    build(tmp_path, name, bpe_json)
    trace = run_trace(load_model(tmp_path), LONG_TEXT)
    factor = trace.config.rope_scaling.attention_factor
    for letter in "qk":
        for i in (3, trace.C - 1):
            for j in range(0, trace.config.R, 3):
                text = explain_value(trace, f"layers.1.attn.{letter}_rot", 0, 0, i, j)
                assert checker.assert_adds_up(text) >= 1, text
                assert ("·(" in text) == (factor != 1.0), text
    assert "scaling" in explain_value(trace, "layers.0.attn.rope_angles", 0, 0, trace.C - 1, 1)


@pytest.mark.parametrize("name", ["gemma2-scalar", "gemma3-scalar"])
def test_query_pre_attn_scalar_divides_the_scores(tmp_path, bpe_json, name):
    """scaled = scores / √24 (not √D = 4) in the map, its hover, its anatomy and the stage's label; a lazy
    trace (fused kernel, maps derived later) gives the same weights."""
    import test_hover_arithmetic as checker

    from explorer.anatomy import Cell, anatomy
    from explorer.config import RunOptions
    from explorer.present.explain import explain_cell
    from explorer.present.stages import edge_label

    build(tmp_path, name, bpe_json)
    bundle = load_model(tmp_path)
    assert bundle.config.query_scalar == 24 and bundle.config.D == 16
    trace = run_trace(bundle, LONG_TEXT)
    np.testing.assert_allclose(
        trace["layers.1.attn.scaled"][0], trace["layers.1.attn.scores"][0] / np.sqrt(24.0), rtol=1e-6
    )
    C = trace.C
    for i, j in ((C - 1, C - 2), (5, 3)):
        assert checker.assert_adds_up(explain_cell(trace, "scaled", 1, 0, 0, i, j)) >= 1
        steps = anatomy(trace, Cell("scaled", layer=1, query=i, key=j))
        assert steps[-1].result == trace["layers.1.attn.scaled"][0, 0, i, j]
    assert "√24" in edge_label("scaled", trace, C, 0)
    lazy = run_trace(bundle, LONG_TEXT, RunOptions(lazy_pairwise=True))
    # layer 0 ran the fused kernel (equal to rounding): its output feeds layer 1
    np.testing.assert_allclose(lazy["layers.1.attn.weights"], trace["layers.1.attn.weights"], atol=1e-5)


def test_a_scaled_model_shows_its_rotary_angles_as_a_stage(tmp_path, bpe_json):
    """The stage "rope" (only where the config scales RoPE) shows rope_angles, position by dimension, and says
    which scaling; a plain RoPE model has no such stage."""
    from explorer.present.stage_facts import stage_shape
    from explorer.present.stages import edge_label, stage_keys_for

    build(tmp_path / "scaled", "llama-llama3", bpe_json)
    trace = run_trace(load_model(tmp_path / "scaled"), LONG_TEXT)
    keys = stage_keys_for(trace.config)
    assert keys.index("qkv") < keys.index("rope") < keys.index("scores")
    assert "llama3" in edge_label("rope", trace, trace.C, 0)
    assert stage_shape("rope", trace, 0, 0) == (f"({trace.C}, {trace.config.R})", 1)
    build(tmp_path / "plain", "mistral-window", bpe_json)
    assert "rope" not in stage_keys_for(load_model(tmp_path / "plain").config)


@pytest.mark.parametrize("name", ["phi3-longrope", "llama-dynamic"])
@pytest.mark.parametrize("cache", [True, False])
def test_generation_past_the_original_context_matches_transformers(tmp_path, bpe_json, name, cache):
    """Greedy tokens written past original_max equal transformers' generate (a fresh model: its dynamic
    frequencies are state). LongRoPE with a cache: the cached short-factor keys are dropped and the text run
    again once it outgrows original_max, as transformers' Phi-3 does; without that the tokens part ways."""
    import explorer

    oracle = build(tmp_path, name, bpe_json)
    result = explorer.generate("The cat sat on the mat because it", n=12, model=str(tmp_path), greedy=True, cache=cache)
    prompt = [int(i) for i in result.trace["tokens"][0]]
    assert len(prompt) <= ORIGINAL < len(prompt) + 12
    with torch.no_grad():
        out = oracle.generate(
            torch.tensor([prompt]), max_new_tokens=12, min_new_tokens=12, do_sample=False, use_cache=cache
        )
    assert [int(i) for i in result.trace["gen.tokens"][0]] == out[0, len(prompt) :].tolist()


@pytest.mark.parametrize("value", [{}, {"factor": 2.0}, {"factor": 8.0, "original_max": 8192}])
def test_a_manifests_rope_scaling_without_a_kind_is_one_line(value):
    """A snapshot manifest's config says rope_scaling as a dict; one without ``kind`` names no scaling (hypothesis
    found ``{}``, which was a TypeError traceback)."""
    from explorer.config.rope_scaling import RopeScaling
    from explorer.errors import ConfigError

    with pytest.raises(ConfigError, match="rope_scaling has no kind"):
        RopeScaling.from_value(value)
    assert RopeScaling.from_value({**value, "kind": "linear"}).kind == "linear"
