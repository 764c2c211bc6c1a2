"""The arithmetic every anatomy is made of: a dot product term by term with its running sum, a softmax row
(max, each e^(x − max), the sum, each ÷ sum), and the last step that meets the trace's own number.

Terms are computed in float64 from the stored float32 operands: the product of two float32 numbers is exact
in float64, so each term is the true one and the running sum differs from the exact sum only in float64's
last bits. The model's kernel adds in its own dtype and order; the last step (``cell_step``) shows the
trace's number, with the float64 recomputation beside it and whether the two agree in the trace's dtype.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from explorer.anatomy.steps import Step


def f64(a) -> np.ndarray:
    return np.asarray(a, dtype=np.float64)


def dot_steps(a, b, names: tuple[str, str], op: str = "product", start: float = 0.0) -> list[Step]:
    """a · b as one step per term: ``op`` with operands {names[0]: a_d, names[1]: b_d}, result a_d·b_d and
    the running sum (from ``start``)."""
    a, b = f64(a), f64(b)
    terms = a * b  # (n,): exact for float32 operands
    running = start + np.cumsum(terms)  # (n,)
    return [Step(op, {names[0]: a[d], names[1]: b[d]}, terms[d], float(running[d]), index=d) for d in range(len(terms))]


def last_running(steps: Sequence[Step], default: float = 0.0) -> float:
    for s in reversed(steps):
        if s.running is not None:
            return float(s.running)
    return default


def softmax_steps(row, selected: int | None, *, temperature: float | None = None) -> list[Step]:
    """The softmax of one row, step by step: the row (÷ T first when a temperature is given), its maximum
    over the finite entries, e^(x − max) for each entry with the running sum, the sum, each ÷ sum with the
    running total of the probabilities (which ends at 1). −∞ entries (masked keys) give e^(−∞) = 0."""
    x = f64(row)
    steps = [Step("row", {"length": len(x), "selected": selected}, x)]
    if temperature is not None:
        x = x / temperature
        steps.append(Step("temperature", {"T": temperature}, x))
    finite = np.isfinite(x)
    if not finite.any():
        steps.append(Step("empty_row", {}, 0.0))
        return steps
    top = float(x[finite].max())
    steps.append(Step("max", {"count": int(finite.sum())}, top))
    shifted = np.where(finite, x - top, -np.inf)  # (n,)
    exps = np.exp(shifted)  # (n,): 0 for a masked key
    total = np.cumsum(exps)
    steps += [
        Step("exp", {"x": x[k], "x_minus_max": shifted[k]}, exps[k], float(total[k]), index=k) for k in range(len(x))
    ]
    whole = float(total[-1])
    steps.append(Step("sum", {"count": len(x)}, whole))
    probs = exps / whole
    shares = np.cumsum(probs)
    steps += [
        Step("divide", {"exp": exps[k], "sum": whole}, probs[k], float(shares[k]), index=k) for k in range(len(x))
    ]
    return steps


def number_type(dtype: str) -> type:
    """The numpy type a step computes in for a run in ``dtype``: its own, float32 for bfloat16 (numpy has
    none; the last step still rounds to bfloat16, ``rounded_to``)."""
    return np.float32 if dtype == "bfloat16" else np.dtype(dtype).type


def rounded_to(value: float, dtype: str) -> float:
    """``value`` rounded to ``dtype`` (bfloat16: float32's upper 16 bits, to nearest, ties to even)."""
    if dtype != "bfloat16":
        return float(np.asarray(value, dtype=np.dtype(dtype)))
    if not math.isfinite(value):
        return float(np.float32(value))
    bits = int(np.asarray(value, dtype=np.float32).view(np.uint32))
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000) & 0xFFFFFFFF
    return float(np.uint32(bits).view(np.float32))


def cell_step(stored: float, recomputed: float, dtype: str, where: dict) -> Step:
    """The last step: the number the map shows (the trace's own, in its dtype), the float64 recomputation of
    the steps beside it, and ``exact``: whether that recomputation rounds to the stored number in the trace's
    dtype. ``where``: the tensor's name and index."""
    value = float(stored)
    rounded = rounded_to(recomputed, dtype)
    exact = rounded == value or (math.isnan(rounded) and math.isnan(value))
    extra = {"recomputed": float(recomputed), "exact": exact}
    if not exact and math.isfinite(value) and math.isfinite(rounded):
        extra["ulps"] = ulps_apart(value, rounded, dtype)
    return Step("cell", where, value, value, extra=extra)


def ulps_apart(a: float, b: float, dtype: str) -> int:
    """How many representable numbers of ``dtype`` lie between a and b (the kernel's order of additions
    moves the last bits)."""
    if dtype == "bfloat16":  # a bfloat16 number is a float32 one whose lower 16 bits are 0
        ia, ib = (int(np.asarray(v, dtype=np.float32).view(np.int32)) >> 16 for v in (a, b))
        return abs(ia - ib)
    kind = {2: np.int16, 4: np.int32}.get(np.dtype(dtype).itemsize, np.int64)
    ia, ib = (int(np.asarray(v, dtype=np.dtype(dtype)).view(kind)) for v in (a, b))
    return abs(ia - ib)
