"""Qwen 3: Llama with an RMSNorm of each query and key head before the scores (q/k norm)."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.families.family import Catalogued, Family, Refusal
from explorer.families.hf_fields import make_config, sliding_layers
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import gguf_layers, gguf_qk_norm, hf_layers, hf_qk_norm, llama_fields


def config(data: dict, origin: str) -> ModelConfig:
    fields = llama_fields(data, origin)
    window = data.get("sliding_window") if data.get("use_sliding_window") else None
    layers = sliding_layers(data, fields["layers"], None, origin) if window else ()
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
    models=(Catalogued(100, "qwen3-0.6b", "Qwen3-0.6B", 596, "q/k RMSNorm per head", "Qwen/Qwen3-0.6B"),),
)
