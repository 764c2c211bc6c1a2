"""How one number of a trace is made, step by step, with the trace's own numbers (issue 39).

``anatomy(trace, cell)`` returns the steps (``Step``: op, operands, result, running) that build the number
of ``cell`` (``Cell``: a stage, layer, head, query and a key, output column or FFN neuron) from its
inputs, ending on the trace's own number. The window's stepper, slides and the ``anatomy`` command only
render these. Pure core: numpy on the trace's arrays, no Qt, no torch.
"""

from __future__ import annotations

from collections.abc import Callable

from explorer.anatomy.attention_cells import concat_steps, heads_steps, out_steps, pairwise_steps, qkv_steps
from explorer.anatomy.block_cells import NORMS, ffn_steps, logit_steps, norm_steps, probs_steps, residual_steps
from explorer.anatomy.cell import PAIRWISE, Cell, check
from explorer.anatomy.embed_cells import embed_steps, token_steps
from explorer.anatomy.nonfinite_cells import nonfinite_steps
from explorer.anatomy.shorten import KEEP, LIMIT, shorten
from explorer.anatomy.steps import OPS, Step
from explorer.present.stages import STAGE_KEYS
from explorer.trace import Trace

__all__ = ["ANATOMY_STAGES", "Cell", "OPS", "Step", "anatomy"]

_BUILDERS: dict[str, Callable[[Trace, Cell], list[Step]]] = {
    "tokens": token_steps,
    "embed": embed_steps,
    "qkv": qkv_steps,
    **{key: pairwise_steps for key in PAIRWISE},
    "heads": heads_steps,
    "concat": concat_steps,
    "out": out_steps,
    "residual": residual_steps,
    "block": residual_steps,
    **{key: norm_steps for key in NORMS},
    "ffn": ffn_steps,
    "logits": logit_steps,
    "logit_cap": logit_steps,
    "probs": probs_steps,
}

# The stages whose numbers have an anatomy, in the pipeline's order (the CLI's --stage choices).
ANATOMY_STAGES: tuple[str, ...] = tuple(k for k in STAGE_KEYS if k in _BUILDERS)


def anatomy(trace: Trace, cell: Cell, whole: bool = False, keep: int = KEEP, limit: int = LIMIT) -> list[Step]:
    """The steps that make ``cell``'s number; a sum longer than ``limit`` terms shows its ``keep`` largest and
    the rest as one term (``whole``: every term). Raises ConfigError, one line, for a cell the trace lacks."""
    if cell.stage not in _BUILDERS:
        raise KeyError(f"no anatomy for stage {cell.stage!r}")
    check(trace, cell)
    steps = _BUILDERS[cell.stage](trace, cell)
    said_at_once = nonfinite_steps(trace, cell, steps)  # NaN or ±∞ by fault: where it came from, in one step
    if said_at_once is not None:
        return said_at_once
    if whole:
        return steps
    selected = cell.key if cell.stage == "weights" else cell.dim if cell.stage == "probs" else None
    return shorten(steps, keep, limit, always=() if selected is None else (selected,))
