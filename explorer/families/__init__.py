"""The model families the explorer opens, one module each, and this registry: the one list of them.

A family's module declares, in one place, how its config.json becomes a ``ModelConfig`` (and which fields it
refuses), where its tensors lie in a Hugging Face checkpoint and in a GGUF file, the stages and parameters it
adds (``family.py``: the ``Family`` record); ``catalogue.py`` names the real models. The readers
(``explorer/weights/hf``, ``explorer/weights/gguf``) and the catalogue (``explorer/weights/installed.py``)
look families up here; the stages, captions and costs follow the ``ModelConfig`` a family gives, never its
name. docs/architecture.md has the recipe for a new family.
"""

from __future__ import annotations

from explorer.families import (
    bert,
    distilbert,
    gemma,
    gemma2,
    gemma3,
    gpt2,
    gpt_neox,
    llama,
    mistral,
    mixtral,
    olmo2,
    olmoe,
    phi3,
    qwen2,
    qwen2_moe,
    qwen3,
    roberta,
)
from explorer.families.family import Family, Refusal

# In the order the "not supported" messages list them.
FAMILIES: tuple[Family, ...] = tuple(
    m.FAMILY
    for m in (
        gpt2,
        llama,
        mistral,
        qwen2,
        qwen3,
        gpt_neox,
        gemma,
        gemma2,
        gemma3,
        phi3,
        olmo2,
        mixtral,
        qwen2_moe,
        olmoe,
        bert,
        roberta,
        distilbert,
    )
)
HF_TYPES: tuple[str, ...] = tuple(f.hf_type for f in FAMILIES)  # the model_type values config.json may say
GGUF_ARCHITECTURES: tuple[str, ...] = tuple(f.gguf_arch for f in FAMILIES if f.gguf_arch)
ENCODER_TYPES: tuple[str, ...] = tuple(f.hf_type for f in FAMILIES if f.encoder)  # their own mask is "none"
LLAMA = llama.FAMILY  # the GGUF metadata every architecture shares is llama's

_BY_HF_TYPE = {f.hf_type: f for f in FAMILIES}
_BY_GGUF_ARCH = {f.gguf_arch: f for f in FAMILIES if f.gguf_arch}

__all__ = [
    "ENCODER_TYPES",
    "FAMILIES",
    "GGUF_ARCHITECTURES",
    "HF_TYPES",
    "LLAMA",
    "Family",
    "Refusal",
    "gguf_family",
    "hf_family",
]


def hf_family(model_type: object) -> Family | None:
    """The family of a config.json's model_type, or None when no family reads it."""
    return _BY_HF_TYPE.get(model_type) if isinstance(model_type, str) else None


def gguf_family(arch: object) -> Family | None:
    """The family of a GGUF file's general.architecture, or None when no family reads it."""
    return _BY_GGUF_ARCH.get(arch) if isinstance(arch, str) else None
