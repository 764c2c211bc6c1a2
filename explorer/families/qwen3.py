"""Qwen 3: Llama with an RMSNorm of each query and key head before the scores (q/k norm)."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.families import qwen2
from explorer.families.family import Family, Refusal
from explorer.families.field_table import implemented, table_of
from explorer.families.hf_fields import make_config
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import LLAMA_FIELDS, gguf_layers, gguf_qk_norm, hf_layers, hf_qk_norm, llama_fields

FIELDS = table_of(
    LLAMA_FIELDS,
    implemented("attention_bias"),
    implemented(
        "sliding_window",
        "use_sliding_window",
        "layer_types",
        why="with use_sliding_window, a sliding layer's keys are masked to the last W (the whole text traced)",
    ),
    implemented("max_window_layers", why="without layer_types, the layers from this one on slide (transformers' rule)"),
)


def config(data: dict, origin: str) -> ModelConfig:
    return make_config(origin, **llama_fields(data, origin, window=qwen2.window), qk_norm="head")


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
    refuses=(Refusal("rope_scaling", {"rope_type": "proportional"}, "rotary scaling 'proportional' is not supported"),),
    stages=("qk_norm",),
    parameters=("params.layers.{l}.attn.q_norm.weight", "params.layers.{l}.attn.k_norm.weight"),
    gguf_arch="qwen3",
    gguf_fields=gguf_fields,
    gguf_sources=gguf_sources,
    fields=FIELDS,
)
