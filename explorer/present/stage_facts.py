"""Numbers and shapes that describe a stage in words: what the flow diagram prints in its boxes and what
the captions fill in ("C = 5 tokens", "√D = 4").

Pure (no Qt): the Qt layer only formats these into translated sentences.
"""

from __future__ import annotations

import math
from typing import Any

from explorer.present.row_facts import blocked_rows, row_length  # noqa: F401 - re-exported (captions read them here)
from explorer.present.stages import main_tensor, stage
from explorer.trace import Trace


def stage_numbers(trace: Trace, layer: int = 0, row: int = 0) -> dict[str, Any]:
    """The sizes a caption may quote, as ready-to-print values."""
    cfg, opt = trace.config, trace.options
    layers = trace.layers or (0,)
    sqrt_d = math.sqrt(cfg.score_dim)  # √D, or Gemma 2/3's √query_pre_attn_scalar
    return {
        "C": row_length(trace, row),
        "B": trace.B,
        "E": cfg.E,
        "D": cfg.D,
        "sqrt_D": f"{sqrt_d:.0f}" if sqrt_d.is_integer() else f"{sqrt_d:.2f}",
        "H": cfg.H,
        "H_kv": cfg.H_kv,
        "D_v": cfg.D_v,
        "HD": cfg.H * cfg.D_v,
        "F": cfg.F,
        "V": cfg.V,
        "L": cfg.L,
        "layer": layer,  # counted from 0, as the tensor names (layers.0…) and every view count them
        "layers": len(layers),
        "mask": str(opt.mask),
        "mask_kind": opt.mask.kind,
        "mask_size": opt.mask.size if opt.mask.size is not None else "",
        "scale": opt.scale,
        "temperature": f"{opt.temperature:g}",
        "positions": cfg.positions,
        "residual": cfg.residual,
        "norm": cfg.norm,
        "blocked_rows": blocked_rows(trace, row),
        "unfactored": cfg.unfactored_value,
    }


def stage_shape(key: str, trace: Trace, layer: int = 0, row: int = 0) -> tuple[str, int]:
    """The shape of the stage's main tensor for one sentence and one head, e.g. ``("(5, 16)", 4)``.

    The batch axis is dropped (one sentence), C is that sentence's length, and a head axis is dropped and
    returned as the count of heads (1 when the tensor has none). ``("", 1)`` when the trace lacks it.
    """
    name = main_tensor(key, layer if stage(key).per_layer else 0, trace)
    if name not in trace:
        return "", 1
    shape, labels = trace.shape(name), trace.labels(name)
    C = row_length(trace, row)
    dims, heads = [], 1
    for size, label in zip(shape, labels):
        if label == "B":
            continue
        if label in ("H", "H_kv") or (label == "K" and len(labels) == 4):  # a mixture's K chosen experts
            heads = size
            continue
        dims.append(C if label == "C" else size)
    return "(" + ", ".join(str(d) for d in dims) + (",)" if len(dims) == 1 else ")"), heads
