"""OLMo 2: no norm before the sublayers, one after each (attention and FFN output norms), and an RMSNorm of
the queries and keys over all heads together."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.families.family import Family, Refusal
from explorer.families.field_table import implemented, table_of
from explorer.families.hf_fields import make_config
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import LLAMA_FIELDS, hf_layers, hf_qk_norm, llama_fields
from explorer.families.source import Source

FIELDS = table_of(LLAMA_FIELDS, implemented("attention_bias"))


def config(data: dict, origin: str) -> ModelConfig:
    return make_config(origin, **llama_fields(data, origin), norm_placement="output", qk_norm="all")


def _output_norms(m: str, p: str, out: dict[str, Source]) -> None:
    """No norm before the sublayers; post_attention_layernorm and post_feedforward_layernorm after them."""
    for name in (f"{p}.ln_attn.weight", f"{p}.ln_ffn.weight"):
        out.pop(name, None)
    out[f"{p}.ln_attn_out.weight"] = Source(f"{m}.post_attention_layernorm.weight")
    out[f"{p}.ln_ffn_out.weight"] = Source(f"{m}.post_feedforward_layernorm.weight")


def sources(cfg: ModelConfig, data: dict):
    return hf_layers(cfg, data, hf_qk_norm, _output_norms)


FAMILY = Family(
    name="olmo2",
    summary="norms after attention and after the FFN, q/k norm over all heads",
    hf_type="olmo2",
    hf_config=config,
    hf_sources=sources,
    example={"model_type": "olmo2", **LLAMA_EXAMPLE},
    refuses=(Refusal("rope_scaling", {"rope_type": "proportional"}, "rotary scaling 'proportional' is not supported"),),
    stages=("qk_norm", "attn_out_norm", "ffn_out_norm"),
    parameters=(
        "params.layers.{l}.attn.q_norm.weight",
        "params.layers.{l}.attn.k_norm.weight",
        "params.layers.{l}.ln_attn_out.weight",
        "params.layers.{l}.ln_ffn_out.weight",
    ),
    fields=FIELDS,
)
