"""Gemma 2: Gemma with sandwich norms (a norm before and after each sublayer), soft-capped scores and
logits, and every other layer sliding."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families.family import Family, Refusal
from explorer.families.field_table import implemented, inert, table_of
from explorer.families.gemma import GEMMA_FIELDS, gemma_fields, gguf_gemma_fields, plus_one
from explorer.families.gguf_fields import optional, sliding_fields
from explorer.families.hf_fields import make_config, optional_positive, size, sliding_layers
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import gguf_layers, gguf_sandwich, hf_layers, hf_sandwich
from explorer.util.schema import Where, number

# transformers' Gemma2Config and Gemma3TextConfig default (a config.json written by save_pretrained names it)
QUERY_PRE_ATTN_SCALAR = 256

# Gemma 2's keys (explorer/families/field_table.py); Gemma 3 starts from these.
FIELDS = table_of(
    GEMMA_FIELDS,
    implemented("hidden_activation", why="gelu is the exact GELU, gelu_pytorch_tanh the tanh approximation"),
    implemented("attn_logit_softcapping", "final_logit_softcapping", "sliding_window", "layer_types"),
    implemented("query_pre_attn_scalar", why="the scores are divided by √query_pre_attn_scalar (default 256)"),
    inert("transformers' Gemma 2 and 3 read hidden_activation, not this", "hidden_act"),
)


def query_scalar(data: dict, D: int, origin: str) -> float | None:
    """Gemma 2 and 3 divide the scores by √query_pre_attn_scalar (Gemma 2 27B: E/H, not D); None when that is
    √D, the traced model's own division."""
    value = data.get("query_pre_attn_scalar")
    scalar = (
        QUERY_PRE_ATTN_SCALAR
        if value is None
        else number(value, "query_pre_attn_scalar", Where(origin, ModelLoadError), positive=True)
    )
    return None if scalar == D else scalar


def no_bidirectional(data: dict, origin: str) -> None:
    if data.get("use_bidirectional_attention"):
        raise ModelLoadError(f"{origin}: use_bidirectional_attention (an embedding model) is not supported")


def config(data: dict, origin: str) -> ModelConfig:
    no_bidirectional(data, origin)
    fields = gemma_fields(data, origin)
    L = fields["layers"]
    return make_config(
        origin,
        **fields,
        query_scalar=query_scalar(data, fields["key_dim"], origin),
        norm_placement="sandwich",
        sliding_window=size(data, "sliding_window", default=4096, origin=origin),
        sliding_layers=sliding_layers(data, L, 2, origin),
        attn_softcap=optional_positive(data, "attn_logit_softcapping", origin),
        logit_softcap=optional_positive(data, "final_logit_softcapping", origin),
    )


def sources(cfg: ModelConfig, data: dict):
    return plus_one(hf_layers(cfg, data, hf_sandwich))


# llama.cpp divides the scores of the 27B sizes (which it knows by their layer count) by √(E/H), of the
# others by √D (llama-model.cpp, f_attention_scale)
GGUF_27B_LAYERS = {"gemma2": 46, "gemma3": 62}


def gguf_caps(meta: dict, arch: str, fields: dict, origin: str) -> dict:
    """Gemma 2 and 3 in a GGUF file: sandwich norms, the soft-caps llama.cpp writes (0: none), and the
    27B sizes' score divisor."""
    per_head = fields["embed_dim"] // fields["heads"]
    big = fields["layers"] == GGUF_27B_LAYERS[arch] and per_head != fields["key_dim"]
    return dict(
        fields,
        query_scalar=float(per_head) if big else None,
        norm_placement="sandwich",
        attn_softcap=optional(meta, f"{arch}.attn_logit_softcapping", origin),
        logit_softcap=optional(meta, f"{arch}.final_logit_softcapping", origin),
    )


def gguf_fields(meta: dict, tensors: dict, fields: dict, origin: str) -> dict:
    out = gguf_caps(meta, "gemma2", gguf_gemma_fields(tensors, fields), origin)
    return dict(out, **sliding_fields(meta, "gemma2", fields["layers"], origin, default_pattern=2))


def gguf_sources(cfg: ModelConfig) -> dict[str, tuple[str, str]]:
    return gguf_layers(cfg, gguf_sandwich)


FAMILY = Family(
    name="gemma2",
    summary="sandwich norms, soft-capped scores and logits, every other layer sliding",
    hf_type="gemma2",
    hf_config=config,
    hf_sources=sources,
    example={
        "model_type": "gemma2",
        **LLAMA_EXAMPLE,
        "attn_logit_softcapping": 50.0,
        "final_logit_softcapping": 30.0,
        "sliding_window": 4,
    },
    refuses=(Refusal("use_bidirectional_attention", True, "use_bidirectional_attention (an embedding model)"),),
    stages=("capped", "attn_out_norm", "ffn_out_norm", "logit_cap"),
    parameters=("params.layers.{l}.ln_attn_out.weight", "params.layers.{l}.ln_ffn_out.weight"),
    gguf_arch="gemma2",
    gguf_fields=gguf_fields,
    gguf_sources=gguf_sources,
    gguf_keys=(
        "attn_logit_softcapping",
        "final_logit_softcapping",
        "attention.sliding_window",
        "attention.sliding_window_pattern",
    ),
    fields=FIELDS,
)
