"""Numbers that cannot be shown are said, not shown silently: the first tensor of a trace, in pipeline order,
that holds NaN or an infinity (finite but extreme settings do it: ``rope_theta`` 1e-300, a soft-cap of 1e308
that float32 rounds to infinity, weights of 3e38 whose sums overflow). The trace carries it as one notice,
which the command prints as a ``note:`` line and the window shows in its status bar; a snapshot holding such
numbers opens with the same notice instead of being refused.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from explorer import names
from explorer.trace.deferred import Deferred
from explorer.vocab import HALF_DTYPES

CHUNK = 1 << 22  # elements checked at a time: a large trace's tensor is never copied whole
ALL_LOGITS = 1 << 20  # derived logits up to this many numbers are checked at every position, else the last ones
# (computing every row of a long trace only to check them cost a fifth of its time: 0.7 s of 3.4 s at C = 1024)


def holds_nonfinite(name: str, a: np.ndarray) -> bool:
    """NaN or an infinity in ``a``; a masked map's −∞ is where the mask blocks, by definition, not a fault."""
    if a.dtype.kind not in "fc":
        return False
    masked = name.endswith(".attn.masked")
    flat = a.reshape(-1)
    for i in range(0, flat.size, CHUNK):
        part = flat[i : i + CHUNK]
        if not part.size:
            continue
        # max and min carry a NaN through and see an infinity, with no array of booleans: every trace is
        # checked, so the check costs two fast reductions
        top = part.max()
        if np.isnan(top) or top == np.inf or (not masked and not np.isfinite(part.min())):
            return True
    return False


def first_nonfinite(arrays: Iterable[tuple[str, np.ndarray]]) -> str | None:
    """The first name (in the order given) whose array holds NaN or an infinity."""
    return next((name for name, a in arrays if holds_nonfinite(name, a)), None)


NOTICE_START = "NaN or infinite values from "  # how the window tells this notice from the others


def nonfinite_notice(name: str, dtype: str) -> str:
    return (
        f"{NOTICE_START}{name} on (the first tensor, in pipeline order, that holds them): a "
        f"setting or a weight goes past what {dtype} can hold, and the numbers after it cannot be shown"
    )


def nonfinite_source(notices: Iterable[str]) -> str | None:
    """The tensor the finite-check notice among ``notices`` names (None when there is no such notice)."""
    for note in notices:
        if note.startswith(NOTICE_START):
            return note[len(NOTICE_START) :].split(" on (", 1)[0]
    return None


def first_nonfinite_stage(trace) -> str | None:
    """The first tensor of ``trace`` in pipeline order holding NaN or an infinity, maps and logits that the
    trace derives on demand included; None when every number is finite."""
    stored = [n for n in trace.stored_names() if not n.startswith("params.")]
    found = first_nonfinite((n, trace[n]) for n in stored)
    if found is not None:
        return _derived_before(trace, found, set(stored)) or found
    if "logits" in trace and "logits" not in stored:
        return "logits" if _derived_logits_nonfinite(trace) else None
    return None


def _derived_before(trace, found: str, stored: set[str]) -> str | None:
    """A lazily derived map of ``found``'s layer that comes before it (the scores of a soft-cap of infinity)
    and already holds the fault: derived for that one layer only, and only when a fault was found."""
    layer = names.layer_of(found)
    if layer is None:
        return None
    order = [n for n in trace.names() if not n.startswith("params.")]
    earlier = order[: order.index(found)]
    maps = [n for n in earlier if n not in stored and names.layer_of(n) == layer]
    return first_nonfinite((n, trace[n]) for n in maps)


def _derived_logits_nonfinite(trace) -> bool:
    """Derived logits: every position when they are few, else each sentence's last position (the prediction
    the window and the commands show first), so that the check costs no more than a small trace. Not derived
    at all where a bound shows them finite (every ordinary trace)."""
    if _logits_bounded(trace):
        return False
    V = trace.shape("logits")[-1]
    every = trace.B * trace.C * V <= ALL_LOGITS
    for b, row in enumerate(trace.rows):
        start = 0 if every else row.length - 1
        if holds_nonfinite("logits", np.asarray(trace.logits_rows(b, start, row.length))):
            return True
    return False


def _logits_bounded(trace) -> bool:
    """Every derived logit x·W_u + b_u is surely finite: |x·w| ≤ E·max|x|·max|w|, and that bound plus max|b_u|
    stays far below the largest number of the dtype (float rounding adds far less than the factor 4 kept).
    Six reductions, no product: deriving every logit in the trace's thread for the check alone made each
    trace job allocate its (B·C, V) block, and the window's worker grew by 13 to 39 MB over 1,000 traces
    (tests/ui/test_soak_worker.py; freed memory kept by each job thread's malloc arena). A NaN anywhere makes
    the bound NaN: not bounded, so the logits are derived and checked."""
    x = trace["final.out"]
    W = "params.embed.tok" if trace.config.tie_embeddings else "params.unembed.W_u"
    b = "params.unembed.b_u" if "params.unembed.b_u" in trace.stored_names() else None
    with np.errstate(over="ignore", invalid="ignore"):
        bound = x.shape[-1] * _largest_magnitude(x) * _parameter_magnitude(trace, W)
        bound += _parameter_magnitude(trace, b) if b is not None else 0.0
    # the run's dtype bounds its logits (float16's largest number is 65,504; a half run's arrays are float32)
    return bool(bound < _largest_number(str(trace.options.dtype), x.dtype) / 4)


def _parameter_magnitude(trace, name: str) -> float:
    """max |p| of a parameter; a half run's read in its own dtype, not made into the float32 array the trace
    lists it as (a 1B model's unembedding: 1 GB: explorer/trace/deferred.py)."""
    entry = trace.entry(name)
    if isinstance(entry, Deferred) and entry.source is not None:
        import torch

        t = entry.source
        return float(torch.maximum(t.max().float().abs(), t.min().float().abs())) if t.numel() else 0.0  # NaN carries
    return _largest_magnitude(entry)


def _largest_number(dtype: str, array_dtype: np.dtype) -> float:
    if dtype in HALF_DTYPES:
        import torch

        return float(torch.finfo(getattr(torch, dtype)).max)
    return float(np.finfo(array_dtype).max)


def _largest_magnitude(a: np.ndarray) -> float:
    """max |a| as a Python float (NaN when ``a`` holds one), without an array of absolute values."""
    if not a.size:
        return 0.0
    return float(np.max(np.abs([a.max(), a.min()])))  # np.max carries a NaN through


def with_nonfinite_notice(notices: tuple[str, ...], trace) -> tuple[str, ...]:
    """``notices`` and, when ``trace`` holds numbers that cannot be shown, the notice naming where."""
    found = first_nonfinite_stage(trace)
    if found is None:
        return notices
    note = nonfinite_notice(found, str(trace.options.dtype))
    return notices if note in notices else (*notices, note)
