"""Hovers of the stages real families add, and of the usual stages where a family computes them another way
(a post-norm block, a parallel block, the embedding × √E, an encoder's head, partial RoPE). Each chains from
the numbers the previous shown stage holds, like ``explorer/present/explain.py``, whose helpers it uses.

``arch_handler(config, pattern)`` gives the handler for a tensor of a model with this config, or None where
the usual one (explain.py's ``_HANDLERS``) is right.
"""

from __future__ import annotations

import math

import numpy as np

from explorer import names
from explorer.present.explain_maps import block_input, kv_head, stored
from explorer.present.explain_math import Norm, gelu, gelu_tanh, matmul_text, norm_text, rotated
from explorer.present.explain_moe import HANDLERS as MOE_HANDLERS
from explorer.present.hover_format import adding_up, fmt, sub, sum_text, term


def _norm_of(source: str, prefix: str, symbol: str, kind: str | None = None):
    """A norm's output from ``source`` with the parameters under ``prefix`` (a layer's pattern with {l})."""

    def handler(trace, layer, head, row, i, j, value, w):
        cfg = trace.config
        x = stored(trace, source.format(l=layer))
        gamma, beta = stored(trace, f"{prefix.format(l=layer)}.weight"), stored(trace, f"{prefix.format(l=layer)}.bias")
        if x is None or gamma is None:
            return ""
        return norm_text(
            Norm(kind or cfg.norm, float(cfg.norm_eps), gamma, beta), x[row, i], j, value, f"{symbol}{sub(i)}", w
        )

    return handler


def _same_as(source: str, symbol: str):
    """A stage that equals the previous one (no norm there in this placement)."""

    def handler(trace, layer, head, row, i, j, value, w):
        return f"{symbol}{sub(i)}[{j}] = {fmt(value)} ({w['no norm']})"

    return handler


def _plus(first: str | None, second: str, a_s: str, b_s: str):
    """first + second, entry by entry; ``first`` None: the block's input x."""

    def handler(trace, layer, head, row, i, j, value, w):
        source = block_input(layer) if first is None else first.format(l=layer)
        a, b = stored(trace, source), stored(trace, second.format(l=layer))
        if a is None or b is None:
            return ""
        return f"{a_s}{sub(i)}[{j}] + {b_s}{sub(i)}[{j}] = {sum_text(float(a[row, i, j]), float(b[row, i, j]), value)}"

    return handler


def _block_in(trace, layer, head, row, i, j, value, w):
    """A parallel block's FFN reads x, the block's input, through its norm."""
    return _norm_of(block_input(layer), "params.layers.{l}.ln_ffn", "x")(trace, layer, head, row, i, j, value, w)


def _segments(trace, layer, head, row, i, j, value, w):
    return f"“{trace.token_label(row, i)}”: {w['sentence']} {'AB'[int(value)] if int(value) in (0, 1) else int(value)}"


def _embed_seg(trace, layer, head, row, i, j, value, w):
    seg = stored(trace, "segments")
    s = int(seg[row, i]) if seg is not None else 0
    return f"S[{s}, {j}] ({w['sentence']} {'AB'[s] if s in (0, 1) else s}) = {fmt(value)}"


def _embed_sum(trace, layer, head, row, i, j, value, w):
    """tok (× √E) + seg + pos, the parts as the trace holds them."""
    cfg = trace.config
    parts = [("W", stored(trace, "embed.tok"))]
    if cfg.segments:
        parts.append(("S", stored(trace, "embed.seg")))
    parts.append(("P" if cfg.positions == "learned" else "PE", stored(trace, "embed.pos")))
    if any(a is None for _, a in parts):
        return ""
    numbers = [float(a[row, i, j]) for _, a in parts]
    root = math.sqrt(cfg.E) if cfg.embed_scale else 1.0
    ops, printed = adding_up(numbers, lambda v: v[0] * root + sum(v[1:]), value, fmt)
    scale = f"·√{cfg.E}" if cfg.embed_scale else ""
    names_s = " + ".join(f"{s}[·, {j}]" + (scale if k == 0 else "") for k, (s, _) in enumerate(parts))
    values_s = " + ".join(term(o) + (scale if k == 0 else "") for k, o in enumerate(ops))
    return f"{names_s} = {values_s} = {printed}"


def _qk_normed(letter: str):
    def handler(trace, layer, head, row, i, j, value, w):
        cfg = trace.config
        raw = stored(trace, names.attn(layer, letter))
        gamma = stored(trace, f"params.layers.{layer}.attn.{letter}_norm.weight")
        if raw is None or gamma is None:
            return ""
        h = head if letter == "q" else kv_head(trace, head)
        if cfg.qk_norm == "head":  # each head's D numbers on their own
            return norm_text(
                Norm("rmsnorm", float(cfg.norm_eps), gamma, None), raw[row, h, i], j, value, f"{letter}{sub(i)}", w
            )
        flat = raw[row, :, i].reshape(-1)  # (heads·D,): every head of the position together
        col = h * raw.shape[-1] + j
        return norm_text(
            Norm("rmsnorm", float(cfg.norm_eps), gamma, None), flat, col, value, f"[{letter}¹…]{sub(i)}", w
        )

    return handler


def _capped(trace, layer, head, row, i, j, value, w):
    c = trace.config.attn_softcap
    scaled = float(trace.map_row(layer, "scaled", row, head, i)[j])
    (x,), printed = adding_up([scaled], lambda v: c * math.tanh(v[0] / c), value, fmt)
    return f"{c:g}·tanh(s̃{sub(i)}{sub(j)} / {c:g}) = {c:g}·tanh({x} / {c:g}) = {printed}"


def _logits_capped(trace, layer, head, row, i, j, value, w):
    c = trace.config.logit_softcap
    raw = stored(trace, "logits.uncapped")
    if raw is None:
        return ""
    (x,), printed = adding_up([float(raw[row, i, j])], lambda v: c * math.tanh(v[0] / c), value, fmt)
    return f"{c:g}·tanh(z{sub(i)}[{j}] / {c:g}) = {c:g}·tanh({x} / {c:g}) = {printed}"


def _logits_from(source: str):
    """The unembedding of what the last stage before it holds (an encoder's head output)."""

    def handler(trace, layer, head, row, i, j, value, w):
        x = stored(trace, source)
        W = stored(trace, "params.unembed.W_u")
        symbol = "W_u"
        if W is None and stored(trace, "params.embed.tok") is not None:
            W, symbol = stored(trace, "params.embed.tok").T, "Wᵀ"
        b = stored(trace, "params.unembed.b_u")
        return matmul_text(None if x is None else x[row, i], W, j, f"h{sub(i)}", symbol, value, b, "b_u")

    return handler


def _mlm_hidden(trace, layer, head, row, i, j, value, w):
    x, W, b = stored(trace, "final.out"), stored(trace, "params.mlm.W_t"), stored(trace, "params.mlm.b_t")
    if x is None or W is None:
        return ""
    pre = float(x[row, i].astype(np.float64) @ W[:, j].astype(np.float64)) + (float(b[j]) if b is not None else 0.0)
    f = {"gelu": gelu, "gelu_tanh": gelu_tanh, "relu": lambda z: max(z, 0.0)}.get(trace.config.ffn_activation, gelu)
    (pre_s,), printed = adding_up([pre], lambda v: f(v[0]), value, fmt)
    return f"GELU(h{sub(i)} · W_t[:, {j}] + b_t[{j}]) = GELU({pre_s}) = {printed}"


def _geglu(trace, layer, head, row, i, j, value, w):
    x = stored(trace, f"layers.{layer}.ffn.in")
    W_in, W_g = stored(trace, f"params.layers.{layer}.ffn.W_in"), stored(trace, f"params.layers.{layer}.ffn.W_gate")
    if x is None or W_in is None or W_g is None:
        return ""
    xi = x[row, i].astype(np.float64)
    b_g, b_in = stored(trace, f"params.layers.{layer}.ffn.b_gate"), stored(trace, f"params.layers.{layer}.ffn.b_in")
    g = float(xi @ W_g[:, j].astype(np.float64)) + (float(b_g[j]) if b_g is not None else 0.0)
    up = float(xi @ W_in[:, j].astype(np.float64)) + (float(b_in[j]) if b_in is not None else 0.0)
    f = gelu if trace.config.ffn_activation == "gelu_gated" else gelu_tanh  # exact where the config says "gelu"
    (g_s, up_s), printed = adding_up([g, up], lambda v: f(v[0]) * v[1], value, fmt)
    return f"GELU(x{sub(i)}·W_gate[:, {j}]) · (x{sub(i)}·W_in[:, {j}]) = GELU({g_s}) · {term(up_s)} = {printed}"


def _rope(letter: str):
    """RoPE as real families apply it: to the normed q and k (q/k norm), to the first R dimensions only (GPT-NeoX;
    the others pass unchanged), with a local base in Gemma 3's sliding layers."""
    full = rotated(letter)

    def handler(trace, layer, head, row, i, j, value, w):
        cfg = trace.config
        if j >= cfg.R:
            return (
                f"RoPE({letter}{sub(i)})[{j}] = {letter}{sub(i)}[{j}] = {fmt(value)} ({w['unchanged'].format(R=cfg.R)})"
            )
        return full(
            _Turning(trace, cfg.replace(key_dim=cfg.R, rotary_dims=None, rope_theta=cfg.rope_theta_of(layer))),
            layer,
            head,
            row,
            i,
            j,
            value,
            w,
        )

    return handler


class _Turning:
    """The trace as the plain RoPE hover (explain.py) sees it: q and k are what RoPE turns (the normed ones
    with q/k norm), cut to their R turning dimensions."""

    def __init__(self, trace, config) -> None:
        self._trace, self.config = trace, config
        self._normed = trace.config.qk_norm != "none"

    def stored_names(self):
        return tuple(self._trace.stored_names())

    def __getitem__(self, name):
        if name.endswith((".attn.q", ".attn.k")) and self._normed:
            name += "_norm"
        a = self._trace[name]
        return a[..., : self.config.key_dim] if name.endswith(("q", "k", "_norm")) else a


def arch_handler(cfg, pattern: str):
    """The handler of ``pattern`` for a model with ``cfg`` when it differs from the usual one, else None."""
    post, placement = cfg.post_norms, cfg.norm_placement
    table = {
        "segments": _segments,
        "embed.seg": _embed_seg,
        "embed.sum": _embed_sum,
        "layers.{l}.attn.q_norm": _qk_normed("q"),
        "layers.{l}.attn.k_norm": _qk_normed("k"),
        "layers.{l}.attn.capped": _capped,
        "logits.uncapped": _logits_from("final.out"),
        "layers.{l}.attn.out_norm": _norm_of("layers.{l}.attn.out", "params.layers.{l}.ln_attn_out", "attn"),
        "layers.{l}.ffn.out_norm": _norm_of("layers.{l}.ffn.out", "params.layers.{l}.ln_ffn_out", "ffn"),
        "layers.{l}.attn.sum": _plus("layers.{l}.attn.in", "layers.{l}.attn.out", "x", "attn"),
        "layers.{l}.ffn.sum": _plus("layers.{l}.mid", "layers.{l}.ffn.out", "mid", "ffn"),
        "mlm.hidden": _mlm_hidden,
        "mlm.out": _norm_of("mlm.hidden", "params.mlm.ln", "h"),
    }
    if cfg.embed_norm:
        table["embed.out"] = _norm_of("embed.sum", "params.embed.ln", "e")
    elif cfg.embed_scale or cfg.segments:
        table["embed.out"] = _embed_sum
    if post or placement == "output":  # no norm before the sublayers: they read the stream as it is
        table["layers.{l}.attn.in"] = _same_as("", "x")
        table["layers.{l}.ffn.in"] = _same_as("", "mid")
    if post:
        table["layers.{l}.mid"] = _norm_of("layers.{l}.attn.sum", "params.layers.{l}.ln_attn", "s")
        table["layers.{l}.out"] = _norm_of("layers.{l}.ffn.sum", "params.layers.{l}.ln_ffn", "s")
        table["final.out"] = _same_as("", "out")
    if cfg.out_norms:
        table["layers.{l}.mid"] = _plus(None, "layers.{l}.attn.out_norm", "x", "attn")
        table["layers.{l}.out"] = _plus("layers.{l}.mid", "layers.{l}.ffn.out_norm", "mid", "ffn")
    if cfg.parallel_block:
        table["layers.{l}.ffn.in"] = _block_in
    if cfg.gated and cfg.ffn_activation.startswith("gelu"):  # GeGLU, exact or tanh
        table["layers.{l}.ffn.hidden"] = _geglu
    if cfg.positions == "rope" and (cfg.R < cfg.D or cfg.rope_local_theta is not None or cfg.qk_norm != "none"):
        table["layers.{l}.attn.q_rot"] = _rope("q")
        table["layers.{l}.attn.k_rot"] = _rope("k")
    if cfg.mlm_head:
        table["logits"] = _logits_from("mlm.out")
    if cfg.logit_softcap is not None:
        table["logits"] = _logits_capped
    if getattr(cfg, "moe", False):  # a mixture of experts: the router, the chosen experts, their weighted sum
        table.update(MOE_HANDLERS)
    return table.get(pattern)
