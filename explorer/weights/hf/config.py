"""A Hugging Face config.json → our ModelConfig, by its model_type: each family's module
(``explorer/families/``) reads its own fields and refuses, in one line that names the field, whatever the
traced model cannot do."""

from __future__ import annotations

from typing import Any

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families import HF_TYPES, hf_family
from explorer.families.field_table import refuse_unfollowed
from explorer.families.hf_fields import text_field
from explorer.families.hf_schema import check_config_json

SUPPORTED = HF_TYPES  # the model types this version opens, as the refusal lists them


def config_from_hf(data: dict[str, Any], origin: str = "config.json") -> ModelConfig:
    """Our ModelConfig for a Hugging Face config.json; ModelLoadError for what the traced model cannot do."""
    model_type = text_field(data, "model_type", "", origin)
    family = hf_family(model_type)
    if family is None:
        raise ModelLoadError(
            f"{origin}: model type {model_type!r} is not supported; this version opens {', '.join(SUPPORTED)} models"
        )
    check_config_json(data, origin)  # every field's type and range first: the family reads only those
    cfg = family.hf_config(data, origin)  # its own refusals first: they say more than the table's
    refuse_unfollowed(family.fields, data, origin)
    return cfg
