"""The anatomy of a weight a decode step wrote (generation with the KV cache): the step's own query row
(``gen.layers.L.attn.q``) against the cached keys (``cache.layers.L.k``), each q_d·k_d, ÷√D, the soft-cap, the
mask with its reason, the softmax of the row the step saw, and the weight the generation stored, which the
Generate panel's map draws. Nothing is traced again: the numbers are the generation's own.

The query is kept as the scores read it (after the q/k norm and RoPE), so those family steps have no step
here; the cached keys are rotated already for the same reason (explorer/model/kv_cache.py)."""

from __future__ import annotations

import math

import numpy as np

from explorer import names
from explorer.anatomy.cell import Cell
from explorer.anatomy.shorten import KEEP, LIMIT, shorten
from explorer.anatomy.steps import Step
from explorer.anatomy.sums import cell_step, dot_steps, f64, number_type, softmax_steps
from explorer.errors import ConfigError
from explorer.generation.result import Generation
from explorer.vocab import window_first_key


def holds_decode_anatomy(generation: Generation, layer: int) -> bool:
    """Whether the generation kept what a decode row's anatomy reads in ``layer``: every step's query row
    (older snapshots lack it) and the cache's keys (a generation without the cache has none)."""
    held = generation.trace.stored_names()
    if not (f"gen.layers.{layer}.attn.q" in held and f"cache.layers.{layer}.k" in held):
        return False
    scaling = generation.trace.config.rope_scaling
    cached = generation.trace[f"cache.layers.{layer}.k"].shape[-2]  # C_total
    # The loop drops the cache once the text outgrows LongRoPE's short factors (loop.long_rope_crossed): the
    # kept keys are then turned the long way, not as the earlier steps saw them; such a row is traced again.
    return not (scaling is not None and scaling.kind == "longrope" and cached > scaling.original_max)


def _allowed(generation: Generation, layer: int, i: int, keys: int) -> tuple[np.ndarray, list[str]]:
    """(keys,) True where query ``i`` saw key j in ``layer``, and why each other key was hidden: the future
    (causal), the run's sliding window, or the layer's own window (Gemma 2 and 3, Phi-3)."""
    cfg, mask = generation.trace.config, generation.trace.options.mask
    reasons = []
    for j in range(keys):
        if j > i:
            reasons.append("causal")
        elif mask.kind == "window" and j < window_first_key(i, mask.size):
            reasons.append("window")
        elif cfg.is_sliding(layer) and i - j >= cfg.sliding_window:
            reasons.append("sliding window")
        else:
            reasons.append("visible")
    return np.array([r == "visible" for r in reasons]), reasons


def _check(generation: Generation, step: int, layer: int, head: int, key: int) -> None:
    cfg, T = generation.trace.config, len(generation.steps)
    if not 1 <= step < T:
        raise ConfigError(f"decode step {step} does not exist: choose 1 … {T - 1} (step 0 is the prompt's last row)")
    if not 0 <= layer < cfg.layers or not 0 <= head < cfg.H:
        raise ConfigError(
            f"layer {layer}, head {head} does not exist: layers 0 … {cfg.layers - 1}, heads 0 … {cfg.H - 1}"
        )
    if not holds_decode_anatomy(generation, layer):
        raise ConfigError(
            "this generation kept no query rows or no KV cache: its decode rows have no steps of their own"
        )
    fed = generation.trace[f"cache.layers.{layer}.k"].shape[2]
    if not 0 <= key < fed:
        raise ConfigError(f"key {key} was never fed to the model: choose 0 … {fed - 1}")


def decode_steps(generation: Generation, step: int, layer: int, head: int, key: int) -> list[Step]:
    """Every step of the weight that decode ``step`` (1 … T − 1; its query sits at C − 1 + step) gave ``key``
    in ``layer``, ``head``. The products are float64; the score row goes on in the run's dtype and the model's
    order (S / √D, then c·tanh(· / c), then the mask); the last step is the stored weight, bit for bit."""
    _check(generation, step, layer, head, key)
    trace, cfg = generation.trace, generation.trace.config
    kind = number_type(trace.options.dtype)
    i = generation.prompt_tokens - 1 + step  # the query's position
    g = names.kv_head_of(head, cfg.H, cfg.H_kv)
    q = trace[f"gen.layers.{layer}.attn.q"][0, head, step]  # (D,)
    K = trace[f"cache.layers.{layer}.k"][0, g, : max(i, key) + 1]  # (n,D): keys 0 … i, and j when later
    steps = dot_steps(q, K[key], ("q", "k"))
    scores = (f64(K) @ f64(q)).astype(kind)  # (n,): the score row in the run's dtype
    if trace.options.scale:
        root = math.sqrt(q.shape[-1])
        scaled = scores / kind(root)  # the model divides in its dtype by √D rounded to it
        steps.append(Step("scale", {"score": scores[key], "sqrt_D": root}, scaled[key]))
    else:
        scaled = scores
        steps.append(Step("no_scale", {"score": scores[key]}, scores[key]))
    if cfg.attn_softcap is not None:
        cap = kind(cfg.attn_softcap)
        capped = (np.tanh(scaled / cap) * cap).astype(kind)  # tanh(s / c) · c, as the model orders it
        steps.append(Step("softcap", {"x": scaled[key], "c": float(cap)}, capped[key]))
        scaled = capped
    allowed, reasons = _allowed(generation, layer, i, len(scores))
    row = np.where(allowed, f64(scaled), -np.inf)  # (n,): what the softmax reads
    place = int((row[allowed] > row[key]).sum()) + 1 if allowed[key] else None
    out = float(scaled[key]) if allowed[key] else -math.inf
    operands = {"x": scaled[key], "reason": reasons[key], "place_in_row": place, "visible_keys": int(allowed.sum())}
    steps.append(Step("mask", operands, out))
    soft = softmax_steps(row, key)
    steps += soft
    value = next((float(s.result) for s in soft if s.op == "divide" and s.index == key), 0.0)
    name = f"gen.layers.{layer}.attn.weights"
    where = {"tensor": name, "sentence": 0, "query": i, "head": head, "key": key, "step": step}
    return steps + [cell_step(trace[name][0, head, step, key], value, trace.options.dtype, where)]


def decode_anatomy(generation: Generation, cell: Cell, whole: bool = False, keep: int = KEEP, limit: int = LIMIT):
    """``decode_steps`` for a weight cell of the generation's map (``cell.query`` ≥ the prompt's tokens),
    shortened like every anatomy (explorer.anatomy.anatomy) unless ``whole``."""
    if cell.stage != "weights" or cell.key is None:
        raise ConfigError("a decode row of the generation's map holds weights: ask for a weight cell with its key")
    steps = decode_steps(generation, cell.query - generation.prompt_tokens + 1, cell.layer, cell.head, cell.key)
    return steps if whole else shorten(steps, keep, limit, always=(cell.key,))
