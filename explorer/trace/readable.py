"""A run's tensors as the numpy arrays a trace holds.

numpy has no bfloat16, so a run computed in a half dtype (bfloat16, float16) hands its tensors over as float32:
every bfloat16 and float16 number is exactly a float32 number, so the arrays hold the very numbers the model
computed, while the computation itself stays in the half dtype. Whatever a trace derives later from them (its
(C, C) maps, its logits: explorer/trace/derive.py, logits.py) casts them back, exactly, and computes in the
run's dtype, so a derived number equals the model's.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np
import torch

from explorer.trace.deferred import Deferred
from explorer.vocab import HALF_DTYPES as HALF_DTYPE_NAMES

HALF = (torch.bfloat16, torch.float16)

# A half model's parameters as float32 arrays, each made when first read and then shared by the model's traces:
# a trace holds the parameters it was made with, and converting them all for every trace (or at all, where no
# view reads them) would copy the weights (a 1B model in bfloat16: 4.6 GB of float32 beside its 2.3 GB).
_PARAMS: weakref.WeakKeyDictionary[torch.nn.Module, dict[str, Deferred]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def readable(tensor: torch.Tensor) -> np.ndarray:
    """The numpy array of a captured tensor: a view on the CPU, float32 (exact) for a half dtype."""
    t = tensor.detach().cpu()
    return t.float().numpy() if t.dtype in HALF else t.numpy()


def parameter_arrays(model: torch.nn.Module) -> dict[str, np.ndarray | Deferred]:
    """``params.<name>`` → the parameter as an array (views of a float32 or float64 model's own memory), or for
    a half model a Deferred that makes its float32 copy when the trace first reads it."""
    if model.embed.tok.dtype not in HALF:  # (a half Gemma's norms stay float32: the embedding says the dtype)
        return {f"params.{n}": p.detach().cpu().numpy() for n, p in model.named_parameters()}
    with _LOCK:
        if model not in _PARAMS:
            _PARAMS[model] = {f"params.{n}": _deferred(p) for n, p in model.named_parameters()}
        return dict(_PARAMS[model])


def _deferred(p: torch.nn.Parameter) -> Deferred:
    dtype = np.float32 if p.dtype in HALF else torch.empty(0, dtype=p.dtype).numpy().dtype
    return Deferred(lambda: readable(p), tuple(p.shape), dtype, source=p.detach())


def as_run_tensor(a: np.ndarray, dtype: str) -> torch.Tensor:
    """A stored array as the tensor the model had: a copy, cast back (exactly) to a half run's dtype."""
    t = torch.from_numpy(np.array(a))
    return t.to(getattr(torch, dtype)) if dtype in HALF_DTYPE_NAMES else t


def dtype_notice(stored: str, dtype: str) -> list[str]:
    """One line where a run's dtype is not the one the model's file stores its weights in."""
    if stored == dtype:
        return []
    if stored in HALF_DTYPE_NAMES and dtype not in HALF_DTYPE_NAMES:  # a half file computed in float32 or 64
        return [
            f"the weights are stored in {stored} and computed in {dtype} here (converted exactly); "
            f"the dtype {stored} computes as the model ships"
        ]
    if dtype in HALF_DTYPE_NAMES:
        return [f"the weights are stored in {stored} and rounded to {dtype} for this run"]
    return []
