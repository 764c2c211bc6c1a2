"""Phi-3: Llama with W_q, W_k, W_v stored as one qkv_proj and W_gate, W_in as one gate_up_proj (rows
stacked), and a sliding window over every layer."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.families.family import Family, Refusal
from explorer.families.field_table import DROPOUT, implemented, inert, table_of
from explorer.families.gguf_fields import sliding_fields
from explorer.families.hf_fields import make_config, size
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import LLAMA_FIELDS, gguf_layers, hf_layers, llama_fields
from explorer.families.source import Source

FIELDS = table_of(
    LLAMA_FIELDS,
    implemented("sliding_window"),
    implemented("partial_rotary_factor", why="Phi-3's RoPE turns the first R = D·factor dimensions, as transformers'"),
    inert(DROPOUT, "embd_pdrop", "resid_pdrop"),
    implemented(
        "original_max_position_embeddings",
        why="LongRoPE's trained context (default 4096): preferred to rope_scaling's, as transformers' Phi-3 does",
    ),
)


def config(data: dict, origin: str) -> ModelConfig:
    fields = llama_fields(data, origin)
    window = data.get("sliding_window")
    if window is None:
        return make_config(origin, **fields)
    return make_config(
        origin,
        **fields,
        sliding_window=size(data, "sliding_window", origin=origin),
        sliding_layers=tuple(range(fields["layers"])),
    )


def _fused(cfg: ModelConfig):
    def change(m: str, p: str, out: dict[str, Source]) -> None:
        q, kv, F = cfg.H * cfg.D, cfg.H_kv * cfg.D, cfg.F
        total = q + 2 * kv
        for x, (a, b) in zip("qkv", ((0, q), (q, q + kv), (q + kv, total))):
            out[f"{p}.attn.W_{x}"] = Source(f"{m}.self_attn.qkv_proj.weight", "rowsT", start=a, stop=b, total=total)
        out[f"{p}.ffn.W_gate"] = Source(f"{m}.mlp.gate_up_proj.weight", "rowsT", start=0, stop=F, total=2 * F)
        out[f"{p}.ffn.W_in"] = Source(f"{m}.mlp.gate_up_proj.weight", "rowsT", start=F, stop=2 * F, total=2 * F)

    return change


def sources(cfg: ModelConfig, data: dict):
    return hf_layers(cfg, data, _fused(cfg))


def gguf_fields(meta: dict, tensors: dict, fields: dict, origin: str) -> dict:
    return dict(fields, **sliding_fields(meta, "phi3", fields["layers"], origin))


def _gguf_fused(cfg: ModelConfig):
    def add(b: str, p: str) -> dict[str, tuple[str, str]]:
        q, kv, F = cfg.H * cfg.D, cfg.H_kv * cfg.D, cfg.F
        out = {
            f"{p}.attn.W_{x}": (f"{b}.attn_qkv.weight", f"rows:{s}:{e}")
            for x, (s, e) in zip("qkv", ((0, q), (q, q + kv), (q + kv, q + 2 * kv)))
        }
        out[f"{p}.ffn.W_gate"] = (f"{b}.ffn_up.weight", f"rows:0:{F}")
        out[f"{p}.ffn.W_in"] = (f"{b}.ffn_up.weight", f"rows:{F}:{2 * F}")
        return out

    return add


def gguf_sources(cfg: ModelConfig) -> dict[str, tuple[str, str]]:
    return gguf_layers(cfg, _gguf_fused(cfg))


FAMILY = Family(
    name="phi3",
    summary="fused qkv and gate·up projections, a sliding window",
    hf_type="phi3",
    hf_config=config,
    hf_sources=sources,
    example={"model_type": "phi3", **LLAMA_EXAMPLE},
    refuses=(Refusal("rope_scaling", {"rope_type": "proportional"}, "rotary scaling 'proportional' is not supported"),),
    gguf_arch="phi3",
    gguf_fields=gguf_fields,
    gguf_sources=gguf_sources,
    gguf_keys=("attention.sliding_window", "attention.sliding_window_pattern"),
    fields=FIELDS,
)
