"""How one number of a trace was made, in words a student can check by hand.

Hovering a cell of a view shows one of these strings, e.g. ``q₂·k₁ = 3.21 → ÷√16 = 0.80 → softmax 0.31``.
Every number comes from the trace itself (the stored tensors and parameters); the few products spelled out
term by term are recomputed from those stored operands, so the string and the cell agree up to rounding.

No Qt here: the few words used (``masked``, ``softmax``…) come from ``WORDS`` and the window passes its
translated copy through ``words=``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from explorer import names
from explorer.trace import Trace

# Every word that appears in an explanation; the window replaces these with translations.
WORDS: dict[str, str] = {
    "masked": "masked",
    "scaling off": "scaling off",
    "every key blocked": "every key blocked",
    "softmax": "softmax",
    "after RoPE": "after RoPE",
    "head": "head",
    "dim": "dim",
    "no residual": "no residual",
    "norm": "norm",
    "next": "next",
    "keys": "keys",
    "dims": "dims",
}

# Spell a product out term by term only while it stays readable.
MAX_TERMS = 4

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_SUP = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def sub(n: int) -> str:
    """``sub(12) == "₁₂"``: positions written as the note writes them (q₂, k₁)."""
    return str(n).translate(_SUB)


def sup(n: int) -> str:
    return str(n).translate(_SUP)


def fmt(x: float) -> str:
    """A number as the views print it: two decimals in the everyday range, 3 significant digits outside."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "−∞" if x < 0 else "∞"
    a = abs(x)
    if a == 0:
        return "0"
    if 0.01 <= a < 100:
        s = f"{x:.2f}"
    elif 100 <= a < 10_000:
        s = f"{x:.1f}"
    else:
        s = f"{x:.3g}"
    return s.replace("-", "−")


def cell_text(x: float) -> str:
    """The short form printed inside a heatmap cell (fits a small square)."""
    x = float(x)
    if math.isinf(x) or math.isnan(x):
        return fmt(x)
    if x == int(x) and abs(x) < 10_000:
        return str(int(x)).replace("-", "−")
    return fmt(x)


def _term(x: float) -> str:
    s = fmt(x)
    return f"({s})" if s.startswith("−") else s


def _dot_terms(a: np.ndarray, b: np.ndarray) -> str:
    """``0.12·0.50 + (−0.30)·1.10`` for short vectors, empty for long ones."""
    if a.shape[0] > MAX_TERMS:
        return ""
    return " + ".join(f"{_term(x)}·{_term(y)}" for x, y in zip(a.tolist(), b.tolist()))


def _words(words: Mapping[str, str] | None) -> Mapping[str, str]:
    return {**WORDS, **(words or {})}


def _get(trace: Trace, name: str) -> np.ndarray | None:
    return trace[name] if name in trace.stored_names() else None


# ------------------------------------------------------------------------------------------ helpers


def uses_rope(trace: Trace, layer: int) -> bool:
    return trace.config.positions == "rope" and names.attn(layer, "q_rot") in trace.stored_names()


def qk_names(trace: Trace, layer: int) -> tuple[str, str]:
    """The q and k whose dot products are the scores (rotated ones for RoPE models)."""
    if uses_rope(trace, layer):
        return names.attn(layer, "q_rot"), names.attn(layer, "k_rot")
    return names.attn(layer, "q"), names.attn(layer, "k")


def kv_head(trace: Trace, head: int) -> int:
    """The key/value head a query head reads (grouped-query attention shares one among H/H_kv heads)."""
    cfg = trace.config
    return head // max(1, cfg.H // cfg.H_kv)


def block_input(layer: int) -> str:
    """What layer ``layer`` reads: the embeddings for the first layer, the previous block's output after."""
    return "embed.out" if layer == 0 else f"layers.{layer - 1}.out"


# ------------------------------------------------------------------------------------------ maps


def explain_cell(
    trace: Trace, stage: str, layer: int, head: int, row: int, i: int, j: int, words: Mapping[str, str] | None = None
) -> str:
    """How cell (query i, key j) of a (C, C) stage of one head was made, up to that stage.

    ``stage`` is one of scores, scaled, masked, weights. Example for weights:
    ``q₂·k₁ = 3.21 → ÷√16 = 0.80 → softmax 0.31``; a blocked cell reads ``… → masked −∞ → softmax 0``.
    """
    w = _words(words)
    order = names.PAIRWISE_STAGES
    upto = order.index(stage)
    scores = trace.head_map(layer, "scores", row, head)
    scaled = trace.head_map(layer, "scaled", row, head)
    weights = trace.head_map(layer, "weights", row, head)
    mask = _get(trace, "mask")
    allowed = bool(mask[row, i, j]) if mask is not None else bool(np.isfinite(trace.head_map(layer, "masked", row, head)[i, j]))
    empty = mask is not None and not bool(mask[row, i].any())

    rope = uses_rope(trace, layer)
    qs, ks = (f"q̃{sub(i)}", f"k̃{sub(j)}") if rope else (f"q{sub(i)}", f"k{sub(j)}")
    text = f"{qs}·{ks}"
    qn, kn = qk_names(trace, layer)
    q, k = _get(trace, qn), _get(trace, kn)
    if q is not None and k is not None:
        terms = _dot_terms(q[row, head, i].astype(np.float64), k[row, kv_head(trace, head), j].astype(np.float64))
        if terms:
            text += f" = {terms}"
    text += f" = {fmt(scores[i, j])}"
    if rope:
        text += f" ({w['after RoPE']})"
    if upto >= 1:
        D = q.shape[-1] if q is not None else trace.config.D
        if trace.options.scale:
            text += f" → ÷√{D} = {fmt(scaled[i, j])}"
        else:
            text += f" → ({w['scaling off']}) {fmt(scaled[i, j])}"
    if upto >= 2 and not allowed:
        text += f" → {w['masked']} −∞"
    if upto >= 3:
        if empty:
            text += f" → {w['every key blocked']}: 0"
        else:
            text += f" → {w['softmax']} {fmt(weights[i, j])}"
    return text


# ------------------------------------------------------------------------------------------ matrices


def explain_value(
    trace: Trace, name: str, head: int, row: int, i: int, j: int, words: Mapping[str, str] | None = None
) -> str:
    """How entry (token i, column j) of tensor ``name`` was made. For per-head tensors (q, k, v, heads)
    ``j`` is the column inside head ``head``; for the others it is the tensor's own last index."""
    w = _words(words)
    pattern = names.spec(name).pattern
    layer = names.layer_of(name)
    a = trace[name]
    if a.ndim == 4:  # (B, H or H_kv, C, d)
        value = float(a[row, head if names.spec(name).labels[1] == "H" else kv_head(trace, head), i, j])
    elif a.ndim == 3:  # (B, C, d)
        value = float(a[row, i, j])
    else:  # tokens (B, C)
        value = float(a[row, i])
    handler = _HANDLERS.get(pattern)
    if handler is not None:
        out = handler(trace, layer, head, row, i, j, value, w)
        if out:
            return out
    return f"{name.rsplit('.', 1)[-1]}{sub(i)}[{j}] = {fmt(value)}"


def _tokens(trace, layer, head, row, i, j, value, w):
    return f"“{trace.token_label(row, i)}” → id {int(value)}"


def _embed_tok(trace, layer, head, row, i, j, value, w):
    tid = trace.rows[row].ids[i]
    return f"W[{tid}, {j}] ({trace.token_label(row, i)}) = {fmt(value)}"


def _embed_pos(trace, layer, head, row, i, j, value, w):
    pos = trace.config.positions
    if pos == "sinusoidal":
        f = "sin" if j % 2 == 0 else "cos"
        return f"PE[{i}, {j}] = {f}({i} / 10000^({j - j % 2}/{trace.config.E})) = {fmt(value)}"
    if pos == "learned":
        return f"P[{i}, {j}] = {fmt(value)}"
    return f"0 ({pos})"


def _embed_out(trace, layer, head, row, i, j, value, w):
    tok, pos = _get(trace, "embed.tok"), _get(trace, "embed.pos")
    tid = trace.rows[row].ids[i]
    if tok is None or pos is None:
        return ""
    return f"W[{tid}, {j}] + PE[{i}, {j}] = {fmt(tok[row, i, j])} + {_term(pos[row, i, j])} = {fmt(value)}"


def _matmul(x: np.ndarray | None, W: np.ndarray | None, col: int, xs: str, Ws: str, value: float, bias=None, bias_s=""):
    """``x₂ · W_q[:, 5] = Σ… = value``: the row vector times one column of the (in, out) weight."""
    text = f"{xs} · {Ws}[:, {col}]"
    if x is not None and W is not None:
        terms = _dot_terms(x.astype(np.float64), W[:, col].astype(np.float64))
        if terms:
            text += f" = {terms}"
    if bias is not None:
        text += f" + {bias_s}[{col}] ({fmt(bias[col])})"
    return f"{text} = {fmt(value)}"


def _projection(letter: str):
    def handler(trace, layer, head, row, i, j, value, w):
        cfg = trace.config
        h = head if letter == "q" else kv_head(trace, head)
        width = cfg.D_v if letter == "v" else cfg.D
        col = h * width + j
        x = _get(trace, names.attn(layer, "in"))
        W = _get(trace, f"params.layers.{layer}.attn.W_{letter}")
        b = _get(trace, f"params.layers.{layer}.attn.b_{letter}")
        return _matmul(None if x is None else x[row, i], W, col, f"x{sub(i)}", f"W_{letter}", value, b, f"b_{letter}")

    return handler


def _rotated(letter: str):
    def handler(trace, layer, head, row, i, j, value, w):
        return f"RoPE({letter}{sub(i)})[{j}] = {fmt(value)} ({w['after RoPE']})"

    return handler


def _heads(trace, layer, head, row, i, j, value, w):
    weights = trace.head_map(layer, "weights", row, head)[i]
    v = _get(trace, names.attn(layer, "v"))
    text = f"Σⱼ a{sub(i)}ⱼ·vⱼ[{j}]"
    n = trace.rows[row].length
    if v is not None:
        col = v[row, kv_head(trace, head), :n, j].astype(np.float64)
        terms = _dot_terms(weights[:n].astype(np.float64), col)
        text += f" = {terms}" if terms else f" ({n} {w['keys']})"
    return f"{text} = {fmt(value)}"


def _concat(trace, layer, head, row, i, j, value, w):
    Dv = trace.config.D_v
    h, d = divmod(j, Dv)
    return f"R{sup(h)}{sub(i)}[{d}] ({w['head']} {h}, {w['dim']} {d}) = {fmt(value)}"


def _attn_out(trace, layer, head, row, i, j, value, w):
    W = _get(trace, f"params.layers.{layer}.attn.W_o")
    if W is None:
        return f"R{sub(i)}[{j}] = {fmt(value)}"
    x = _get(trace, names.attn(layer, "concat"))
    b = _get(trace, f"params.layers.{layer}.attn.b_o")
    return _matmul(None if x is None else x[row, i], W, j, f"concat{sub(i)}", "W_o", value, b, "b_o")


def _sum_of(first: str, second: str, a_s: str, b_s: str, residual: bool, w, row, i, j, value, trace):
    a, b = _get(trace, first), _get(trace, second)
    if not residual:
        return f"{b_s}{sub(i)}[{j}] = {fmt(value)} ({w['no residual']})"
    if a is None or b is None:
        return ""
    return f"{a_s}{sub(i)}[{j}] + {b_s}{sub(i)}[{j}] = {fmt(a[row, i, j])} + {_term(b[row, i, j])} = {fmt(value)}"


def _mid(trace, layer, head, row, i, j, value, w):
    return _sum_of(block_input(layer), names.attn(layer, "out"), "x", "attn", trace.config.residual, w, row, i, j, value, trace)


def _block_out(trace, layer, head, row, i, j, value, w):
    return _sum_of(f"layers.{layer}.mid", f"layers.{layer}.ffn.out", "mid", "ffn", trace.config.residual, w, row, i, j, value, trace)


def _normed(symbol: str):
    """The pre-norm's output: its statistics run over the whole row, so only the result is shown."""

    def handler(trace, layer, head, row, i, j, value, w):
        kind = trace.config.norm
        if kind == "none":
            return f"{symbol}{sub(i)}[{j}] = {fmt(value)}"
        return f"{w['norm']}({symbol}{sub(i)})[{j}] = {fmt(value)} ({kind})"

    return handler


def _ffn_hidden(trace, layer, head, row, i, j, value, w):
    x = _get(trace, f"layers.{layer}.ffn.in")
    W_in = _get(trace, f"params.layers.{layer}.ffn.W_in")
    b_in = _get(trace, f"params.layers.{layer}.ffn.b_in")
    if x is None or W_in is None:
        return ""
    up = float(x[row, i].astype(np.float64) @ W_in[:, j].astype(np.float64)) + (float(b_in[j]) if b_in is not None else 0.0)
    act = trace.config.ffn_activation
    if act == "silu_gated":
        W_g = _get(trace, f"params.layers.{layer}.ffn.W_gate")
        if W_g is None:
            return ""
        g = float(x[row, i].astype(np.float64) @ W_g[:, j].astype(np.float64))
        return f"SiLU(x{sub(i)}·W_gate[:, {j}]) · (x{sub(i)}·W_in[:, {j}]) = SiLU({fmt(g)}) · {_term(up)} = {fmt(value)}"
    name = {"gelu": "GELU", "gelu_tanh": "GELU", "relu": "ReLU"}[act]
    return f"{name}(x{sub(i)} · W_in[:, {j}]) = {name}({fmt(up)}) = {fmt(value)}"


def _ffn_out(trace, layer, head, row, i, j, value, w):
    h = _get(trace, f"layers.{layer}.ffn.hidden")
    W = _get(trace, f"params.layers.{layer}.ffn.W_out")
    b = _get(trace, f"params.layers.{layer}.ffn.b_out")
    return _matmul(None if h is None else h[row, i], W, j, f"h{sub(i)}", "W_out", value, b, "b_out")


def _token_word(trace: Trace, tid: int) -> str:
    return trace.vocab[tid] if trace.vocab is not None and 0 <= tid < len(trace.vocab) else str(tid)


def _logits(trace, layer, head, row, i, j, value, w):
    x = _get(trace, "final.out")
    W = _get(trace, "params.unembed.W_u")
    symbol = "W_u"
    if W is None and trace.config.tie_embeddings and _get(trace, "params.embed.tok") is not None:
        W, symbol = _get(trace, "params.embed.tok").T, "Wᵀ"
    b = _get(trace, "params.unembed.b_u")
    text = _matmul(None if x is None else x[row, i], W, j, f"h{sub(i)}", symbol, value, b, "b_u")
    return f"{text} (“{_token_word(trace, j)}”)"


def _probs(trace, layer, head, row, i, j, value, w):
    logits = _get(trace, "logits")
    T = trace.options.temperature
    word = _token_word(trace, j)
    if logits is None:
        return f"P({w['next']} = “{word}”) = {fmt(value)}"
    zrow = logits[row, i].astype(np.float64) / T
    z = float(zrow[j])
    given = f"P({w['next']} = “{word}” | 0…{i})"
    if np.abs(zrow).max() > 80:  # e^z would not fit a readable number; say what is computed
        return f"{given} = e^(z{sub(i)}[{j}]/T) / Σₖ e^(z{sub(i)}[k]/T) = {fmt(value)}"
    total = float(np.exp(zrow).sum())
    return f"{given} = e^({fmt(z)}) / Σₖ e^(z{sub(i)}[k]/T) = {fmt(math.exp(z))} / {fmt(total)} = {fmt(value)}"


_HANDLERS = {
    "tokens": _tokens,
    "embed.tok": _embed_tok,
    "embed.pos": _embed_pos,
    "embed.out": _embed_out,
    "layers.{l}.attn.in": _normed("x"),
    "layers.{l}.attn.q": _projection("q"),
    "layers.{l}.attn.k": _projection("k"),
    "layers.{l}.attn.v": _projection("v"),
    "layers.{l}.attn.q_rot": _rotated("q"),
    "layers.{l}.attn.k_rot": _rotated("k"),
    "layers.{l}.attn.heads": _heads,
    "layers.{l}.attn.concat": _concat,
    "layers.{l}.attn.out": _attn_out,
    "layers.{l}.mid": _mid,
    "layers.{l}.ffn.in": _normed("mid"),
    "layers.{l}.ffn.hidden": _ffn_hidden,
    "layers.{l}.ffn.out": _ffn_out,
    "layers.{l}.out": _block_out,
    "final.out": _normed("out"),
    "logits": _logits,
    "probs": _probs,
}
