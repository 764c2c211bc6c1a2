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
BAND_BYTES = 16 * 1024**2  # one band of rows × C cells (and its weights) at a time

# tile(stage, rows, cols) → the exact (r, c) cells of one head's map
TileOf = Callable[[str, tuple[int, int], tuple[int, int]], np.ndarray]
# keys_of(rows) → (k0, k1): every key those rows may see lies in k0 … k1 − 1
KeysOf = Callable[[tuple[int, int]], tuple[int, int]]


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


def map_overview(tile_of: TileOf, stage: str, C: int, cells: int, keys_of: KeysOf | None = None) -> MapOverview:
    """The overview of one head's ``stage`` map of C × C cells (the row facts always from its weights).
    ``keys_of(rows)``: the keys those rows may see at all (a causal band's end at its last row): the weights
    are computed there alone, the rest is 0 by the mask."""
    import torch  # the tiles are computed with it already; its reductions use every core

    block = block_size(C, cells)
    n = math.ceil(C / block)
    band = max(block, BAND_BYTES // (4 * C) // block * block)  # whole blocks of rows per band
    k = min(TOP_KEYS, C)
    out = _Empty(C, n, k)
    buffer = None
    with torch.inference_mode():
        for r0 in range(0, C, band):
            r1 = min(C, r0 + band)
            k0, k1 = keys_of((r0, r1)) if keys_of is not None else (0, C)
            k0, k1 = (0, C) if k1 - k0 < k else (k0, k1)  # too few keys for the top k: the whole row
            seen = torch.from_numpy(np.array(tile_of("weights", (r0, r1), (k0, k1))))  # (r, k1 − k0)
            if buffer is None:  # one band's buffer for every band: no fresh pages to fault in each time
                buffer = torch.empty((band, C), dtype=seen.dtype)
            weights = buffer[: r1 - r0]
            weights[:, :k0], weights[:, k0:k1], weights[:, k1:] = 0.0, seen, 0.0
            shown = weights if stage == "weights" else torch.from_numpy(np.array(tile_of(stage, (r0, r1), (0, C))))
            first = r0 // block
            bmax, bmean = _blocks(shown, block, n)
            out.block_max[first : first + bmax.shape[0]] = bmax
            out.block_mean[first : first + bmax.shape[0]] = bmean
            out.entropy[r0:r1] = -torch.special.xlogy(seen, seen).sum(dim=1).numpy()
            out.sink[r0:r1] = weights[:, 0].numpy()
            top = torch.topk(seen, k, dim=1)  # heaviest first
            out.top_keys[r0:r1], out.top_weights[r0:r1] = top.indices.numpy() + k0, top.values.numpy()
    return MapOverview(block, out.block_max, out.block_mean, out.entropy, out.sink, out.top_keys, out.top_weights)


class _Empty:
    """The overview's arrays, filled band by band."""

    def __init__(self, C: int, n: int, k: int) -> None:
        self.block_max = np.empty((n, n), np.float32)
        self.block_mean = np.empty((n, n), np.float32)
        self.entropy = np.empty(C, np.float64)
        self.sink = np.empty(C, np.float32)
        self.top_keys = np.empty((C, k), np.int32)
        self.top_weights = np.empty((C, k), np.float32)


def _blocks(shown, block: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Max and mean of each block × block square of a band (whole blocks of rows; the last ones may be short
    in either direction: their max and mean are over the cells that exist)."""
    import torch

    r, C = shown.shape
    rows = math.ceil(r / block)
    if r != rows * block or C != n * block:  # short edge blocks: −∞ does not change a max, 0 not a sum
        lowest = torch.full((rows * block, n * block), float("-inf"), dtype=shown.dtype)
        lowest[:r, :C] = shown
        zeros = torch.zeros((rows * block, n * block), dtype=shown.dtype)
        zeros[:r, :C] = shown
        counts = torch.zeros((rows * block, n * block))
        counts[:r, :C] = 1
    else:
        lowest, zeros, counts = shown, shown, None
    squares = (rows, block, n, block)
    bmax = lowest.reshape(squares).amax(dim=(1, 3))
    sums = zeros.reshape(squares).sum(dim=(1, 3))
    cells = float(block * block) if counts is None else counts.reshape(squares).sum(dim=(1, 3))
    return bmax.float().numpy(), (sums / cells).float().numpy()
