"""GPT-NeoX (Pythia): LayerNorm with biases, q/k/v fused per head, partial RoPE, attention and FFN side by
side (a parallel block: both read x)."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families.family import Family, Refusal
from explorer.families.field_table import DROPOUT, ROPE_BLOCKS, implemented, inert, table_of
from explorer.families.hf_fields import GELU, activation, bool_field, eps, make_config, rope_settings, rotary_dims, size
from explorer.families.rope_fields import longest_text, read_scaling
from explorer.families.source import Source

FIELDS = table_of(
    implemented("vocab_size", "hidden_size", "num_attention_heads", "num_hidden_layers", "intermediate_size"),
    implemented("max_position_embeddings", "hidden_act", "layer_norm_eps", "use_parallel_residual", "attention_bias"),
    implemented("tie_word_embeddings", "rotary_pct", "partial_rotary_factor", "rotary_emb_base"),
    implemented("rope_theta", why="plain RoPE's base"),
    ROPE_BLOCKS,
    inert(DROPOUT, "attention_dropout", "hidden_dropout", "classifier_dropout"),
    inert("GPTNeoXForCausalLM is causal whatever it says", "is_decoder"),
)


def config(data: dict, origin: str) -> ModelConfig:
    E = size(data, "hidden_size", origin=origin)
    H = size(data, "num_attention_heads", origin=origin)
    if E % H:
        raise ModelLoadError(f"{origin}: hidden_size {E} is not a multiple of num_attention_heads {H}")
    bias = bool_field(data, "attention_bias", True, origin)
    if not bias:
        raise ModelLoadError(
            f"{origin}: attention_bias=false is not supported (the FFN has biases, the traced model all or none)"
        )
    longest = size(data, "max_position_embeddings", default=2048, origin=origin)
    scaling = read_scaling(data, origin, longest)
    return make_config(
        origin,
        vocab_size=size(data, "vocab_size", origin=origin),
        embed_dim=E,
        key_dim=E // H,
        heads=H,
        layers=size(data, "num_hidden_layers", origin=origin),
        ffn_dim=size(data, "intermediate_size", origin=origin),
        positions="rope",
        rotary_dims=rotary_dims(data, E // H, origin),
        rope_theta=rope_settings(data, origin),
        max_positions=longest_text(longest, scaling),
        rope_scaling=scaling,
        norm="layernorm",
        ffn_activation=activation(data, origin, "hidden_act", default="gelu", allowed=GELU),
        bias=True,
        tie_embeddings=bool_field(data, "tie_word_embeddings", False, origin),
        norm_eps=eps(data, "layer_norm_eps", 1e-5, origin),
        parallel_block=bool_field(data, "use_parallel_residual", True, origin),
        family=FAMILY.name,
    )


def sources(cfg: ModelConfig, data: dict) -> dict[str, Source]:
    out: dict[str, Source] = {"embed.tok": Source("gpt_neox.embed_in.weight")}
    for l in range(cfg.layers):
        m, p = f"gpt_neox.layers.{l}", f"layers.{l}"
        for ours, theirs in (("ln_attn", "input_layernorm"), ("ln_ffn", "post_attention_layernorm")):
            out[f"{p}.{ours}.weight"] = Source(f"{m}.{theirs}.weight")
            out[f"{p}.{ours}.bias"] = Source(f"{m}.{theirs}.bias")
        for i, x in enumerate("qkv"):  # query_key_value: per head, q k v rows side by side
            out[f"{p}.attn.W_{x}"] = Source(f"{m}.attention.query_key_value.weight", "heads3", i, cfg.H)
            out[f"{p}.attn.b_{x}"] = Source(f"{m}.attention.query_key_value.bias", "heads3", i, cfg.H)
        out |= {
            f"{p}.attn.W_o": Source(f"{m}.attention.dense.weight", "T"),
            f"{p}.attn.b_o": Source(f"{m}.attention.dense.bias"),
            f"{p}.ffn.W_in": Source(f"{m}.mlp.dense_h_to_4h.weight", "T"),
            f"{p}.ffn.b_in": Source(f"{m}.mlp.dense_h_to_4h.bias"),
            f"{p}.ffn.W_out": Source(f"{m}.mlp.dense_4h_to_h.weight", "T"),
            f"{p}.ffn.b_out": Source(f"{m}.mlp.dense_4h_to_h.bias"),
        }
    out["ln_final.weight"] = Source("gpt_neox.final_layer_norm.weight")
    out["ln_final.bias"] = Source("gpt_neox.final_layer_norm.bias")
    if not cfg.tie_embeddings:
        out["unembed.W_u"] = Source("embed_out.weight|lm_head.weight", "T")
    return out


FAMILY = Family(
    name="gpt_neox",
    summary="parallel attention and FFN, partial RoPE, q/k/v fused per head",
    hf_type="gpt_neox",
    hf_config=config,
    hf_sources=sources,
    example={
        "model_type": "gpt_neox",
        "vocab_size": 50,
        "hidden_size": 8,
        "num_attention_heads": 2,
        "num_hidden_layers": 2,
        "intermediate_size": 16,
        "rotary_pct": 0.5,
    },
    refuses=(
        Refusal("attention_bias", False, "attention_bias=false is not supported"),
        Refusal("hidden_act", "silu", "hidden_act 'silu' is not supported"),
    ),
    stages=("parallel",),
    fields=FIELDS,
)
