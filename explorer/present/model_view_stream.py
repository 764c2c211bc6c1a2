"""The Model view's row of a long text's layer, from explorer.trace.layer_glance (every head streamed from q
and k in bands of query rows) instead of each head's whole map: the same thumbnails, colour levels and scores
as ``model_view.summarise`` computes from whole maps (to float rounding), without (H, n, n) ever existing.
Numpy only at import."""

from __future__ import annotations

import numpy as np

from explorer.analysis import head_scores
from explorer.present import matrices

# From this many tokens a lazy trace's layers are streamed; shorter ones are read whole, as the other views
# read them (their maps are a few MB and the thumbnails are then the trace's very cells).
STREAM_FROM_TOKENS = 256
_ROWS_AT_ONCE = 1024  # rows of the sentence's mask read at a time (a 32k-token mask is 1 GB of booleans)


def streamed(trace, layer: int, n: int) -> bool:
    from explorer.trace.layer_glance import streams

    return n >= STREAM_FROM_TOKENS and streams(trace, layer)


def _allowed_rows(trace, row: int, n: int, r0: int, r1: int) -> np.ndarray:
    if "mask" not in trace.stored_names():
        return np.ones((r1 - r0, n), dtype=bool)
    return np.asarray(trace["mask"][row, r0:r1, :n], dtype=bool)


def sampled_cells(trace, row: int, n: int, heads: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) of the cells ``matrices.map_levels`` samples for the weights' clipped scale: every
    ``step``-th cell the mask allows, in row-major order, read a band of rows at a time."""
    per_map = max(1, matrices._SAMPLE // heads)
    total = sum(
        int(_allowed_rows(trace, row, n, r0, min(n, r0 + _ROWS_AT_ONCE)).sum()) for r0 in range(0, n, _ROWS_AT_ONCE)
    )
    step = total // per_map if total > per_map else 1
    rows, cols, seen = [], [], 0
    for r0 in range(0, n, _ROWS_AT_ONCE):
        flat = np.flatnonzero(_allowed_rows(trace, row, n, r0, min(n, r0 + _ROWS_AT_ONCE)))
        keep = flat[(seen + np.arange(flat.size)) % step == 0]
        seen += flat.size
        rows.append(keep // n + r0)
        cols.append(keep % n)
    return np.concatenate(rows), np.concatenate(cols)


def pooled_blocked(trace, row: int, n: int, cells: int) -> np.ndarray | None:
    """``matrices.pooled_mask`` of the sentence's blocked cells, a band of whole blocks of rows at a time."""
    if "mask" not in trace.stored_names():
        return None
    f = -(-n // cells)
    band = max(f, _ROWS_AT_ONCE // f * f)  # whole blocks of rows: each band shrinks by f, as the whole would
    return np.concatenate(
        [matrices.pooled_mask(~_allowed_rows(trace, row, n, r0, min(n, r0 + band)), cells) for r0 in range(0, n, band)]
    )


def glance_levels(glance, signed: bool) -> tuple[float, float, bool]:
    """``matrices.map_levels`` from the glance's range and sampled weights."""
    hi, lo = max(0.0, glance.high), min(0.0, glance.low)
    if signed:
        m = max(abs(hi), abs(lo)) or 1.0
        return -m, m, False
    hi = hi if hi > 0 else 1.0
    values = glance.samples.ravel()
    values = values[np.isfinite(values)]
    if values.size == 0:
        return lo, hi, False
    k = int(matrices.ROBUST_QUANTILE * (values.size - 1))
    top = float(np.partition(values, k)[k])
    if not top > 0 or top >= hi:
        return lo, hi, False
    return lo, top, True


def glance_scores(glance) -> dict[str, np.ndarray]:
    """``head_scores.text_scores`` from the glance's per-row facts (rows 1 … n − 1)."""
    if glance.row_entropy.shape[1] < 2:
        return {name: np.full(glance.row_entropy.shape[0], np.nan) for name in head_scores.TEXT_SCORES}
    return {
        "entropy": glance.row_entropy[:, 1:].mean(axis=1),
        "previous": glance.previous[:, 1:].mean(axis=1),
        "first": glance.first[:, 1:].mean(axis=1),
    }
