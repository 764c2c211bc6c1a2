"""What every Llama-like decoder shares (Llama, Mistral, Qwen 2 and 3, Gemma 1–3, Phi-3, OLMo 2): the
config.json fields (sizes, RoPE, RMSNorm, a SiLU-gated FFN, grouped-query attention), the Hugging Face and
GGUF tensor names, and the pieces a family adds to them (q/k norm, sandwich norms). Each family's module
starts from these and says what it changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families.field_table import DROPOUT, ROPE_BLOCKS, implemented, inert, table_of
from explorer.families.hf_fields import activation, bool_field, eps, make_config, rope_settings, rotary_dims, size
from explorer.families.rope_fields import longest_text, read_scaling
from explorer.families.source import Source

# A family's own sliding window of config.json, read in its turn: (config.json, origin, L) → (W, the sliding
# layers), or None without a window.
Window = Callable[[dict, str, int], "tuple[int, tuple[int, ...]] | None"]

# --------------------------------------------------------------------------------------------- config.json


# config.json's hidden_act → our gated FFN, as transformers' ACT2FN computes each: "gelu" is the exact GELU,
# gelu_new / gelu_fast / gelu_pytorch_tanh the tanh approximation, swish is SiLU. Any other is refused.
GATED = {
    "silu": "silu_gated",
    "swish": "silu_gated",
    "gelu": "gelu_gated",
    "gelu_pytorch_tanh": "gelu_tanh_gated",
    "gelu_new": "gelu_tanh_gated",
    "gelu_fast": "gelu_tanh_gated",
}
# Which bias switches each family's transformers class reads; the others' projections have no biases whatever
# the config says (Mistral and Phi-3 have none, Qwen 2 its own q/k/v, only Llama's MLP reads mlp_bias).
_BIAS_KEYS = {"llama": ("attention_bias", "mlp_bias"), "mistral": (), "phi3": (), "qwen2": ()}
# The families whose transformers RoPE turns only partial_rotary_factor of a head (the others turn all D).
_PARTIAL_ROTARY = ("phi3",)


def config_biases(data: dict) -> frozenset[str]:
    """Which projections have biases, as the config says where the family reads it (attention_bias,
    mlp_bias): a subset of q, k, v, o, mlp."""
    keys = _BIAS_KEYS.get(data.get("model_type"), ("attention_bias",))
    out = set("qkvo") if "attention_bias" in keys and data.get("attention_bias") else set()
    if "mlp_bias" in keys and data.get("mlp_bias"):
        out.add("mlp")
    return frozenset(out)


def llama_config(data: dict, origin: str, biases: frozenset[str] | None = None, window: Window | None = None):
    """Llama and its plain relatives (Mistral, Qwen 2)."""
    return make_config(origin, **llama_fields(data, origin, biases, window))


def llama_fields(
    data: dict, origin: str, biases: frozenset[str] | None = None, window: Window | None = None
) -> dict[str, Any]:
    """The ModelConfig fields a Llama-like config.json gives (sizes, RoPE, RMSNorm, a gated FFN, biases).
    ``biases``: the family's own (None: what the config says); ``window``: how it reads its sliding window."""
    act = activation(data, origin, "hidden_act", default="silu", allowed=GATED)
    E = size(data, "hidden_size", origin=origin)
    H = size(data, "num_attention_heads", origin=origin)
    Hkv = size(data, "num_key_value_heads", default=H, origin=origin)
    D = size(data, "head_dim", default=E // H if E % H == 0 else -1, origin=origin)
    if D <= 0:
        raise ModelLoadError(
            f"{origin}: hidden_size {E} is not a multiple of num_attention_heads {H} and there is no head_dim"
        )
    max_positions = size(data, "max_position_embeddings", default=2048, origin=origin)
    scaling = read_scaling(data, origin, max_positions, phi3=data.get("model_type") == "phi3")
    L = size(data, "num_hidden_layers", origin=origin)
    # The whole text is traced; a window is a mask on its layers, as transformers applies it
    slide = window(data, origin, L) if window is not None else None
    fields = dict(
        vocab_size=size(data, "vocab_size", origin=origin),
        embed_dim=E,
        key_dim=D,
        heads=H,
        kv_heads=Hkv if Hkv != H else None,
        layers=L,
        ffn_dim=size(data, "intermediate_size", origin=origin),
        positions="rope",
        max_positions=longest_text(max_positions, scaling),
        rope_scaling=scaling,
        norm="rmsnorm",
        ffn_activation=act,
        bias=bool(config_biases(data) if biases is None else biases),
        unembed_bias=False,
        tie_embeddings=bool_field(data, "tie_word_embeddings", False, origin),
        norm_eps=eps(data, "rms_norm_eps", 1e-6, origin),
        rope_theta=rope_settings(data, origin),
        rotary_dims=rotary_dims(data, D, origin) if data.get("model_type") in _PARTIAL_ROTARY else None,
        family=str(data["model_type"]),
    )
    if slide is not None:
        fields.update(sliding_window=slide[0], sliding_layers=slide[1])
    return fields


# --------------------------------------------------------------------------------- Hugging Face tensor names


def llama_sources(cfg: ModelConfig, biases: frozenset[str]) -> dict[str, Source]:
    """Llama's checkpoint: nn.Linear (out, in), transposed; the biases this architecture lacks are zeros."""
    out: dict[str, Source] = {"embed.tok": Source("embed_tokens.weight")}
    for l in range(cfg.layers):
        m, p = f"layers.{l}", f"layers.{l}"
        out |= {
            f"{p}.ln_attn.weight": Source(f"{m}.input_layernorm.weight"),
            f"{p}.ln_ffn.weight": Source(f"{m}.post_attention_layernorm.weight"),
            f"{p}.attn.W_q": Source(f"{m}.self_attn.q_proj.weight", "T"),
            f"{p}.attn.W_k": Source(f"{m}.self_attn.k_proj.weight", "T"),
            f"{p}.attn.W_v": Source(f"{m}.self_attn.v_proj.weight", "T"),
            f"{p}.attn.W_o": Source(f"{m}.self_attn.o_proj.weight", "T"),
            f"{p}.ffn.W_gate": Source(f"{m}.mlp.gate_proj.weight", "T"),
            f"{p}.ffn.W_in": Source(f"{m}.mlp.up_proj.weight", "T"),
            f"{p}.ffn.W_out": Source(f"{m}.mlp.down_proj.weight", "T"),
        }
        if cfg.bias:  # our model has all biases or none: the ones this architecture lacks are zeros
            for x in "qkvo":
                out[f"{p}.attn.b_{x}"] = Source(f"{m}.self_attn.{x}_proj.bias") if x in biases else Source("", "zeros")
            out[f"{p}.ffn.b_gate"] = Source(f"{m}.mlp.gate_proj.bias") if "mlp" in biases else Source("", "zeros")
            out[f"{p}.ffn.b_in"] = Source(f"{m}.mlp.up_proj.bias") if "mlp" in biases else Source("", "zeros")
            out[f"{p}.ffn.b_out"] = Source(f"{m}.mlp.down_proj.bias") if "mlp" in biases else Source("", "zeros")
    out["ln_final.weight"] = Source("norm.weight")
    if not cfg.tie_embeddings:
        out["unembed.W_u"] = Source("lm_head.weight", "T")
    return out


def hf_llama_sources(cfg: ModelConfig, data: dict) -> dict[str, Source]:
    """A family's ``hf_sources`` when it stores Llama's names with the biases its config names."""
    return llama_sources(cfg, config_biases(data))


def hf_layers(cfg: ModelConfig, data: dict, *changes: Callable[[str, str, dict[str, Source]], None]):
    """Llama's map with each layer changed by ``changes`` in turn (called with the file's and our layer prefix)."""
    out = hf_llama_sources(cfg, data)
    for l in range(cfg.layers):
        for change in changes:
            change(f"layers.{l}", f"layers.{l}", out)
    return out


def hf_qk_norm(m: str, p: str, out: dict[str, Source]) -> None:
    """q_norm and k_norm of one layer (Qwen 3, Gemma 3, OLMo 2)."""
    out[f"{p}.attn.q_norm.weight"] = Source(f"{m}.self_attn.q_norm.weight")
    out[f"{p}.attn.k_norm.weight"] = Source(f"{m}.self_attn.k_norm.weight")


def hf_sandwich(m: str, p: str, out: dict[str, Source]) -> None:
    """Gemma 2/3, one layer: post_attention_layernorm is the attention's output norm, a norm before and after
    the FFN."""
    out[f"{p}.ln_attn_out.weight"] = Source(f"{m}.post_attention_layernorm.weight")
    out[f"{p}.ln_ffn.weight"] = Source(f"{m}.pre_feedforward_layernorm.weight")
    out[f"{p}.ln_ffn_out.weight"] = Source(f"{m}.post_feedforward_layernorm.weight")


# ----------------------------------------------------------------------------------------- GGUF tensor names


def gguf_llama_sources(cfg: ModelConfig) -> dict[str, tuple[str, str]]:
    """Our parameter name → (GGUF tensor name, how): "copy", "T", "qT" (llama.cpp's permuted rows undone for
    H heads, then T), "kT" (the same for H_kv), "zeros", or "rows:a:b" (rows a … b of a fused tensor, then T)."""
    out = {"embed.tok": ("token_embd.weight", "copy")}
    for l in range(cfg.layers):
        b, p = f"blk.{l}", f"layers.{l}"
        out |= {
            f"{p}.ln_attn.weight": (f"{b}.attn_norm.weight", "copy"),
            f"{p}.attn.W_q": (f"{b}.attn_q.weight", "qT"),
            f"{p}.attn.W_k": (f"{b}.attn_k.weight", "kT"),
            f"{p}.attn.W_v": (f"{b}.attn_v.weight", "T"),
            f"{p}.attn.W_o": (f"{b}.attn_output.weight", "T"),
            f"{p}.ln_ffn.weight": (f"{b}.ffn_norm.weight", "copy"),
            f"{p}.ffn.W_gate": (f"{b}.ffn_gate.weight", "T"),
            f"{p}.ffn.W_in": (f"{b}.ffn_up.weight", "T"),
            f"{p}.ffn.W_out": (f"{b}.ffn_down.weight", "T"),
        }
    out["ln_final.weight"] = ("output_norm.weight", "copy")
    if not cfg.tie_embeddings:
        out["unembed.W_u"] = ("output.weight", "T")
    return out


def gguf_layers(cfg: ModelConfig, *additions: Callable[[str, str], dict[str, tuple[str, str]]]):
    """Llama's map with W_q and W_k not permuted (every architecture but llama rotates "rotate half", as
    Hugging Face does), then each layer's ``additions`` (called with the file's and our layer prefix)."""
    out = gguf_llama_sources(cfg)
    for l in range(cfg.layers):
        b, p = f"blk.{l}", f"layers.{l}"
        out[f"{p}.attn.W_q"] = (f"{b}.attn_q.weight", "T")
        out[f"{p}.attn.W_k"] = (f"{b}.attn_k.weight", "T")
        for add in additions:
            out |= add(b, p)
    return out


def gguf_qk_norm(b: str, p: str) -> dict[str, tuple[str, str]]:
    return {
        f"{p}.attn.q_norm.weight": (f"{b}.attn_q_norm.weight", "copy"),
        f"{p}.attn.k_norm.weight": (f"{b}.attn_k_norm.weight", "copy"),
    }


def gguf_sandwich(b: str, p: str) -> dict[str, tuple[str, str]]:
    return {
        f"{p}.ln_attn_out.weight": (f"{b}.post_attention_norm.weight", "copy"),
        f"{p}.ln_ffn_out.weight": (f"{b}.post_ffw_norm.weight", "copy"),
    }


# ------------------------------------------------------------------------------------- the field table


# The keys every Llama-like config.json carries (explorer/families/field_table.py); each family adds its own.
LLAMA_FIELDS = table_of(
    implemented(
        "vocab_size",
        "hidden_size",
        "num_attention_heads",
        "num_key_value_heads",
        "head_dim",
        "num_hidden_layers",
        "intermediate_size",
        "max_position_embeddings",
        "rms_norm_eps",
        "tie_word_embeddings",
    ),
    implemented("hidden_act", why="silu/swish, gelu (exact), gelu_pytorch_tanh/gelu_new/gelu_fast; others refused"),
    implemented("rope_theta", why="plain RoPE's base"),
    ROPE_BLOCKS,
    inert(DROPOUT, "attention_dropout"),
    inert(
        "transformers' default RoPE of this family turns all D dimensions of a head, whatever it says",
        "partial_rotary_factor",
    ),
    inert("this family's projections have no biases whatever the config says", "attention_bias", "mlp_bias"),
)
