"""RoBERTa: BERT with byte-level BPE and <mask>, its position table starting after the padding id (the first
padding_idx + 1 rows are never used), and its masked-LM head under lm_head."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.families.bert import BERT_EXAMPLE, BERT_REFUSALS, bert_config, body_sources
from explorer.families.encoder import ENCODER_PARAMETERS, ENCODER_STAGES, linear, ln
from explorer.families.family import Catalogued, Family
from explorer.families.source import Source


def position_offset(data: dict) -> int:
    """How many rows of the position table come before position 0: padding_idx + 1."""
    pad = data.get("pad_token_id", 1)
    return int(pad) + 1 if isinstance(pad, int) and not isinstance(pad, bool) and 0 <= pad < 1024 else 2


def config(data: dict, origin: str) -> ModelConfig:
    return bert_config(data, origin, position_offset(data))


def sources(cfg: ModelConfig, data: dict) -> dict[str, Source]:
    out = body_sources(cfg, "roberta", position_offset(data))
    out |= linear("mlm.W_t", "mlm.b_t", "lm_head.dense") | ln("mlm.ln", "lm_head.layer_norm")
    out["unembed.b_u"] = Source("lm_head.bias|lm_head.decoder.bias")
    return out


FAMILY = Family(
    name="roberta",
    summary="encoder with byte BPE and <mask>, positions after the padding id",
    hf_type="roberta",
    hf_config=config,
    hf_sources=sources,
    example={"model_type": "roberta", **BERT_EXAMPLE, "max_position_embeddings": 18},
    refuses=BERT_REFUSALS,
    stages=("segment", *ENCODER_STAGES),
    parameters=("params.embed.seg", *ENCODER_PARAMETERS),
    encoder=True,
    models=(
        Catalogued(50, "roberta-base", "RoBERTa base", 125, "encoder with byte BPE, <mask>", "FacebookAI/roberta-base"),
    ),
)
