"""A long map's overview: what the map view opens on when the whole (C, C) map of a head is too large to
hold or to draw cell by cell. Every number in it comes from the exact tiles (explorer/trace/tiles.py),
streamed a band of query rows at a time, so the overview is exact where it claims to be:

    block_max / block_mean   the largest / mean cell of each block × block square of the map (blocked cells
                             count as the stage shows them: weight 0, masked −∞)
    row_entropy              −Σⱼ Aᵢⱼ ln Aᵢⱼ of each query row's weights, in nats
    sink_mass                Aᵢ₀: the weight each query puts on the first token (an attention sink)
    top_keys / top_weights   each query's three heaviest keys and their weights, heaviest first
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

TOP_KEYS = 3
BAND_BYTES = 32 * 1024**2  # one band of rows × C cells (and its weights) at a time

# tile(stage, rows, cols) → the exact (r, c) cells of one head's map
TileOf = Callable[[str, tuple[int, int], tuple[int, int]], np.ndarray]


@dataclass(frozen=True)
class MapOverview:
    block: int  # tokens per overview cell, each way
    block_max: np.ndarray  # (n, n) float32, n = ceil(C / block)
    block_mean: np.ndarray  # (n, n) float32
    row_entropy: np.ndarray  # (C,) nats, of the weights
    sink_mass: np.ndarray  # (C,) the weight on key 0
    top_keys: np.ndarray  # (C, k) int32, heaviest first
    top_weights: np.ndarray  # (C, k) float32


def block_size(C: int, cells: int) -> int:
    """Tokens per overview cell so that ceil(C / block) ≤ cells."""
    if cells < 1:
        raise ValueError(f"an overview needs at least one cell a side, got {cells}")
    return max(1, math.ceil(C / cells))


def map_overview(tile_of: TileOf, stage: str, C: int, cells: int) -> MapOverview:
    """The overview of one head's ``stage`` map of C × C cells (the row facts always from its weights)."""
    block = block_size(C, cells)
    n = math.ceil(C / block)
    band = max(block, BAND_BYTES // (8 * C) // block * block)  # whole blocks of rows per band
    block_max = np.empty((n, n), np.float32)
    block_mean = np.empty((n, n), np.float32)
    entropy = np.empty(C, np.float64)
    sink = np.empty(C, np.float32)
    k = min(TOP_KEYS, C)
    top_keys = np.empty((C, k), np.int32)
    top_weights = np.empty((C, k), np.float32)
    for r0 in range(0, C, band):
        r1 = min(C, r0 + band)
        weights = np.asarray(tile_of("weights", (r0, r1), (0, C)), dtype=np.float64)  # (r, C)
        shown = weights if stage == "weights" else np.asarray(tile_of(stage, (r0, r1), (0, C)), np.float64)
        bmax, bmean = _blocks(shown, block, n)
        first = r0 // block
        block_max[first : first + bmax.shape[0]] = bmax
        block_mean[first : first + bmax.shape[0]] = bmean
        entropy[r0:r1] = _entropy(weights)
        sink[r0:r1] = weights[:, 0]
        keys, top = _top(weights, k)
        top_keys[r0:r1], top_weights[r0:r1] = keys, top
    return MapOverview(block, block_max, block_mean, entropy, sink, top_keys, top_weights)


def _blocks(shown: np.ndarray, block: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Max and mean of each block × block square of a band (whole blocks of rows; the last ones may be
    short in either direction: their mean is over the cells that exist)."""
    r, C = shown.shape
    rows = math.ceil(r / block)
    padded = np.full((rows * block, n * block), np.nan)
    padded[:r, :C] = shown
    squares = padded.reshape(rows, block, n, block).transpose(0, 2, 1, 3).reshape(rows, n, block * block)
    return np.nanmax(squares, axis=-1), np.nanmean(squares, axis=-1)


def _entropy(weights: np.ndarray) -> np.ndarray:
    """−Σ w ln w over each row (0 ln 0 = 0), in nats."""
    logs = np.log(weights, out=np.zeros_like(weights), where=weights > 0)
    return -(weights * logs).sum(axis=1)


def _top(weights: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's k heaviest keys, heaviest first."""
    part = np.argpartition(-weights, k - 1, axis=1)[:, :k]  # (r, k), unordered
    values = np.take_along_axis(weights, part, axis=1)
    order = np.argsort(-values, axis=1, kind="stable")
    keys = np.take_along_axis(part, order, axis=1)
    return keys.astype(np.int32), np.take_along_axis(values, order, axis=1).astype(np.float32)
