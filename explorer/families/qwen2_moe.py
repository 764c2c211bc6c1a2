"""Qwen-MoE (Qwen1.5-MoE, Qwen2-MoE): Qwen 2 (biases on q, k, v where qkv_bias says) whose FFN is a mixture
of experts with one shared expert every token runs behind a sigmoid gate; the layers mlp_only_layers names,
and those decoder_sparse_step skips, keep a dense FFN."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families.family import Family, Refusal
from explorer.families.field_table import implemented, inert, table_of
from explorer.families.gguf_fields import size as gguf_size
from explorer.families.hf_fields import bool_field, make_config, size, sliding_layers
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import gguf_layers, llama_fields, llama_sources
from explorer.families.moe_fields import (
    GGUF_MOE_KEYS,
    MOE_FIELDS,
    expert_fields,
    gguf_expert_fields,
    gguf_experts,
    hf_experts,
)
from explorer.families.qwen2 import FIELDS as QWEN2_FIELDS
from explorer.families.qwen2 import _gguf_biases
from explorer.families.source import Source
from explorer.util.schema import Where, listing, whole

FIELDS = table_of(
    QWEN2_FIELDS,
    MOE_FIELDS,
    implemented("qkv_bias", why="biases on q, k and v (o and the FFNs have none)"),
    inert("Qwen-MoE's biases follow qkv_bias; transformers reads neither of these", "attention_bias", "mlp_bias"),
    implemented("num_experts", why="X: the experts of each MoE layer (0: every layer dense)"),
    implemented("norm_topk_prob", why="whether the K chosen probabilities are divided by their sum"),
    implemented("moe_intermediate_size", why="F_x: one expert's width"),
    implemented("shared_expert_intermediate_size", why="F_s: the shared expert's width"),
    implemented("intermediate_size", why="F: the width of a dense layer's FFN"),
    implemented(
        "decoder_sparse_step",
        "mlp_only_layers",
        why="the layers that keep a dense FFN: those mlp_only_layers lists, and each whose number + 1 is not a "
        "multiple of decoder_sparse_step",
    ),
)


def window(data: dict, origin: str, L: int) -> tuple[int, tuple[int, ...]] | None:
    """As transformers' Qwen2MoeConfig: no window unless use_sliding_window; then the layers layer_types calls
    sliding, else every other layer (0, 2, …) below max_window_layers."""
    if not data.get("use_sliding_window") or not data.get("sliding_window"):
        return None
    if isinstance(data.get("layer_types"), list):
        layers = sliding_layers(data, L, None, origin)
    else:
        below = whole(data.get("max_window_layers", 28), "max_window_layers", Where(origin, ModelLoadError))
        layers = tuple(l for l in range(L) if (l + 1) % 2 and l < below)
    return size(data, "sliding_window", origin=origin), layers


def dense_layers(data: dict, origin: str, L: int) -> tuple[int, ...]:
    where = Where(origin, ModelLoadError)
    only = listing(data.get("mlp_only_layers") or [], "mlp_only_layers", where, whole, 4096)
    step = size(data, "decoder_sparse_step", default=1, origin=origin)
    return tuple(l for l in range(L) if l in only or (l + 1) % step)


def biases(data: dict, origin: str) -> frozenset[str]:
    return frozenset("qkv") if bool_field(data, "qkv_bias", True, origin) else frozenset()


def config(data: dict, origin: str) -> ModelConfig:
    fields = llama_fields(data, origin, biases(data, origin), window)
    L = fields["layers"]
    X = whole(data.get("num_experts", 60), "num_experts", Where(origin, ModelLoadError), lo=0)
    dense = dense_layers(data, origin, L) if X else tuple(range(L))
    if len(dense) == L:  # no layer routes: a plain Qwen 2
        return make_config(origin, **fields)
    return make_config(
        origin,
        **fields,
        **expert_fields(data, origin, "num_experts", (60, 4), norm_topk=False),
        expert_dim=size(data, "moe_intermediate_size", default=1408, origin=origin),
        shared_expert_dim=size(data, "shared_expert_intermediate_size", default=5632, origin=origin),
        dense_layers=dense,
    )


def sources(cfg: ModelConfig, data: dict) -> dict[str, Source]:
    out = hf_experts(cfg, llama_sources(cfg, biases(data, "config.json")))
    for l in range(cfg.layers):
        if cfg.is_moe(l):
            m, p = f"layers.{l}.mlp", f"layers.{l}.ffn"
            out |= {
                f"{p}.shared.W_gate": Source(f"{m}.shared_expert.gate_proj.weight", "experts", parts=1),
                f"{p}.shared.W_in": Source(f"{m}.shared_expert.up_proj.weight", "experts", parts=1),
                f"{p}.shared.W_out": Source(f"{m}.shared_expert.down_proj.weight", "experts", parts=1),
                f"{p}.w_shared_gate": Source(f"{m}.shared_expert_gate.weight", "T"),
            }
    return out


def gguf_fields(meta: dict, tensors: dict, fields: dict, origin: str) -> dict:
    """llama.cpp's qwen2moe: every layer a mixture (it has no dense layers) of experts of width
    expert_feed_forward_length (else feed_forward_length ÷ K, as llama.cpp), one shared expert of width
    expert_shared_feed_forward_length (else feed_forward_length) behind its gate, q/k/v biases where the file
    has them, the chosen probabilities kept as they are (llama.cpp's graph never renormalises them)."""
    experts = gguf_expert_fields(meta, "qwen2moe", origin, norm_topk=False)
    if not experts:
        raise ModelLoadError(f"{origin}: metadata qwen2moe.expert_count is missing (a Qwen-MoE file has experts)")
    shared = meta.get("qwen2moe.expert_shared_count", 1)
    if shared not in (0, 1):  # llama.cpp's qwen2moe graph runs exactly one shared expert
        raise ModelLoadError(f"{origin}: metadata qwen2moe.expert_shared_count = {str(shared)[:40]} is not supported")
    F, K = fields["ffn_dim"], experts["experts_per_token"]
    return dict(
        fields,
        **experts,
        bias=any(n.endswith(".bias") for n in tensors),
        expert_dim=gguf_size(meta, "qwen2moe.expert_feed_forward_length", origin, default=max(F // K, 1)),
        shared_expert_dim=gguf_size(meta, "qwen2moe.expert_shared_feed_forward_length", origin, default=F),
        family="qwen2_moe",
    )


def _gguf_shared(b: str, p: str) -> dict[str, tuple[str, str]]:
    """The shared expert (row 0 of our one-expert stack) and its gate."""
    return {
        f"{p}.ffn.shared.W_gate": (f"{b}.ffn_gate_shexp.weight", "T0"),
        f"{p}.ffn.shared.W_in": (f"{b}.ffn_up_shexp.weight", "T0"),
        f"{p}.ffn.shared.W_out": (f"{b}.ffn_down_shexp.weight", "T0"),
        f"{p}.ffn.w_shared_gate": (f"{b}.ffn_gate_inp_shexp.weight", "col"),
    }


def gguf_sources(cfg: ModelConfig) -> dict[str, tuple[str, str]]:
    out = gguf_experts(cfg, gguf_layers(cfg, _gguf_biases) if cfg.bias else gguf_layers(cfg))
    for l in range(cfg.layers):
        out |= _gguf_shared(f"blk.{l}", f"layers.{l}")
    return out


FAMILY = Family(
    name="qwen2_moe",
    summary="Qwen 2 with a mixture of experts and a gated shared expert; some layers dense",
    hf_type="qwen2_moe",
    hf_config=config,
    hf_sources=sources,
    example={
        "model_type": "qwen2_moe",
        **LLAMA_EXAMPLE,
        "num_experts": 4,
        "num_experts_per_tok": 2,
        "moe_intermediate_size": 8,
        "shared_expert_intermediate_size": 12,
    },
    refuses=(Refusal("hidden_act", "relu", "hidden_act 'relu' is not supported"),),
    stages=("router", "experts"),
    parameters=(
        "params.layers.{l}.ffn.W_router",
        "params.layers.{l}.ffn.experts.W_in",
        "params.layers.{l}.ffn.experts.W_gate",
        "params.layers.{l}.ffn.experts.W_out",
        "params.layers.{l}.ffn.shared.W_in",
        "params.layers.{l}.ffn.shared.W_gate",
        "params.layers.{l}.ffn.shared.W_out",
        "params.layers.{l}.ffn.w_shared_gate",
    ),
    fields=FIELDS,
    biases=None,
    gguf_arch="qwen2moe",
    gguf_fields=gguf_fields,
    gguf_sources=gguf_sources,
    gguf_biases=True,
    gguf_keys=(
        *GGUF_MOE_KEYS,
        "expert_feed_forward_length",
        "expert_shared_feed_forward_length",
        "expert_shared_count",
    ),
)
