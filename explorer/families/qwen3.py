"""Qwen 3: Llama with an RMSNorm of each query and key head before the scores (q/k norm)."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.families.family import Catalogued, Family, Refusal
from explorer.families.field_table import implemented, table_of
from explorer.families.hf_fields import make_config, size, sliding_layers
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import LLAMA_FIELDS, gguf_layers, gguf_qk_norm, hf_layers, hf_qk_norm, llama_fields

FIELDS = table_of(
    LLAMA_FIELDS,
    implemented("attention_bias", "sliding_window", "use_sliding_window", "layer_types"),
    implemented("max_window_layers", why="without layer_types, the layers from this one on slide (transformers' rule)"),
)


def _sliding(data: dict, L: int, origin: str) -> tuple[int, ...]:
    """The layers that slide: layer_types where the config lists them, else (as transformers' Qwen3Config
    derives them) every layer from max_window_layers on."""
    if isinstance(data.get("layer_types"), list):
        return sliding_layers(data, L, None, origin)
    first = size(data, "max_window_layers", default=28, origin=origin) if data.get("max_window_layers") != 0 else 0
    return tuple(range(first, L))


def config(data: dict, origin: str) -> ModelConfig:
    fields = llama_fields(data, origin)
    window = size(data, "sliding_window", origin=origin) if data.get("use_sliding_window") else None
    layers = _sliding(data, fields["layers"], origin) if window else ()
    if not layers:
        window = None
    return make_config(origin, **{**fields, "qk_norm": "head", "sliding_window": window, "sliding_layers": layers})


def sources(cfg: ModelConfig, data: dict):
    return hf_layers(cfg, data, hf_qk_norm)


def gguf_fields(meta: dict, tensors: dict, fields: dict, origin: str) -> dict:
    return dict(fields, qk_norm="head")


def gguf_sources(cfg: ModelConfig) -> dict[str, tuple[str, str]]:
    return gguf_layers(cfg, gguf_qk_norm)


FAMILY = Family(
    name="qwen3",
    summary="q/k RMSNorm per head",
    hf_type="qwen3",
    hf_config=config,
    hf_sources=sources,
    example={"model_type": "qwen3", **LLAMA_EXAMPLE, "head_dim": 4},
    refuses=(Refusal("rope_scaling", {"rope_type": "yarn"}, "rotary scaling 'yarn' is not supported"),),
    stages=("qk_norm",),
    parameters=("params.layers.{l}.attn.q_norm.weight", "params.layers.{l}.attn.k_norm.weight"),
    gguf_arch="qwen3",
    gguf_fields=gguf_fields,
    gguf_sources=gguf_sources,
    fields=FIELDS,
    models=(Catalogued(100, "qwen3-0.6b", "Qwen3-0.6B", 596, "q/k RMSNorm per head", "Qwen/Qwen3-0.6B"),),
)
