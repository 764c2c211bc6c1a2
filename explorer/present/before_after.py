"""Before and after for the central view: any stage's matrix or head maps as the baseline run, the
intervened run, or their difference (intervened − baseline, drawn on a diverging map centred on 0).

Pure numpy, no Qt: the view picks a mode and draws what comes back. The baseline is the live window's run
without interventions, or, for a snapshot, the ``baseline.logits`` / ``baseline.probs`` it stores (only the
output stages can then be compared; ``comparable`` says which).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from explorer import __version__, names
from explorer.interventions.compare import difference
from explorer.present import matrices
from explorer.trace import Trace

MODES = ("intervened", "baseline", "difference")
NEED_BASELINE = ("baseline", "difference")  # the modes that draw the baseline's tensor
STORED = {"logits": "baseline.logits", "probs": "baseline.probs"}  # what a snapshot keeps of its baseline


def stored_baseline(trace: Trace) -> Trace | None:
    """The baseline a snapshot (or an exported run) carries: its ``baseline.logits`` and ``baseline.probs``
    as the ``logits`` and ``probs`` of a trace with the same rows. None when it has none."""
    have = trace.stored_names()
    if "baseline.logits" not in have:
        return None
    arrays = {"tokens": trace["tokens"], **{plain: trace[kept] for plain, kept in STORED.items() if kept in have}}
    return trace.replace(arrays, notices=(), labels=None, partial=False, interventions=None, app_version=__version__)


def comparable(baseline: Trace | None, name: str | None) -> bool:
    """Whether tensor ``name`` can be shown as baseline or difference."""
    return baseline is not None and name is not None and name in baseline


def compared_matrix(trace: Trace, baseline: Trace, name: str, head: int, row: int, mode: str) -> matrices.Matrix:
    """``matrices.stage_matrix`` of the intervened run, of the baseline, or of their difference. The
    baseline's matrix keeps the intervened one's columns (a vocabulary shows the same tokens in every mode)."""
    shown = matrices.stage_matrix(trace, name, head, row)
    if mode == "intervened":
        return shown
    full = matrices.stage_matrix(baseline, name, head, row, top=np.iinfo(np.int64).max)  # every column
    before = np.asarray(full.data)[:, list(shown.columns)]
    if mode == "baseline":
        return dataclasses.replace(shown, data=before)
    return dataclasses.replace(shown, data=difference(before, shown.data), signed=True)


def compared_maps(
    trace: Trace, baseline: Trace | None, stage: str, layer: int, row: int, heads, mode: str
) -> dict[int, np.ndarray]:
    """The (n, n) maps of ``heads`` (query i row, key j column) in ``mode``."""
    n = trace.rows[row].length
    after = {h: trace.head_map(layer, stage, row, h)[:n, :n] for h in heads}
    if mode == "intervened":
        return after
    before = {h: baseline.head_map(layer, stage, row, h)[:n, :n] for h in heads}
    if mode == "baseline":
        return before
    return {h: difference(before[h], after[h]) for h in heads}


def difference_levels(arrays: list[np.ndarray]) -> tuple[float, float]:
    """Symmetric levels (−m, m) for a difference, m its largest finite |value| (1 when all are 0): white is
    'unchanged' in every map of one scale."""
    return matrices.levels(list(arrays), signed=True)


def shown_maps(
    trace: Trace,
    baseline: Trace | None,
    stage: str,
    layer: int,
    row: int,
    heads,
    mode: str,
    allowed: np.ndarray | None = None,
) -> tuple[dict[int, np.ndarray], tuple[float, float, bool]]:
    """The maps of ``heads`` in ``mode`` and their shared levels (lo, hi, clipped): a difference on levels
    symmetric around 0, either run on ``matrices.map_levels``' (``allowed``: the cells the mask lets through)."""
    maps = compared_maps(trace, baseline, stage, layer, row, heads, mode)
    if mode == "intervened":  # the trace's own maps: their levels may be computed already (by the worker)
        return maps, matrices.head_levels(trace, stage, layer, row, heads)
    arrays = list(maps.values())
    if mode == "difference":
        return maps, (*difference_levels(arrays), False)
    return maps, matrices.map_levels(arrays, names.spec(names.attn(layer, stage)).signed, allowed)
