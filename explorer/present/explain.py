"""How one number of a trace was made, in words a student can check by hand.

Hovering a cell of a view shows one of these strings, e.g. ``q₂·k₁ = 3.21 → ÷√16 = 0.80 → softmax …``.
Every number comes from the trace itself (the stored tensors and parameters), and every chain of
arithmetic adds up: the operands are printed with as many digits as it takes for the printed result to
follow from the printed operands (``explorer.present.hover_numbers``). Each hover starts from the numbers the
previous shown stage holds (the QKV hover from the normalised x of the pre-norm stage, when there is one).

The parts: ``hover_format`` (how numbers and words are printed), ``explain_maps`` (a cell of the (C, C)
maps: ``explain_cell``); this module explains every other tensor's entries (``explain_value``) and
re-exports the names the views use. No Qt here: the few words used (``masked``, ``softmax``…) come from
``WORDS`` and the window passes its translated copy through ``words=``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from explorer import names
from explorer.present.explain_arch import arch_handler
from explorer.present.explain_maps import block_input, explain_cell, kv_head, qk_names, slot_of, stored, uses_rope
from explorer.present.explain_math import Norm, angle_of, gelu, gelu_tanh, matmul_text, norm_text, rotated, silu
from explorer.present.hover_format import WORDS, cell_text, dot_terms, fmt, sub, sum_text, sup, term, with_words
from explorer.present.hover_numbers import adding_up
from explorer.present.token_parts import token_label
from explorer.trace import Trace

__all__ = [
    "WORDS",
    "block_input",
    "cell_text",
    "explain_cell",
    "explain_value",
    "fmt",
    "kv_head",
    "slot_of",
    "qk_names",
    "sub",
    "sup",
    "uses_rope",
]


# ------------------------------------------------------------------------------------------ matrices


def explain_value(
    trace: Trace, name: str, head: int, row: int, i: int, j: int, words: Mapping[str, str] | None = None
) -> str:
    """How entry (token i, column j) of tensor ``name`` was made. For per-head tensors (q, k, v, heads)
    ``j`` is the column inside head ``head``; for the others it is the tensor's own last index."""
    w = with_words(words)
    pattern = names.spec(name).pattern
    layer = names.layer_of(name)
    a = trace[name]
    if a.ndim == 4:  # (B, H or H_kv, C, d), or a mixture's (B, K, C, E)
        value = float(a[row, slot_of(trace, name, head), i, j])
    elif a.ndim == 3:  # (B, C, d)
        value = float(a[row, i, j])
    else:  # tokens (B, C)
        value = float(a[row, i])
    handler = arch_handler(trace.config, pattern) or _HANDLERS.get(pattern)
    if handler is not None:
        out = handler(trace, layer, head, row, i, j, value, w)
        if out:
            return out
    return f"{name.rsplit('.', 1)[-1]}{sub(i)}[{j}] = {fmt(value)}"


def _tokens(trace, layer, head, row, i, j, value, w):
    return f"“{token_label(trace, row, i)}” → id {int(value)}"


def _embed_tok(trace, layer, head, row, i, j, value, w):
    tid = trace.rows[row].ids[i]
    return f"W[{tid}, {j}] ({token_label(trace, row, i)}) = {fmt(value)}"


def _embed_pos(trace, layer, head, row, i, j, value, w):
    pos = trace.config.positions
    if pos == "sinusoidal":
        f = "sin" if j % 2 == 0 else "cos"
        return f"PE[{i}, {j}] = {f}({i} / 10000^({j - j % 2} / {trace.config.E})) = {fmt(value)}"
    if pos == "learned":
        return f"P[{i}, {j}] = {fmt(value)}"
    return f"0 ({pos})"


def _embed_out(trace, layer, head, row, i, j, value, w):
    tok, pos = stored(trace, "embed.tok"), stored(trace, "embed.pos")
    tid = trace.rows[row].ids[i]
    if tok is None or pos is None:
        return ""
    return f"W[{tid}, {j}] + PE[{i}, {j}] = {sum_text(float(tok[row, i, j]), float(pos[row, i, j]), value)}"


def _projection(letter: str):
    def handler(trace, layer, head, row, i, j, value, w):
        cfg = trace.config
        h = head if letter == "q" else kv_head(trace, head)
        width = cfg.D_v if letter == "v" else cfg.D
        col = h * width + j
        x = stored(trace, names.attn(layer, "in"))
        W = stored(trace, f"params.layers.{layer}.attn.W_{letter}")
        b = stored(trace, f"params.layers.{layer}.attn.b_{letter}")
        return matmul_text(
            None if x is None else x[row, i], W, col, f"x{sub(i)}", f"W_{letter}", value, b, f"b_{letter}"
        )

    return handler


def _heads(trace, layer, head, row, i, j, value, w):
    weights = trace.map_row(layer, "weights", row, head, i)
    v = stored(trace, names.attn(layer, "v"))
    text = f"Σⱼ a{sub(i)}ⱼ·vⱼ[{j}]"
    n = trace.rows[row].length
    printed = fmt(value)
    if v is not None:
        col = v[row, kv_head(trace, head), :n, j].astype(np.float64)
        terms, printed = dot_terms(weights[:n].astype(np.float64), col, value)
        text += f" = {terms}" if terms else f" ({n} {w['keys']})"
    return f"{text} = {printed}"


def _concat(trace, layer, head, row, i, j, value, w):
    Dv = trace.config.D_v
    h, d = divmod(j, Dv)
    return f"R{sup(h)}{sub(i)}[{d}] ({w['head']} {h}, {w['dim']} {d}) = {fmt(value)}"


def _attn_out(trace, layer, head, row, i, j, value, w):
    W = stored(trace, f"params.layers.{layer}.attn.W_o")
    if W is None:
        return f"R{sub(i)}[{j}] = {fmt(value)}"
    x = stored(trace, names.attn(layer, "concat"))
    b = stored(trace, f"params.layers.{layer}.attn.b_o")
    return matmul_text(None if x is None else x[row, i], W, j, f"concat{sub(i)}", "W_o", value, b, "b_o")


def _sum_of(trace: Trace, parts: tuple[tuple[str, str], tuple[str, str]], cell: tuple[int, int, int], value, w):
    """A residual sum's hover: ``parts`` are (tensor name, symbol) of what is added, ``cell`` (row, i, j)."""
    (first, a_s), (second, b_s) = parts
    row, i, j = cell
    a, b = stored(trace, first), stored(trace, second)
    if not trace.config.residual:
        return f"{b_s}{sub(i)}[{j}] = {fmt(value)} ({w['no residual']})"
    if a is None or b is None:
        return ""
    return f"{a_s}{sub(i)}[{j}] + {b_s}{sub(i)}[{j}] = {sum_text(float(a[row, i, j]), float(b[row, i, j]), value)}"


def _mid(trace, layer, head, row, i, j, value, w):
    return _sum_of(trace, ((block_input(layer), "x"), (names.attn(layer, "out"), "attn")), (row, i, j), value, w)


def _block_out(trace, layer, head, row, i, j, value, w):
    return _sum_of(trace, ((f"layers.{layer}.mid", "mid"), (f"layers.{layer}.ffn.out", "ffn")), (row, i, j), value, w)


def _norm_input(trace: Trace, stage: str, layer: int | None) -> tuple[str, str]:
    """(what the norm reads, its parameters' prefix) for attn.in, ffn.in and final.out."""
    if stage == "attn":
        return block_input(layer), f"params.layers.{layer}.ln_attn"
    if stage == "ffn":
        return f"layers.{layer}.mid", f"params.layers.{layer}.ln_ffn"
    return f"layers.{trace.config.L - 1}.out", "params.ln_final"


def _normed(symbol: str, stage: str):
    """A pre-norm's output with its real numbers: the row's mean and variance (or mean square), γ and β."""

    def handler(trace, layer, head, row, i, j, value, w):
        cfg = trace.config
        source, prefix = _norm_input(trace, stage, layer)
        x = stored(trace, source)
        xs = f"{symbol}{sub(i)}"
        if cfg.norm == "none":
            return f"{xs}[{j}] = {fmt(value)} ({w['no norm']})"
        gamma, beta = stored(trace, f"{prefix}.weight"), stored(trace, f"{prefix}.bias")
        if x is None or gamma is None:
            return f"{w['norm']}({xs})[{j}] = {fmt(value)} ({cfg.norm})"
        return norm_text(Norm(cfg.norm, float(cfg.norm_eps), gamma, beta), x[row, i], j, value, xs, w)

    return handler


def _ffn_hidden(trace, layer, head, row, i, j, value, w):
    x = stored(trace, f"layers.{layer}.ffn.in")
    W_in = stored(trace, f"params.layers.{layer}.ffn.W_in")
    b_in = stored(trace, f"params.layers.{layer}.ffn.b_in")
    if x is None or W_in is None:
        return ""
    up = float(x[row, i].astype(np.float64) @ W_in[:, j].astype(np.float64)) + (
        float(b_in[j]) if b_in is not None else 0.0
    )
    act = trace.config.ffn_activation
    if act == "silu_gated":
        W_g = stored(trace, f"params.layers.{layer}.ffn.W_gate")
        if W_g is None:
            return ""
        b_g = stored(trace, f"params.layers.{layer}.ffn.b_gate")
        g = float(x[row, i].astype(np.float64) @ W_g[:, j].astype(np.float64)) + (
            float(b_g[j]) if b_g is not None else 0.0
        )
        (g_s, up_s), printed = adding_up([g, up], lambda v: silu(v[0]) * v[1], value, fmt)
        return f"SiLU(x{sub(i)}·W_gate[:, {j}]) · (x{sub(i)}·W_in[:, {j}]) = SiLU({g_s}) · {term(up_s)} = {printed}"
    name = {"gelu": "GELU", "gelu_tanh": "GELU", "relu": "ReLU"}[act]
    f = {"gelu": gelu, "gelu_tanh": gelu_tanh, "relu": lambda z: max(z, 0.0)}[act]
    (up_s,), printed = adding_up([up], lambda v: f(v[0]), value, fmt)
    return f"{name}(x{sub(i)} · W_in[:, {j}]) = {name}({up_s}) = {printed}"


def _ffn_out(trace, layer, head, row, i, j, value, w):
    h = stored(trace, f"layers.{layer}.ffn.hidden")
    W = stored(trace, f"params.layers.{layer}.ffn.W_out")
    b = stored(trace, f"params.layers.{layer}.ffn.b_out")
    return matmul_text(None if h is None else h[row, i], W, j, f"h{sub(i)}", "W_out", value, b, "b_out")


def _token_word(trace: Trace, tid: int) -> str:
    return trace.vocab[tid] if trace.vocab is not None and 0 <= tid < len(trace.vocab) else str(tid)


def _logits(trace, layer, head, row, i, j, value, w):
    x = stored(trace, "final.out")
    W = stored(trace, "params.unembed.W_u")
    symbol = "W_u"
    if W is None and trace.config.tie_embeddings and stored(trace, "params.embed.tok") is not None:
        W, symbol = stored(trace, "params.embed.tok").T, "Wᵀ"
    b = stored(trace, "params.unembed.b_u")
    text = matmul_text(None if x is None else x[row, i], W, j, f"h{sub(i)}", symbol, value, b, "b_u")
    return f"{text} (“{_token_word(trace, j)}”)"


def _probs(trace, layer, head, row, i, j, value, w):
    T = trace.options.temperature
    word = _token_word(trace, j)
    if "logits" not in trace:
        return f"P({w['next']} = “{word}”) = {fmt(value)}"
    zrow = trace.logits_rows(row, i, i + 1)[0].astype(np.float64) / T  # one row (derived alone when it can be)
    z = float(zrow[j])
    given = f"P({w['next']} = “{word}” | 0…{i})"
    if np.abs(zrow).max() > 80:  # e^z would not fit a readable number: subtract the row's largest first
        top = float(zrow.max())
        numer, total = math.exp(z - top), float(np.exp(zrow - top).sum())
        (num_s, den_s), printed = adding_up([numer, total], lambda v: v[0] / v[1], value, fmt)
        (z_s,), num_s = adding_up([z - top], lambda v: math.exp(v[0]), num_s, fmt)
        return (
            f"{given} = e^(z{sub(i)}[{j}]/T − max) / Σₖ e^(z{sub(i)}[k]/T − max) = e^({z_s}) / Σₖ … = {num_s} / "
            f"{den_s} = {printed}"
        )
    total = float(np.exp(zrow).sum())
    (num_s, den_s), printed = adding_up([math.exp(z), total], lambda v: v[0] / v[1], value, fmt)
    (z_s,), num_s = adding_up([z], lambda v: math.exp(v[0]), num_s, fmt)
    return f"{given} = e^({z_s}) / Σₖ e^(z{sub(i)}[k]/T) = {num_s} / {den_s} = {printed}"


_HANDLERS = {
    "tokens": _tokens,
    "embed.tok": _embed_tok,
    "embed.pos": _embed_pos,
    "embed.out": _embed_out,
    "layers.{l}.attn.in": _normed("x", "attn"),
    "layers.{l}.attn.q": _projection("q"),
    "layers.{l}.attn.k": _projection("k"),
    "layers.{l}.attn.v": _projection("v"),
    "layers.{l}.attn.q_rot": rotated("q"),
    "layers.{l}.attn.k_rot": rotated("k"),
    "layers.{l}.attn.rope_angles": angle_of,
    "layers.{l}.attn.heads": _heads,
    "layers.{l}.attn.concat": _concat,
    "layers.{l}.attn.out": _attn_out,
    "layers.{l}.mid": _mid,
    "layers.{l}.ffn.in": _normed("mid", "ffn"),
    "layers.{l}.ffn.hidden": _ffn_hidden,
    "layers.{l}.ffn.out": _ffn_out,
    "layers.{l}.out": _block_out,
    "final.out": _normed("out", "final"),
    "logits": _logits,
    "probs": _probs,
}
