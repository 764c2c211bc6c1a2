"""What the encoders share (BERT, RoBERTa, DistilBERT): post-norm blocks with biases, learned positions, a
norm of the embedding sum, a masked-LM head, no causal mask; and the shapes of their checkpoints' names."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families.hf_fields import bool_field, make_config, size
from explorer.families.source import Source


def encoder_config(
    data: dict,
    origin: str,
    *,
    E: int,
    H: int,
    L: int,
    F: int,
    act: str,
    P: int,
    segments: int,
    eps_: float,
    family: str,
) -> ModelConfig:
    if E % H:
        raise ModelLoadError(f"{origin}: the hidden size {E} is not a multiple of the {H} heads")
    return make_config(
        origin,
        vocab_size=size(data, "vocab_size", origin=origin),
        embed_dim=E,
        key_dim=E // H,
        heads=H,
        layers=L,
        ffn_dim=F,
        positions="learned",
        max_positions=P,
        norm="layernorm",
        norm_placement="post",
        ffn_activation=act,
        bias=True,
        unembed_bias=True,
        tie_embeddings=bool_field(data, "tie_word_embeddings", True, origin),  # else the decoder's own weight
        norm_eps=eps_,
        embed_norm=True,
        segments=segments,
        mlm_head=True,
        bidirectional=True,
        family=family,
    )


def ln(ours: str, theirs: str) -> dict[str, Source]:
    """A LayerNorm's scale and shift (older BERT checkpoints call them gamma and beta)."""
    return {
        f"{ours}.weight": Source(f"{theirs}.weight|{theirs}.gamma"),
        f"{ours}.bias": Source(f"{theirs}.bias|{theirs}.beta"),
    }


def linear(ours_W: str, ours_b: str, theirs: str) -> dict[str, Source]:
    return {ours_W: Source(f"{theirs}.weight", "T"), ours_b: Source(f"{theirs}.bias")}


# What an encoder adds to the plain decoder's parameters: the segment table, the embedding's norm, the
# masked-LM head and the vocabulary bias.
ENCODER_PARAMETERS = (
    "params.embed.ln.weight",
    "params.embed.ln.bias",
    "params.mlm.W_t",
    "params.mlm.b_t",
    "params.mlm.ln.weight",
    "params.mlm.ln.bias",
    "params.unembed.b_u",
)
ENCODER_STAGES = ("post_norm_attn", "post_norm_ffn", "mlm")
