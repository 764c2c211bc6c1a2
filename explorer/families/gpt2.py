"""GPT-2: learned positions, LayerNorm with biases, a GELU FFN, tied embeddings. Its Conv1D stores (in, out)
already, and c_attn fuses W_q, W_k and W_v side by side."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families.family import Family, Refusal
from explorer.families.field_table import DROPOUT, implemented, inert, table_of
from explorer.families.hf_fields import bool_field, eps, make_config, size, text_field
from explorer.families.source import Source

_ACTIVATIONS = {
    "gelu_new": "gelu_tanh",
    "gelu_pytorch_tanh": "gelu_tanh",
    "gelu_fast": "gelu_tanh",
    "gelu": "gelu",
    "relu": "relu",
}


FIELDS = table_of(
    implemented("vocab_size", "n_embd", "hidden_size", "n_head", "num_attention_heads", "n_layer"),
    implemented("num_hidden_layers", "n_inner", "n_positions", "max_position_embeddings", "n_ctx"),
    implemented("activation_function", "layer_norm_epsilon", "tie_word_embeddings"),
    implemented("scale_attn_weights", "scale_attn_by_inverse_layer_idx", "add_cross_attention", why="refused when set"),
    inert(DROPOUT, "attn_pdrop", "embd_pdrop", "resid_pdrop"),
    inert("the scores in float32 before the softmax: the same numbers in float32", "reorder_and_upcast_attn"),
    inert(
        "GPT2DoubleHeadsModel's multiple-choice head, which is not loaded",
        "summary_activation",
        "summary_first_dropout",
        "summary_proj_to_labels",
        "summary_type",
        "summary_use_proj",
    ),
)


def config(data: dict, origin: str) -> ModelConfig:
    act = text_field(data, "activation_function", "gelu_new", origin)
    if act not in _ACTIVATIONS:
        raise ModelLoadError(f"{origin}: activation_function {act!r} is not supported (use gelu_new, gelu or relu)")
    if data.get("scale_attn_by_inverse_layer_idx"):
        raise ModelLoadError(f"{origin}: scale_attn_by_inverse_layer_idx is not supported")
    if data.get("scale_attn_weights") is False:
        raise ModelLoadError(f"{origin}: scale_attn_weights=false is not supported (the traced model divides by √D)")
    if data.get("add_cross_attention"):
        raise ModelLoadError(f"{origin}: cross-attention (encoder-decoder GPT-2) is not supported")
    E = size(data, "n_embd", "hidden_size", origin=origin)
    H = size(data, "n_head", "num_attention_heads", origin=origin)
    if E % H:
        raise ModelLoadError(f"{origin}: n_embd {E} is not a multiple of n_head {H}")
    return make_config(
        origin,
        vocab_size=size(data, "vocab_size", origin=origin),
        embed_dim=E,
        key_dim=E // H,
        heads=H,
        layers=size(data, "n_layer", "num_hidden_layers", origin=origin),
        ffn_dim=size(data, "n_inner", default=4 * E, origin=origin),
        positions="learned",
        max_positions=size(data, "n_positions", "max_position_embeddings", "n_ctx", origin=origin),
        norm="layernorm",
        ffn_activation=_ACTIVATIONS[act],
        bias=True,
        unembed_bias=False,
        tie_embeddings=bool_field(data, "tie_word_embeddings", True, origin),
        norm_eps=eps(data, "layer_norm_epsilon", 1e-5, origin),
        family=FAMILY.name,
    )


def sources(cfg: ModelConfig, data: dict) -> dict[str, Source]:
    out: dict[str, Source] = {"embed.tok": Source("wte.weight"), "embed.pos": Source("wpe.weight")}
    for l in range(cfg.layers):
        h, p = f"h.{l}", f"layers.{l}"
        out |= {
            f"{p}.ln_attn.weight": Source(f"{h}.ln_1.weight"),
            f"{p}.ln_attn.bias": Source(f"{h}.ln_1.bias"),
            f"{p}.ln_ffn.weight": Source(f"{h}.ln_2.weight"),
            f"{p}.ln_ffn.bias": Source(f"{h}.ln_2.bias"),
            f"{p}.attn.W_o": Source(f"{h}.attn.c_proj.weight"),  # Conv1D: already (in, out)
            f"{p}.attn.b_o": Source(f"{h}.attn.c_proj.bias"),
            f"{p}.ffn.W_in": Source(f"{h}.mlp.c_fc.weight"),
            f"{p}.ffn.b_in": Source(f"{h}.mlp.c_fc.bias"),
            f"{p}.ffn.W_out": Source(f"{h}.mlp.c_proj.weight"),
            f"{p}.ffn.b_out": Source(f"{h}.mlp.c_proj.bias"),
        }
        for i, x in enumerate("qkv"):  # c_attn (E, 3E) = [W_q | W_k | W_v]
            out[f"{p}.attn.W_{x}"] = Source(f"{h}.attn.c_attn.weight", "cols", i, 3)
            out[f"{p}.attn.b_{x}"] = Source(f"{h}.attn.c_attn.bias", "cols", i, 3)
    out["ln_final.weight"] = Source("ln_f.weight")
    out["ln_final.bias"] = Source("ln_f.bias")
    if not cfg.tie_embeddings:
        out["unembed.W_u"] = Source("lm_head.weight", "T")
    return out


FAMILY = Family(
    name="gpt2",
    summary="learned positions, LayerNorm, GELU, biases, tied embeddings: the classic",
    hf_type="gpt2",
    hf_config=config,
    hf_sources=sources,
    example={"model_type": "gpt2", "vocab_size": 50, "n_embd": 8, "n_head": 2, "n_layer": 2, "n_positions": 16},
    refuses=(
        Refusal("activation_function", "swish", "activation_function 'swish' is not supported"),
        Refusal("scale_attn_by_inverse_layer_idx", True, "scale_attn_by_inverse_layer_idx is not supported"),
        Refusal("scale_attn_weights", False, "scale_attn_weights=false is not supported"),
        Refusal("add_cross_attention", True, "cross-attention (encoder-decoder GPT-2) is not supported"),
    ),
    fields=FIELDS,
)
