"""Mixtral: Mistral whose FFN is a mixture of experts: a router chooses 2 of 8 SwiGLU experts for each token
(softmax over the experts, the top K, their probabilities renormalised to sum to 1)."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.families.family import Family, Refusal
from explorer.families.field_table import implemented, table_of
from explorer.families.hf_fields import make_config
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import hf_llama_sources, llama_fields
from explorer.families.mistral import FIELDS as MISTRAL_FIELDS
from explorer.families.mistral import window
from explorer.families.moe_fields import MOE_FIELDS, expert_fields, hf_experts

FIELDS = table_of(
    MISTRAL_FIELDS,
    MOE_FIELDS,
    implemented("num_local_experts", why="X: the experts of every layer"),
    implemented("intermediate_size", why="F: one expert's width"),
)


def config(data: dict, origin: str) -> ModelConfig:
    return make_config(
        origin,
        **llama_fields(data, origin, frozenset(), window),  # no biases: transformers reads no attention_bias here
        **expert_fields(data, origin, "num_local_experts", (8, 2), norm_topk=True),
    )


def sources(cfg: ModelConfig, data: dict):
    return hf_experts(cfg, hf_llama_sources(cfg, data), block="block_sparse_moe", names=("w1", "w3", "w2"))


FAMILY = Family(
    name="mixtral",
    summary="Mistral with a mixture of experts: K of X experts per token, renormalised",
    hf_type="mixtral",
    hf_config=config,
    hf_sources=sources,
    example={"model_type": "mixtral", **LLAMA_EXAMPLE, "num_local_experts": 4, "num_experts_per_tok": 2},
    refuses=(Refusal("hidden_act", "relu", "hidden_act 'relu' is not supported"),),
    stages=("router", "experts"),
    parameters=(
        "params.layers.{l}.ffn.W_router",
        "params.layers.{l}.ffn.experts.W_in",
        "params.layers.{l}.ffn.experts.W_gate",
        "params.layers.{l}.ffn.experts.W_out",
    ),
    fields=FIELDS,
)
