"""What one model family declares, in one record: how its config.json becomes a ModelConfig (and what it
refuses), where its tensors lie in a Hugging Face checkpoint and in a GGUF file, the pipeline stages and
parameters it adds to the plain decoder. The real models known by name are in ``catalogue.py``.

Plain data and small functions: no torch, no file access. The readers in ``explorer/weights/`` call the
functions; the registry (``explorer/families/__init__.py``) lists the families.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from explorer.config import ModelConfig
from explorer.families.field_table import Field
from explorer.families.source import Source

HfConfig = Callable[[dict[str, Any], str], ModelConfig]  # (config.json, origin) -> ModelConfig or ModelLoadError
HfSources = Callable[[ModelConfig, dict[str, Any]], dict[str, Source]]  # our parameter -> the checkpoint's tensor
GgufFields = Callable[[dict, dict, dict[str, Any], str], dict[str, Any]]  # (meta, tensors, llama's fields, origin)
GgufSources = Callable[[ModelConfig], dict[str, tuple[str, str]]]  # our parameter -> (GGUF tensor, how)


@dataclass(frozen=True)
class Refusal:
    """A config.json field the traced model cannot follow: ``value`` is one the family refuses, and the one-line
    message says ``says`` (tests/core/test_families_declared.py sets it and reads the message)."""

    field: str
    value: Any
    says: str


@dataclass(frozen=True)
class Family:
    """One model family. ``stages``: the pipeline stages (``explorer/present/stages.py`` keys, whose titles and
    captions are in ``explorer/ui/words/captions_families.py``) a model of it shows that the plain decoder does not;
    ``parameters``: the parameter patterns it adds (what the cost and memory figures count beyond the plain
    decoder's). Both are what ``example`` gives, checked by tests/core/test_families_declared.py."""

    name: str  # the family, as ModelConfig.family says for a GGUF file, and docs/real-models.md
    summary: str  # what is special about it, in one line
    hf_type: str  # config.json's model_type
    hf_config: HfConfig
    hf_sources: HfSources
    example: dict[str, Any]  # the smallest config.json it reads (for the tests and the recipe)
    refuses: tuple[Refusal, ...] = ()
    stages: tuple[str, ...] = ()
    parameters: tuple[str, ...] = ()
    biases: frozenset[str] | None = None  # the projections with biases whatever config.json says (None: it says)
    gguf_arch: str = ""  # general.architecture of its GGUF files; "" when none is read
    gguf_fields: GgufFields | None = None
    gguf_sources: GgufSources | None = None
    gguf_biases: bool = False  # whether its GGUF files may hold bias tensors
    gguf_keys: tuple[str, ...] = ()  # the "{arch}." metadata its gguf_fields reads (beyond gguf_fields.GGUF_READ)
    encoder: bool = False  # an encoder: it sees every token, its own mask is "none"
    # every config.json key of the family: implemented, inert or refused (explorer/families/field_table.py)
    fields: dict[str, Field] = field(default_factory=dict, hash=False, compare=False)
