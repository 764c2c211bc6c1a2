"""The anatomy of a number that is NaN or infinite: one step saying which input already held such a number and
the trace's first tensor that did (issue 44), instead of a chain of NaN terms or the softmax's "every key
blocked: the row is all 0", which a row of NaN scores also reached (no entry of it is finite).

The mask's −∞ in the masked map is the mask's own choice, not a fault: it keeps its ordinary chain.
"""

from __future__ import annotations

import math

import numpy as np

from explorer import names
from explorer.anatomy.cell import PAIRWISE, Cell
from explorer.anatomy.steps import Step
from explorer.anatomy.sums import cell_step
from explorer.trace import Trace
from explorer.trace.finite import first_nonfinite_stage, nonfinite_source


def said(x: float) -> str:
    """NaN, +∞ or −∞ as the maps' hover prints them (explorer/present/number_format.py)."""
    return "NaN" if math.isnan(x) else ("+∞" if x > 0 else "−∞")


def faulty(stage: str, value: float) -> bool:
    """Whether a cell's number is NaN or infinite by fault: the masked map's −∞ is where the mask blocks."""
    if math.isfinite(value):
        return False
    return not (stage == "masked" and value == -math.inf)


def _first_bad(a: np.ndarray) -> float | None:
    """The first NaN or infinity of ``a`` (None when every entry is finite)."""
    flat = np.asarray(a, dtype=np.float64).reshape(-1)
    bad = ~np.isfinite(flat)
    return float(flat[bad.argmax()]) if bad.any() else None


def _pairwise_inputs(trace: Trace, c: Cell) -> list[tuple[str, str, np.ndarray]]:
    """(tensor name, which part of it, the numbers) each pairwise cell reads: its query's q, its key's k and,
    for a weight, the masked row the softmax reads."""
    cfg, b, h, i, j = trace.config, c.sentence, c.head, c.query, c.key
    g = names.kv_head_of(h, cfg.H, cfg.H_kv)
    rope = "rope" if names.attn(c.layer, "q_rot") in trace.stored_names() else "none"
    q_name, k_name = names.qk(c.layer, rope)
    inputs = [
        (q_name, f"head {h}, query {i}", trace[q_name][b, h, i]),
        (k_name, f"head {g}, key {j}", trace[k_name][b, g, j]),
    ]
    if c.stage == "weights":
        row = trace.map_row(c.layer, "masked", b, h, i)
        kept = row[~np.isneginf(row)]  # the mask's −∞ are the mask's: a NaN or +∞ of the row is the fault
        inputs.append((names.attn(c.layer, "masked"), f"head {h}, query {i}'s row", kept))
    return inputs


def _inputs(trace: Trace, c: Cell) -> list[tuple[str, str, np.ndarray]]:
    if c.stage in PAIRWISE:
        return _pairwise_inputs(trace, c)
    if c.stage == "heads":
        g = names.kv_head_of(c.head, trace.config.H, trace.config.H_kv)
        weights = (
            names.attn(c.layer, "weights"),
            f"head {c.head}, query {c.query}",
            trace.map_row(c.layer, "weights", c.sentence, c.head, c.query),
        )
        values = names.attn(c.layer, "v")
        return [weights, (values, f"head {g}, dim {c.dim}", trace[values][c.sentence, g, :, c.dim])]
    return []


def nonfinite_steps(trace: Trace, c: Cell, steps: list[Step]) -> list[Step] | None:
    """One step naming the input that holds NaN or ±∞ and the trace's first such tensor, then the cell's own
    last step, when the cell's number is NaN or infinite by fault; None otherwise (the ordinary chain)."""
    last = steps[-1] if steps else None
    if last is None or last.op != "cell" or not faulty(c.stage, float(last.result)):
        return None
    value = float(last.result)
    operands: dict = {}
    for name, part, numbers in _inputs(trace, c):
        bad = _first_bad(numbers)
        if bad is not None:
            operands = {"input": f"{name} ({part})", "holds": said(bad)}
            break
    first = nonfinite_source(trace.notices) or first_nonfinite_stage(trace)
    operands["first_in_trace"] = first
    # the map's number, said as itself: a float64 "recomputation" of a chain that never ran would be a guess
    return [Step("nonfinite", operands, value), cell_step(value, value, trace.options.dtype, dict(last.operands))]
