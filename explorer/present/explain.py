"""How one number of a trace was made, in words a student can check by hand.

Hovering a cell of a view shows one of these strings, e.g. ``q₂·k₁ = 3.21 → ÷√16 = 0.80 → softmax …``.
Every number comes from the trace itself (the stored tensors and parameters), and every chain of
arithmetic adds up: the operands are printed with as many digits as it takes for the printed result to
follow from the printed operands (``explorer.present.hover_numbers``). Each hover starts from the numbers the
previous shown stage holds (the QKV hover from the normalised x of the pre-norm stage, when there is one).

No Qt here: the few words used (``masked``, ``softmax``…) come from ``WORDS`` and the window passes its
translated copy through ``words=``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from explorer import names
from explorer.present.hover_numbers import adding_up
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
    "mean": "mean",
    "variance": "variance",
    "no norm": "no norm: the vector goes on unchanged",
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


def _term(x: float | str) -> str:
    s = x if isinstance(x, str) else fmt(x)
    return f"({s})" if s.startswith("−") else s


def _dot_terms(a: np.ndarray, b: np.ndarray, result: float | str, bias: float | None = None) -> tuple[str, str]:
    """``("0.12·0.50 + (−0.30)·1.10 + 0.20", "−0.07")`` for short vectors: the terms and the result, printed
    so that they add up; ``("", result)`` for long ones (the sum is not spelled out)."""
    if a.shape[0] > MAX_TERMS:
        return "", result if isinstance(result, str) else fmt(result)
    operands = [v for pair in zip(a.tolist(), b.tolist()) for v in pair] + ([float(bias)] if bias is not None else [])
    n = a.shape[0]

    def combine(v):
        total = sum(v[2 * k] * v[2 * k + 1] for k in range(n))
        return total + (v[2 * n] if bias is not None else 0.0)

    shown, printed = adding_up(operands, combine, result, fmt)
    terms = " + ".join(f"{_term(shown[2 * k])}·{_term(shown[2 * k + 1])}" for k in range(n))
    if bias is not None:
        terms += f" + {_term(shown[2 * n])}"
    return terms, printed


def _sum_text(a: float, b: float, value: float) -> str:
    """``a + b = value`` with a and b printed so that they add up to the printed value."""
    (sa, sb), printed = adding_up([a, b], lambda v: v[0] + v[1], value, fmt)
    return f"{sa} + {_term(sb)} = {printed}"


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
    return names.kv_head_of(head, trace.config.H, trace.config.H_kv)


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
    qn, kn = qk_names(trace, layer)
    q, k = _get(trace, qn), _get(trace, kn)
    D = q.shape[-1] if q is not None else trace.config.D

    # The chain in float64 from the stored q and k (the previous shown stage); the stored maps are the same
    # numbers to float32 rounding. Built from the last step back: each step's printed result is the next
    # step's printed operand, so the precision a later step needs decides how an earlier result is printed.
    qv = q[row, head, i].astype(np.float64) if q is not None else None
    K = k[row, kv_head(trace, head)].astype(np.float64) if k is not None else None  # (C, D)
    s_val = float(qv @ K[j]) if qv is not None and K is not None else float(scores[i, j])
    root = math.sqrt(D) if trace.options.scale else 1.0
    scaled_val = s_val / root
    score_s = fmt(s_val)
    scaled_s = fmt(scaled_val)
    softmax_text = ""
    if upto >= 3 and not empty and allowed:
        seen_mask = mask[row, i] if mask is not None else np.isfinite(trace.head_map(layer, "masked", row, head)[i])
        seen = (K[seen_mask] @ qv) / root if qv is not None and K is not None else scaled[i][seen_mask].astype(np.float64)
        if seen.size and np.abs(seen).max() <= 80:  # e^s stays a readable number
            numer, denom = math.exp(scaled_val), float(np.exp(seen).sum())
            (num_s, den_s), w_s = adding_up([numer, denom], lambda v: v[0] / v[1], float(weights[i, j]), fmt)
            # e^(s̃) must give the printed numerator: print s̃ (and so the scaled cell) precisely enough
            (scaled_s,), num_s = adding_up([scaled_val], lambda v: math.exp(v[0]), num_s, fmt)
            softmax_text = f" → {w['softmax']}: e^({scaled_s}) / Σₖ e^(s̃{sub(i)}ₖ) = {num_s} / {den_s} = {w_s}"
        elif seen.size:  # e^80 is a 35-digit number: subtract the row's largest score first (same result)
            top = float(seen.max())
            numer, denom = math.exp(scaled_val - top), float(np.exp(seen - top).sum())
            (num_s, den_s), w_s = adding_up([numer, denom], lambda v: v[0] / v[1], float(weights[i, j]), fmt)
            (shifted_s,), num_s = adding_up([scaled_val - top], lambda v: math.exp(v[0]), num_s, fmt)
            softmax_text = (
                f" → {w['softmax']}: e^(s̃{sub(i)}{sub(j)} − max) / Σₖ e^(s̃{sub(i)}ₖ − max) = e^({shifted_s}) / Σₖ … = {num_s} / {den_s} = {w_s}"
            )
    if upto >= 1 and trace.options.scale:
        (score_s,), scaled_s = adding_up([s_val], lambda v: v[0] / root, scaled_s, fmt)
    elif upto >= 1:
        score_s = scaled_s  # scaling off: the same number goes on

    text = f"{qs}·{ks}"
    if q is not None and k is not None:
        terms, score_s = _dot_terms(q[row, head, i].astype(np.float64), k[row, kv_head(trace, head), j].astype(np.float64), score_s)
        if terms:
            text += f" = {terms}"
    text += f" = {score_s}"
    if rope:
        text += f" ({w['after RoPE']})"
    if upto >= 1:
        if trace.options.scale:
            text += f" → ÷√{D} = {scaled_s}"
        else:
            text += f" → ({w['scaling off']}) {score_s}"
    if upto >= 2 and not allowed:
        text += f" → {w['masked']} −∞"
    if upto >= 3:
        if empty:
            text += f" → {w['every key blocked']}: 0"
        elif not allowed:
            text += f" → {w['softmax']} 0"
        else:
            text += softmax_text
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
        return f"PE[{i}, {j}] = {f}({i} / 10000^({j - j % 2} / {trace.config.E})) = {fmt(value)}"
    if pos == "learned":
        return f"P[{i}, {j}] = {fmt(value)}"
    return f"0 ({pos})"


def _embed_out(trace, layer, head, row, i, j, value, w):
    tok, pos = _get(trace, "embed.tok"), _get(trace, "embed.pos")
    tid = trace.rows[row].ids[i]
    if tok is None or pos is None:
        return ""
    return f"W[{tid}, {j}] + PE[{i}, {j}] = {_sum_text(float(tok[row, i, j]), float(pos[row, i, j]), value)}"


def _matmul(x: np.ndarray | None, W: np.ndarray | None, col: int, xs: str, Ws: str, value: float, bias=None, bias_s=""):
    """``x₂ · W_q[:, 5] + b_q[5] = Σ… = value``: the row vector times one column of the (in, out) weight."""
    text = f"{xs} · {Ws}[:, {col}]"
    b = float(bias[col]) if bias is not None else None
    if bias is not None:
        text += f" + {bias_s}[{col}]"
    printed = fmt(value)
    if x is not None and W is not None:
        terms, printed = _dot_terms(x.astype(np.float64), W[:, col].astype(np.float64), value, b)
        if terms:
            text += f" = {terms}"
        elif b is not None:
            text += f" ({bias_s}[{col}] = {fmt(b)})"
    return f"{text} = {printed}"


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
    """RoPE rotates the pair (j, j + D/2) of q (or k) at position i by the angle i·θ^(−2j/D) ("rotate half")."""

    def handler(trace, layer, head, row, i, j, value, w):
        cfg = trace.config
        source = _get(trace, names.attn(layer, letter))
        if source is None:
            return f"RoPE({letter}{sub(i)})[{j}] = {fmt(value)} ({w['after RoPE']})"
        h = head if letter == "q" else kv_head(trace, head)
        vec = source[row, h, i].astype(np.float64)
        D = vec.shape[0]
        half = D // 2
        pair = j % half
        angle = i * cfg.rope_theta ** (-2.0 * pair / D)
        if j < half:  # q̃[j] = q[j]·cos − q[j + D/2]·sin
            ops, combine, sign = [vec[j], angle, vec[j + half]], (lambda v: v[0] * math.cos(v[1]) - v[2] * math.sin(v[1])), "−"
            other = j + half
        else:  # q̃[j] = q[j]·cos + q[j − D/2]·sin
            ops, combine, sign = [vec[j], angle, vec[j - half]], (lambda v: v[0] * math.cos(v[1]) + v[2] * math.sin(v[1])), "+"
            other = j - half
        (a, t, b), printed = adding_up([float(x) for x in ops], combine, value, fmt)
        return (
            f"RoPE({letter}{sub(i)})[{j}] = {letter}{sub(i)}[{j}]·cos(θ) {sign} {letter}{sub(i)}[{other}]·sin(θ), "
            f"θ = {i}·{cfg.rope_theta:g}^(−{2 * pair}/{D}); {_term(a)}·cos({t}) {sign} {_term(b)}·sin({t}) = {printed}"
        )

    return handler


def _heads(trace, layer, head, row, i, j, value, w):
    weights = trace.head_map(layer, "weights", row, head)[i]
    v = _get(trace, names.attn(layer, "v"))
    text = f"Σⱼ a{sub(i)}ⱼ·vⱼ[{j}]"
    n = trace.rows[row].length
    printed = fmt(value)
    if v is not None:
        col = v[row, kv_head(trace, head), :n, j].astype(np.float64)
        terms, printed = _dot_terms(weights[:n].astype(np.float64), col, value)
        text += f" = {terms}" if terms else f" ({n} {w['keys']})"
    return f"{text} = {printed}"


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
    return f"{a_s}{sub(i)}[{j}] + {b_s}{sub(i)}[{j}] = {_sum_text(float(a[row, i, j]), float(b[row, i, j]), value)}"


def _mid(trace, layer, head, row, i, j, value, w):
    return _sum_of(block_input(layer), names.attn(layer, "out"), "x", "attn", trace.config.residual, w, row, i, j, value, trace)


def _block_out(trace, layer, head, row, i, j, value, w):
    return _sum_of(f"layers.{layer}.mid", f"layers.{layer}.ffn.out", "mid", "ffn", trace.config.residual, w, row, i, j, value, trace)


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
        x = _get(trace, source)
        xs = f"{symbol}{sub(i)}"
        if cfg.norm == "none":
            return f"{xs}[{j}] = {fmt(value)} ({w['no norm']})"
        gamma, beta = _get(trace, f"{prefix}.weight"), _get(trace, f"{prefix}.bias")
        if x is None or gamma is None:
            return f"{w['norm']}({xs})[{j}] = {fmt(value)} ({cfg.norm})"
        vec = x[row, i].astype(np.float64)
        eps = float(cfg.norm_eps)
        eps_s = f"{eps:g}".replace("-", "−")
        E = vec.shape[0]
        if cfg.norm == "rmsnorm":
            ms = float(np.mean(vec**2))
            (xj, ms_s, g), printed = adding_up(
                [float(vec[j]), ms, float(gamma[j])], lambda v: v[0] / math.sqrt(v[1] + eps) * v[2], value, fmt
            )
            return (
                f"RMSNorm: {w['mean']}({xs}²) = {ms_s} ({E} {w['dims']}); "
                f"{xs}[{j}] / √({w['mean']}({xs}²) + ε) · γ[{j}] = {xj} / √({ms_s} + {eps_s}) · {_term(g)} = {printed}"
            )
        mean, var = float(vec.mean()), float(vec.var())
        b = float(beta[j]) if beta is not None else 0.0
        (xj, m, v2, g, bb), printed = adding_up(
            [float(vec[j]), mean, var, float(gamma[j]), b], lambda v: (v[0] - v[1]) / math.sqrt(v[2] + eps) * v[3] + v[4], value, fmt
        )
        return (
            f"LayerNorm: μ = {w['mean']}({xs}) = {m}, σ² = {w['variance']}({xs}) = {v2} ({E} {w['dims']}); "
            f"({xs}[{j}] − μ) / √(σ² + ε) · γ[{j}] + β[{j}] = ({xj} − {_term(m)}) / √({v2} + {eps_s}) · {_term(g)} + {_term(bb)} = {printed}"
        )

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
        (g_s, up_s), printed = adding_up([g, up], lambda v: _silu(v[0]) * v[1], value, fmt)
        return f"SiLU(x{sub(i)}·W_gate[:, {j}]) · (x{sub(i)}·W_in[:, {j}]) = SiLU({g_s}) · {_term(up_s)} = {printed}"
    name = {"gelu": "GELU", "gelu_tanh": "GELU", "relu": "ReLU"}[act]
    f = {"gelu": _gelu, "gelu_tanh": _gelu_tanh, "relu": lambda z: max(z, 0.0)}[act]
    (up_s,), printed = adding_up([up], lambda v: f(v[0]), value, fmt)
    return f"{name}(x{sub(i)} · W_in[:, {j}]) = {name}({up_s}) = {printed}"


def _gelu(z: float) -> float:
    return 0.5 * z * (1.0 + math.erf(z / math.sqrt(2.0)))


def _gelu_tanh(z: float) -> float:
    return 0.5 * z * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044715 * z**3)))


def _silu(z: float) -> float:
    return z / (1.0 + math.exp(-z)) if z > -700 else 0.0


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
    if np.abs(zrow).max() > 80:  # e^z would not fit a readable number: subtract the row's largest first
        top = float(zrow.max())
        numer, total = math.exp(z - top), float(np.exp(zrow - top).sum())
        (num_s, den_s), printed = adding_up([numer, total], lambda v: v[0] / v[1], value, fmt)
        (z_s,), num_s = adding_up([z - top], lambda v: math.exp(v[0]), num_s, fmt)
        return f"{given} = e^(z{sub(i)}[{j}]/T − max) / Σₖ e^(z{sub(i)}[k]/T − max) = e^({z_s}) / Σₖ … = {num_s} / {den_s} = {printed}"
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
    "layers.{l}.attn.q_rot": _rotated("q"),
    "layers.{l}.attn.k_rot": _rotated("k"),
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
