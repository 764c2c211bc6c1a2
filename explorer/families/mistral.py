"""Mistral: Llama with one sliding window over every layer (read as a shorter context: a window of W keys
equals the causal mask for inputs of at most W tokens)."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.families.family import Family, Refusal
from explorer.families.field_table import implemented, table_of
from explorer.families.hf_fields import size
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import LLAMA_FIELDS, hf_llama_sources, llama_config

FIELDS = table_of(LLAMA_FIELDS, implemented("sliding_window"))


def window(data: dict, origin: str) -> int | None:
    return None if data.get("sliding_window") is None else size(data, "sliding_window", origin=origin)


def config(data: dict, origin: str) -> ModelConfig:
    return llama_config(data, origin, window=window)


FAMILY = Family(
    name="mistral",
    summary="Llama with a sliding window over every layer",
    hf_type="mistral",
    hf_config=config,
    hf_sources=hf_llama_sources,
    example={"model_type": "mistral", **LLAMA_EXAMPLE, "sliding_window": 8},
    refuses=(Refusal("hidden_act", "relu", "hidden_act 'relu' is not supported"),),
    fields=FIELDS,
)
