"""Freed memory: kept for the next trace while it is moderate, given back after large computations.

A trace's forward pass frees many transient tensors (scaled scores, masked scores, FFN inputs). glibc keeps
freed heap pages mapped, so without a trim a process's resident size grows by the largest transient seen,
and a window that re-traces long inputs looks as if it leaks. malloc_trim(0) returns them.

The other way round, glibc's defaults hand memory back too eagerly for a trace of moderate size: blocks
larger than a few MB are mapped with mmap and unmapped when freed, and the heap's top is trimmed once it
holds a few MB free, so every new trace first-touches its (C, C) maps page by page again. A GPT-2-small
trace of 256 tokens keeps 48 maps of 3 MB: 297 ms with those page faults, 239 ms without (issue 18).
"""

from __future__ import annotations

import ctypes
import sys
import threading
from functools import lru_cache

# Only worth a call after work that allocated at least this much.
TRIM_THRESHOLD_BYTES = 16 * 1024**2


# A trace whose (C, C) transients stay under TRIM_THRESHOLD_BYTES reuses freed pages: blocks up to
# REUSE_BLOCK_BYTES come from the heap (a 256-token trace's logits over a 50,000-word vocabulary are 51 MB;
# glibc's own threshold stops adapting at 32 MB) and REUSE_KEEP_BYTES of free memory stay mapped for the
# next trace. A larger trace hands memory back as it goes (blocks from RETURN_BLOCK_BYTES are mapped
# apart and unmapped when freed), which keeps its peak low: reusing there raised a 4096-token trace's
# peak from 2.8 to 3.5 GB.
REUSE_BLOCK_BYTES, REUSE_KEEP_BYTES = 128 * 1024**2, 256 * 1024**2
RETURN_BLOCK_BYTES, RETURN_KEEP_BYTES = 4 * 1024**2, 32 * 1024**2
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)
_mode: list[bool | None] = [None]  # True: reusing, False: returning, None: glibc's own defaults
_mode_lock = threading.Lock()


def prepare_for(transient_bytes: int) -> bool:
    """Before a trace: reuse freed pages for a moderate one, return them as it goes for a large one (see
    above). Returns whether freed pages are reused; False where the C library is not glibc."""
    libc = _libc()
    if libc is None or not hasattr(libc, "mallopt"):
        return False
    reuse = transient_bytes < TRIM_THRESHOLD_BYTES
    with _mode_lock:
        if _mode[0] != reuse:
            block, keep = (REUSE_BLOCK_BYTES, REUSE_KEEP_BYTES) if reuse else (RETURN_BLOCK_BYTES, RETURN_KEEP_BYTES)
            libc.mallopt(_M_MMAP_THRESHOLD, block)
            libc.mallopt(_M_TRIM_THRESHOLD, keep)
            if not reuse:
                libc.malloc_trim(0)  # what a run of moderate traces kept goes back before a large one
            _mode[0] = reuse
    return reuse


@lru_cache(maxsize=1)
def _libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc (musl, …)
        return None


@lru_cache(maxsize=1)
def _malloc_trim():
    return getattr(_libc(), "malloc_trim", None)


def release_freed_memory(allocated_bytes: int = TRIM_THRESHOLD_BYTES) -> bool:
    trim = _malloc_trim()
    if trim is None or allocated_bytes < TRIM_THRESHOLD_BYTES:
        return False
    trim(0)
    return True
