"""Every parameter of a model and its shape from its ModelConfig alone, without building it: what the
counts, the memory budget and the cost figures read, dense and mixture-of-experts alike."""

from __future__ import annotations

import math


def parameter_shapes(cfg) -> dict[str, tuple[int, ...]]:
    """Every parameter's public name and shape, without building the model (for counts and budgets)."""
    E, V = cfg.E, cfg.V
    shapes: dict[str, tuple[int, ...]] = {"params.embed.tok": (V, E)}
    if cfg.positions == "learned":
        shapes["params.embed.pos"] = (cfg.max_positions, E)
    if cfg.segments:
        shapes["params.embed.seg"] = (cfg.segments, E)
    if cfg.embed_norm:
        shapes.update(_norm_shapes(cfg, "params.embed.ln"))
    for l in range(cfg.layers):
        shapes.update(_layer_shapes(cfg, f"params.layers.{l}"))
    if cfg.final_norm:
        shapes.update(_norm_shapes(cfg, "params.ln_final"))
    if cfg.mlm_head:
        shapes |= {"params.mlm.W_t": (E, E), "params.mlm.b_t": (E,)}
        shapes.update(_norm_shapes(cfg, "params.mlm.ln"))
    if not cfg.tie_embeddings:
        shapes["params.unembed.W_u"] = (E, V)
    if cfg.unembed_bias:
        shapes["params.unembed.b_u"] = (V,)
    return shapes


def _norm_shapes(cfg, prefix: str, width: int | None = None) -> dict[str, tuple[int, ...]]:
    n = cfg.E if width is None else width
    out = {f"{prefix}.weight": (n,)}
    if cfg.norm == "layernorm":
        out[f"{prefix}.bias"] = (n,)
    return out


def _layer_shapes(cfg, p: str) -> dict[str, tuple[int, ...]]:
    E, D, H, Hkv, Dv, F = cfg.E, cfg.D, cfg.H, cfg.H_kv, cfg.D_v, cfg.F
    shapes: dict[str, tuple[int, ...]] = {}
    if cfg.pre_norms or cfg.post_norms:
        shapes.update(_norm_shapes(cfg, f"{p}.ln_attn"))
    shapes[f"{p}.attn.W_q"] = (E, H * D)
    shapes[f"{p}.attn.W_k"] = (E, Hkv * D)
    shapes[f"{p}.attn.W_v"] = (E, Hkv * Dv)
    if not cfg.unfactored_value:
        shapes[f"{p}.attn.W_o"] = (H * Dv, E)
    if cfg.bias:
        shapes[f"{p}.attn.b_q"] = (H * D,)
        shapes[f"{p}.attn.b_k"] = (Hkv * D,)
        shapes[f"{p}.attn.b_v"] = (Hkv * Dv,)
        if not cfg.unfactored_value:
            shapes[f"{p}.attn.b_o"] = (E,)
    if cfg.qk_norm != "none":
        shapes[f"{p}.attn.q_norm.weight"] = (cfg.qk_norm_width(H),)
        shapes[f"{p}.attn.k_norm.weight"] = (cfg.qk_norm_width(Hkv),)
    if cfg.out_norms:
        shapes.update(_norm_shapes(cfg, f"{p}.ln_attn_out"))
    if cfg.pre_norms or cfg.post_norms:
        shapes.update(_norm_shapes(cfg, f"{p}.ln_ffn"))
    layer = int(p.rsplit(".", 1)[-1])
    shapes.update(_moe_shapes(cfg, p) if cfg.is_moe(layer) else _ffn_shapes(cfg, f"{p}.ffn", F, cfg.bias))
    if cfg.out_norms:
        shapes.update(_norm_shapes(cfg, f"{p}.ln_ffn_out"))
    return shapes


def _ffn_shapes(cfg, p: str, F: int, bias: bool) -> dict[str, tuple[int, ...]]:
    E = cfg.E
    shapes = {f"{p}.W_in": (E, F)}
    if cfg.gated:
        shapes[f"{p}.W_gate"] = (E, F)
    shapes[f"{p}.W_out"] = (F, E)
    if bias:
        if cfg.gated:
            shapes[f"{p}.b_gate"] = (F,)
        shapes[f"{p}.b_in"] = (F,)
        shapes[f"{p}.b_out"] = (E,)
    return shapes


def _moe_shapes(cfg, p: str) -> dict[str, tuple[int, ...]]:
    """The router, the X experts stacked (no biases), and Qwen-MoE's shared expert and its gate."""
    E, X, Fx = cfg.E, cfg.experts, cfg.F_x
    shapes = {f"{p}.ffn.W_router": (E, X)}
    shapes.update({f"{p}.ffn.experts{k}": (X, *s) for k, s in _ffn_shapes(cfg, "", Fx, False).items()})
    if cfg.shared_expert_dim is not None:
        shapes.update(
            {f"{p}.ffn.shared{k}": (1, *s) for k, s in _ffn_shapes(cfg, "", cfg.shared_expert_dim, False).items()}
        )
        shapes[f"{p}.ffn.w_shared_gate"] = (E, 1)
    return shapes


def active_parameter_count(cfg) -> int:
    """The parameters one token computes with: every one but the X − K experts its router passes over in
    each MoE layer (equal to parameter_count for a dense model)."""
    if not cfg.moe:
        return cfg.parameter_count()
    one_expert = sum(math.prod(s) for s in _ffn_shapes(cfg, "", cfg.F_x, False).values())
    moe_layers = sum(cfg.is_moe(l) for l in range(cfg.layers))
    return cfg.parameter_count() - moe_layers * (cfg.experts - cfg.experts_per_token) * one_expert
