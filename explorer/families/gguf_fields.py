"""Reading one GGUF metadata field, checked (explorer/util/schema.py): shared by the reader of llama's metadata
(explorer/weights/gguf/config.py) and what the other families' modules add to it."""

from __future__ import annotations

import math
from typing import Any

from explorer.errors import ModelLoadError
from explorer.util.schema import Where, flag, number, whole

# Every metadata field this importer reads, checked in one place (explorer/util/schema.py): a head count of 0 once
# ended in ZeroDivisionError, an embedding length of "abc" or inf in a traceback, a NaN or negative rope base
# in NaN probabilities.


def _need(meta: dict, key: str, origin: str) -> Any:
    if key not in meta:
        raise ModelLoadError(f"{origin}: metadata {key} is missing")
    return meta[key]


def size(meta: dict, key: str, origin: str, default: int | None = None) -> int:
    value = _need(meta, key, origin) if default is None else meta.get(key, default)
    return whole(value, key, Where(origin, ModelLoadError), lo=1)


def real(meta: dict, key: str, origin: str, default: float, hi: float = math.inf) -> float:
    return number(meta.get(key, default), key, Where(origin, ModelLoadError), positive=True, hi=hi)


def optional(meta: dict, key: str, origin: str) -> float | None:
    """A positive number, or None where the file leaves it out (or writes 0: llama.cpp's "none")."""
    return None if meta.get(key) in (None, 0, 0.0) else real(meta, key, origin, 1.0)


def sliding_layers(meta: dict, arch: str, L: int, origin: str, default_pattern: int = 1) -> tuple[int, ...]:
    """The layers that slide: one flag per layer, or every layer but each n-th (n = 1: all of them)."""
    pattern = meta.get(f"{arch}.attention.sliding_window_pattern", default_pattern)
    if isinstance(pattern, list):  # one flag per layer: True where the layer slides
        if len(pattern) != L:
            raise ModelLoadError(
                f"{origin}: {arch}.attention.sliding_window_pattern has {len(pattern)} entries for {L} layers"
            )
        where = Where(origin, ModelLoadError)
        flags = [flag(v, f"{arch}.attention.sliding_window_pattern[{l}]", where) for l, v in enumerate(pattern)]
        return tuple(l for l, slides in enumerate(flags) if slides)
    n = size({"p": pattern}, "p", origin)
    return tuple(range(L)) if n == 1 else tuple(l for l in range(L) if (l + 1) % n)


def sliding_fields(meta: dict, arch: str, L: int, origin: str, default_pattern: int = 1) -> dict[str, Any]:
    """sliding_window and sliding_layers where the file sets a window, else nothing."""
    key = f"{arch}.attention.sliding_window"
    if key not in meta:
        return {}
    return {
        "sliding_window": size(meta, key, origin),
        "sliding_layers": sliding_layers(meta, arch, L, origin, default_pattern),
    }


# Every "{arch}." metadata key a GGUF file of a supported architecture may carry (issue 42), beyond what a
# family reads itself (its Family.gguf_keys): read by explorer/weights/gguf/config.py, or known not to change the
# numbers (with why). llama.cpp writes an architecture's hyperparameters under "{arch}.": any other such key set
# to something other than 0, false or empty is refused, naming it (tests/core/test_field_tables.py walks the
# gguf package's own key list).
GGUF_READ = (
    "context_length",
    "embedding_length",
    "block_count",
    "feed_forward_length",
    "attention.head_count",
    "attention.head_count_kv",
    "attention.key_length",
    "attention.value_length",
    "attention.layer_norm_rms_epsilon",
    "rope.dimension_count",
    "rope.freq_base",
    "rope.scaling.type",
    "rope.scaling.factor",
    "rope.scaling.original_context_length",
    "rope.scaling.yarn_beta_fast",
    "rope.scaling.yarn_beta_slow",
)
GGUF_INERT = {
    "vocab_size": "the vocabulary is counted from token_embd",
    "attention.causal": "true: a decoder's own mask (false is refused)",
    "rope.scaling.attn_factor": "1: cos and sin as they are (another value is refused)",
    "rope.scaling.yarn_ext_factor": "1 (or -1, llama.cpp's default): YaRN's ramp as transformers' (another is refused)",
    "rope.scaling.finetuned": "a note of how the model was trained",
    "expert_weights_scale": "0 or 1: the experts' weights as they are (another value is refused)",
    "expert_gating_func": "1: the router's softmax (0: llama.cpp's default, softmax; sigmoid is refused)",
}
_HARMLESS = {
    "attention.causal": lambda v: v is True or v == 1,
    "rope.scaling.attn_factor": lambda v: v in (0, 1),
    "rope.scaling.yarn_ext_factor": lambda v: v in (1, -1),
    "expert_weights_scale": lambda v: v in (0, 1),
    "expert_gating_func": lambda v: v in (0, 1),
}


def refuse_unread(meta: dict, tensors: dict, arch: str, family_keys: tuple[str, ...], origin: str) -> None:
    """Refuse, in one line that names it, an "{arch}." key neither read nor inert and set to something, and
    the per-frequency rotary factors llama.cpp stores as tensors (Phi-3.5's longrope)."""
    known = set(GGUF_READ) | set(family_keys)
    for key, value in meta.items():
        if not key.startswith(f"{arch}.") or key[len(arch) + 1 :] in known:
            continue
        short = key[len(arch) + 1 :]
        if short in _HARMLESS:
            if _HARMLESS[short](value):
                continue
        elif short in GGUF_INERT or ((len(value) == 0) if isinstance(value, (list, tuple, str, bytes)) else not value):
            continue  # inert, or 0, false or empty: nothing set
        shown = str(value)[:40]
        shown = shown if shown.isprintable() else repr(shown)  # a string value's newline would break the one line
        raise ModelLoadError(f"{origin}: metadata {key} = {shown} is not supported")
    factors = sorted(n for n in tensors if n.startswith("rope_factors"))
    if factors:
        raise ModelLoadError(f"{origin}: per-frequency rotary factors ({factors[0]}, longrope) are not supported")
