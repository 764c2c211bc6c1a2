"""Reading one GGUF metadata field, checked (explorer/util/schema.py): shared by the llama architecture's
reader (explorer/weights/gguf/config.py) and what the other families add (families.py)."""

from __future__ import annotations

import math
from typing import Any

from explorer.errors import ModelLoadError
from explorer.util.schema import Where, number, whole

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
