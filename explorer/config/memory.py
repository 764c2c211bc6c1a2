"""The memory budget: what tracing or training a configuration will hold at its peak, estimated before
anything is allocated, and refused with a MemoryBudgetError past the budget."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from explorer.config.model_config import ModelConfig
from explorer.config.run_options import RunOptions
from explorer.errors import ConfigError, MemoryBudgetError
from explorer.vocab import HALF_DTYPES, array_dtype, itemsize

# Refuse a configuration whose estimate exceeds this before allocating anything. 4 GiB leaves room for the
# window and the OS on an 8 GB laptop; override with ATTENTION_EXPLORER_MEMORY_GB or --memory-budget.
DEFAULT_MEMORY_BUDGET_BYTES = 4 * 1024**3

# The attention computes a few heads at a time so that their transient (C, C) maps stay under this.
ATTENTION_CHUNK_BYTES = 192 * 1024**2

# A long text's maps are served as exact tiles (explorer/trace/tiles.py): above this many bytes for one head's
# whole (C, C) map, a trace keeps each layer's q, k and row log-sum-exp instead of anything C × C. 1/16 of the
# default budget: deriving one head's map holds three such maps and the window's cache keeps a few more, so
# 8,192 float32 tokens (256 MiB a map) are the longest text whose maps are still derived whole.
TILED_MAP_BYTES = DEFAULT_MEMORY_BUDGET_BYTES // 16

# A trace on the CPU derives its logits from final.out when they are read (explorer/trace/logits.py), in
# blocks of LOGIT_ROWS rows, of which it keeps the last LOGIT_BLOCKS for re-display.
LOGIT_ROWS = 64
LOGIT_BLOCKS = 8

# A lazy trace that captures some layers whole keeps the q and k of every other layer too, the operands of
# their maps, while they take at most this much: every layer's maps are then derived when looked at (a
# Llama-3.2-1B-shaped model at 2,048 tokens: 320 MiB, against 4 GiB for every layer's tensors).
MAP_OPERANDS_BYTES = 512 * 1024**2


def map_operand_bytes(config: ModelConfig, batch: int, context: int, options: RunOptions) -> int:
    """The bytes of every layer's q and k (rotated where the model turns them) as a trace keeps them: what its
    maps come from."""
    numbers = batch * context * (config.H + config.H_kv) * config.D * config.layers
    return numbers * itemsize(array_dtype(options.dtype))


def keeps_every_map(config: ModelConfig, batch: int, context: int, options: RunOptions) -> bool:
    """True when a trace with these options keeps the q and k of the layers it does not capture whole."""
    partial = options.layers_to_capture is not None and len(options.layers_to_capture) < config.layers
    return (
        options.lazy_pairwise and partial and map_operand_bytes(config, batch, context, options) <= MAP_OPERANDS_BYTES
    )


def logits_derived(config: ModelConfig, device: str = "cpu", dtype: str = "float32") -> bool:
    """True when a trace of this model leaves its logits to be derived when read: a plain unembedding (not an
    encoder's masked-LM head, not Gemma 2's soft-capped logits: more than one product) on the CPU (derived on
    the CPU, a GPU run's logits would not be the GPU's numbers). A half run's are derived in its dtype, from
    the model's own half unembedding (explorer/trace/logits.py)."""
    cpu = str(device).startswith("cpu")
    return not config.mlm_head and config.logit_softcap is None and cpu


def longest_whole_map(dtype: str) -> int:
    """The longest text whose maps are kept whole (not tiled) in ``dtype``: a half run's limit (trace/run.py)."""
    return math.isqrt(TILED_MAP_BYTES // itemsize(array_dtype(dtype)))


def maps_tiled(context: int, dtype: str) -> bool:
    """True when one head's whole map of ``context`` tokens is past TILED_MAP_BYTES: the trace then serves
    its maps as tiles and keeps per layer only what they are computed from. (A half run's maps are float32
    arrays, explorer/trace/readable.py: 4 bytes a cell, as float32's.)"""
    return context * context * itemsize(array_dtype(dtype)) > TILED_MAP_BYTES


def memory_budget_bytes() -> int:
    env = os.environ.get("ATTENTION_EXPLORER_MEMORY_GB")
    if env:
        try:
            gb = float(env)
        except ValueError:
            gb = math.nan
        # "inf" made int() raise OverflowError (a traceback); 0 or less would refuse every model.
        if not (math.isfinite(gb) and gb > 0):
            raise ConfigError(f"ATTENTION_EXPLORER_MEMORY_GB must be a positive number of GB, got {env!r}")
        return int(gb * 1024**3)
    return DEFAULT_MEMORY_BUDGET_BYTES


@dataclass(frozen=True)
class MemoryEstimate:
    params_bytes: int
    trace_bytes: int  # arrays kept in the trace
    peak_bytes: int  # params + trace + the largest transient of the forward pass

    def describe(self) -> str:
        return f"parameters {_gib(self.params_bytes)}, trace {_gib(self.trace_bytes)}, peak {_gib(self.peak_bytes)}"


def _gib(n: int) -> str:
    return f"{n / 1024**3:.2f} GiB" if n >= 1024**3 else f"{n / 1024**2:.1f} MiB"


def estimate_memory(
    config: ModelConfig, batch: int, context: int, options: RunOptions | None = None, logits_kept: bool | None = None
) -> MemoryEstimate:
    """A conservative estimate of what tracing (batch × context) tokens will hold at its peak. ``logits_kept``:
    whether the trace stores every row of its logits (None: unless it derives them, ``logits_derived``; a
    run that patches the logits stores them); else it holds a few blocks of them at a time."""
    options = options or RunOptions()
    if maps_tiled(context, options.dtype):
        return _estimate_tiled(config, batch, context, options, logits_kept)
    item = itemsize(options.dtype)
    B, C = batch, context
    E, H, Hkv, D, Dv, F, V = config.E, config.H, config.H_kv, config.D, config.D_v, config.F, config.V
    params = config.parameter_count() * item
    layers = len(options.layers_to_capture) if options.layers_to_capture is not None else config.layers
    pairwise = 0 if options.lazy_pairwise else 2 * B * H * C * C  # scores and weights (scaled, masked derived)
    per_layer = (
        B * C * E * 6  # attn.in, attn.out, mid, ffn.in, ffn.out, out
        + B * C * (H * D + Hkv * D + Hkv * Dv) * (2 if config.positions == "rope" else 1)
        + (B * C * config.R if config.positions == "rope" else 0)  # rope_angles
        + B * H * C * Dv * 2  # heads, concat
        + B * C * F
        + pairwise
    )
    if logits_kept is None:
        logits_kept = not logits_derived(config, options.device, options.dtype)
    logit_rows = B * C if logits_kept else min(B * C, LOGIT_ROWS * LOGIT_BLOCKS)
    # A half run computes in 2 bytes a number and its trace keeps float32 arrays (explorer/trace/readable.py),
    # the captured half tensors alive beside them until the trace is assembled.
    kept = itemsize(array_dtype(options.dtype)) + (item if options.dtype in HALF_DTYPES else 0)
    trace = (B * C * E * 4 + layers * per_layer + logit_rows * V) * kept + B * C * C  # probs are derived from logits
    # (A half run's parameters become float32 arrays only when a view reads one: explorer/trace/deferred.py.)
    if keeps_every_map(config, B, C, options):  # the q and k of the layers not captured whole
        operands = map_operand_bytes(config, B, C, options) // itemsize(array_dtype(options.dtype))
        trace += operands * kept * (config.layers - layers) // config.layers
    # The attention computes a few heads at a time, but never less than one: a single head's scores, masked
    # scores and weights (3·B·C² numbers) are alive together however small the chunk. Capping the transient
    # at the chunk size let 25,000 tokens pass a 4 GiB budget and then get the process killed for 7.5 GB.
    one_head = 3 * B * C * C * item
    masks = 3 * B * C * C  # bool: the mask, its negation in mask_scores, the (C, C) pattern
    transient = (
        max(min(3 * B * H * C * C * item, ATTENTION_CHUNK_BYTES), one_head) + masks + B * C * max(F, E * 4) * item
    )
    return MemoryEstimate(params, trace, params + trace + transient)


def mask_unread(config: ModelConfig, options: RunOptions, padded: bool = False) -> bool:
    """True when a long text's run never reads its mask's cells (explorer/trace/run.py): the plain causal mask
    without padding, every layer on the fused causal kernel on the CPU (no sliding layer, no soft-cap). Its
    trace keeps the mask as a view of 2C − 1 booleans and the model gets a stand-in: no C × C array at all."""
    return (
        options.mask.kind == "causal"
        and not padded
        and str(options.device).startswith("cpu")
        and config.attn_softcap is None
        and not config.sliding_layers
    )


def _estimate_tiled(
    config: ModelConfig, B: int, C: int, options: RunOptions, logits_kept: bool | None
) -> MemoryEstimate:
    """A long text's trace (``maps_tiled``): per layer q, k and each row's log-sum-exp; final.out and a few
    blocks of logits; the mask (booleans, unless it is never read: ``mask_unread``, one sentence). Its
    transient: one layer's activations, one block of query rows against every key, and the mask's making (one
    more (C, C) of booleans). Nothing of C × C numbers."""
    item = itemsize(options.dtype)
    E, H, Hkv, D, Dv, F, V = config.E, config.H, config.H_kv, config.D, config.D_v, config.F, config.V
    params = config.parameter_count() * item
    layers = len(options.layers_to_capture) if options.layers_to_capture is not None else config.layers
    per_layer = B * C * ((H + Hkv) * D + H)  # q (after RoPE), k, lse
    if logits_kept is None:
        logits_kept = not logits_derived(config, options.device, options.dtype)
    logit_rows = B * C if logits_kept else min(B * C, LOGIT_ROWS * LOGIT_BLOCKS)
    mask = 0 if B == 1 and mask_unread(config, options) else B * C * C  # booleans (several sentences may pad)
    trace = (B * C * E + layers * per_layer + logit_rows * V) * item + mask
    # one layer at work: its input, q, k, v (and rotated), R, the output and residual sums, the FFN's widths
    layer_at_work = B * C * (6 * E + 2 * (H + 2 * Hkv) * D + 2 * H * Dv + 3 * F) * item
    transient = layer_at_work + ATTENTION_CHUNK_BYTES + mask  # a row block; the mask's making
    return MemoryEstimate(params, trace, params + trace + transient)


def check_memory(
    config: ModelConfig,
    batch: int,
    context: int,
    options: RunOptions | None = None,
    budget: int | None = None,
    logits_kept: bool | None = None,
) -> MemoryEstimate:
    est = estimate_memory(config, batch, context, options, logits_kept)
    budget = memory_budget_bytes() if budget is None else budget
    if est.peak_bytes > budget:
        raise MemoryBudgetError(
            f"this configuration would need about {_gib(est.peak_bytes)} ({est.describe()}), more than the "
            f"{_gib(budget)} budget; make E, H, L, the vocabulary or the text smaller, or raise the budget "
            "(--memory-budget GB or ATTENTION_EXPLORER_MEMORY_GB)"
        )
    return est


def check_training_memory(config: ModelConfig, batch: int, context: int, budget: int | None = None) -> MemoryEstimate:
    """Refuse, before building anything, a training run whose weights, gradients, AdamW moments (4× the
    parameters) and one step's activations exceed the budget. Without it, ``train -E 4096 -L 64`` spent
    minutes allocating 50 GB."""
    est = estimate_memory(config, batch, context)
    need = est.peak_bytes + 3 * est.params_bytes
    budget = memory_budget_bytes() if budget is None else budget
    if need > budget:
        raise MemoryBudgetError(
            f"training this configuration would need about {_gib(need)} (weights, gradients and optimizer state "
            f"{_gib(4 * est.params_bytes)}), more than the {_gib(budget)} budget; make E, H, L, the batch or the "
            "context smaller, or raise the budget"
        )
    return est


def estimate_generation(
    config: ModelConfig, prompt_tokens: int, new_tokens: int, options: RunOptions | None = None, use_cache: bool = True
) -> MemoryEstimate:
    """What a generation holds at its peak once its prompt is traced: the prompt's trace, every step's logits
    and attention rows (twice: kept, then assembled into the snapshot's arrays), the KV cache and its copy,
    and the largest decode step (without the cache, a whole forward pass over every token so far)."""
    options = options or RunOptions()
    item = itemsize(options.dtype)
    T, total = new_tokens, prompt_tokens + new_tokens
    L, H, Hkv, D, Dv, V = config.layers, config.H, config.H_kv, config.D, config.D_v, config.V
    prompt = estimate_memory(config, 1, prompt_tokens, options)
    kept = 2 * (T * V + L * H * T * (total + D)) * item  # logits, attention rows and query rows
    cache = 2 * L * Hkv * total * (D + Dv) * item if use_cache else 0
    if use_cache:  # one new query against every key so far
        step = (L * (H * total * 4 + Hkv * (D + Dv) + config.E * 8) + V * 2) * item
    else:
        whole = estimate_memory(config, 1, total, options)
        step = whole.peak_bytes - whole.params_bytes
    return MemoryEstimate(
        prompt.params_bytes,
        prompt.trace_bytes + kept + cache,
        prompt.params_bytes + prompt.trace_bytes + kept + cache + step,
    )


def check_generation_memory(
    config: ModelConfig,
    prompt_tokens: int,
    new_tokens: int,
    options: RunOptions | None = None,
    use_cache: bool = True,
    budget: int | None = None,
) -> MemoryEstimate:
    """Refuse a generation past the budget before its first decode step (``generate --no-cache`` of many
    tokens after a long prompt ran a whole forward pass per token with no bound)."""
    est = estimate_generation(config, prompt_tokens, new_tokens, options, use_cache)
    budget = memory_budget_bytes() if budget is None else budget
    if est.peak_bytes > budget:
        advice = "fewer new tokens, the KV cache (drop --no-cache)" if not use_cache else "fewer new tokens"
        raise MemoryBudgetError(
            f"generating {new_tokens} tokens after a prompt of {prompt_tokens} "
            f"token{'' if prompt_tokens == 1 else 's'} would need about {_gib(est.peak_bytes)} "
            f"({est.describe()}), more than the {_gib(budget)} budget; ask for {advice}, a shorter prompt, or "
            "raise the budget"
        )
    return est
