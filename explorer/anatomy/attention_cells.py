"""The anatomy of the attention's numbers: a Q·Kᵀ cell (q/k norm and RoPE where the model has them, each
q_d·k_d, ÷√D, the soft-cap, the mask with its reason, the cell's place in its row), a weight (that chain, then
the softmax of its whole row), an A·V cell (each weight × value), a concat cell and a concat·W_o cell
(Σₕ Rʰ·W_oʰ, equal to the concatenated product). Every number is read from the trace."""

from __future__ import annotations

import math

import numpy as np

from explorer import names
from explorer.anatomy.cell import Cell, stored
from explorer.anatomy.steps import Step
from explorer.anatomy.sums import cell_step, dot_steps, f64, last_running, number_type, softmax_steps
from explorer.errors import ConfigError
from explorer.trace import Trace
from explorer.trace.layer_mask import allowed_block

# The run's mask kinds (explorer.vocab.MASK_KINDS) as the reason a key is blocked.
_REASONS = {"causal": "causal", "window": "window", "prefix": "prefix", "explicit": "painted", "none": "none"}


def _family_steps(trace: Trace, c: Cell, letter: str, head: int, position: int) -> list[Step]:
    """q (or k) of one head at one position through the q/k norm and RoPE, where the model has them."""
    cfg, layer, b = trace.config, c.layer, c.sentence
    steps = []
    before = stored(trace, names.attn(layer, letter))
    normed = stored(trace, names.attn(layer, f"{letter}_norm"))
    if normed is not None and before is not None:
        D = before.shape[-1]
        whole = cfg.qk_norm == "all"  # OLMo 2: all heads of the position together
        vec = f64(before[b, :, position].reshape(-1) if whole else before[b, head, position])
        gamma = f64(trace[f"params.layers.{layer}.attn.{letter}_norm.weight"])
        part = slice(head * D, (head + 1) * D) if whole else slice(0, D)
        operands = {
            "of": letter,
            "vector": f64(before[b, head, position]),
            "mean_square": float(np.mean(vec**2)),
            "eps": float(cfg.norm_eps),
            "gamma": gamma[part],
        }
        steps.append(Step("qk_norm", operands, f64(normed[b, head, position])))
        before = normed
    rotated = stored(trace, names.attn(layer, f"{letter}_rot"))
    if rotated is not None and before is not None:
        operands = {
            "of": letter,
            "vector": f64(before[b, head, position]),
            "position": position,
            "theta": float(cfg.rope_theta_of(layer)),
            "rotary_dims": int(cfg.R),
        }
        steps.append(Step("rope", operands, f64(rotated[b, head, position])))
    return steps


def _qk(trace: Trace, layer: int) -> tuple[np.ndarray, np.ndarray]:
    q_name, k_name = names.qk(layer, "rope" if names.attn(layer, "q_rot") in trace.stored_names() else "none")
    return trace[q_name], trace[k_name]


def mask_reason(trace: Trace, c: Cell) -> str:
    """Why key j is hidden from query i in this layer: padding, the sliding window of the layer, or the run's
    mask (causal, window, prefix, painted); "cut" for an edge an intervention removed; "visible" if it is not."""
    b, i, j = c.sentence, c.query, c.key
    masked = trace.map_row(c.layer, "masked", b, c.head, i)  # (C,): one row, also of a long text's map
    if np.isfinite(masked[j]):
        return "visible"
    length = trace.rows[b].length
    if i >= length or j >= length:
        return "padding"
    mask = stored(trace, "mask")
    if mask is None:
        return _REASONS.get(trace.options.mask.kind, "mask")
    if mask[b, i, j] and not allowed_block(mask, trace.config, c.layer, b, (i, i + 1), (j, j + 1))[0, 0]:
        return "sliding window"
    if mask[b, i, j]:
        return "cut"
    return _REASONS.get(trace.options.mask.kind, "mask")


def score_chain(trace: Trace, c: Cell, upto: str) -> tuple[list[Step], float]:
    """The steps from q and k to the stage ``upto`` (scores, scaled, capped, masked), and its value.

    The sum of the products is float64; after it the chain goes on from the trace's own score, as the map
    shows it, in the trace's dtype and the model's order of operations (S / √D, then c·tanh(· / c), then
    the mask), so that every later step reproduces the model's number bit for bit where its kernel allows."""
    cfg, layer, b, h, i, j = trace.config, c.layer, c.sentence, c.head, c.query, c.key
    g = names.kv_head_of(h, cfg.H, cfg.H_kv)
    steps = _family_steps(trace, c, "q", h, i) + _family_steps(trace, c, "k", g, j)
    q, k = _qk(trace, layer)
    steps += dot_steps(q[b, h, i], k[b, g, j], ("q", "k"))
    if upto == "scores":
        return steps, last_running(steps)
    kind = number_type(trace.options.dtype)
    value = kind(trace.map_row(layer, "scores", b, h, i)[j])  # the score the map shows
    if trace.options.scale:
        root = math.sqrt(cfg.score_dim)  # √D, or Gemma 2/3's √query_pre_attn_scalar
        scaled = value / kind(root)  # the model divides in its dtype by √D rounded to it
        steps.append(Step("scale", {"score": value, "sqrt_D": root}, scaled))
        value = scaled
    else:
        steps.append(Step("no_scale", {"score": value}, value))
    if upto == "scaled":
        return steps, float(value)
    if cfg.attn_softcap is not None:
        cap = float(cfg.attn_softcap)
        capped = kind(math.tanh(float(value / kind(cap)))) * kind(cap)  # tanh(s / c) · c, as the model orders it
        steps.append(Step("softcap", {"x": value, "c": cap}, capped))
        value = capped
    if upto == "capped":
        return steps, float(value)
    reason = mask_reason(trace, c)
    row = f64(trace.map_row(layer, "masked", b, h, i))  # (C,)
    visible = np.isfinite(row)
    place = int((row[visible] > row[j]).sum()) + 1 if visible[j] else None
    out = float(value) if reason == "visible" else -math.inf
    operands = {"x": value, "reason": reason, "place_in_row": place, "visible_keys": int(visible.sum())}
    steps.append(Step("mask", operands, out))
    return steps, out


def pairwise_steps(trace: Trace, c: Cell) -> list[Step]:
    """A cell of scores, scaled, capped, masked or weights: its chain, then the trace's own number."""
    stage = c.stage
    upto = "masked" if stage == "weights" else stage
    steps, value = score_chain(trace, c, upto)
    if stage == "weights":
        row = trace.map_row(c.layer, "masked", c.sentence, c.head, c.query)  # (C,): what the softmax reads
        soft = softmax_steps(row, c.key)
        steps += soft
        value = next((float(s.result) for s in soft if s.op == "divide" and s.index == c.key), 0.0)
    name = names.attn(c.layer, stage)
    if stage == "capped":
        shown = trace[name][c.sentence, c.head, c.query, c.key]
    else:
        shown = trace.map_row(c.layer, stage, c.sentence, c.head, c.query)[c.key]
    return steps + [cell_step(shown, value, trace.options.dtype, c.where(name))]


def heads_steps(trace: Trace, c: Cell) -> list[Step]:
    """Rʰᵢ[K] = Σⱼ aᵢⱼ · vⱼ[K]: each weight times its value, added up."""
    cfg, layer, b, h, i, K = trace.config, c.layer, c.sentence, c.head, c.query, c.dim
    g = names.kv_head_of(h, cfg.H, cfg.H_kv)
    weights = trace.map_row(layer, "weights", b, h, i)  # (C,)
    values = trace[names.attn(layer, "v")][b, g, :, K]  # (C,)
    steps = dot_steps(weights, values, ("weight", "value"))
    name = names.attn(layer, "heads")
    return steps + [cell_step(trace[name][b, h, i, K], last_running(steps), trace.options.dtype, c.where(name))]


def concat_steps(trace: Trace, c: Cell) -> list[Step]:
    """concatᵢ[K] is head h's Rʰᵢ[d], K = h·D_v + d: the heads side by side."""
    h, d = divmod(c.dim, trace.config.D_v)
    value = trace[names.attn(c.layer, "heads")][c.sentence, h, c.query, d]
    name = names.attn(c.layer, "concat")
    steps = [Step("place", {"head": h, "dim": d, "value": value}, value)]
    return steps + [
        cell_step(trace[name][c.sentence, c.query, c.dim], float(value), trace.options.dtype, c.where(name))
    ]


def out_steps(trace: Trace, c: Cell) -> list[Step]:
    """outᵢ[K] = Σₕ Rʰᵢ · W_oʰ[:, K] (+ b_o[K]): one term per head, the note's identity, then the same as
    concatᵢ · W_o[:, K] at once."""
    layer, b, i, K = c.layer, c.sentence, c.query, c.dim
    name = names.attn(layer, "out")
    W_o = stored(trace, f"params.layers.{layer}.attn.W_o")
    concat = f64(trace[names.attn(layer, "concat")][b, i])  # (H·D_v,)
    if W_o is None:  # the unfactored form: the output is the concatenation
        steps = [Step("place", {"head": 0, "dim": K, "value": concat[K]}, concat[K])]
        return steps + [cell_step(trace[name][b, i, K], concat[K], trace.options.dtype, c.where(name))]
    R = f64(trace[names.attn(layer, "heads")][b, :, i])  # (H, D_v)
    Dv = R.shape[-1]
    column = f64(W_o[:, K])  # (H·D_v,)
    terms = [float(R[h] @ column[h * Dv : (h + 1) * Dv]) for h in range(R.shape[0])]
    running = np.cumsum(terms)
    steps = [
        Step("head_term", {"head": h, "R": R[h], "W_o": column[h * Dv : (h + 1) * Dv]}, terms[h], running[h], h)
        for h in range(len(terms))
    ]
    total = float(running[-1])
    bias = stored(trace, f"params.layers.{layer}.attn.b_o")
    if bias is not None:
        total += float(bias[K])
        steps.append(Step("bias", {"b": float(bias[K])}, float(bias[K]), total))
    at_once = float(concat @ column) + (float(bias[K]) if bias is not None else 0.0)
    steps.append(Step("concat_product", {"concat": concat, "W_o": column}, at_once))
    return steps + [cell_step(trace[name][b, i, K], total, trace.options.dtype, c.where(name))]


def qkv_steps(trace: Trace, c: Cell) -> list[Step]:
    """qᵢ[d] of head h = xᵢ · W_q[:, h·D + d] (+ b_q): one term per input dimension (k and v: their key head's
    column of W_k, W_v), from the attention's input x."""
    cfg, layer, b, i, d, part = trace.config, c.layer, c.sentence, c.query, c.dim, c.part or "q"
    head = c.head if part == "q" else names.kv_head_of(c.head, cfg.H, cfg.H_kv)
    width = cfg.D_v if part == "v" else cfg.D
    W = stored(trace, f"params.layers.{layer}.attn.W_{part}")
    if W is None:
        raise ConfigError(f"this model has no W_{part}: its {part} is not a product x · W_{part} to take apart")
    name = names.attn(layer, part)
    x = trace[f"layers.{layer}.attn.in"][b, i]  # (E,)
    column = head * width + d
    steps = dot_steps(x, W[:, column], ("x", f"W_{part}"))
    total = last_running(steps)
    bias = stored(trace, f"params.layers.{layer}.attn.b_{part}")
    if bias is not None:
        total += float(bias[column])
        steps.append(Step("bias", {"b": float(bias[column])}, float(bias[column]), total))
    return steps + [cell_step(trace[name][b, head, i, d], total, trace.options.dtype, c.where(name))]
