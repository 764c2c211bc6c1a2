"""How one cell (query i, key j) of a head's (C, C) map was made, up to the stage shown:
``q₂·k₁ = 3.21 → ÷√16 = 0.80 → softmax …``, with the trace's own numbers; and which stored tensors a
hover reads (rotated q and k for RoPE models, the key/value head a query head shares)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from explorer import names
from explorer.present.hover_format import dot_terms, fmt, sub, with_words
from explorer.present.hover_numbers import adding_up
from explorer.trace import Trace
from explorer.trace.layer_mask import allowed_block, layer_allowed


def stored(trace: Trace, name: str) -> np.ndarray | None:
    return trace[name] if name in trace.stored_names() else None


def uses_rope(trace: Trace, layer: int) -> bool:
    return trace.config.positions == "rope" and names.attn(layer, "q_rot") in trace.stored_names()


def qk_names(trace: Trace, layer: int) -> tuple[str, str]:
    """The q and k whose dot products are the scores (rotated ones for RoPE models)."""
    return names.qk(layer, "rope" if uses_rope(trace, layer) else "none")


def kv_head(trace: Trace, head: int) -> int:
    """The key/value head a query head reads (grouped-query attention shares one among H/H_kv heads)."""
    return names.kv_head_of(head, trace.config.H, trace.config.H_kv)


def slot_of(trace: Trace, name: str, head: int) -> int:
    """Which slice of a 4-axis tensor the head control shows: the query head, the key/value head it reads, or
    (a mixture's expert_out) the token's (head mod K)-th chosen expert."""
    axis = names.spec(name).labels[1]
    if axis == "K":
        return head % trace.config.experts_per_token
    return head if axis == "H" else kv_head(trace, head)


def block_input(layer: int) -> str:
    """What layer ``layer`` reads: the embeddings for the first layer, the previous block's output after."""
    return "embed.out" if layer == 0 else f"layers.{layer - 1}.out"


@dataclass
class _Cell:
    """The numbers of one cell's chain, in float64 from the stored q and k (the previous shown stage); the
    stored maps are the same numbers to float32 rounding."""

    trace: Trace
    layer: int
    head: int
    row: int
    i: int
    j: int
    allowed: bool  # key j is visible to query i
    empty: bool  # query i sees no key at all
    qv: np.ndarray | None  # q_i (D,)
    K: np.ndarray | None  # the keys of its key/value head (C, D)
    score: float  # q_i · k_j
    root: float  # √D, or 1 with scaling off
    cap: float | None = None  # Gemma 2's soft-cap c: the softmax reads c·tanh(scaled / c)

    @property
    def scaled(self) -> float:
        return self.score / self.root

    @property
    def capped(self) -> float:
        """What the mask and the softmax read: the scaled score, soft-capped when the model caps."""
        return self.scaled if self.cap is None else self.cap * math.tanh(self.scaled / self.cap)


def layer_mask(trace: Trace, layer: int) -> np.ndarray | None:
    """The (B, C, C) mask this layer applied (a sliding layer's is narrower than the run's), or None."""
    mask = stored(trace, "mask")
    return None if mask is None else layer_allowed(mask, trace.config, layer)


def layer_mask_row(trace: Trace, layer: int, row: int, i: int) -> np.ndarray | None:
    """(C,) the keys query i of sentence ``row`` may see in this layer, or None: one row of ``layer_mask``,
    read without the layer's whole (C, C) mask (a long text's hover)."""
    mask = stored(trace, "mask")
    return None if mask is None else allowed_block(mask, trace.config, layer, row, (i, i + 1), (0, mask.shape[-1]))[0]


def _cell(trace: Trace, layer: int, head: int, row: int, i: int, j: int) -> _Cell:
    mask = layer_mask_row(trace, layer, row, i)
    masked = None if mask is not None else trace.map_row(layer, "masked", row, head, i)
    allowed = bool(mask[j]) if mask is not None else bool(np.isfinite(masked[j]))
    empty = mask is not None and not bool(mask.any())
    qn, kn = qk_names(trace, layer)
    q, k = stored(trace, qn), stored(trace, kn)
    D = q.shape[-1] if q is not None else trace.config.D
    qv = q[row, head, i].astype(np.float64) if q is not None else None
    K = k[row, kv_head(trace, head)].astype(np.float64) if k is not None else None  # (C, D)
    score = (
        float(qv @ K[j]) if qv is not None and K is not None else float(trace.map_row(layer, "scores", row, head, i)[j])
    )
    score_dim = trace.config.score_dim if trace.config.query_scalar is not None else D
    root = math.sqrt(score_dim) if trace.options.scale else 1.0
    return _Cell(trace, layer, head, row, i, j, allowed, empty, qv, K, score, root, trace.config.attn_softcap)


def _softmax_text(c: _Cell, scaled_s: str, w: Mapping[str, str]) -> tuple[str, str]:
    """The softmax step of a visible cell, and the score it reads (scaled, or capped) printed as precisely as
    e^(s̃) needs."""
    trace, i, j = c.trace, c.i, c.j
    mask = layer_mask_row(trace, c.layer, c.row, i)
    weight = float(trace.map_row(c.layer, "weights", c.row, c.head, i)[j])
    seen_mask = mask if mask is not None else np.isfinite(trace.map_row(c.layer, "masked", c.row, c.head, i))
    if c.qv is not None and c.K is not None:
        seen = (c.K[seen_mask] @ c.qv) / c.root
    else:
        seen = trace.map_row(c.layer, "scaled", c.row, c.head, i)[seen_mask].astype(np.float64)
    if c.cap is not None:
        seen = c.cap * np.tanh(seen / c.cap)
    if not seen.size:
        return "", scaled_s
    if np.abs(seen).max() <= 80:  # e^s stays a readable number
        numer, denom = math.exp(c.capped), float(np.exp(seen).sum())
        (num_s, den_s), w_s = adding_up([numer, denom], lambda v: v[0] / v[1], weight, fmt)
        # e^(s̃) must give the printed numerator: print s̃ (and so the scaled cell) precisely enough
        (scaled_s,), num_s = adding_up([c.capped], lambda v: math.exp(v[0]), num_s, fmt)
        return f" → {w['softmax']}: e^({scaled_s}) / Σₖ e^(s̃{sub(i)}ₖ) = {num_s} / {den_s} = {w_s}", scaled_s
    # e^80 is a 35-digit number: subtract the row's largest score first (same result)
    top = float(seen.max())
    numer, denom = math.exp(c.capped - top), float(np.exp(seen - top).sum())
    (num_s, den_s), w_s = adding_up([numer, denom], lambda v: v[0] / v[1], weight, fmt)
    (shifted_s,), num_s = adding_up([c.capped - top], lambda v: math.exp(v[0]), num_s, fmt)
    return (
        f" → {w['softmax']}: e^(s̃{sub(i)}{sub(j)} − max) / Σₖ e^(s̃{sub(i)}ₖ − max) = e^({shifted_s}) / Σₖ … "
        f"= {num_s} / {den_s} = {w_s}"
    ), scaled_s


def explain_cell(
    trace: Trace, stage: str, layer: int, head: int, row: int, i: int, j: int, words: Mapping[str, str] | None = None
) -> str:
    """How cell (query i, key j) of a (C, C) stage of one head was made, up to that stage.

    ``stage`` is one of scores, scaled, masked, weights. Example for weights:
    ``q₂·k₁ = 3.21 → ÷√16 = 0.80 → softmax 0.31``; a blocked cell reads ``… → masked −∞ → softmax 0``.
    """
    w = with_words(words)
    upto = names.PAIRWISE_STAGES.index(stage)
    c = _cell(trace, layer, head, row, i, j)
    # Built from the last step back: each step's printed result is the next step's printed operand, so the
    # precision a later step needs decides how an earlier result is printed.
    score_s, capped_s, softmax_text = fmt(c.score), fmt(c.capped), ""
    if upto >= 3 and not c.empty and c.allowed:
        softmax_text, capped_s = _softmax_text(c, capped_s, w)
    if c.cap is not None and upto >= 2:  # Gemma 2: the soft-cap sits between ÷√D and the mask
        (scaled_s,), capped_s = adding_up([c.scaled], lambda v: c.cap * math.tanh(v[0] / c.cap), capped_s, fmt)
    else:
        scaled_s = fmt(c.scaled) if c.cap is not None else capped_s
    if upto >= 1 and trace.options.scale:
        (score_s,), scaled_s = adding_up([c.score], lambda v: v[0] / c.root, scaled_s, fmt)
    elif upto >= 1:
        score_s = scaled_s  # scaling off: the same number goes on
    return _cell_sentence(c, upto, score_s, scaled_s, softmax_text, w, capped_s)


def _cell_sentence(
    c: _Cell, upto: int, score_s: str, scaled_s: str, softmax_text: str, w: Mapping[str, str], capped_s: str = ""
) -> str:
    trace, i, j = c.trace, c.i, c.j
    rope = uses_rope(trace, c.layer)
    qs, ks = (f"q̃{sub(i)}", f"k̃{sub(j)}") if rope else (f"q{sub(i)}", f"k{sub(j)}")
    text = f"{qs}·{ks}"
    if c.qv is not None and c.K is not None:
        terms, score_s = dot_terms(c.qv, c.K[j], score_s)
        if terms:
            text += f" = {terms}"
    text += f" = {score_s}"
    if rope:
        text += f" ({w['after RoPE']})"
    if upto >= 1:
        if trace.options.scale:
            D = c.qv.shape[-1] if c.qv is not None else trace.config.D
            if trace.config.query_scalar is not None:  # Gemma 2/3: ÷ √query_pre_attn_scalar
                D = f"{trace.config.query_scalar:g}"
            text += f" → ÷√{D} = {scaled_s}"
        else:
            text += f" → ({w['scaling off']}) {score_s}"
    if upto >= 2 and c.cap is not None:
        text += f" → {c.cap:g}·tanh(·/{c.cap:g}) = {capped_s}"
    if upto >= 2 and not c.allowed:
        text += f" → {w['masked']} −∞"
    if upto >= 3:
        if c.empty:
            text += f" → {w['every key blocked']}: 0"
        elif not c.allowed:
            text += f" → {w['softmax']} 0"
        else:
            text += softmax_text
    return text
