"""RoBERTa: BERT with byte-level BPE and <mask>, its position table starting after the padding id (the first
padding_idx + 1 rows are never used), and its masked-LM head under lm_head."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families.bert import BERT_EXAMPLE, BERT_REFUSALS, bert_config, body_sources
from explorer.families.bert import FIELDS as BERT_FIELDS
from explorer.families.encoder import ENCODER_PARAMETERS, ENCODER_STAGES, linear, ln
from explorer.families.family import Family, Refusal
from explorer.families.field_table import implemented, table_of
from explorer.families.source import Source
from explorer.util.schema import Where, whole

FIELDS = table_of(
    BERT_FIELDS,
    implemented("pad_token_id", why="positions start at pad_token_id + 1; refused when it is also <s> or </s>"),
)


def position_offset(data: dict, origin: str = "config.json") -> int:
    """How many rows of the position table come before position 0: padding_idx + 1, as transformers'
    RobertaEmbeddings counts them (its default padding id is 1; −1, no token's id, starts them at row 0)."""
    if "pad_token_id" not in data:
        return 2
    return whole(data["pad_token_id"], "pad_token_id", Where(origin, ModelLoadError), lo=-1) + 1


def _pad_is_no_template_token(data: dict, origin: str) -> None:
    """transformers gives a token whose id is the padding id the position padding_idx and counts positions
    only over the others: a <s> or </s> with that id would shift every position after it."""
    pad = data.get("pad_token_id", 1)
    defaults = {"bos_token_id": 0, "eos_token_id": 2}  # RobertaConfig's, where the file leaves them out
    for key in ("bos_token_id", "eos_token_id", "sep_token_id", "cls_token_id"):
        if data.get(key, defaults.get(key)) == pad:
            raise ModelLoadError(
                f"{origin}: pad_token_id {pad!r} equals {key}: RoBERTa's positions would skip that token, "
                "which the traced model does not do"
            )


def config(data: dict, origin: str) -> ModelConfig:
    _pad_is_no_template_token(data, origin)
    return bert_config(data, origin, position_offset(data, origin))


def sources(cfg: ModelConfig, data: dict) -> dict[str, Source]:
    out = body_sources(cfg, "roberta", position_offset(data))
    out |= linear("mlm.W_t", "mlm.b_t", "lm_head.dense") | ln("mlm.ln", "lm_head.layer_norm")
    out["unembed.b_u"] = Source("lm_head.bias|lm_head.decoder.bias")
    if not cfg.tie_embeddings:
        out["unembed.W_u"] = Source("lm_head.decoder.weight", "T")
    return out


FAMILY = Family(
    name="roberta",
    summary="encoder with byte BPE and <mask>, positions after the padding id",
    hf_type="roberta",
    hf_config=config,
    hf_sources=sources,
    example={"model_type": "roberta", **BERT_EXAMPLE, "max_position_embeddings": 18},
    refuses=(*BERT_REFUSALS, Refusal("bos_token_id", 1, "pad_token_id 1 equals bos_token_id")),
    stages=("segment", *ENCODER_STAGES),
    parameters=("params.embed.seg", *ENCODER_PARAMETERS),
    encoder=True,
    fields=FIELDS,
)
