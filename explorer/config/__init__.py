"""What a model is (ModelConfig) and how one trace runs it (RunOptions), with validation, and the memory
budget both are checked against.

Both are frozen dataclasses: a change makes a new value, so the UI state, the worker and the manifest can
compare and store them without copies going stale. Every check raises ConfigError with a message a user
can act on. The parts: ``model_config`` (ModelConfig, size caps, input limits, seeds), ``run`` (MaskSpec,
RunOptions), ``memory`` (estimates and the budget); import from ``explorer.config`` itself.
"""

from __future__ import annotations

from explorer.config.memory import (
    ATTENTION_CHUNK_BYTES,
    DEFAULT_MEMORY_BUDGET_BYTES,
    LOGIT_BLOCKS,
    LOGIT_ROWS,
    TILED_MAP_BYTES,
    MemoryEstimate,
    check_generation_memory,
    check_memory,
    check_training_memory,
    estimate_memory,
    keeps_every_map,
    logits_derived,
    longest_whole_map,
    maps_tiled,
    mask_unread,
    memory_budget_bytes,
)
from explorer.config.model_config import (
    MAX_DIM,
    MAX_SEED,
    MAX_SENTENCES,
    MAX_TEXT_CHARS,
    MAX_TEXT_TOKENS,
    MAX_TRACE_TOKENS,
    ModelConfig,
    check_seed,
)
from explorer.config.run_options import MaskSpec, RunOptions
from explorer.vocab import ACTIVATIONS, DTYPES, MASK_KINDS, MAX_HEADS, MAX_LAYERS, NORMS, POSITIONS

__all__ = [
    "ACTIVATIONS",
    "ATTENTION_CHUNK_BYTES",
    "DEFAULT_MEMORY_BUDGET_BYTES",
    "DTYPES",
    "LOGIT_BLOCKS",
    "LOGIT_ROWS",
    "TILED_MAP_BYTES",
    "MASK_KINDS",
    "MAX_DIM",
    "MAX_HEADS",
    "MAX_LAYERS",
    "MAX_SEED",
    "MAX_SENTENCES",
    "MAX_TEXT_CHARS",
    "MAX_TEXT_TOKENS",
    "MAX_TRACE_TOKENS",
    "NORMS",
    "POSITIONS",
    "MaskSpec",
    "MemoryEstimate",
    "ModelConfig",
    "RunOptions",
    "check_generation_memory",
    "check_memory",
    "check_training_memory",
    "check_seed",
    "estimate_memory",
    "keeps_every_map",
    "logits_derived",
    "longest_whole_map",
    "maps_tiled",
    "mask_unread",
    "memory_budget_bytes",
]
