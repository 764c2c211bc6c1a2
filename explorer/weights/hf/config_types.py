"""A Hugging Face config.json → our ModelConfig, by its model_type: GPT-2 and the llama kind are read in
explorer/weights/hf/config.py, the other families in config_families.py (which build on config.py's
helpers; this module is the only one that knows both)."""

from __future__ import annotations

from typing import Any

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.weights.hf.config import SUPPORTED, gpt2_config, llama_config, text_field
from explorer.weights.hf.config_families import FAMILIES


def config_from_hf(data: dict[str, Any], origin: str = "config.json") -> ModelConfig:
    """Our ModelConfig for a Hugging Face config.json; ModelLoadError for what the traced model cannot do."""
    model_type = text_field(data, "model_type", "", origin)
    if model_type == "gpt2":
        return gpt2_config(data, origin)
    if model_type in ("llama", "mistral", "qwen2"):
        return llama_config(data, origin)
    if model_type in FAMILIES:
        return FAMILIES[model_type](data, origin)
    raise ModelLoadError(
        f"{origin}: model type {model_type!r} is not supported; this version opens {', '.join(SUPPORTED)} models"
    )
