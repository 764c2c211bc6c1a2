"""config.json → ModelConfig for the families beyond GPT-2 and Llama: what each adds to a Llama-like decoder
(Qwen 3, Gemma 1–3, Phi-3, OLMo 2), GPT-NeoX (Pythia), and the encoders BERT, RoBERTa and DistilBERT.
docs/real-models.md has a row per family saying what is special about it."""

from __future__ import annotations

from typing import Any

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.util.schema import Where, number
from explorer.weights.hf.config import bool_field, eps, llama_fields, rope_settings, rotary_dims, size, text_field
from explorer.weights.real_models import make_config

_GELU = {
    "gelu": "gelu",
    "gelu_new": "gelu_tanh",
    "gelu_fast": "gelu_tanh",
    "gelu_pytorch_tanh": "gelu_tanh",
    "relu": "relu",
}


def _activation(data: dict, origin: str, *keys: str, default: str, allowed: dict[str, str]) -> str:
    key = next((k for k in keys if data.get(k) is not None), keys[0])
    act = text_field(data, key, default, origin)
    if act not in allowed:
        raise ModelLoadError(f"{origin}: activation {act!r} is not supported (use {', '.join(allowed)})")
    return allowed[act]


def _optional_positive(data: dict, key: str, origin: str) -> float | None:
    return None if data.get(key) is None else number(data[key], key, Where(origin, ModelLoadError), positive=True)


def sliding_layers(data: dict, L: int, pattern: int | None, origin: str) -> tuple[int, ...]:
    """The layers whose queries see only the last W keys: ``layer_types`` where the config lists them, else
    every layer but each ``pattern``-th (Gemma 2: every other one; Gemma 3: five of six)."""
    types = data.get("layer_types")
    if isinstance(types, list) and len(types) == L:
        unknown = sorted({str(t)[:30] for t in types} - {"sliding_attention", "full_attention"})
        if unknown:
            raise ModelLoadError(
                f"{origin}: layer type {unknown[0]!r} is not supported (sliding_attention, full_attention)"
            )
        return tuple(l for l, t in enumerate(types) if t == "sliding_attention")
    if pattern is None:
        return ()
    return tuple(l for l in range(L) if (l + 1) % pattern)


def _scalar_is_head_dim(data: dict, D: int, origin: str) -> None:
    """Gemma 2 and 3 divide the scores by √query_pre_attn_scalar; the traced model divides by √D."""
    scalar = data.get("query_pre_attn_scalar", D)
    if scalar != D:
        raise ModelLoadError(
            f"{origin}: query_pre_attn_scalar {scalar} differs from head_dim {D}; the traced model divides the "
            "scores by √D"
        )


def _no_bidirectional(data: dict, origin: str) -> None:
    if data.get("use_bidirectional_attention"):
        raise ModelLoadError(f"{origin}: use_bidirectional_attention (an embedding model) is not supported")


def _qwen3(data: dict, origin: str) -> ModelConfig:
    fields = llama_fields(data, origin)
    window = data.get("sliding_window") if data.get("use_sliding_window") else None
    layers = sliding_layers(data, fields["layers"], None, origin) if window else ()
    return make_config(origin, **{**fields, "qk_norm": "head", "sliding_window": window, "sliding_layers": layers})


def _gemma_common(data: dict, origin: str) -> dict[str, Any]:
    """Every Gemma: a Llama-like decoder with the embedding × √E, a GeGLU FFN and a tied unembedding."""
    _activation(
        data,
        origin,
        "hidden_activation",
        "hidden_act",
        default="gelu_pytorch_tanh",
        allowed={"gelu_pytorch_tanh": "", "gelu": ""},
    )
    fields = llama_fields({**data, "hidden_act": "silu"}, origin)
    fields.update(
        ffn_activation="gelu_tanh_gated",
        embed_scale=True,
        tie_embeddings=bool_field(data, "tie_word_embeddings", True, origin),
    )
    return fields


def _gemma(data: dict, origin: str) -> ModelConfig:
    return make_config(origin, **_gemma_common(data, origin))


def _gemma2(data: dict, origin: str) -> ModelConfig:
    _no_bidirectional(data, origin)
    fields = _gemma_common(data, origin)
    _scalar_is_head_dim(data, fields["key_dim"], origin)
    L = fields["layers"]
    return make_config(
        origin,
        **fields,
        norm_placement="sandwich",
        sliding_window=size(data, "sliding_window", default=4096, origin=origin),
        sliding_layers=sliding_layers(data, L, 2, origin),
        attn_softcap=_optional_positive(data, "attn_logit_softcapping", origin),
        logit_softcap=_optional_positive(data, "final_logit_softcapping", origin),
    )


def _gemma3_rope(data: dict, origin: str) -> tuple[float, float]:
    """(global base, local base): transformers 5 writes rope_parameters per layer type, 4 rope_theta and
    rope_local_base_freq."""
    params = data.get("rope_parameters") or {}
    if isinstance(params, dict) and isinstance(params.get("full_attention"), dict):
        full, local = params["full_attention"], params.get("sliding_attention") or {}
        for block in (full, local):
            rope_settings({"rope_parameters": block}, origin)  # refuses scaled RoPE
        where = Where(origin, ModelLoadError)
        return (
            number(full.get("rope_theta", 1e6), "rope_theta", where, positive=True),
            number(local.get("rope_theta", 1e4), "rope_local_base_freq", where, positive=True),
        )
    theta = rope_settings({**data, "rope_theta": data.get("rope_theta", 1e6)}, origin)
    local = number(
        data.get("rope_local_base_freq", 1e4), "rope_local_base_freq", Where(origin, ModelLoadError), positive=True
    )
    return theta, local


def _gemma3(data: dict, origin: str) -> ModelConfig:
    _no_bidirectional(data, origin)
    theta, local = _gemma3_rope(data, origin)
    fields = _gemma_common({**data, "rope_parameters": None, "rope_scaling": None, "rope_theta": theta}, origin)
    _scalar_is_head_dim(data, fields["key_dim"], origin)
    L = fields["layers"]
    pattern = data.get("sliding_window_pattern", data.get("_sliding_window_pattern", 6))
    return make_config(
        origin,
        **fields,
        norm_placement="sandwich",
        qk_norm="head",
        rope_local_theta=local,
        sliding_window=size(data, "sliding_window", default=4096, origin=origin),
        sliding_layers=sliding_layers(data, L, size({"p": pattern}, "p", origin=origin), origin),
        attn_softcap=_optional_positive(data, "attn_logit_softcapping", origin),
        logit_softcap=_optional_positive(data, "final_logit_softcapping", origin),
    )


def _phi3(data: dict, origin: str) -> ModelConfig:
    fields = llama_fields(data, origin)
    window = data.get("sliding_window")
    if window is None:
        return make_config(origin, **fields)
    return make_config(
        origin,
        **fields,
        sliding_window=size(data, "sliding_window", origin=origin),
        sliding_layers=tuple(range(fields["layers"])),
    )


def _olmo2(data: dict, origin: str) -> ModelConfig:
    return make_config(origin, **llama_fields(data, origin), norm_placement="output", qk_norm="all")


def _gpt_neox(data: dict, origin: str) -> ModelConfig:
    """GPT-NeoX / Pythia: LayerNorm with biases, fused per-head q/k/v, partial RoPE, parallel attention and FFN."""
    E = size(data, "hidden_size", origin=origin)
    H = size(data, "num_attention_heads", origin=origin)
    if E % H:
        raise ModelLoadError(f"{origin}: hidden_size {E} is not a multiple of num_attention_heads {H}")
    bias = bool_field(data, "attention_bias", True, origin)
    if not bias:
        raise ModelLoadError(
            f"{origin}: attention_bias=false is not supported (the FFN has biases, the traced model all or none)"
        )
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
        max_positions=size(data, "max_position_embeddings", default=2048, origin=origin),
        norm="layernorm",
        ffn_activation=_activation(data, origin, "hidden_act", default="gelu", allowed=_GELU),
        bias=True,
        tie_embeddings=bool_field(data, "tie_word_embeddings", False, origin),
        norm_eps=eps(data, "layer_norm_eps", 1e-5, origin),
        parallel_block=bool_field(data, "use_parallel_residual", True, origin),
        family="gpt_neox",
    )


def _encoder(
    data: dict,
    origin: str,
    *,
    E: int,
    H: int,
    L: int,
    F: int,
    act: str,
    P: int,
    segments: int,
    eps_: float,
    family: str,
) -> ModelConfig:
    if E % H:
        raise ModelLoadError(f"{origin}: the hidden size {E} is not a multiple of the {H} heads")
    return make_config(
        origin,
        vocab_size=size(data, "vocab_size", origin=origin),
        embed_dim=E,
        key_dim=E // H,
        heads=H,
        layers=L,
        ffn_dim=F,
        positions="learned",
        max_positions=P,
        norm="layernorm",
        norm_placement="post",
        ffn_activation=act,
        bias=True,
        unembed_bias=True,
        tie_embeddings=True,
        norm_eps=eps_,
        embed_norm=True,
        segments=segments,
        mlm_head=True,
        bidirectional=True,
        family=family,
    )


def _bert(data: dict, origin: str) -> ModelConfig:
    """BERT and RoBERTa: post-norm blocks, learned positions, segment embeddings, a masked-LM head.
    RoBERTa's positions start after its padding id: the first padding_idx + 1 rows of its table are unused."""
    kind = text_field(data, "position_embedding_type", "absolute", origin)
    if kind != "absolute":
        raise ModelLoadError(f"{origin}: position_embedding_type {kind!r} is not supported (only absolute)")
    if data.get("is_decoder"):
        raise ModelLoadError(f"{origin}: a BERT used as a decoder (is_decoder) is not supported")
    P = size(data, "max_position_embeddings", origin=origin) - roberta_offset(data)
    if P < 1:
        raise ModelLoadError(f"{origin}: max_position_embeddings leaves no position after the padding offset")
    return _encoder(
        data,
        origin,
        E=size(data, "hidden_size", origin=origin),
        H=size(data, "num_attention_heads", origin=origin),
        L=size(data, "num_hidden_layers", origin=origin),
        F=size(data, "intermediate_size", origin=origin),
        act=_activation(data, origin, "hidden_act", default="gelu", allowed=_GELU),
        P=P,
        segments=size(data, "type_vocab_size", default=2, origin=origin),
        eps_=eps(data, "layer_norm_eps", 1e-12, origin),
        family=str(data["model_type"]),
    )


def roberta_offset(data: dict) -> int:
    """How many rows of the position table come before position 0: padding_idx + 1 for RoBERTa, 0 for BERT."""
    if data.get("model_type") != "roberta":
        return 0
    pad = data.get("pad_token_id", 1)
    return int(pad) + 1 if isinstance(pad, int) and not isinstance(pad, bool) and 0 <= pad < 1024 else 2


def _distilbert(data: dict, origin: str) -> ModelConfig:
    """DistilBERT: BERT without segment embeddings, half the layers."""
    return _encoder(
        data,
        origin,
        E=size(data, "dim", origin=origin),
        H=size(data, "n_heads", origin=origin),
        L=size(data, "n_layers", origin=origin),
        F=size(data, "hidden_dim", origin=origin),
        act=_activation(data, origin, "activation", default="gelu", allowed=_GELU),
        P=size(data, "max_position_embeddings", origin=origin),
        segments=0,
        eps_=1e-12,
        family="distilbert",
    )


FAMILIES = {
    "qwen3": _qwen3,
    "gemma": _gemma,
    "gemma2": _gemma2,
    "gemma3_text": _gemma3,
    "phi3": _phi3,
    "olmo2": _olmo2,
    "gpt_neox": _gpt_neox,
    "bert": _bert,
    "roberta": _bert,
    "distilbert": _distilbert,
}
