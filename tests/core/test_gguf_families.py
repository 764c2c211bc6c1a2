"""GGUF files of the architectures beyond llama (qwen2, qwen3, gemma, gemma2, gemma3, phi3), written here with
the ``gguf`` package from the same random weights as a Hugging Face folder, the way llama.cpp's converter
writes them (no Q/K permutation for these architectures, Gemma's norm scales stored as 1 + w, Phi-3's fused
attn_qkv and gate·up ffn_up), must open equal to transformers running that model: same ids, every layer's
attention weights within 1e-5, logits within 1e-4 relative."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from explorer.errors import ModelLoadError
from explorer.weights.loaders import load_model

gguf = pytest.importorskip("gguf")
transformers = pytest.importorskip("transformers")

from test_hf_families import DECODER_TEXT, build, compare  # noqa: E402
from tiny_bpe import train_tokenizer  # noqa: E402


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def bpe_json():
    return train_tokenizer().to_str()


def _names(arch: str, L: int) -> dict[str, str]:
    """Hugging Face tensor name → llama.cpp's, for one architecture."""
    out = {
        "model.embed_tokens.weight": "token_embd.weight",
        "model.norm.weight": "output_norm.weight",
        "lm_head.weight": "output.weight",
    }
    sandwich = arch in ("gemma2", "gemma3")
    for l in range(L):
        m, b = f"model.layers.{l}", f"blk.{l}"
        pairs = {
            "input_layernorm.weight": "attn_norm.weight",
            "post_attention_layernorm.weight": "post_attention_norm.weight" if sandwich else "ffn_norm.weight",
            "pre_feedforward_layernorm.weight": "ffn_norm.weight",
            "post_feedforward_layernorm.weight": "post_ffw_norm.weight",
            "self_attn.q_norm.weight": "attn_q_norm.weight",
            "self_attn.k_norm.weight": "attn_k_norm.weight",
            "self_attn.o_proj.weight": "attn_output.weight",
            "self_attn.qkv_proj.weight": "attn_qkv.weight",
            "mlp.gate_proj.weight": "ffn_gate.weight",
            "mlp.up_proj.weight": "ffn_up.weight",
            "mlp.gate_up_proj.weight": "ffn_up.weight",
            "mlp.down_proj.weight": "ffn_down.weight",
        }
        for x in "qkv":
            pairs[f"self_attn.{x}_proj.weight"] = f"attn_{x}.weight"
            pairs[f"self_attn.{x}_proj.bias"] = f"attn_{x}.bias"
        out |= {f"{m}.{k}": f"{b}.{v}" for k, v in pairs.items()}
    return out


def write_family_gguf(path, arch: str, model, tokenizer_json: str) -> None:
    cfg = model.config
    L, D = cfg.num_hidden_layers, getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
    w = gguf.GGUFWriter(str(path), arch)
    w.add_name(f"tiny test {arch}")
    w.add_block_count(L)
    w.add_context_length(cfg.max_position_embeddings)
    w.add_embedding_length(cfg.hidden_size)
    w.add_feed_forward_length(cfg.intermediate_size)
    w.add_head_count(cfg.num_attention_heads)
    w.add_head_count_kv(cfg.num_key_value_heads)
    w.add_key_length(D)
    w.add_value_length(D)
    w.add_layer_norm_rms_eps(cfg.rms_norm_eps)
    rope = cfg.rope_parameters
    w.add_rope_freq_base((rope.get("full_attention") or rope)["rope_theta"])
    w.add_rope_dimension_count(D)
    if arch == "gemma3":
        w.add_rope_freq_base_swa(rope["sliding_attention"]["rope_theta"])
    if getattr(cfg, "sliding_window", None):
        w.add_sliding_window(cfg.sliding_window)
        if arch != "phi3":
            w.add_sliding_window_pattern([t == "sliding_attention" for t in cfg.layer_types])
    for key in ("attn_logit_softcapping", "final_logit_softcapping"):
        if getattr(cfg, key, None):
            getattr(w, f"add_{key}")(getattr(cfg, key))
    tok = json.loads(tokenizer_json)
    tokens = [t for t, _ in sorted(tok["model"]["vocab"].items(), key=lambda kv: kv[1])]
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("gpt2")
    w.add_token_list(tokens)
    w.add_token_types([3 if t == "<|endoftext|>" else 1 for t in tokens])
    w.add_token_merges([m if isinstance(m, str) else " ".join(m) for m in tok["model"]["merges"]])
    names = _names(arch, L)
    for hf_name, tensor in model.state_dict().items():
        if hf_name not in names or (hf_name == "lm_head.weight" and cfg.tie_word_embeddings):
            continue
        a = tensor.detach().float().numpy()
        if arch.startswith("gemma") and hf_name.endswith("norm.weight"):
            a = a + 1.0  # llama.cpp's converter stores Gemma's γ = 1 + w
        w.add_tensor(names[hf_name], np.ascontiguousarray(a, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


@pytest.mark.parametrize("arch", ["qwen2", "qwen3", "gemma", "gemma2", "gemma3", "phi3"])
def test_gguf_of_each_family_equals_its_hugging_face_model(tmp_path, bpe_json, arch):
    folder, oracle = build(tmp_path / "hf", arch, bpe_json)
    path = tmp_path / f"tiny-{arch}.gguf"
    write_family_gguf(path, arch, oracle, bpe_json)
    bundle = load_model(path)
    hf_bundle = load_model(folder)
    assert bundle.config.family == arch and bundle.name == f"tiny test {arch}"
    for field in (
        "qk_norm",
        "norm_placement",
        "sliding_window",
        "sliding_layers",
        "attn_softcap",
        "logit_softcap",
        "embed_scale",
        "ffn_activation",
        "rope_local_theta",
        "tie_embeddings",
        "bias",
    ):
        assert getattr(bundle.config, field) == getattr(hf_bundle.config, field), field
    worst = compare(bundle, oracle, folder, DECODER_TEXT)
    print(f"\n{arch} GGUF vs transformers: {worst}")
    for (name, p), (_, q) in zip(bundle.model.named_parameters(), hf_bundle.model.named_parameters()):
        assert torch.equal(p, q), name  # the same weights, bit for bit, whichever file they came from


def test_an_unsupported_gguf_architecture_names_the_supported_ones(tmp_path, bpe_json):
    folder, oracle = build(tmp_path / "hf", "qwen2", bpe_json)
    path = tmp_path / "tiny.gguf"
    write_family_gguf(path, "qwen2", oracle, bpe_json)
    data = path.read_bytes().replace(b"qwen2", b"falco", 1)  # general.architecture's value, same length
    path.write_bytes(data)
    with pytest.raises(
        ModelLoadError,
        match=(
            "'falco' is not supported; this version opens llama, qwen2, qwen3, gemma, gemma2, gemma3, phi3, "
            "qwen2moe, olmoe GGUF files"
        ),
    ):
        load_model(path)


def test_gemma_27b_gguf_divides_its_scores_as_llama_cpp():
    """llama.cpp (llama-model.cpp, f_attention_scale) scales Gemma 2 27B (46 layers) and Gemma 3 27B (62
    layers) by 1/√(E/H), every other size by 1/√D: the 27B's E/H = 4608/32 = 144 while D = 128."""
    from explorer.families.gemma2 import gguf_caps

    big = dict(embed_dim=4608, heads=32, key_dim=128, layers=46)
    assert gguf_caps({}, "gemma2", big, "x.gguf")["query_scalar"] == 144
    assert gguf_caps({}, "gemma3", dict(big, layers=62, embed_dim=5376), "x.gguf")["query_scalar"] == 168
    assert gguf_caps({}, "gemma2", dict(big, layers=42), "x.gguf")["query_scalar"] is None  # 9B: √D
    assert gguf_caps({}, "gemma3", dict(big, layers=46), "x.gguf")["query_scalar"] is None
