"""Llama: RoPE, RMSNorm, a SiLU-gated FFN, grouped-query attention; biases where its config says so. The
other decoders start from it (``llama_kind.py``); its GGUF files permute W_q and W_k (undone on reading), and
llama.cpp writes Mixtral as a llama GGUF file with experts."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.families.family import Family, Refusal
from explorer.families.field_table import implemented, inert, table_of
from explorer.families.llama_kind import LLAMA_FIELDS, gguf_llama_sources, hf_llama_sources, llama_config
from explorer.families.moe_fields import GGUF_MOE_KEYS, gguf_expert_fields, gguf_experts

LLAMA_EXAMPLE = {
    "vocab_size": 50,
    "hidden_size": 8,
    "num_attention_heads": 2,
    "num_key_value_heads": 1,
    "num_hidden_layers": 2,
    "intermediate_size": 16,
}


FIELDS = table_of(
    LLAMA_FIELDS,
    implemented("attention_bias", "mlp_bias", why="biases on q, k, v, o; on the FFN's gate, up and down"),
    inert(
        "Llama 2's tensor-parallel slices of a projection: the same product (transformers 5 ignores it)",
        "pretraining_tp",
    ),
)


def config(data: dict, origin: str) -> ModelConfig:
    return llama_config(data, origin)


def gguf_fields(meta: dict, tensors: dict, fields: dict, origin: str) -> dict:
    """The metadata's llama fields; with llama.expert_count, Mixtral (llama.cpp keeps it under "llama"): every
    layer a mixture of experts of width feed_forward_length, the chosen probabilities renormalised."""
    experts = gguf_expert_fields(meta, "llama", origin, norm_topk=True)
    return dict(fields, **experts, family="mixtral") if experts else fields


def gguf_sources(cfg: ModelConfig) -> dict[str, tuple[str, str]]:
    return gguf_experts(cfg, gguf_llama_sources(cfg))


FAMILY = Family(
    name="llama",
    summary="RoPE, RMSNorm, SiLU-gated FFN, grouped-query attention",
    hf_type="llama",
    hf_config=config,
    hf_sources=hf_llama_sources,
    example={"model_type": "llama", **LLAMA_EXAMPLE},
    refuses=(
        Refusal("hidden_act", "relu", "hidden_act 'relu' is not supported"),
        Refusal("rope_scaling", {"rope_type": "proportional"}, "rotary scaling 'proportional' is not supported"),
    ),
    gguf_arch="llama",
    gguf_fields=gguf_fields,
    gguf_sources=gguf_sources,
    gguf_keys=GGUF_MOE_KEYS,
    fields=FIELDS,
)
