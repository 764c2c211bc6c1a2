"""The arithmetic the hover explanations write out, shared by explorer/present/explain.py (the note's
stages) and explain_arch.py (what real families add): a row times a weight column, RoPE's rotation, a
LayerNorm or RMSNorm of a row, and the FFN's activations."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from explorer import names
from explorer.present.explain_maps import kv_head, stored
from explorer.present.hover_format import dot_terms, fmt, sub, term
from explorer.present.hover_numbers import adding_up


class Norm(NamedTuple):
    """A norm as the explanation needs it: its kind (layernorm, rmsnorm), ε, γ and β (None: no shift)."""

    kind: str
    eps: float
    gamma: np.ndarray
    beta: np.ndarray | None


def matmul_text(
    x: np.ndarray | None, W: np.ndarray | None, col: int, xs: str, Ws: str, value: float, bias=None, bias_s=""
):
    """``x₂ · W_q[:, 5] + b_q[5] = Σ… = value``: the row vector times one column of the (in, out) weight."""
    text = f"{xs} · {Ws}[:, {col}]"
    b = float(bias[col]) if bias is not None else None
    if bias is not None:
        text += f" + {bias_s}[{col}]"
    printed = fmt(value)
    if x is not None and W is not None:
        terms, printed = dot_terms(x.astype(np.float64), W[:, col].astype(np.float64), value, b)
        if terms:
            text += f" = {terms}"
        elif b is not None:
            text += f" ({bias_s}[{col}] = {fmt(b)})"
    return f"{text} = {printed}"


def rope_angle(trace, layer: int, row: int, i: int, pair: int, D: int) -> tuple[float, str]:
    """The angle position i turns pair ``pair`` by, and how it is written: i·θ^(−2·pair/D), or with a rotary
    scaling the traced angle i·ω[pair] (``rope_angles``: the scaled frequency is not a power of θ)."""
    cfg = trace.config
    scaling = cfg.rope_scaling_of(layer)
    angles = stored(trace, names.attn(layer, "rope_angles")) if scaling is not None else None
    if angles is not None:  # row 1 of the angles holds the frequencies themselves (position 1)
        omega = float(angles[row, 1, pair]) if angles.shape[1] > 1 else 0.0
        return float(angles[row, i, pair]), f"θ = {i}·ω[{pair}], ω[{pair}] = {omega:.6g} ({scaling.kind} scaling)"
    return i * cfg.rope_theta ** (-2.0 * pair / D), f"θ = {i}·{cfg.rope_theta:g}^(−{2 * pair}/{D})"


def rotated(letter: str):
    """RoPE rotates the pair (j, j + D/2) of q (or k) at position i by the angle i·θ^(−2j/D) ("rotate half");
    yarn and longrope scale cos and sin by an attention factor f."""

    def handler(trace, layer, head, row, i, j, value, w):
        source = stored(trace, names.attn(layer, letter))
        if source is None:
            return f"RoPE({letter}{sub(i)})[{j}] = {fmt(value)} ({w['after RoPE']})"
        h = head if letter == "q" else kv_head(trace, head)
        vec = source[row, h, i].astype(np.float64)
        D = vec.shape[0]
        half = D // 2
        angle, how = rope_angle(trace, layer, row, i, j % half, D)
        scaling = trace.config.rope_scaling_of(layer)
        f = 1.0 if scaling is None else scaling.attention_factor
        other, sign = (j + half, -1.0) if j < half else (j - half, 1.0)  # q̃[j] = q[j]·cos ∓ q[j ± D/2]·sin
        (a, t, b), printed = adding_up(
            [float(vec[j]), angle, float(vec[other])],
            lambda v: f * (v[0] * math.cos(v[1]) + sign * v[2] * math.sin(v[1])),
            value,
            fmt,
        )
        s = "−" if sign < 0 else "+"
        x = f"{letter}{sub(i)}"
        formula = f"{x}[{j}]·cos(θ) {s} {x}[{other}]·sin(θ)"
        numbers = f"{term(a)}·cos({t}) {s} {term(b)}·sin({t})"
        if f != 1.0:
            formula, numbers = f"{f:.6g}·({formula})", f"{f:.6g}·({numbers})"
        return f"RoPE({x})[{j}] = {formula}, {how}; {numbers} = {printed}"

    return handler


def angle_of(trace, layer, head, row, i, j, value, w):
    """rope_angles[i, d]: position i times the frequency of dimension d."""
    D = trace[names.attn(layer, "rope_angles")].shape[-1]
    angle, how = rope_angle(trace, layer, row, i, j % (D // 2), D)
    return f"{how} = {fmt(angle)}"


def norm_text(norm: Norm, vec: np.ndarray, j: int, value: float, xs: str, w) -> str:
    """``LayerNorm: μ = … ; (x[j] − μ) / √(σ² + ε) · γ[j] + β[j] = …`` (or RMSNorm's) with the row's numbers."""
    kind, eps, gamma, beta = norm
    vec = vec.astype(np.float64)
    eps_s = f"{eps:g}".replace("-", "−")
    E = vec.shape[0]
    if kind == "rmsnorm":
        ms = float(np.mean(vec**2))
        (xj, ms_s, g), printed = adding_up(
            [float(vec[j]), ms, float(gamma[j])], lambda v: v[0] / math.sqrt(v[1] + eps) * v[2], value, fmt
        )
        return (
            f"RMSNorm: {w['mean']}({xs}²) = {ms_s} ({E} {w['dims']}); "
            f"{xs}[{j}] / √({w['mean']}({xs}²) + ε) · γ[{j}] = {xj} / √({ms_s} + {eps_s}) · {term(g)} = {printed}"
        )
    mean, var = float(vec.mean()), float(vec.var())
    b = float(beta[j]) if beta is not None else 0.0
    (xj, m, v2, g, bb), printed = adding_up(
        [float(vec[j]), mean, var, float(gamma[j]), b],
        lambda v: (v[0] - v[1]) / math.sqrt(v[2] + eps) * v[3] + v[4],
        value,
        fmt,
    )
    return (
        f"LayerNorm: μ = {w['mean']}({xs}) = {m}, σ² = {w['variance']}({xs}) = {v2} ({E} {w['dims']}); "
        f"({xs}[{j}] − μ) / √(σ² + ε) · γ[{j}] + β[{j}] = ({xj} − {term(m)}) / √({v2} + {eps_s}) · {term(g)} + "
        f"{term(bb)} = {printed}"
    )


def gelu(z: float) -> float:
    return 0.5 * z * (1.0 + math.erf(z / math.sqrt(2.0)))


def gelu_tanh(z: float) -> float:
    return 0.5 * z * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044715 * z**3)))


def silu(z: float) -> float:
    return z / (1.0 + math.exp(-z)) if z > -700 else 0.0
