"""BERT: an encoder (no mask) of post-norm blocks with learned positions, segment embeddings for sentences A
and B, and a masked-LM head. RoBERTa builds on this module."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families.encoder import ENCODER_PARAMETERS, ENCODER_STAGES, encoder_config, linear, ln
from explorer.families.family import Family, Refusal
from explorer.families.field_table import DROPOUT, implemented, inert, table_of
from explorer.families.hf_fields import GELU, activation, eps, size, text_field
from explorer.families.source import Source

BERT_EXAMPLE = {
    "vocab_size": 50,
    "hidden_size": 8,
    "num_attention_heads": 2,
    "num_hidden_layers": 2,
    "intermediate_size": 16,
    "max_position_embeddings": 16,
}
BERT_REFUSALS = (
    Refusal("position_embedding_type", "relative_key", "position_embedding_type 'relative_key' is not supported"),
    Refusal("is_decoder", True, "a BERT used as a decoder (is_decoder) is not supported"),
)
# BERT's keys (explorer/families/field_table.py); RoBERTa adds pad_token_id.
FIELDS = table_of(
    implemented("vocab_size", "hidden_size", "num_attention_heads", "num_hidden_layers", "intermediate_size"),
    implemented("max_position_embeddings", "hidden_act", "type_vocab_size", "layer_norm_eps", "tie_word_embeddings"),
    implemented("position_embedding_type", "is_decoder", why="absolute and false; others are refused"),
    inert(DROPOUT, "attention_probs_dropout_prob", "hidden_dropout_prob", "classifier_dropout"),
    inert(
        "cross-attention runs only in a decoder given an encoder's states (is_decoder is refused)",
        "add_cross_attention",
    ),
)


def bert_config(data: dict, origin: str, offset: int = 0) -> ModelConfig:
    """BERT and RoBERTa: RoBERTa's positions start after its padding id, ``offset`` rows of its table unused."""
    kind = text_field(data, "position_embedding_type", "absolute", origin)
    if kind != "absolute":
        raise ModelLoadError(f"{origin}: position_embedding_type {kind!r} is not supported (only absolute)")
    if data.get("is_decoder"):
        raise ModelLoadError(f"{origin}: a BERT used as a decoder (is_decoder) is not supported")
    P = size(data, "max_position_embeddings", origin=origin) - offset
    if P < 1:
        raise ModelLoadError(f"{origin}: max_position_embeddings leaves no position after the padding offset")
    return encoder_config(
        data,
        origin,
        E=size(data, "hidden_size", origin=origin),
        H=size(data, "num_attention_heads", origin=origin),
        L=size(data, "num_hidden_layers", origin=origin),
        F=size(data, "intermediate_size", origin=origin),
        act=activation(data, origin, "hidden_act", default="gelu", allowed=GELU),
        P=P,
        segments=size(data, "type_vocab_size", default=2, origin=origin),
        eps_=eps(data, "layer_norm_eps", 1e-12, origin),
        family=str(data["model_type"]),
    )


def config(data: dict, origin: str) -> ModelConfig:
    return bert_config(data, origin)


def body_sources(cfg: ModelConfig, base: str, offset: int = 0) -> dict[str, Source]:
    """The embeddings and layers, under ``base`` (bert. or roberta.), positions after ``offset`` rows."""
    e = f"{base}.embeddings"
    out = {
        "embed.tok": Source(f"{e}.word_embeddings.weight"),
        "embed.pos": Source(f"{e}.position_embeddings.weight", "skip", offset)
        if offset
        else Source(f"{e}.position_embeddings.weight"),
        "embed.seg": Source(f"{e}.token_type_embeddings.weight"),
        **ln("embed.ln", f"{e}.LayerNorm"),
    }
    for l in range(cfg.layers):
        m, p = f"{base}.encoder.layer.{l}", f"layers.{l}"
        for x, name in zip("qkv", ("query", "key", "value")):
            out |= linear(f"{p}.attn.W_{x}", f"{p}.attn.b_{x}", f"{m}.attention.self.{name}")
        out |= linear(f"{p}.attn.W_o", f"{p}.attn.b_o", f"{m}.attention.output.dense")
        out |= ln(f"{p}.ln_attn", f"{m}.attention.output.LayerNorm")
        out |= linear(f"{p}.ffn.W_in", f"{p}.ffn.b_in", f"{m}.intermediate.dense")
        out |= linear(f"{p}.ffn.W_out", f"{p}.ffn.b_out", f"{m}.output.dense")
        out |= ln(f"{p}.ln_ffn", f"{m}.output.LayerNorm")
    return out


def sources(cfg: ModelConfig, data: dict) -> dict[str, Source]:
    out = body_sources(cfg, "bert")
    out |= linear("mlm.W_t", "mlm.b_t", "cls.predictions.transform.dense") | ln(
        "mlm.ln", "cls.predictions.transform.LayerNorm"
    )
    out["unembed.b_u"] = Source("cls.predictions.bias|cls.predictions.decoder.bias")
    if not cfg.tie_embeddings:
        out["unembed.W_u"] = Source("cls.predictions.decoder.weight", "T")
    return out


FAMILY = Family(
    name="bert",
    summary="encoder: no mask, [CLS]/[SEP], segments, [MASK], post-norm",
    hf_type="bert",
    hf_config=config,
    hf_sources=sources,
    example={"model_type": "bert", **BERT_EXAMPLE},
    refuses=BERT_REFUSALS,
    stages=("segment", *ENCODER_STAGES),
    parameters=("params.embed.seg", *ENCODER_PARAMETERS),
    encoder=True,
    fields=FIELDS,
)
