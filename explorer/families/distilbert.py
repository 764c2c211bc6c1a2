"""DistilBERT: BERT without segment embeddings, with half the layers and its own names for the sizes."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.families.encoder import ENCODER_PARAMETERS, ENCODER_STAGES, encoder_config, linear, ln
from explorer.families.family import Family, Refusal
from explorer.families.field_table import DROPOUT, implemented, inert, table_of
from explorer.families.hf_fields import GELU, activation, size
from explorer.families.source import Source

FIELDS = table_of(
    implemented("vocab_size", "dim", "n_heads", "n_layers", "hidden_dim", "max_position_embeddings", "activation"),
    implemented("tie_word_embeddings"),
    inert(DROPOUT, "dropout", "attention_dropout", "qa_dropout", "seq_classif_dropout"),
    inert("the position table is filled with sinusoids when created; the checkpoint stores it", "sinusoidal_pos_embds"),
)


def config(data: dict, origin: str) -> ModelConfig:
    return encoder_config(
        data,
        origin,
        E=size(data, "dim", origin=origin),
        H=size(data, "n_heads", origin=origin),
        L=size(data, "n_layers", origin=origin),
        F=size(data, "hidden_dim", origin=origin),
        act=activation(data, origin, "activation", default="gelu", allowed=GELU),
        P=size(data, "max_position_embeddings", origin=origin),
        segments=0,
        eps_=1e-12,
        family=FAMILY.name,
    )


def sources(cfg: ModelConfig, data: dict) -> dict[str, Source]:
    e = "distilbert.embeddings"
    out = {
        "embed.tok": Source(f"{e}.word_embeddings.weight"),
        "embed.pos": Source(f"{e}.position_embeddings.weight"),
        **ln("embed.ln", f"{e}.LayerNorm"),
    }
    for l in range(cfg.layers):
        m, p = f"distilbert.transformer.layer.{l}", f"layers.{l}"
        for x in "qkv":
            out |= linear(f"{p}.attn.W_{x}", f"{p}.attn.b_{x}", f"{m}.attention.{x}_lin")
        out |= linear(f"{p}.attn.W_o", f"{p}.attn.b_o", f"{m}.attention.out_lin")
        out |= ln(f"{p}.ln_attn", f"{m}.sa_layer_norm")
        out |= linear(f"{p}.ffn.W_in", f"{p}.ffn.b_in", f"{m}.ffn.lin1")
        out |= linear(f"{p}.ffn.W_out", f"{p}.ffn.b_out", f"{m}.ffn.lin2")
        out |= ln(f"{p}.ln_ffn", f"{m}.output_layer_norm")
    out |= linear("mlm.W_t", "mlm.b_t", "vocab_transform") | ln("mlm.ln", "vocab_layer_norm")
    out["unembed.b_u"] = Source("vocab_projector.bias")
    if not cfg.tie_embeddings:
        out["unembed.W_u"] = Source("vocab_projector.weight", "T")
    return out


FAMILY = Family(
    name="distilbert",
    summary="encoder, half BERT's layers, no segments",
    hf_type="distilbert",
    hf_config=config,
    hf_sources=sources,
    example={
        "model_type": "distilbert",
        "vocab_size": 50,
        "dim": 8,
        "n_heads": 2,
        "n_layers": 2,
        "hidden_dim": 16,
        "max_position_embeddings": 16,
    },
    refuses=(Refusal("activation", "silu", "activation 'silu' is not supported"),),
    stages=ENCODER_STAGES,
    parameters=ENCODER_PARAMETERS,
    encoder=True,
    fields=FIELDS,
)
