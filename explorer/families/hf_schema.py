"""config.json's schema: every field a family reads, with its type and range, checked before any family reads
the file (``check_config_json``, called by explorer/weights/hf/config.py). A family's module then reads values
of the right type only: a ``rope_parameters`` that is a number once raised AttributeError in GPT-NeoX, a
``layer_types`` of the wrong length or a ``rope_type`` of null was accepted where transformers refuses the
file. ``FIELDS`` is the one table of them (the "every field accounted for" table of the models can share it);
a field the table does not name is not read by any family (``_name_or_path`` is only shown, and the loader
falls back to the folder's name when it cannot be)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from explorer.errors import ModelLoadError
from explorer.util.schema import Where, flag, listing, mapping, number, text, whole

Check = Callable[[Any, str, Where], object]


def _size(value: Any, field: str, where: Where) -> int:
    return whole(value, field, where, lo=1)


def _count(value: Any, field: str, where: Where) -> int:
    return whole(value, field, where, lo=0)


def _token_id(value: Any, field: str, where: Where) -> int:
    """A token id, or −1: "no such token" (a RoBERTa with pad_token_id −1 counts positions from row 0, as
    transformers does)."""
    return whole(value, field, where, lo=-1)


def _positive(value: Any, field: str, where: Where) -> float:
    return number(value, field, where, positive=True)


def _fraction(value: Any, field: str, where: Where) -> float:
    """A share of the dimensions, or a norm's epsilon: in (0, 1]."""
    return number(value, field, where, positive=True, hi=1.0)


def _finite(value: Any, field: str, where: Where) -> float:
    return number(value, field, where)


def _factors(value: Any, field: str, where: Where) -> list:
    """LongRoPE's short_factor / long_factor: one number per turning pair."""
    return listing(value, field, where, number, 65_536)


def _layer_list(value: Any, field: str, where: Where) -> list:
    """Layer numbers (Qwen-MoE's mlp_only_layers): whole numbers from 0."""
    return listing(value, field, where, _count, 4096)


def _name(value: Any, field: str, where: Where) -> str:
    return text(value, field, where, 200)


# The layer kinds the traced model follows (transformers also knows chunked_attention and linear_attention,
# which no family here computes).
LAYER_KINDS = ("sliding_attention", "full_attention")

# A rotary block (rope_parameters, rope_scaling): its fields, by name.
ROPE_FIELDS: dict[str, Check] = {
    "rope_type": _name,
    "type": _name,
    "rope_theta": _positive,
    "partial_rotary_factor": _fraction,
    "factor": _positive,
    # the scalings' own fields (explorer/families/rope_fields.py reads them as transformers does)
    "original_max_position_embeddings": _size,
    "low_freq_factor": _positive,
    "high_freq_factor": _positive,
    "attention_factor": _positive,
    "beta_fast": _finite,
    "beta_slow": _finite,
    "mscale": _finite,
    "mscale_all_dim": _finite,
    "truncate": flag,
    "short_factor": _factors,
    "long_factor": _factors,
}

FIELDS: dict[str, Check] = {
    **dict.fromkeys(
        (
            "vocab_size",
            "hidden_size",
            "num_attention_heads",
            "num_key_value_heads",
            "head_dim",
            "num_hidden_layers",
            "intermediate_size",
            "max_position_embeddings",
            "original_max_position_embeddings",
            "sliding_window_pattern",
            "_sliding_window_pattern",
            "type_vocab_size",
            "n_positions",
            "n_ctx",
            "n_embd",
            "n_layer",
            "n_head",
            "n_inner",
            "n_layers",
            "n_heads",
            "dim",
            "hidden_dim",
            "num_local_experts",
            "num_experts_per_tok",
            "moe_intermediate_size",
            "shared_expert_intermediate_size",
            "decoder_sparse_step",
        ),
        _size,
    ),
    "num_experts": _count,  # Qwen-MoE: 0 experts is a dense model
    "sliding_window": _count,  # Qwen-MoE writes 0 without use_sliding_window; a family that slides reads ≥ 1
    "mlp_only_layers": _layer_list,
    "clip_qkv": _positive,
    "pad_token_id": _token_id,
    "max_window_layers": _count,
    **dict.fromkeys(("rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon"), _fraction),
    **dict.fromkeys(
        (
            "rope_theta",
            "rope_local_base_freq",
            "rotary_emb_base",
            "attn_logit_softcapping",
            "final_logit_softcapping",
            "query_pre_attn_scalar",
        ),
        _positive,
    ),
    "partial_rotary_factor": _fraction,
    "rotary_pct": _fraction,
    **dict.fromkeys(
        (
            "tie_word_embeddings",
            "use_parallel_residual",
            "attention_bias",
            "mlp_bias",
            "use_sliding_window",
            "use_bidirectional_attention",
            "is_decoder",
            "add_cross_attention",
            "scale_attn_weights",
            "scale_attn_by_inverse_layer_idx",
            "norm_topk_prob",
            "qkv_bias",
        ),
        flag,
    ),
    **dict.fromkeys(
        (
            "model_type",
            "hidden_act",
            "hidden_activation",
            "activation_function",
            "activation",
            "position_embedding_type",
        ),
        _name,
    ),
    "rope_parameters": lambda v, f, w: _rope_block(v, f, w, nested=True),
    "rope_scaling": lambda v, f, w: _rope_block(v, f, w, nested=False),
}
LAYER_COUNT_KEYS = ("num_hidden_layers", "n_layer", "n_layers")  # the first present is L


def _rope_block(value: Any, field: str, where: Where, nested: bool) -> None:
    """A rotary block: its known fields typed, a rope_type present as text (null is refused, as transformers
    does); transformers 5's Gemma 3 nests one block per layer kind (``nested``)."""
    block = mapping(value, field, where)
    for key, item in block.items():
        name = f"{field}.{key}"
        if nested and key in LAYER_KINDS:
            _rope_block(item, name, where, nested=False)
        elif key in ROPE_FIELDS:
            ROPE_FIELDS[key](item, name, where)


def _layer_types(value: Any, layers: int | None, where: Where) -> None:
    if not isinstance(value, list):
        raise where.fail(f"layer_types must be a list of one kind per layer, got {_short(value)}")
    if layers is not None and len(value) != layers:
        raise where.fail(f"layer_types has {len(value)} entries for {layers} layers (num_hidden_layers)")
    for i, kind in enumerate(value):
        text(kind, f"layer_types[{i}]", where, 100)
        if kind not in LAYER_KINDS:
            raise where.fail(f"layer_types[{i}]: layer type {kind[:40]!r} is not supported ({', '.join(LAYER_KINDS)})")


def _short(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "…"


def check_config_json(data: dict, origin: str) -> None:
    """Every field of ``FIELDS`` that ``data`` sets (null: left out) has its type and range, and every
    per-layer list has one entry per layer; ModelLoadError naming the first field that does not."""
    where = Where(origin, ModelLoadError)
    for key, check in FIELDS.items():
        value = data.get(key)
        if value is not None:
            check(value, key, where)
    layers = next((data[k] for k in LAYER_COUNT_KEYS if data.get(k) is not None), None)
    if data.get("layer_types") is not None:  # null: transformers derives them, as the families do
        _layer_types(data["layer_types"], layers, where)
