"""Give freed memory back to the operating system after large computations.

A trace's forward pass frees many transient tensors (scaled scores, masked scores, FFN inputs). glibc keeps
freed heap pages mapped, so without this a process's resident size grows by the largest transient seen,
and a window that re-traces long inputs looks as if it leaks. malloc_trim(0) returns them.
"""

from __future__ import annotations

import ctypes
import sys
from functools import lru_cache

# Only worth a call after work that allocated at least this much.
TRIM_THRESHOLD_BYTES = 16 * 1024**2


@lru_cache(maxsize=1)
def _malloc_trim():
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, …): nothing to do
        return None


def release_freed_memory(allocated_bytes: int = TRIM_THRESHOLD_BYTES) -> bool:
    trim = _malloc_trim()
    if trim is None or allocated_bytes < TRIM_THRESHOLD_BYTES:
        return False
    trim(0)
    return True
