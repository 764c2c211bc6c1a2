"""Mistral: Llama with one sliding window over every layer (the whole text traced, the window a mask)."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.families.family import Family, Refusal
from explorer.families.field_table import implemented, table_of
from explorer.families.hf_fields import size
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import LLAMA_FIELDS, hf_llama_sources, llama_config

FIELDS = table_of(
    LLAMA_FIELDS, implemented("sliding_window", why="every layer's keys masked to the last W (the whole text traced)")
)


def window(data: dict, origin: str, L: int) -> tuple[int, tuple[int, ...]] | None:
    if data.get("sliding_window") is None:
        return None
    return size(data, "sliding_window", origin=origin), tuple(range(L))


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
