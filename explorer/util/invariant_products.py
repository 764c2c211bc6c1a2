"""Matrix products whose last bits do not depend on the number of threads (MKL's strict reproducible mode).

MKL splits a product with a long inner dimension (an FFN's down-projection of 3,072) differently on one and on
two threads, and rounds differently: a GPT-2-small trace of 256 tokens differed in 158 of its 372 tensors
between the two counts. In its strict CNR mode (``MKL_CBWR=AUTO,STRICT``: the fastest code for this CPU,
bitwise the same on any thread count for ?gemm) none differ, and the trace took as long (0.46–0.50 s both
ways, alternating, on the 2-core machine). Only then may a run's thread count follow the machine's load
(explorer/util/threads.py) without a trace's numbers depending on it: an intervened run and its baseline, or
one text traced twice, stay equal bit for bit.

MKL reads the mode once, before its first product: ``explorer/__init__.py`` sets the variable (a user's own
setting wins), and ``products_invariant`` sets it through MKL's own call where MKL started before that.
Elsewhere (no MKL: Apple's Accelerate, OpenBLAS builds; MKL already used in another mode) products are not
known to be invariant, and runs keep the process's fixed count.
"""

from __future__ import annotations

import ctypes
import os
import threading
from functools import lru_cache

ENV = "MKL_CBWR"
STRICT_AUTO = "AUTO,STRICT"
_MKL_CBWR_ALL, _MKL_CBWR_AUTO, _MKL_CBWR_STRICT = -1, 2, 0x10000  # mkl_service.h
_lock = threading.Lock()
_known: list[bool] = []


@lru_cache(maxsize=1)
def _mkl():
    """MKL's service calls, as linked into torch's CPU library; None where they are not there."""
    import torch

    folder = os.path.join(os.path.dirname(torch.__file__), "lib")
    for name in ("libtorch_cpu.so", "libtorch_cpu.dylib"):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            try:
                lib = ctypes.CDLL(path)
                get, set_ = lib.mkl_serv_cbwr_get, lib.mkl_serv_cbwr_set
            except (OSError, AttributeError):
                return None
            return get, set_
    return None


def products_invariant() -> bool:
    """True when this process's matrix products give the same bits on any thread count (asked once: the
    mode cannot change after MKL's first product)."""
    with _lock:
        if not _known:
            _known.append(_strict_now())
        return _known[0]


def _strict_now() -> bool:
    calls = _mkl()
    if calls is None:
        return False
    get, set_ = calls
    if os.environ.get(ENV, STRICT_AUTO) == STRICT_AUTO and not get(_MKL_CBWR_ALL) & _MKL_CBWR_STRICT:
        set_(_MKL_CBWR_AUTO | _MKL_CBWR_STRICT)  # refused (a negative code) once MKL has multiplied
    return bool(get(_MKL_CBWR_ALL) & _MKL_CBWR_STRICT)
