"""OLMoE: a Llama-shaped decoder (pre-norms) with an RMSNorm of the queries and keys over all heads, and a
mixture of experts as every layer's FFN: 8 of 64 experts per token, their probabilities kept as they are
(norm_topk_prob false: they do not sum to 1)."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families.family import Family, Refusal
from explorer.families.field_table import implemented, off, refused, table_of
from explorer.families.hf_fields import make_config
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import LLAMA_FIELDS, gguf_layers, gguf_qk_norm, hf_layers, hf_qk_norm, llama_fields
from explorer.families.moe_fields import (
    GGUF_MOE_KEYS,
    MOE_FIELDS,
    expert_fields,
    gguf_expert_fields,
    gguf_experts,
    hf_experts,
)

FIELDS = table_of(
    LLAMA_FIELDS,
    MOE_FIELDS,
    implemented("attention_bias", why="biases on q, k, v, o"),
    implemented("num_experts", why="X: the experts of every layer"),
    implemented("norm_topk_prob", why="whether the K chosen probabilities are divided by their sum"),
    implemented("intermediate_size", why="F: one expert's width"),
    refused("clip_qkv", "q, k and v clipped to ±clip_qkv: not computed here", off, sample=8.0),
)


def config(data: dict, origin: str) -> ModelConfig:
    return make_config(
        origin,
        **llama_fields(data, origin),
        qk_norm="all",
        **expert_fields(data, origin, "num_experts", (64, 8), norm_topk=False),
    )


def sources(cfg: ModelConfig, data: dict):
    return hf_experts(cfg, hf_layers(cfg, data, hf_qk_norm))


def gguf_fields(meta: dict, tensors: dict, fields: dict, origin: str) -> dict:
    """llama.cpp's olmoe: q/k norm over all heads, every layer a mixture of width feed_forward_length, the
    chosen probabilities kept as they are (its graph never renormalises them)."""
    experts = gguf_expert_fields(meta, "olmoe", origin, norm_topk=False)
    if not experts:
        raise ModelLoadError(f"{origin}: metadata olmoe.expert_count is missing (an OLMoE file has experts)")
    return dict(fields, qk_norm="all", **experts)


def gguf_sources(cfg: ModelConfig) -> dict[str, tuple[str, str]]:
    return gguf_experts(cfg, gguf_layers(cfg, gguf_qk_norm))


FAMILY = Family(
    name="olmoe",
    summary="a mixture of experts (K of X per token, not renormalised), q/k norm over all heads",
    hf_type="olmoe",
    hf_config=config,
    hf_sources=sources,
    example={"model_type": "olmoe", **LLAMA_EXAMPLE, "num_experts": 4, "num_experts_per_tok": 2},
    refuses=(Refusal("hidden_act", "relu", "hidden_act 'relu' is not supported"),),
    stages=("qk_norm", "router", "experts"),
    parameters=(
        "params.layers.{l}.attn.q_norm.weight",
        "params.layers.{l}.attn.k_norm.weight",
        "params.layers.{l}.ffn.W_router",
        "params.layers.{l}.ffn.experts.W_in",
        "params.layers.{l}.ffn.experts.W_gate",
        "params.layers.{l}.ffn.experts.W_out",
    ),
    gguf_arch="olmoe",
    gguf_fields=gguf_fields,
    gguf_sources=gguf_sources,
    gguf_keys=GGUF_MOE_KEYS,
    fields=FIELDS,
)
