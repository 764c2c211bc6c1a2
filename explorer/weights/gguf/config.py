"""A GGUF file's metadata → our ModelConfig, every field checked where it is read: the llama metadata every
architecture shares here (its rotary scaling in ``rope.py``), what each family adds in its module of
``explorer/families/`` (``gguf_fields``)."""

from __future__ import annotations

from typing import Any

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families import GGUF_ARCHITECTURES, gguf_family
from explorer.families.gguf_fields import real, refuse_unread, size
from explorer.families.hf_fields import make_config
from explorer.weights.gguf.rope import gguf_rope_scaling
from explorer.weights.gguf.tokenizer import check_tokenizer_metadata


def config_from_gguf(meta: dict[str, Any], tensors: dict[str, Any], origin: str) -> ModelConfig:
    arch = meta.get("general.architecture")
    family = gguf_family(arch)
    if family is None:
        raise ModelLoadError(
            f"{origin}: architecture {str(arch)[:60]!r} is not supported; "
            f"this version opens {', '.join(GGUF_ARCHITECTURES)} GGUF files"
        )
    a = f"{arch}."
    E = size(meta, a + "embedding_length", origin)
    H = size(meta, a + "attention.head_count", origin)
    Hkv = size(meta, a + "attention.head_count_kv", origin, default=H)
    if E % H and a + "attention.key_length" not in meta:
        raise ModelLoadError(f"{origin}: embedding length {E} is not a multiple of the head count {H}")
    D = size(meta, a + "attention.key_length", origin, default=E // H or 1)
    if size(meta, a + "attention.value_length", origin, default=D) != D:
        raise ModelLoadError(f"{origin}: value heads of a size other than the key heads are not supported")
    rope_dim = size(meta, a + "rope.dimension_count", origin, default=D)
    if rope_dim > D or rope_dim % 2:
        raise ModelLoadError(f"{origin}: rotary embeddings of {rope_dim} of {D} dimensions are not supported")
    context = size(meta, a + "context_length", origin, default=2048)
    scaling = gguf_rope_scaling(meta, tensors, arch, rope_dim, context, origin)
    if "token_embd.weight" not in tensors:
        raise ModelLoadError(f"{origin}: tensor token_embd.weight is missing")
    embd = tuple(int(n) for n in tensors["token_embd.weight"].shape)
    if len(embd) != 2:  # read before the shapes are compared with the config: its length is checked here
        raise ModelLoadError(f"{origin}: tensor token_embd.weight must have 2 dimensions (E, V), got {embd}")
    V = embd[1]  # ggml order: (E, V)
    biases = [n for n in tensors if n.endswith(".bias")]
    if biases and not family.gguf_biases:
        raise ModelLoadError(f"{origin}: bias tensors ({biases[0]}, …) are not supported in {arch} GGUF files")
    check_tokenizer_metadata(meta, origin)
    fields = dict(
        vocab_size=V,
        embed_dim=E,
        key_dim=D,
        heads=H,
        kv_heads=Hkv if Hkv != H else None,
        layers=size(meta, a + "block_count", origin),
        ffn_dim=size(meta, a + "feed_forward_length", origin),
        positions="rope",
        max_positions=context,
        rope_scaling=scaling,
        norm="rmsnorm",
        ffn_activation="silu_gated",
        bias=False,
        unembed_bias=False,
        tie_embeddings="output.weight" not in tensors,
        norm_eps=real(meta, a + "attention.layer_norm_rms_epsilon", origin, 1e-5, hi=1.0),
        rope_theta=real(meta, a + "rope.freq_base", origin, 10_000.0),
        rotary_dims=rope_dim if rope_dim < D else None,
        family=family.gguf_arch,
    )
    cfg = make_config(origin, **family.gguf_fields(meta, tensors, fields, origin))
    refuse_unread(meta, tensors, arch, family.gguf_keys, origin)  # after the reader's own, more precise lines
    return cfg
