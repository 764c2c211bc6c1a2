"""An independent re-computation of every traced stage, in plain numpy (float64) and the standard library.

Nothing here calls the engine: the only inputs are the trace's parameters (``params.*``, in the note's
(in, out) orientation), its token ids, the row lengths, and the settings written in its config/options.
Formulas are written out from the lecture note and the standard papers, not copied from the model code:

    Q = x·W_q (+ b_q), head h = columns h·D … h·D+D−1
    scores = Q·Kᵀ, scaled = scores/√D, masked = −inf where blocked, weights = softmax (0 rows when all blocked)
    heads = weights·V, concat = [R¹ … Rᴴ], out = concat·W_o (+ b_o)
"""

from __future__ import annotations

import math

import numpy as np

NEG_INF = -np.inf
_erf = np.vectorize(math.erf, otypes=[np.float64])


# ----------------------------------------------------------------------------------------- building blocks


def reference_mask(kind: str, size, matrix, lengths, C: int) -> np.ndarray:
    """(B, C, C) boolean: True where query i (row) may attend to key j (column)."""
    base = np.zeros((C, C), dtype=bool)
    for i in range(C):
        for j in range(C):
            if kind == "causal":
                ok = j <= i
            elif kind == "none":
                ok = True
            elif kind == "window":
                ok = i - size < j <= i
            elif kind == "prefix":
                ok = j <= i or (i < size and j < size)
            elif kind == "explicit":
                ok = bool(matrix[i][j])
            else:
                raise AssertionError(kind)
            base[i, j] = ok
    out = np.zeros((len(lengths), C, C), dtype=bool)
    for b, n in enumerate(lengths):
        out[b] = base
        out[b, :, n:] = False  # padding keys are never visible
    return out


def sinusoid(C: int, E: int) -> np.ndarray:
    """PE[p, 2i] = sin(p / 10000^(2i/E)), PE[p, 2i+1] = cos(p / 10000^(2i/E)); column by column, so an odd
    E simply ends on a sine (its cosine partner would be column E, which does not exist)."""
    pe = np.zeros((C, E))
    for p in range(C):
        for col in range(E):
            angle = p / (10000.0 ** (2 * (col // 2) / E))
            pe[p, col] = math.sin(angle) if col % 2 == 0 else math.cos(angle)
    return pe


def rope(x: np.ndarray, theta: float) -> np.ndarray:
    """Rotary embedding, "rotate half" layout: dims (i, i + D/2) rotate by angle p·θ^(−2i/D).

    x: (B, H, C, D). Written as the explicit 2-d rotation of each pair.
    """
    B, H, C, D = x.shape
    half = D // 2
    out = np.empty_like(x)
    for p in range(C):
        for i in range(half):
            angle = p * theta ** (-2.0 * i / D)
            c, s = math.cos(angle), math.sin(angle)
            a, b = x[:, :, p, i], x[:, :, p, i + half]
            out[:, :, p, i] = a * c - b * s
            out[:, :, p, i + half] = b * c + a * s
    return out


def layernorm(x, w, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)  # biased variance, as LayerNorm
    return (x - mean) / np.sqrt(var + eps) * w + b


def rmsnorm(x, w, eps):
    return x / np.sqrt((x**2).mean(-1, keepdims=True) + eps) * w


def gelu(x):
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


def silu(x):
    return x / (1.0 + np.exp(-x))


def softmax_rows(x: np.ndarray) -> np.ndarray:
    """Softmax over the last axis; a row that is all −inf gives all zeros (defined, never NaN)."""
    out = np.zeros_like(x, dtype=np.float64)
    flat_in = x.reshape(-1, x.shape[-1])
    flat_out = out.reshape(-1, x.shape[-1])
    for r in range(flat_in.shape[0]):
        row = flat_in[r]
        finite = np.isfinite(row)
        if not finite.any():
            continue
        e = np.where(finite, np.exp(row - row[finite].max()), 0.0)
        flat_out[r] = e / e.sum()
    return out


# ----------------------------------------------------------------------------------------- the whole model


def recompute(trace) -> dict[str, np.ndarray]:
    """Every activation of the trace, recomputed from its params and token ids (float64)."""
    cfg, opt = trace.config, trace.options
    P = {k: np.asarray(v, dtype=np.float64) for k, v in trace.params().items()}
    ids = np.asarray(trace["tokens"])
    B, C = ids.shape
    E, D, H, Hkv = cfg.embed_dim, cfg.key_dim, cfg.heads, cfg.kv_heads or cfg.heads
    Dv = E if cfg.unfactored_value else (cfg.value_dim or D)
    lengths = [r.length for r in trace.rows]
    m = opt.mask
    out: dict[str, np.ndarray] = {"tokens": ids}

    allowed = reference_mask(m.kind, m.size, m.matrix, lengths, C)
    out["mask"] = allowed
    out["mask.empty_rows"] = ~allowed.any(-1)

    table = P["params.embed.tok"]  # (V, E)
    tok = table[ids]  # (B, C, E)
    if cfg.positions == "sinusoidal":
        pos = np.broadcast_to(sinusoid(C, E), (B, C, E))
    elif cfg.positions == "learned":
        pos = np.broadcast_to(P["params.embed.pos"][:C], (B, C, E))
    else:
        pos = np.zeros((B, C, E))
    x = tok + pos
    out["embed.tok"], out["embed.pos"], out["embed.out"] = tok, pos, x

    def norm(h, prefix):
        if cfg.norm == "layernorm":
            return layernorm(h, P[f"{prefix}.weight"], P[f"{prefix}.bias"], cfg.norm_eps)
        if cfg.norm == "rmsnorm":
            return rmsnorm(h, P[f"{prefix}.weight"], cfg.norm_eps)
        return h

    def split(y, heads):  # (B, C, heads·d) → (B, heads, C, d): head h owns columns h·d … h·d+d−1
        d = y.shape[-1] // heads
        return np.stack([y[..., h * d : (h + 1) * d] for h in range(heads)], axis=1)

    group = H // Hkv
    for l in range(cfg.layers):
        p = f"params.layers.{l}"
        n = f"layers.{l}"
        a_in = norm(x, f"{p}.ln_attn")
        q = a_in @ P[f"{p}.attn.W_q"] + P.get(f"{p}.attn.b_q", 0.0)
        k = a_in @ P[f"{p}.attn.W_k"] + P.get(f"{p}.attn.b_k", 0.0)
        v = a_in @ P[f"{p}.attn.W_v"] + P.get(f"{p}.attn.b_v", 0.0)
        q, k, v = split(q, H), split(k, Hkv), split(v, Hkv)
        out[f"{n}.attn.in"], out[f"{n}.attn.q"], out[f"{n}.attn.k"], out[f"{n}.attn.v"] = a_in, q, k, v
        if cfg.positions == "rope":
            q, k = rope(q, cfg.rope_theta), rope(k, cfg.rope_theta)
            out[f"{n}.attn.q_rot"], out[f"{n}.attn.k_rot"] = q, k
            D = q.shape[-1]  # rope_angles (B, C, D): position p turns dims i and i + D/2 by p·θ^(−2i/D)
            angles = [[p * cfg.rope_theta ** (-2.0 * (i % (D // 2)) / D) for i in range(D)] for p in range(C)]
            out[f"{n}.attn.rope_angles"] = np.broadcast_to(np.array(angles), (B, C, D))
        scores = np.zeros((B, H, C, C))
        for b in range(B):
            for h in range(H):
                scores[b, h] = q[b, h] @ k[b, h // group].T
        scaled = scores / math.sqrt(D) if opt.scale else scores.copy()
        masked = np.where(allowed[:, None], scaled, NEG_INF)
        weights = softmax_rows(masked)
        heads = np.zeros((B, H, C, Dv))
        for b in range(B):
            for h in range(H):
                heads[b, h] = weights[b, h] @ v[b, h // group]
        concat = np.concatenate([heads[:, h] for h in range(H)], axis=-1)  # (B, C, H·D_v)
        if cfg.unfactored_value:
            attn_out = concat
        else:
            attn_out = concat @ P[f"{p}.attn.W_o"] + P.get(f"{p}.attn.b_o", 0.0)
        mid = x + attn_out if cfg.residual else attn_out
        f_in = norm(mid, f"{p}.ln_ffn")
        up = f_in @ P[f"{p}.ffn.W_in"] + P.get(f"{p}.ffn.b_in", 0.0)
        act = cfg.ffn_activation
        if act == "silu_gated":
            hidden = silu(f_in @ P[f"{p}.ffn.W_gate"] + P.get(f"{p}.ffn.b_gate", 0.0)) * up
        elif act == "gelu":
            hidden = gelu(up)
        elif act == "gelu_tanh":
            hidden = gelu_tanh(up)
        elif act == "relu":
            hidden = np.maximum(up, 0.0)
        else:
            raise AssertionError(act)
        f_out = hidden @ P[f"{p}.ffn.W_out"] + P.get(f"{p}.ffn.b_out", 0.0)
        x = mid + f_out if cfg.residual else f_out
        out.update(
            {
                f"{n}.attn.scores": scores,
                f"{n}.attn.scaled": scaled,
                f"{n}.attn.masked": masked,
                f"{n}.attn.weights": weights,
                f"{n}.attn.heads": heads,
                f"{n}.attn.concat": concat,
                f"{n}.attn.out": attn_out,
                f"{n}.mid": mid,
                f"{n}.ffn.in": f_in,
                f"{n}.ffn.hidden": hidden,
                f"{n}.ffn.out": f_out,
                f"{n}.out": x,
            }
        )
    final = norm(x, "params.ln_final")
    W_u = table.T if cfg.tie_embeddings else P["params.unembed.W_u"]
    logits = final @ W_u + P.get("params.unembed.b_u", 0.0)
    out["final.out"], out["logits"] = final, logits
    out["probs"] = softmax_rows(logits / opt.temperature)
    return out


def assert_matches(name: str, actual: np.ndarray, expected: np.ndarray, tol: float) -> None:
    """Same shape; −inf exactly where expected; no NaN; finite values within tol (absolute and relative)."""
    actual = np.asarray(actual)
    assert actual.shape == expected.shape, f"{name}: shape {actual.shape} != {expected.shape}"
    if actual.dtype == bool or expected.dtype == bool or np.issubdtype(actual.dtype, np.integer):
        assert np.array_equal(actual, expected), f"{name}: values differ"
        return
    a = actual.astype(np.float64)
    assert not np.isnan(a).any(), f"{name}: NaN in the trace"
    inf_a, inf_e = np.isinf(a), np.isinf(expected)
    assert np.array_equal(inf_a, inf_e), f"{name}: infinities at different places"
    assert np.array_equal(a[inf_a], expected[inf_e]), f"{name}: infinities of different sign"
    fin = ~inf_e
    np.testing.assert_allclose(a[fin], expected[fin], rtol=tol, atol=tol, err_msg=name)
