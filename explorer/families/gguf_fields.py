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
