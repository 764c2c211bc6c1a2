"""Hovers of a mixture of experts (Mixtral, OLMoE, Qwen-MoE): how the router scored an expert, its probability,
which experts a token chose and with what weight, and the weighted sum that is the FFN's output. Each chains
from the numbers the previous stage shows, as ``explain.py`` does; ``arch_handler`` hands them out."""

from __future__ import annotations

import math

import numpy as np

from explorer.present.explain_maps import slot_of, stored
from explorer.present.explain_math import matmul_text
from explorer.present.hover_format import fmt, sub, term
from explorer.present.hover_numbers import adding_up


def _router_logits(trace, layer, head, row, i, j, value, w):
    x = stored(trace, f"layers.{layer}.ffn.in")
    W = stored(trace, f"params.layers.{layer}.ffn.W_router")
    return matmul_text(None if x is None else x[row, i], W, j, f"x{sub(i)}", "W_router", value)


def _router_probs(trace, layer, head, row, i, j, value, w):
    """p = e^(z_j − max) / Σₑ e^(zₑ − max): the softmax over the experts, from the router's scores."""
    z = stored(trace, f"layers.{layer}.ffn.router_logits")
    if z is None:
        return ""
    zrow = z[row, i].astype(np.float64)
    top = float(zrow.max())
    numer, total = math.exp(float(zrow[j]) - top), float(np.exp(zrow - top).sum())
    (num_s, den_s), printed = adding_up([numer, total], lambda v: v[0] / v[1], value, fmt)
    chosen = stored(trace, f"layers.{layer}.ffn.experts_chosen")
    runs = "" if chosen is None else (" (✓)" if j in chosen[row, i].tolist() else " (✗)")  # the token runs it, or not
    return f"e^(z{sub(i)}[{j}] − max) / Σₑ e^(z{sub(i)}[e] − max) = {num_s} / {den_s} = {printed}{runs}"


def _experts_chosen(trace, layer, head, row, i, j, value, w):
    probs = stored(trace, f"layers.{layer}.ffn.router_probs")
    e = int(value)
    p = "" if probs is None else f": p = {fmt(float(probs[row, i, e]))}"
    return f"#{j + 1} → expert {e}{p}"


def _expert_weights(trace, layer, head, row, i, j, value, w):
    """A chosen expert's weight: its probability, divided by the K chosen ones' sum where the model does so."""
    probs, chosen = (
        stored(trace, f"layers.{layer}.ffn.router_probs"),
        stored(trace, f"layers.{layer}.ffn.experts_chosen"),
    )
    if probs is None or chosen is None:
        return ""
    p = [float(probs[row, i, e]) for e in chosen[row, i].tolist()]
    e = int(chosen[row, i, j])
    if not trace.config.norm_topk:
        return f"p{sub(i)}[{e}] = {fmt(value)}"
    shown, printed = adding_up(p, lambda v: v[j] / sum(v), value, fmt)
    return f"p{sub(i)}[{e}] / Σ chosen p = {shown[j]} / ({' + '.join(shown)}) = {printed}"


def _expert_out(trace, layer, head, row, i, j, value, w):
    chosen = stored(trace, f"layers.{layer}.ffn.experts_chosen")
    slot = slot_of(trace, f"layers.{layer}.ffn.expert_out", head)
    e = "?" if chosen is None else int(chosen[row, i, slot])
    return f"expert {e} (#{slot + 1}) on x{sub(i)}: [{j}] = {fmt(value)}"


def _shared_gate(trace, layer, head, row, i, j, value, w):
    x = stored(trace, f"layers.{layer}.ffn.in")
    g = stored(trace, f"params.layers.{layer}.ffn.w_shared_gate")
    if x is None or g is None:
        return ""
    s = float(x[row, i].astype(np.float64) @ g[:, 0].astype(np.float64))
    (s_s,), printed = adding_up([s], lambda v: 1 / (1 + math.exp(-v[0])), value, fmt)
    return f"σ(x{sub(i)} · w_shared_gate) = 1 / (1 + e^(−{term(s_s)})) = {printed}"


def _moe_out(trace, layer, head, row, i, j, value, w):
    """Σⱼ wⱼ · outⱼ[j] (+ g · shared[j]): the FFN's output as the weighted sum of the chosen experts."""
    if not trace.config.is_moe(layer):
        return ""
    weights, outs = stored(trace, f"layers.{layer}.ffn.expert_weights"), stored(trace, f"layers.{layer}.ffn.expert_out")
    if weights is None or outs is None:
        return ""
    pairs = [(float(weights[row, i, k]), float(outs[row, k, i, j])) for k in range(weights.shape[-1])]
    gate, shared = stored(trace, f"layers.{layer}.ffn.shared_gate"), stored(trace, f"layers.{layer}.ffn.shared_out")
    if gate is not None and shared is not None:
        pairs.append((float(gate[row, i, 0]), float(shared[row, i, j])))
    flat = [v for pair in pairs for v in pair]
    shown, printed = adding_up(flat, lambda v: sum(v[2 * k] * v[2 * k + 1] for k in range(len(pairs))), value, fmt)
    terms = " + ".join(f"{shown[2 * k]}·{term(shown[2 * k + 1])}" for k in range(len(pairs)))
    return f"Σ w · expert{sub(i)}[{j}] = {terms} = {printed}"


HANDLERS = {
    "layers.{l}.ffn.router_logits": _router_logits,
    "layers.{l}.ffn.router_probs": _router_probs,
    "layers.{l}.ffn.experts_chosen": _experts_chosen,
    "layers.{l}.ffn.expert_weights": _expert_weights,
    "layers.{l}.ffn.expert_out": _expert_out,
    "layers.{l}.ffn.shared_gate": _shared_gate,
    "layers.{l}.ffn.out": _moe_out,
}
