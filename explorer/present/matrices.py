"""What the tensor views draw: each stage's tensor as one (rows, columns) matrix, the (C, C) maps of every
head, colour levels, and the vectors around one selected query token.

Pure numpy, no Qt: the views only hand these arrays to image items. Rows are the tokens of one sentence
(padding cut off); maps are query i (row) against key j (column).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer import names
from explorer.present import stages
from explorer.present.explain import kv_head, slot_of
from explorer.trace import Trace

# A vocabulary is too wide to read: logits and probs show the columns of the most likely tokens.
TOP_COLUMNS = 32
LABEL_CHARS = 12


def short(label: str, limit: int = LABEL_CHARS) -> str:
    label = label.replace("\n", "⏎")
    return label if len(label) <= limit else label[: limit - 1] + "…"


def for_display(a: np.ndarray, fill: float = 0.0) -> np.ndarray:
    """float32, C-contiguous (what pyqtgraph draws fastest), with −∞ replaced by the finite ``fill``.

    The views draw −∞ cells with their own opaque overlay, so the colour image never holds −∞; a finite
    fill keeps pyqtgraph on its fast path (NaN handling costs it ~15× on a 1024×1024 map).
    """
    a = np.asarray(a)
    if a.dtype == np.float32 and a.flags.c_contiguous and not a.flags.writeable:
        neginf = np.isneginf(a)
        if not neginf.any():
            return a  # already what is drawn (a trace's read-only weights): no 4 MB copy per 1024² map
    out = np.array(a, dtype=np.float32, order="C", copy=True)  # never a writable view of the trace
    np.copyto(out, np.float32(fill), where=np.isneginf(out))
    return out


def levels(arrays: list[np.ndarray] | np.ndarray, signed: bool) -> tuple[float, float]:
    """Colour levels shared by ``arrays``: symmetric about 0 for signed data (a diverging map centred on
    0), from 0 to the largest value for non-negative data. Infinities and NaNs are ignored."""
    hi, lo = 0.0, 0.0
    for a in arrays if isinstance(arrays, list) else [arrays]:
        a = np.asarray(a)
        if not np.issubdtype(a.dtype, np.floating):
            a = a.astype(np.float64)  # token ids
        if not a.size:
            continue
        top, bottom = float(a.max()), float(a.min())
        if not (np.isfinite(top) and np.isfinite(bottom)):  # −∞ of masked scores, or NaN: skip those cells
            finite = np.isfinite(a)
            if not finite.any():
                continue
            top = float(np.max(a, where=finite, initial=-np.inf))
            bottom = float(np.min(a, where=finite, initial=np.inf))
        hi, lo = max(hi, top), min(lo, bottom)
    if signed:
        m = max(abs(hi), abs(lo)) or 1.0
        return (-m, m)
    return (min(lo, 0.0), hi if hi > 0 else 1.0)


# Long sentences spread attention thin: with the scale up to the largest weight (often 1, the first row),
# everything else is dark. Past this many cells the weights' scale stops at a high quantile instead.
ROBUST_CELLS = 1024
ROBUST_QUANTILE = 0.995
_SAMPLE = 200_000


def map_levels(maps: list[np.ndarray], signed: bool, allowed: np.ndarray | None = None) -> tuple[float, float, bool]:
    """Levels shared by the heads' maps, and whether the top is clipped.

    Signed maps (scores): symmetric about 0. Weights: 0 … max, or 0 … the 99.5 % quantile of the allowed
    cells for long sentences (the colour bar shows the range; cells above it saturate).
    """
    lo, hi = levels(maps, signed)
    if signed or not maps or maps[0].size <= ROBUST_CELLS:
        return lo, hi, False
    # The quantile of an even sample of the allowed cells is as good and much faster: gather the same cells
    # of every head (never stack or copy whole maps: 12 heads of 1024² are 50 MB and stalled the window).
    if allowed is not None:
        rows, cols = np.nonzero(allowed)
    else:
        rows, cols = (a.ravel() for a in np.indices(maps[0].shape))
    per_map = max(1, _SAMPLE // len(maps))
    if rows.size > per_map:
        step = rows.size // per_map
        rows, cols = rows[::step], cols[::step]
    values = np.concatenate([np.asarray(m)[rows, cols] for m in maps])
    values = values[np.isfinite(values)]
    if values.size == 0:
        return lo, hi, False
    k = int(ROBUST_QUANTILE * (values.size - 1))  # the order statistic at the quantile (no interpolation)
    top = float(np.partition(values, k)[k])
    if not top > 0 or top >= hi:
        return lo, hi, False
    return lo, top, True


def blocked_cells(trace: Trace, row: int) -> np.ndarray | None:
    """(n, n) True where the mask blocks query i from key j (the cells softmax sets to 0)."""
    if "mask" not in trace.stored_names():
        return None
    n = trace.rows[row].length
    return ~np.asarray(trace["mask"][row, :n, :n], dtype=bool)


def token_labels(trace: Trace, row: int) -> tuple[str, ...]:
    """``"2 a"``: position and token, the label of a map's row and column."""
    from explorer.present.token_parts import readable_tokens  # a character split over byte tokens reads as itself

    r = trace.rows[row]
    return tuple(f"{i} {short(t)}" for i, t in enumerate(readable_tokens(tuple(r.tokens))))


# ------------------------------------------------------------------------------------------ maps


# Longer sentences show one head's map at a time instead of the grid of all heads: past this, every head's
# (C, C) map would cost seconds and hundreds of MB to derive.
GRID_MAX_TOKENS = 1024


def shows_one_head(trace: Trace, row: int) -> bool:
    return trace.rows[row].length > GRID_MAX_TOKENS


def prefetch_maps(trace: Trace, stage: str, layer: int, row: int, head: int) -> None:
    """Derive now (into the trace's cache) the maps the views will draw for this selection: every head's,
    or the one head's of a long sentence. The worker calls it, so a long trace reaches the window with its
    maps already computed instead of computing them on the GUI thread."""
    if stage not in names.PAIRWISE_STAGES or layer not in trace.layers or not 0 <= row < trace.B:
        return
    one_head = shows_one_head(trace, row)
    heads = [min(head, trace.config.H - 1)] if one_head else range(trace.config.H)
    for h in heads:
        trace.head_map(layer, stage, row, h)
    # and what the map view computes from them: the shared colour levels and the grid's thumbnails
    head_levels(trace, stage, layer, row, heads)
    if not one_head:
        for h in heads:
            head_thumbnail(trace, stage, layer, row, h)
        if stage == "weights":
            blocked_thumbnail(trace, row)


# The grid of heads draws a larger map shrunk to this many cells a side (each block shows its largest value).
THUMB_CELLS = 256


def head_levels(trace: Trace, stage: str, layer: int, row: int, heads) -> tuple[float, float, bool]:
    """``map_levels`` of these heads' maps of sentence ``row`` (the cells the mask lets through), kept by
    the trace: a 1024-token layer takes 15 ms, computed by the worker rather than while the window waits."""
    heads = tuple(heads)

    def compute() -> tuple[float, float, bool]:
        n = trace.rows[row].length
        blocked = blocked_cells(trace, row)
        maps = [trace.head_map(layer, stage, row, h)[:n, :n] for h in heads]
        return map_levels(maps, names.spec(names.attn(layer, stage)).signed, None if blocked is None else ~blocked)

    return trace.memo(("levels", layer, stage, row, heads), compute)


def head_thumbnail(trace: Trace, stage: str, layer: int, row: int, h: int) -> np.ndarray:
    """One head's map as the grid draws it (``pooled`` to THUMB_CELLS a side), kept by the trace."""
    n = trace.rows[row].length
    return trace.memo(
        ("thumb", layer, stage, row, h), lambda: pooled(trace.head_map(layer, stage, row, h)[:n, :n], THUMB_CELLS)
    )


def blocked_thumbnail(trace: Trace, row: int) -> np.ndarray | None:
    """The blocked cells of sentence ``row`` as the grid draws them (``pooled_mask``), kept by the trace."""

    def compute() -> np.ndarray | None:
        blocked = blocked_cells(trace, row)
        return None if blocked is None else pooled_mask(blocked, THUMB_CELLS)

    return trace.memo(("blocked thumb", row), compute)


def pooled(a: np.ndarray, max_cells: int) -> np.ndarray:
    """A map shrunk to at most ``max_cells`` per side for a thumbnail: each block of f×f cells becomes its
    largest value (a sharp peak stays visible; a block that is all −∞ stays −∞). Unchanged if small enough."""
    f = math.ceil(max(a.shape) / max_cells)
    if f <= 1:
        return a
    return _block_reduce(np.asarray(a, dtype=np.float32), f, np.maximum, -np.inf)


def pooled_mask(blocked: np.ndarray, max_cells: int) -> np.ndarray:
    """The blocked cells of ``pooled``'s blocks: a block is blocked when every cell in it is."""
    f = math.ceil(max(blocked.shape) / max_cells)
    if f <= 1:
        return blocked
    return _block_reduce(np.asarray(blocked, dtype=bool), f, np.logical_and, True)


def _block_reduce(a: np.ndarray, f: int, op, pad) -> np.ndarray:
    """``op`` over f×f blocks, by strided slices (f passes over the rows, then f over the columns): several
    times faster than reducing a (R, f, C, f) reshape over its scattered axes."""
    rows, cols = a.shape
    R, C = math.ceil(rows / f), math.ceil(cols / f)
    if (R * f, C * f) != (rows, cols):
        padded = np.full((R * f, C * f), pad, dtype=a.dtype)
        padded[:rows, :cols] = a
        a = padded
    by_rows = a[0::f].copy()  # (R, C·f)
    for k in range(1, f):
        op(by_rows, a[k::f], out=by_rows)
    out = by_rows[:, 0::f].copy()  # (R, C)
    for k in range(1, f):
        op(out, by_rows[:, k::f], out=out)
    return out


def head_maps(trace: Trace, stage: str, layer: int, row: int) -> list[np.ndarray]:
    """The (n, n) map of every head for one sentence of n tokens, straight from ``trace.head_map``."""
    n = trace.rows[row].length
    return [trace.head_map(layer, stage, row, h)[:n, :n] for h in range(trace.config.H)]


# ------------------------------------------------------------------------------------------ matrices


@dataclass(frozen=True)
class Matrix:
    name: str  # the traced tensor
    data: np.ndarray  # (rows, columns) as stored (−∞ kept); use for_display() before drawing
    row_labels: tuple[str, ...]
    col_labels: tuple[str, ...]
    columns: tuple[int, ...]  # the tensor's own index of each shown column (a subset for wide vocabularies)
    total_columns: int
    signed: bool
    col_axis: str  # the shape label of the columns: E, D, D_v, H·D_v, F, V
    per_head: bool  # q, k, v, heads: one head's slice (expert_out: one of each token's K chosen experts)
    passed_over: np.ndarray | None = None  # a router's map: the experts each token does not run (drawn blocked)
    choice: int | None = None  # expert_out: which of each token's K chosen experts (0: the most probable)

    @property
    def subset(self) -> bool:
        return len(self.columns) < self.total_columns


def stage_tensors(trace: Trace, stage: str, layer: int) -> tuple[str, ...]:
    """The stage's tensors this trace has (the main one first). RoPE models also show the rotated q, k."""
    found = [n for n in stages.tensor_names(stage, layer) if n in trace]
    if stage == "qkv":
        found += [n for n in (names.attn(layer, "q_rot"), names.attn(layer, "k_rot")) if n in trace.stored_names()]
    return tuple(found)


def stage_matrix(trace: Trace, name: str, head: int, row: int, top: int = TOP_COLUMNS) -> Matrix:
    """Tensor ``name`` for sentence ``row`` as a (tokens, columns) matrix; per-head tensors give ``head``."""
    entry = names.spec(name)
    n = trace.rows[row].length
    a = trace[name]
    labels = trace.labels(name)
    per_head = a.ndim == 4
    if per_head:
        data = a[row, slot_of(trace, name, head), :n]  # (n, d)
    elif a.ndim == 3:
        data = a[row, :n]  # (n, d)
    else:  # tokens: one column of ids
        data = a[row, :n, None]
    columns = np.arange(data.shape[1])
    if labels[-1] == "V" and data.shape[1] > top:
        # the tokens that are likely somewhere in the sentence, most likely first
        best = np.max(np.where(np.isfinite(data), data, -np.inf), axis=0)
        columns = np.argsort(-best, kind="stable")[:top]
        data = data[:, columns]
    if labels[-1] == "V":
        vocab = trace.vocab
        col_labels = tuple(short(vocab[c]) if vocab is not None and c < len(vocab) else str(c) for c in columns)
    elif name == "tokens":
        col_labels = ("id",)
    else:
        col_labels = tuple(str(c) for c in columns)
    return Matrix(
        name=name,
        data=data,
        row_labels=token_labels(trace, row),
        col_labels=col_labels,
        columns=tuple(int(c) for c in columns),
        total_columns=int(a.shape[-1]) if a.ndim > 2 else 1,
        signed=entry.signed,
        col_axis="id" if name == "tokens" else labels[-1],
        per_head=per_head,
        passed_over=passed_over(trace, name, row) if entry.pattern == "layers.{l}.ffn.router_probs" else None,
        choice=slot_of(trace, name, head) if per_head and labels[1] == "K" else None,
    )


def passed_over(trace: Trace, probs: str, row: int) -> np.ndarray | None:
    """(n, X): True where a token's router passed the expert over (not among its K chosen)."""
    chosen = probs.replace("router_probs", "experts_chosen")
    if chosen not in trace:
        return None
    n = trace.rows[row].length
    out = np.ones((n, trace.config.experts), dtype=bool)  # (n, X)
    np.put_along_axis(out, np.asarray(trace[chosen][row, :n], dtype=np.int64), False, axis=1)
    return out


# ------------------------------------------------------------------------------------------ one token


@dataclass(frozen=True)
class Focus:
    """Everything the selected query token i takes part in, for one head: q_i, the keys K it is compared
    with, its attention weights a_i (its row of the map), the values V and what it receives, R_i = Σ_j a_ij v_j."""

    token: int
    q: np.ndarray  # (D,)
    queries: np.ndarray  # (n, D): every token's query, for a colour scale that does not move with the token
    keys: np.ndarray  # (n, D)
    weights: np.ndarray  # (n,)
    values: np.ndarray  # (n, D_v)
    received: np.ndarray  # (D_v,) = heads[i]
    labels: tuple[str, ...]
    rotated: bool  # q and k after RoPE


def focus(trace: Trace, layer: int, head: int, row: int, token: int) -> Focus:
    from explorer.present.explain import qk_names, uses_rope

    n = trace.rows[row].length
    qn, kn = qk_names(trace, layer)
    kvh = kv_head(trace, head)
    return Focus(
        token=token,
        q=trace[qn][row, head, token],
        queries=trace[qn][row, head, :n],
        keys=trace[kn][row, kvh, :n],
        weights=trace.map_row(layer, "weights", row, head, token)[:n],
        values=trace[names.attn(layer, "v")][row, kvh, :n],
        received=trace[names.attn(layer, "heads")][row, head, token],
        labels=token_labels(trace, row),
        rotated=uses_rope(trace, layer),
    )


# ------------------------------------------------------------------------------------------ embed lookup
# A vocabulary's table is drawn whole up to this many rows; larger ones show this many rows around the id.
LOOKUP_ROWS = 512


@dataclass(frozen=True)
class Lookup:
    """The note's embed lookup for one token: its one-hot row (1, V) times the table W_E (V, E) picks row
    ``id``. ``table`` holds rows ``first_row`` … of W_E (all of them for a small vocabulary)."""

    ids: tuple[int, ...]  # the sentence's token ids
    token: int  # the position looked up
    id: int  # its id
    one_hot: np.ndarray  # (1, V) float32: 1 at column ``id``, 0 elsewhere
    table: np.ndarray  # (rows shown, E) float32: W_E[first_row : first_row + rows shown]
    first_row: int
    picked: np.ndarray  # (1, E): the row the one-hot picks, W_E[id]


def lookup(trace: Trace, row: int, token: int, rows: int = LOOKUP_ROWS) -> Lookup | None:
    """None when the trace holds no embedding table (a snapshot saved without parameters)."""
    if "params.embed.tok" not in trace:
        return None
    W = trace["params.embed.tok"]  # (V, E)
    ids = tuple(int(i) for i in trace.rows[row].ids)
    token = max(0, min(len(ids) - 1, token))
    i = ids[token]
    V = W.shape[0]
    first = 0 if V <= rows else max(0, min(V - rows, i - rows // 2))
    one_hot = np.zeros((1, V), dtype=np.float32)
    one_hot[0, i] = 1.0
    return Lookup(
        ids=ids,
        token=token,
        id=i,
        one_hot=one_hot,
        table=np.ascontiguousarray(W[first : first + rows], dtype=np.float32),
        first_row=first,
        picked=np.asarray(W[i], dtype=np.float32)[None, :],  # (1, E)
    )
