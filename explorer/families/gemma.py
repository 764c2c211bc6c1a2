"""Gemma: a Llama-like decoder with the embedding × √E, a GeGLU FFN and a tied unembedding; its RMSNorm
multiplies by (1 + w), so the checkpoint's norm scales are turned into γ = 1 + w (llama.cpp's converter
already stores γ). Gemma 2 and 3 build on this module."""

from __future__ import annotations

from typing import Any

from explorer.config import ModelConfig
from explorer.families.family import Family, Refusal
from explorer.families.field_table import implemented, inert, off, refused, table_of
from explorer.families.hf_fields import activation, bool_field, make_config
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import GATED, LLAMA_FIELDS, gguf_layers, hf_layers, llama_fields
from explorer.families.source import Source

# What every Gemma's table adds to Llama's; Gemma 2 and 3 add theirs.
GEMMA_FIELDS = table_of(
    LLAMA_FIELDS,
    implemented("attention_bias"),
    refused("use_bidirectional_attention", "an embedding model, its attention both ways", off, sample=True),
)
FIELDS = table_of(
    GEMMA_FIELDS,
    implemented("hidden_act", why="transformers 5 reads legacy 'gelu' as gelu_pytorch_tanh here, as Gemma was trained"),
    inert("transformers 5's Gemma reads hidden_act, not this", "hidden_activation"),
)
# Gemma's own reading of hidden_act: its released configs say "gelu" meaning the tanh approximation.
GEMMA_ACT = {**GATED, "gelu": "gelu_tanh_gated"}


def gemma_fields(data: dict, origin: str, act_key: str = "hidden_activation") -> dict[str, Any]:
    """Every Gemma: a Llama-like decoder with the embedding × √E, a gated FFN (GeGLU as released) and a tied
    unembedding. ``act_key``: the key its transformers class reads (Gemma 1: hidden_act, 2 and 3:
    hidden_activation, where "gelu" is the exact GELU)."""
    allowed = GEMMA_ACT if act_key == "hidden_act" else GATED
    act = activation(data, origin, act_key, default="gelu_pytorch_tanh", allowed=allowed)
    fields = llama_fields({**data, "hidden_act": "silu"}, origin)
    fields.update(
        ffn_activation=act,
        embed_scale=True,
        tie_embeddings=bool_field(data, "tie_word_embeddings", True, origin),
    )
    return fields


def config(data: dict, origin: str) -> ModelConfig:
    return make_config(origin, **gemma_fields(data, origin, "hidden_act"))


def plus_one(out: dict[str, Source]) -> dict[str, Source]:
    """Gemma's RMSNorm multiplies by (1 + w): every norm scale is read as γ = 1 + w."""
    for name, src in list(out.items()):
        if name.endswith("norm.weight") or ".ln_" in name or name.startswith("ln_final"):
            out[name] = Source(src.key, "plus1")
    return out


def sources(cfg: ModelConfig, data: dict):
    return plus_one(hf_layers(cfg, data))


def gguf_gemma_fields(tensors: dict, fields: dict) -> dict:
    return dict(
        fields, ffn_activation="gelu_tanh_gated", embed_scale=True, tie_embeddings="output.weight" not in tensors
    )


def gguf_fields(meta: dict, tensors: dict, fields: dict, origin: str) -> dict:
    return gguf_gemma_fields(tensors, fields)


def gguf_sources(cfg: ModelConfig) -> dict[str, tuple[str, str]]:
    return gguf_layers(cfg)


FAMILY = Family(
    name="gemma",
    summary="embedding × √E, GeGLU, tied unembedding, norms as 1 + w",
    hf_type="gemma",
    hf_config=config,
    hf_sources=sources,
    example={"model_type": "gemma", **LLAMA_EXAMPLE},
    refuses=(Refusal("hidden_act", "relu", "hidden_act 'relu' is not supported"),),
    fields=FIELDS,
    gguf_arch="gemma",
    gguf_fields=gguf_fields,
    gguf_sources=gguf_sources,
)
