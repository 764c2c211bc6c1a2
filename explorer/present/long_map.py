"""A long text's map (issue 43): what the central view draws when a layer's maps are served only as tiles.

The view opens on the overview (each cell the largest value of a block of tokens, exact: computed by the trace
from exact tiles), and once it is zoomed in to at most ``EXACT_SPAN`` tokens a side it paints the exact cells of
what is on screen, one tile computed for the visible rows and columns (widened to ``ALIGN`` so that a small
scroll reuses it; a few screens kept). Hover reads one row of the map. Pure numpy, no Qt: the window's
explorer/ui/views/map/long_map_painter.py only draws what this returns.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer import names
from explorer.present import matrices
from explorer.present.figure import NOTHING, Panel, Say
from explorer.trace.layer_mask import allowed_block
from explorer.util.threads import threads_for

OVERVIEW_CELLS = 512  # the overview's cells a side: one per pixel or so of a laptop's map
EXACT_SPAN = 512  # exact cells once the view shows at most this many rows and columns: about one a pixel
ALIGN = 64  # a tile's rows and columns are widened to multiples of this: a small scroll needs no new tile
CACHED_TILES = 6  # tiles kept (about a screen each: ≤ 6 × 5 MB)


def shows_long_map(trace, stage: str, layer: int) -> bool:
    """True when this (C, C) stage of ``layer`` is drawn as a long map (its whole map is not held)."""
    return stage in names.PAIRWISE_STAGES and layer in trace.layers and trace.tiled(layer)


@dataclass(frozen=True)
class Overview:
    """What the overview draws: ``data`` (blocks, blocks), each the largest value of ``block`` × ``block``
    tokens; ``blocked`` the blocks the mask blocks whole; the colour ``levels`` (lo, hi, clipped) the exact
    cells are drawn on too; ``summary`` the trace's MapOverview (per-row entropy, sink mass, top keys)."""

    data: np.ndarray
    blocked: np.ndarray | None
    block: int
    tokens: int
    levels: tuple[float, float, bool]
    signed: bool
    summary: object


def overview(trace, stage: str, layer: int, row: int, head: int) -> Overview:
    """The overview of one head's map, kept by the trace (the worker computes it before the window asks)."""
    return trace.memo(("long overview", layer, stage, row, head), lambda: _overview(trace, stage, layer, row, head))


def _overview(trace, stage: str, layer: int, row: int, head: int) -> Overview:
    summary = trace.map_overview(layer, stage, row, head, OVERVIEW_CELLS)
    data = np.ascontiguousarray(summary.block_max, dtype=np.float32)
    signed = names.spec(names.attn(layer, stage)).signed
    blocked = blocked_blocks(trace, layer, row, summary.block) if stage == "weights" else None
    if signed:
        lo, hi = matrices.levels([data, np.asarray(summary.block_mean, dtype=np.float32)], True)
        levels = (lo, hi, False)
    else:
        levels = matrices.map_levels([data], False, None if blocked is None else ~blocked)
    return Overview(data, blocked, summary.block, trace.rows[row].length, levels, signed, summary)


def allowed_tile(trace, layer: int, row: int, rows: tuple[int, int], cols: tuple[int, int]) -> np.ndarray | None:
    """(r1 − r0, c1 − c0) True where query i may see key j in ``layer``; None when the trace holds no mask."""
    if "mask" not in trace.stored_names():
        return None
    return np.asarray(allowed_block(trace["mask"], trace.config, layer, row, rows, cols), dtype=bool)


def blocked_blocks(trace, layer: int, row: int, block: int) -> np.ndarray | None:
    """(blocks, blocks) True where the layer's mask blocks every cell of the block (None without a stored mask).
    Read one band of rows at a time: never the whole (C, C) mask at once."""
    if "mask" not in trace.stored_names():
        return None
    C = trace.C
    n = math.ceil(C / block)
    out = np.zeros((n, n), dtype=bool)
    for b in range(n):
        band = allowed_tile(trace, layer, row, (b * block, min(C, (b + 1) * block)), (0, C))
        padded = np.zeros((band.shape[0], n * block), dtype=bool)
        padded[:, :C] = band
        out[b] = ~padded.reshape(band.shape[0], n, block).any(axis=(0, 2))
    return out


def overview_panel(trace, sel, ov: Overview) -> Panel:
    """The overview as a panel of the central view: its cells are blocks, its axes token positions."""
    weights = sel.stage == "weights"
    positions = position_labels(ov.tokens)
    return Panel(
        data=ov.data,
        row_labels=positions,
        col_labels=positions,
        signed=ov.signed,
        levels=ov.levels[:2],
        blocked=ov.blocked,
        title=Say.of("map title", h=sel.head),
        y_title=Say.of("query axis"),
        x_title=Say.of("key axis"),
        square=True,
        col_tokens=True,
        highlight=(sel.token, sel.key),
        legend=Say.of("legend weights" if weights else "legend masked"),
        note=NOTHING,
    )


@lru_cache(maxsize=4)  # the same tuple again: the axes compare it with what they show, not 16,384 strings
def position_labels(n: int) -> tuple[str, ...]:
    """The axes of a zoomed-out long map: positions only (a token cannot be read there anyway)."""
    return tuple(map(str, range(n)))


@lru_cache(maxsize=4)
def block_labels(tokens: int, block: int) -> tuple[str, ...]:
    """The overview's cells by the tokens each covers ("0–31", "32–63", …): what the keyboard's cell says."""
    return tuple(f"{s}–{min(s + block, tokens) - 1}" for s in range(0, tokens, block))


def token_axis_labels(trace, row: int) -> tuple[str, ...]:
    """The axes once exact cells are drawn: "position token", as every map labels them (kept by the trace)."""
    return trace.memo(("long labels", row), lambda: matrices.token_labels(trace, row))


# ------------------------------------------------------------------------------------------ the viewport


def visible_cells(x_range, y_range, n: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The rows and columns (start, stop) of an n-token map that the view's ranges show, at least one each."""

    def span(lo: float, hi: float) -> tuple[int, int]:
        lo, hi = sorted((lo, hi))
        start = min(max(0, math.floor(lo)), n - 1)
        return start, max(start + 1, min(n, math.ceil(hi)))

    return span(*y_range), span(*x_range)


def exact_wanted(rows: tuple[int, int], cols: tuple[int, int]) -> bool:
    """Whether the view is zoomed in enough to paint each token's own cell."""
    return rows[1] - rows[0] <= EXACT_SPAN and cols[1] - cols[0] <= EXACT_SPAN


def widened(span: tuple[int, int], n: int) -> tuple[int, int]:
    return (span[0] // ALIGN) * ALIGN, min(n, math.ceil(span[1] / ALIGN) * ALIGN)


@dataclass(frozen=True)
class ExactTile:
    """The exact cells of rows × cols of a map: ``data`` as the map holds them (−∞ kept), ``blocked`` the
    weights the mask set to 0 (drawn like the −∞ they came from), None for other stages."""

    rows: tuple[int, int]
    cols: tuple[int, int]
    data: np.ndarray
    blocked: np.ndarray | None

    def covers(self, rows: tuple[int, int], cols: tuple[int, int]) -> bool:
        return (
            self.rows[0] <= rows[0] and rows[1] <= self.rows[1] and self.cols[0] <= cols[0] and cols[1] <= self.cols[1]
        )


class TileCache:
    """The tiles of the last few screens of one view: a scroll within a tile, or back to a screen seen a moment
    ago, paints without computing again."""

    def __init__(self, size: int = CACHED_TILES) -> None:
        self.size = size
        self._tiles: OrderedDict[tuple, ExactTile] = OrderedDict()
        self.computed = 0  # tiles computed so far (tests and the benchmark read it)

    def viewport(self, trace, stage: str, layer: int, row: int, head: int, rows, cols) -> ExactTile:
        """The exact cells covering rows × cols of one head's map (a tile at least that large)."""
        key = (trace.serial, stage, layer, row, head)
        for k, t in reversed(self._tiles.items()):
            if k[:5] == key and t.covers(rows, cols):
                self._tiles.move_to_end(k)
                return t
        n = trace.rows[row].length
        rows, cols = widened(rows, n), widened(cols, n)
        with threads_for((rows[1] - rows[0]) * (cols[1] - cols[0]) * trace.config.D):  # a screen: one thread
            data = trace.tile(layer, stage, row, head, rows, cols)
        blocked = None
        if stage == "weights":
            allowed = allowed_tile(trace, layer, row, rows, cols)
            if allowed is None:  # no stored mask: the masked scores say which cells it blocked
                with small_work():
                    allowed = ~np.isneginf(trace.tile(layer, "masked", row, head, rows, cols))
            blocked = ~allowed
        made = ExactTile(rows, cols, data, blocked)
        self.computed += 1
        self._tiles[(*key, rows, cols)] = made
        while len(self._tiles) > self.size:
            self._tiles.popitem(last=False)
        return made


# ------------------------------------------------------------------------------------------ hover


@dataclass(frozen=True)
class RowReadout:
    """What the overview says of one query row: how spread its attention is, how much goes to the first token
    (the attention sink), and its strongest keys with their weights."""

    entropy: float  # nats
    sink: float
    top: tuple[tuple[int, float], ...]


def row_readout(ov: Overview, i: int) -> RowReadout:
    s = ov.summary
    top = tuple((int(k), float(w)) for k, w in zip(s.top_keys[i], s.top_weights[i]) if w > 0)
    return RowReadout(float(s.row_entropy[i]), float(s.sink_mass[i]), top)


def cell_value(trace, stage: str, layer: int, row: int, head: int, i: int, j: int) -> float:
    """The exact number of cell (i, j), from a one-cell tile."""
    with small_work():
        return float(trace.tile(layer, stage, row, head, (i, i + 1), (j, j + 1))[0, 0])


def small_work():
    """One thread for a hover's rows and cells (explorer/util/threads.py): on a busy two-core machine a second
    thread's wait costs more than it saves on a few hundred thousand multiply-adds."""
    return threads_for(0)
