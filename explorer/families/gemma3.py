"""Gemma 3: Gemma 2's sandwich norms and logit soft-cap with a q/k norm per head (and no score soft-cap: its
transformers attention ignores attn_logit_softcapping), and five of six layers sliding with their own RoPE base."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families.family import Family, Refusal
from explorer.families.field_table import implemented, inert, table_of
from explorer.families.gemma import gemma_fields, gguf_gemma_fields, plus_one
from explorer.families.gemma2 import FIELDS as GEMMA2_FIELDS
from explorer.families.gemma2 import gguf_caps, no_bidirectional, query_scalar
from explorer.families.gguf_fields import real, sliding_fields
from explorer.families.hf_fields import make_config, optional_positive, rope_settings, size, sliding_layers
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import gguf_layers, gguf_qk_norm, gguf_sandwich, hf_layers, hf_qk_norm, hf_sandwich
from explorer.families.rope_fields import longest_text, read_scaling, rope_block, rope_kind
from explorer.util.schema import Where, number

FIELDS = table_of(
    GEMMA2_FIELDS,
    implemented("sliding_window_pattern", "_sliding_window_pattern", "rope_local_base_freq"),
    inert(
        "transformers' Gemma 3 attention never applies it (its published checkpoints set none)",
        "attn_logit_softcapping",
    ),
)


def _rope(data: dict, origin: str) -> tuple[float, float, dict]:
    """(global base, local base, the global layers' rope block): transformers 5 writes rope_parameters per
    layer type, 4 rope_theta, rope_local_base_freq and a rope_scaling of the global layers. The sliding
    layers turn unscaled (their own block may not scale)."""
    params = data.get("rope_parameters") or {}
    where = Where(origin, ModelLoadError)
    if isinstance(params, dict) and isinstance(params.get("full_attention"), dict):
        full, local = params["full_attention"], params.get("sliding_attention") or {}
        if rope_kind(local) != "default":
            raise ModelLoadError(
                f"{origin}: rotary scaling {str(rope_kind(local))[:40]!r} of the sliding layers is not supported"
            )
        return (
            number(full.get("rope_theta", 1e6), "rope_theta", where, positive=True),
            number(local.get("rope_theta", 1e4), "rope_local_base_freq", where, positive=True),
            full,
        )
    theta = rope_settings({**data, "rope_theta": data.get("rope_theta", 1e6)}, origin)
    local = number(data.get("rope_local_base_freq", 1e4), "rope_local_base_freq", where, positive=True)
    return theta, local, rope_block(data, origin)


def config(data: dict, origin: str) -> ModelConfig:
    no_bidirectional(data, origin)
    theta, local, block = _rope(data, origin)
    fields = gemma_fields({**data, "rope_parameters": None, "rope_scaling": None, "rope_theta": theta}, origin)
    scaling = read_scaling({"rope_parameters": block}, origin, fields["max_positions"])
    L = fields["layers"]
    pattern = data.get("sliding_window_pattern", data.get("_sliding_window_pattern", 6))
    return make_config(
        origin,
        **{**fields, "max_positions": longest_text(fields["max_positions"], scaling), "rope_scaling": scaling},
        query_scalar=query_scalar(data, fields["key_dim"], origin),
        norm_placement="sandwich",
        qk_norm="head",
        rope_local_theta=local,
        sliding_window=size(data, "sliding_window", default=4096, origin=origin),
        sliding_layers=sliding_layers(data, L, size({"p": pattern}, "p", origin=origin), origin),
        attn_softcap=None,  # transformers' Gemma 3 ignores attn_logit_softcapping: so does the traced model
        logit_softcap=optional_positive(data, "final_logit_softcapping", origin),
    )


def sources(cfg: ModelConfig, data: dict):
    return plus_one(hf_layers(cfg, data, hf_qk_norm, hf_sandwich))


def gguf_fields(meta: dict, tensors: dict, fields: dict, origin: str) -> dict:
    out = gguf_caps(meta, "gemma3", gguf_gemma_fields(tensors, dict(fields, qk_norm="head")), origin)
    out["attn_softcap"] = None  # as transformers' Gemma 3, which the GGUF files are checked against
    out["rope_local_theta"] = real(meta, "gemma3.rope.freq_base_swa", origin, 10_000.0)
    return dict(out, **sliding_fields(meta, "gemma3", fields["layers"], origin, default_pattern=6))


def gguf_sources(cfg: ModelConfig) -> dict[str, tuple[str, str]]:
    return gguf_layers(cfg, gguf_qk_norm, gguf_sandwich)


FAMILY = Family(
    name="gemma3",
    summary="×√E, GeGLU, sandwich norms, q/k norm, 5 of 6 layers sliding with their own RoPE base",
    hf_type="gemma3_text",
    hf_config=config,
    hf_sources=sources,
    example={"model_type": "gemma3_text", **LLAMA_EXAMPLE, "sliding_window": 4},
    refuses=(Refusal("rope_scaling", {"rope_type": "proportional"}, "rotary scaling 'proportional' is not supported"),),
    stages=("qk_norm", "attn_out_norm", "ffn_out_norm"),
    parameters=(
        "params.layers.{l}.attn.q_norm.weight",
        "params.layers.{l}.attn.k_norm.weight",
        "params.layers.{l}.ln_attn_out.weight",
        "params.layers.{l}.ln_ffn_out.weight",
    ),
    gguf_arch="gemma3",
    gguf_fields=gguf_fields,
    gguf_sources=gguf_sources,
    # attn_logit_softcapping is read and set aside, as transformers' Gemma 3 does
    gguf_keys=(
        "attn_logit_softcapping",
        "final_logit_softcapping",
        "rope.freq_base_swa",
        "attention.sliding_window",
        "attention.sliding_window_pattern",
    ),
    fields=FIELDS,
)
