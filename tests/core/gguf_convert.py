"""A transformers model written as a GGUF file the way llama.cpp's convert_hf_to_gguf.py writes it, for the GGUF
tests of the mixtures of experts and the rotary scalings: llama's W_q / W_k rows permuted (no other architecture),
each layer's experts stacked into ``ffn_{gate,up,down}_exps`` (X, out, in) with the router as ``ffn_gate_inp``,
Qwen-MoE's shared expert as ``ffn_*_shexp`` and its gate as ``ffn_gate_inp_shexp``, the ``{arch}.expert_*``
keys, and the rotary scaling as metadata (linear, yarn) or, for Llama 3, the ``rope_freqs`` tensor of the
converter's per-frequency factors."""

from __future__ import annotations

import json
import math

import gguf
import numpy as np
import torch


def permute(w: np.ndarray, heads: int) -> np.ndarray:
    """llama.cpp's LlamaModel.permute of q_proj / k_proj rows."""
    return w.reshape(heads, 2, w.shape[0] // heads // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def llama3_factors(rope: dict, head_dim: int) -> np.ndarray:
    """The converter's rope_freqs for a llama3 rope block (its generate_extra_tensors)."""
    base = rope["rope_theta"]
    freqs = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
    factor, low, high = rope["factor"], rope["low_freq_factor"], rope["high_freq_factor"]
    old = rope["original_max_position_embeddings"]
    out = []
    for freq in freqs.tolist():
        wavelen = 2 * math.pi / freq
        if wavelen < old / high:
            out.append(1.0)
        elif wavelen > old / low:
            out.append(factor)
        else:
            smooth = (old / wavelen - low) / (high - low)
            out.append(1 / ((1 - smooth) / factor + smooth))
    return np.array(out, dtype=np.float32)


def _metadata(w, arch: str, cfg, D: int) -> None:
    w.add_name(f"tiny test {arch}")
    w.add_block_count(cfg.num_hidden_layers)
    w.add_context_length(cfg.max_position_embeddings)
    w.add_embedding_length(cfg.hidden_size)
    w.add_feed_forward_length(cfg.intermediate_size)
    w.add_head_count(cfg.num_attention_heads)
    w.add_head_count_kv(cfg.num_key_value_heads)
    w.add_layer_norm_rms_eps(cfg.rms_norm_eps)
    w.add_rope_dimension_count(D)
    rope = cfg.rope_parameters
    w.add_rope_freq_base(rope["rope_theta"])
    kind = rope.get("rope_type", "default")
    if kind == "linear":
        w.add_rope_scaling_type(gguf.RopeScalingType.LINEAR)
        w.add_rope_scaling_factor(rope["factor"])
    elif kind == "yarn":
        w.add_rope_scaling_type(gguf.RopeScalingType.YARN)
        w.add_rope_scaling_factor(rope["factor"])
        w.add_rope_scaling_orig_ctx_len(rope["original_max_position_embeddings"])
        for key in ("beta_fast", "beta_slow"):
            if rope.get(key) is not None:
                getattr(w, f"add_rope_scaling_yarn_{key}")(rope[key])
        if rope.get("attention_factor") is not None:
            w.add_rope_scaling_yarn_attn_factor(rope["attention_factor"])
    X = getattr(cfg, "num_local_experts", None) or getattr(cfg, "num_experts", None)
    if X:
        w.add_expert_count(X)
        w.add_expert_used_count(cfg.num_experts_per_tok)
    if arch != "llama" and getattr(cfg, "norm_topk_prob", False):  # llama.cpp's qwen2moe / olmoe: false
        w.add_expert_weights_norm(True)
    if arch == "qwen2moe":
        w.add_expert_feed_forward_length(cfg.moe_intermediate_size)
        w.add_expert_shared_feed_forward_length(cfg.shared_expert_intermediate_size)


def _tokenizer(w, tokenizer_json: str) -> None:
    tok = json.loads(tokenizer_json)
    tokens = [t for t, _ in sorted(tok["model"]["vocab"].items(), key=lambda kv: kv[1])]
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("gpt2")
    w.add_token_list(tokens)
    w.add_token_types([3 if t == "<|endoftext|>" else 1 for t in tokens])
    w.add_token_merges([m if isinstance(m, str) else " ".join(m) for m in tok["model"]["merges"]])


_NAMES = {
    "input_layernorm.weight": "attn_norm.weight",
    "post_attention_layernorm.weight": "ffn_norm.weight",
    "self_attn.q_norm.weight": "attn_q_norm.weight",
    "self_attn.k_norm.weight": "attn_k_norm.weight",
    "self_attn.o_proj.weight": "attn_output.weight",
    "mlp.gate_proj.weight": "ffn_gate.weight",
    "mlp.up_proj.weight": "ffn_up.weight",
    "mlp.down_proj.weight": "ffn_down.weight",
    "mlp.gate.weight": "ffn_gate_inp.weight",
    "mlp.experts.down_proj": "ffn_down_exps.weight",
    "mlp.shared_expert.gate_proj.weight": "ffn_gate_shexp.weight",
    "mlp.shared_expert.up_proj.weight": "ffn_up_shexp.weight",
    "mlp.shared_expert.down_proj.weight": "ffn_down_shexp.weight",
    "mlp.shared_expert_gate.weight": "ffn_gate_inp_shexp.weight",
    **{f"self_attn.{x}_proj.{k}": f"attn_{x}.{k}" for x in "qkv" for k in ("weight", "bias")},
}


def _tensors(hf_name: str, a: np.ndarray, arch: str, cfg):
    """(GGUF name, numpy array) pairs of one transformers tensor."""
    if hf_name == "model.embed_tokens.weight":
        return [("token_embd.weight", a)]
    if hf_name == "model.norm.weight":
        return [("output_norm.weight", a)]
    if hf_name == "lm_head.weight":
        return [] if cfg.tie_word_embeddings else [("output.weight", a)]
    _, _, l, rest = hf_name.split(".", 3)
    b = f"blk.{l}"
    if rest == "mlp.experts.gate_up_proj":  # transformers 5 fuses each expert's gate (first) and up rows
        gate, up = np.split(a, 2, axis=1)
        return [(f"{b}.ffn_gate_exps.weight", gate), (f"{b}.ffn_up_exps.weight", up)]
    if arch == "llama" and rest == "self_attn.q_proj.weight":
        a = permute(a, cfg.num_attention_heads)
    elif arch == "llama" and rest == "self_attn.k_proj.weight":
        a = permute(a, cfg.num_key_value_heads)
    return [(f"{b}.{_NAMES[rest]}", a)]


def write_gguf(path, arch: str, model, tokenizer_json: str) -> None:
    cfg = model.config
    D = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
    w = gguf.GGUFWriter(str(path), arch)
    _metadata(w, arch, cfg, D)
    _tokenizer(w, tokenizer_json)
    if cfg.rope_parameters.get("rope_type") == "llama3":
        w.add_tensor("rope_freqs.weight", llama3_factors(cfg.rope_parameters, D))
    for hf_name, tensor in model.state_dict().items():
        for name, a in _tensors(hf_name, tensor.detach().float().numpy(), arch, cfg):
            w.add_tensor(name, np.ascontiguousarray(a, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def with_keys(path, out, arch: str, **keys) -> None:
    """A copy of the GGUF file at ``path`` with metadata ``{arch}.KEY`` added or replaced (a float as FLOAT32,
    a str as STRING, an int as UINT32; a key written with dots as KEY__PART, e.g. rope__scaling__type)."""
    keys = {k.replace("__", "."): v for k, v in keys.items()}
    reader = gguf.GGUFReader(str(path))
    w = gguf.GGUFWriter(str(out), arch)
    for field in reader.fields.values():
        if (
            field.name.startswith("GGUF.")
            or field.name == "general.architecture"
            or field.name[len(arch) + 1 :] in keys
        ):
            continue
        vtype = field.types[0]
        sub = field.types[-1] if vtype == gguf.GGUFValueType.ARRAY else None
        w.add_key_value(field.name, field.contents(), vtype, sub_type=sub)
    kinds = {float: gguf.GGUFValueType.FLOAT32, str: gguf.GGUFValueType.STRING, int: gguf.GGUFValueType.UINT32}
    for short, value in keys.items():
        w.add_key_value(f"{arch}.{short}", value, kinds[type(value)])
    for t in reader.tensors:
        w.add_tensor(t.name, np.array(t.data), raw_dtype=t.tensor_type)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
