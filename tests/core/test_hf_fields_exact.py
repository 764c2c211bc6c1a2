"""Issue 42's silent-wrong cases, each now equal to transformers (eager attention) on a random-weight folder:
every layer's attention within 1e-5, logits within 1e-4 relative (``compare`` of tests/core/test_hf_families.py),
or refused in one line that names the key and its value. Each case once gave numbers off by 1e-3 to 220 %
without a word: Llama's mlp_bias, Gemma 2's exact GELU, Gemma 3's ignored score cap, hidden_act on Phi-3,
OLMo 2 and Qwen 3, Qwen 3's max_window_layers and top-level partial_rotary_factor, a tied config beside a
stored lm_head, RoBERTa's padding id."""

from __future__ import annotations

import json

import pytest
import torch

from explorer.errors import ModelLoadError
from explorer.weights.loaders import load_model

transformers = pytest.importorskip("transformers")

from test_hf_families import (  # noqa: E402
    DECODER_TEXT,
    ENCODER_TEXT,
    compare,
    decoder_settings,
    roberta_bpe_json,
    vocab_size,
)
from test_hf_oracle import sharpen  # noqa: E402
from tiny_bpe import train_tokenizer  # noqa: E402

GEMMA = dict(head_dim=16, query_pre_attn_scalar=16, rms_norm_eps=1e-6)
TWO_LAYER_TYPES = ["sliding_attention", "full_attention"]


@pytest.fixture(scope="module")
def bpe_json():
    return train_tokenizer().to_str()


def save(folder, config, cls, tokenizer_json: str, edit: dict | None = None, drop: tuple[str, ...] = ()):
    """(folder, transformers model read back from it): random weights saved with save_pretrained, then
    config.json changed by ``edit`` and without the keys ``drop`` (as files of other versions write it)."""
    torch.manual_seed(0)
    model = cls(config).eval()
    sharpen(model, 7)
    model.save_pretrained(folder)
    (folder / "tokenizer.json").write_text(tokenizer_json, encoding="utf-8")
    data = json.loads((folder / "config.json").read_text())
    data.update(edit or {})
    for key in drop:
        data.pop(key, None)
    (folder / "config.json").write_text(json.dumps(data))
    oracle = cls.from_pretrained(folder, attn_implementation="eager", dtype=torch.float32).eval()
    return folder, oracle


def decoder(family: str, V: int, **extra):
    t, d = transformers, decoder_settings(V)
    made = {
        "llama": lambda: (t.LlamaConfig(**d, **extra), t.LlamaForCausalLM),
        "gemma2": lambda: (t.Gemma2Config(**d | GEMMA, layer_types=TWO_LAYER_TYPES, **extra), t.Gemma2ForCausalLM),
        "gemma3": lambda: (
            t.Gemma3TextConfig(**d | GEMMA, layer_types=TWO_LAYER_TYPES, **extra),
            t.Gemma3ForCausalLM,
        ),
        "phi3": lambda: (t.Phi3Config(**dict(d, pad_token_id=0), **extra), t.Phi3ForCausalLM),
        "olmo2": lambda: (t.Olmo2Config(**dict(d, pad_token_id=0), **extra), t.Olmo2ForCausalLM),
        "qwen3": lambda: (t.Qwen3Config(**d, head_dim=16, **extra), t.Qwen3ForCausalLM),
    }
    return made[family]()


def exact(tmp_path, bpe_json, family: str, edit=None, drop=(), **extra):
    config, cls = decoder(family, vocab_size(bpe_json), **extra)
    folder, oracle = save(tmp_path, config, cls, bpe_json, edit, drop)
    bundle = load_model(folder)
    worst = compare(bundle, oracle, folder, DECODER_TEXT)
    print(f"\n{family} {extra or ''} {edit or ''} vs transformers: {worst}")
    return bundle


def test_llama_mlp_bias_adds_the_gate_up_and_down_biases(tmp_path, bpe_json):
    bundle = exact(tmp_path, bpe_json, "llama", mlp_bias=True)
    assert bundle.config.bias
    b_gate = bundle.model.layers[0].ffn.b_gate
    assert b_gate is not None and float(b_gate.detach().abs().max()) > 0.01  # the checkpoint's, not zeros


def test_llama_attention_bias_without_mlp_bias_keeps_a_zero_gate_bias(tmp_path, bpe_json):
    bundle = exact(tmp_path, bpe_json, "llama", attention_bias=True)
    assert float(bundle.model.layers[0].ffn.b_gate.detach().abs().max()) == 0.0


def test_gemma2_hidden_activation_gelu_is_the_exact_gelu(tmp_path, bpe_json):
    bundle = exact(tmp_path, bpe_json, "gemma2", hidden_activation="gelu", sliding_window=4)
    assert bundle.config.ffn_activation == "gelu_gated"


def test_gemma3_ignores_the_score_soft_cap_as_transformers_does(tmp_path, bpe_json):
    bundle = exact(tmp_path, bpe_json, "gemma3", attn_logit_softcapping=0.5, sliding_window=4)
    assert bundle.config.attn_softcap is None


@pytest.mark.parametrize(
    "family, act, ours",
    [
        ("phi3", "gelu", "gelu_gated"),
        ("olmo2", "gelu_pytorch_tanh", "gelu_tanh_gated"),
        ("qwen3", "gelu_new", "gelu_tanh_gated"),
        ("qwen3", "swish", "silu_gated"),
    ],
)
def test_hidden_act_other_than_silu_is_followed(tmp_path, bpe_json, family, act, ours):
    assert exact(tmp_path, bpe_json, family, hidden_act=act).config.ffn_activation == ours


@pytest.mark.parametrize("family", ["llama", "phi3", "olmo2", "qwen3", "gemma2"])
def test_an_activation_transformers_has_and_we_do_not_is_refused_by_name(family):
    from explorer.families import hf_family
    from explorer.weights.hf.config import config_from_hf

    key = "hidden_activation" if family.startswith("gemma") else "hidden_act"
    data = {**hf_family(family).example, key: "relu2"}
    with pytest.raises(ModelLoadError, match=f"{key} 'relu2' is not supported") as caught:
        config_from_hf(data)
    assert "\n" not in str(caught.value)


def test_qwen3_max_window_layers_slides_the_layers_from_it_on(tmp_path, bpe_json):
    """A config.json without layer_types (as transformers 4 wrote it): transformers derives the sliding
    layers from max_window_layers, and so do we; the text is longer than the window."""
    edit = dict(use_sliding_window=True, sliding_window=4, max_window_layers=1)
    bundle = exact(tmp_path, bpe_json, "qwen3", edit=edit, drop=("layer_types",))
    assert bundle.config.sliding_layers == (1,) and bundle.config.sliding_window == 4


def test_qwen3_ignores_a_top_level_partial_rotary_factor(tmp_path, bpe_json):
    bundle = exact(tmp_path, bpe_json, "qwen3", edit={"partial_rotary_factor": 0.5})
    assert bundle.config.R == bundle.config.D


def test_a_tied_config_beside_a_stored_lm_head_uses_the_lm_head(tmp_path, bpe_json):
    """transformers 5 does not tie when the checkpoint stores an lm_head that differs from the embedding."""
    bundle = exact(tmp_path, bpe_json, "llama", edit={"tie_word_embeddings": True}, tie_word_embeddings=False)
    assert not bundle.config.tie_embeddings


def test_a_tied_config_with_an_equal_stored_lm_head_stays_tied(tmp_path, bpe_json):
    from safetensors.torch import load_file, save_file

    config, cls = decoder("llama", vocab_size(bpe_json), tie_word_embeddings=True)
    folder, oracle = save(tmp_path, config, cls, bpe_json)
    tensors = load_file(folder / "model.safetensors")
    tensors["lm_head.weight"] = tensors["model.embed_tokens.weight"].clone()
    save_file(tensors, folder / "model.safetensors", metadata={"format": "pt"})
    bundle = load_model(folder)
    assert bundle.config.tie_embeddings
    compare(bundle, oracle, folder, DECODER_TEXT)


def roberta(tmp_path, **settings):
    tokenizer_json = roberta_bpe_json()
    V = vocab_size(tokenizer_json)
    sizes = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96)
    config = transformers.RobertaConfig(vocab_size=V, **sizes, type_vocab_size=1, **settings)
    return save(tmp_path, config, transformers.RobertaForMaskedLM, tokenizer_json)


def test_roberta_with_padding_id_minus_one_counts_positions_from_row_zero(tmp_path):
    folder, oracle = roberta(tmp_path, pad_token_id=-1, bos_token_id=0, eos_token_id=2, max_position_embeddings=64)
    bundle = load_model(folder)
    assert bundle.config.max_positions == 64
    print("\nroberta pad −1 vs transformers:", compare(bundle, oracle, folder, ENCODER_TEXT, encoder=True))


def test_roberta_with_the_padding_id_of_its_start_token_is_refused(tmp_path):
    folder, _ = roberta(tmp_path, pad_token_id=0, bos_token_id=0, eos_token_id=2, max_position_embeddings=66)
    with pytest.raises(ModelLoadError, match="pad_token_id 0 equals bos_token_id") as caught:
        load_model(folder)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "where, R",
    [("top beside rope_parameters", 16), ("top alone", 8), ("in rope_parameters", 8)],
)
def test_phi3_follows_its_partial_rotary_factor_where_transformers_reads_it(tmp_path, bpe_json, where, R):
    """Phi-3's RoPE turns R = D·factor dimensions; transformers takes the factor from rope_parameters, and
    from the top level only where rope_parameters does not say (a transformers 4 file: Phi-4-mini)."""
    config, _ = decoder("phi3", vocab_size(bpe_json))
    rope = {**config.rope_parameters, "partial_rotary_factor": 0.5}
    edit = {"partial_rotary_factor": 0.5} if where.startswith("top") else {"rope_parameters": rope}
    if where == "top alone":
        edit["rope_theta"] = config.rope_parameters["rope_theta"]
    drop = ("rope_parameters",) if where == "top alone" else ()
    bundle = exact(tmp_path, bpe_json, "phi3", edit=edit, drop=drop)
    assert (bundle.config.R, bundle.config.D) == (R, 16)


@pytest.mark.parametrize("family, extra", [("llama", {"mlp_bias": True}), ("gemma2", {"hidden_activation": "gelu"})])
def test_the_ffn_hover_and_a_neurons_anatomy_follow_the_gate_bias_and_the_exact_gelu(tmp_path, bpe_json, family, extra):
    """A neuron's hover is arithmetic that adds up (the checker of tests/core/test_hover_arithmetic.py, with the
    exact GELU), and its anatomy recomputes the trace's number: both read b_gate and the GELU the model used."""
    import test_hover_arithmetic as checker

    from explorer.anatomy import Cell, anatomy
    from explorer.present.explain import explain_value
    from explorer.trace.run import run_trace

    config, cls = decoder(family, vocab_size(bpe_json), **extra)
    folder, _ = save(tmp_path, config, cls, bpe_json)
    trace = run_trace(load_model(folder), "The cat sat on the mat because it was tired .")
    n, F = trace.rows[0].length, trace.config.F
    for i in range(0, n, 3):
        for j in (0, F // 2, F - 1):
            text = explain_value(trace, "layers.1.ffn.hidden", 0, 0, i, j)
            assert checker.assert_adds_up(text, checker._gelu) >= 1, text
            printed = text.rsplit("= ", 1)[1].strip()  # the hover's result is the trace's own number
            value = float(trace["layers.1.ffn.hidden"][0, i, j])
            assert abs(float(printed.replace("−", "-")) - value) <= checker.half_unit(printed) + 1e-6, (text, value)
            steps = anatomy(trace, Cell("ffn", 1, 0, i, neuron=j), whole=True)
            last = steps[-1]
            assert abs(last.extra["recomputed"] - last.result) <= 1e-5 * max(1.0, abs(last.result)), (i, j)
