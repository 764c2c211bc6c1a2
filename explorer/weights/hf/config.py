"""A Hugging Face config.json → our ModelConfig: GPT-2, and Llama with its plain relatives Mistral and Qwen 2.
Whatever the traced model cannot do is refused here, in one line that names the field."""

from __future__ import annotations

from typing import Any

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.util.schema import Where, flag, number, text, whole
from explorer.weights.real_models import make_config

SUPPORTED = (
    "gpt2",
    "llama",
    "mistral",
    "qwen2",
    "qwen3",
    "gpt_neox",
    "gemma",
    "gemma2",
    "gemma3_text",
    "phi3",
    "olmo2",
    "bert",
    "roberta",
    "distilbert",
)

_GPT2_ACTIVATIONS = {
    "gelu_new": "gelu_tanh",
    "gelu_pytorch_tanh": "gelu_tanh",
    "gelu_fast": "gelu_tanh",
    "gelu": "gelu",
    "relu": "relu",
}


# ----------------------------------------------------------------------------------------------- config


# Every field this importer reads from config.json, checked here (explorer/util/schema.py): a size of 0 once
# ended in ZeroDivisionError, an epsilon of "abc" in a ValueError traceback, a NaN theta in NaN probabilities.


def size(data: dict, *keys: str, default: Any = None, origin: str = "config.json") -> Any:
    """The first of ``keys`` present: a size, count or length, at least 1."""
    for k in keys:
        if data.get(k) is not None:
            return whole(data[k], k, Where(origin, ModelLoadError), lo=1)
    if default is None:
        raise ModelLoadError(f"{origin} has no {' / '.join(keys)}")
    return default


def eps(data: dict, key: str, default: float, origin: str) -> float:
    """A norm epsilon: a small positive number."""
    if data.get(key) is None:
        return default
    return number(data[key], key, Where(origin, ModelLoadError), positive=True, hi=1.0)


def text_field(data: dict, key: str, default: str, origin: str) -> str:
    if data.get(key) is None:
        return default
    return text(data[key], key, Where(origin, ModelLoadError), 200)


def bool_field(data: dict, key: str, default: bool, origin: str) -> bool:
    if data.get(key) is None:
        return default
    return flag(data[key], key, Where(origin, ModelLoadError))


def gpt2_config(data: dict, origin: str) -> ModelConfig:
    act = text_field(data, "activation_function", "gelu_new", origin)
    if act not in _GPT2_ACTIVATIONS:
        raise ModelLoadError(f"{origin}: GPT-2 activation {act!r} is not supported (use gelu_new, gelu or relu)")
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
        ffn_activation=_GPT2_ACTIVATIONS[act],
        bias=True,
        unembed_bias=False,
        tie_embeddings=bool_field(data, "tie_word_embeddings", True, origin),
        norm_eps=eps(data, "layer_norm_epsilon", 1e-5, origin),
        family="gpt2",
    )


def rope_settings(data: dict, origin: str) -> float:
    """rope_theta from either spelling of the config (transformers 4: rope_theta + rope_scaling; 5: rope_parameters)."""
    params = data.get("rope_parameters") or {}
    scaling = data.get("rope_scaling") or {}
    if not isinstance(params, dict) or not isinstance(scaling, dict):
        raise ModelLoadError(f"{origin}: rope_parameters / rope_scaling must be objects")
    for block in (params, scaling):
        kind = block.get("rope_type", block.get("type", "default"))
        if kind not in (None, "default"):
            raise ModelLoadError(
                f"{origin}: rotary scaling {kind!r} is not supported; only plain RoPE (rope_type 'default') is "
                "implemented"
            )
    theta = data.get("rope_theta", params.get("rope_theta", data.get("rotary_emb_base", 10_000.0)))
    return number(theta, "rope_theta", Where(origin, ModelLoadError), positive=True)


def rotary_dims(data: dict, D: int, origin: str) -> int | None:
    """R, the dimensions of a head that RoPE turns, when only a part does (partial_rotary_factor, or
    GPT-NeoX's older rotary_pct); None when all D do."""
    params = data.get("rope_parameters") or {}
    partial = params.get("partial_rotary_factor", data.get("partial_rotary_factor", data.get("rotary_pct", 1.0)))
    partial = number(
        1.0 if partial is None else partial,
        "partial_rotary_factor",
        Where(origin, ModelLoadError),
        positive=True,
        hi=1.0,
    )
    R = int(D * partial)
    if R == D:
        return None
    if R < 2 or R % 2:
        raise ModelLoadError(
            f"{origin}: partial rotary embeddings of {R} of {D} dimensions (an odd or empty part) are not supported"
        )
    return R


def llama_biases(data: dict) -> frozenset[str]:
    """Which projections of a Llama-like model have biases: a subset of q, k, v, o, mlp.

    Llama says so in its config (attention_bias, mlp_bias); Qwen 2 always has q/k/v biases; Mistral none.
    """
    if data.get("model_type") == "qwen2":
        return frozenset("qkv")
    out = set("qkvo") if data.get("attention_bias") else set()
    if data.get("mlp_bias"):
        out.add("mlp")
    return frozenset(out)


def _sliding_window(data: dict, origin: str) -> int | None:
    """The attention window of Mistral / Qwen 2 when one is in force, else None (the other families slide per
    layer: explorer/weights/hf/config_families.py)."""
    if data.get("model_type") not in ("mistral", "qwen2"):
        return None
    if data.get("model_type") == "qwen2" and not data.get("use_sliding_window"):
        return None
    if data.get("sliding_window") is None:
        return None
    return size(data, "sliding_window", origin=origin)


def llama_config(data: dict, origin: str) -> ModelConfig:
    """Llama and its plain relatives (Mistral, Qwen 2): RoPE, RMSNorm, SiLU-gated FFN, grouped-query attention."""
    act = text_field(data, "hidden_act", "silu", origin)
    if act != "silu":
        raise ModelLoadError(f"{origin}: activation {act!r} is not supported (only silu)")
    return make_config(origin, **llama_fields(data, origin))


def llama_fields(data: dict, origin: str) -> dict[str, Any]:
    """The ModelConfig fields a Llama-like config.json gives (sizes, RoPE, RMSNorm, a gated FFN, biases)."""
    E = size(data, "hidden_size", origin=origin)
    H = size(data, "num_attention_heads", origin=origin)
    Hkv = size(data, "num_key_value_heads", default=H, origin=origin)
    D = size(data, "head_dim", default=E // H if E % H == 0 else -1, origin=origin)
    if D <= 0:
        raise ModelLoadError(
            f"{origin}: hidden_size {E} is not a multiple of num_attention_heads {H} and there is no head_dim"
        )
    max_positions = size(data, "max_position_embeddings", default=2048, origin=origin)
    window = _sliding_window(data, origin)
    if window is not None:
        # A sliding window of W keys equals the causal mask for inputs of at most W tokens: cut longer ones there.
        max_positions = min(max_positions, window)
    return dict(
        vocab_size=size(data, "vocab_size", origin=origin),
        embed_dim=E,
        key_dim=D,
        heads=H,
        kv_heads=Hkv if Hkv != H else None,
        layers=size(data, "num_hidden_layers", origin=origin),
        ffn_dim=size(data, "intermediate_size", origin=origin),
        positions="rope",
        max_positions=max_positions,
        norm="rmsnorm",
        ffn_activation="silu_gated",
        bias=bool(llama_biases(data)),
        unembed_bias=False,
        tie_embeddings=bool_field(data, "tie_word_embeddings", False, origin),
        norm_eps=eps(data, "rms_norm_eps", 1e-6, origin),
        rope_theta=rope_settings(data, origin),
        rotary_dims=rotary_dims(data, D, origin),
        family=str(data["model_type"]),
    )
