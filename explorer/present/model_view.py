"""What the Model view draws: every layer × every head as a small coloured map, with each head's scores
(explorer.analysis.head_scores), one layer at a time as the maps are derived.

A layer's maps come from the shown trace when it holds every layer (a small model, a snapshot, an
intervened run: exactly what the other views show), else from one forward pass of the model
(explorer.trace.attention_pass) that keeps no layer once it is summarised. Either way a map is shrunk to at
most ``THUMB_CELLS`` a side the way the head grid shrinks it (``matrices.pooled``: each block shows its
largest value) and coloured here, off the GUI thread: the window only paints finished images.
Numpy only at import; torch loads inside the functions that run the model.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from explorer import names
from explorer.analysis import head_scores
from explorer.errors import Cancelled
from explorer.present import matrices
from explorer.present import model_view_stream as stream

# A thumbnail has at most this many cells a side: a 64-token map is drawn whole, longer ones shrunk.
THUMB_CELLS = 64
# Longer sentences are shown only when their layers are streamed from q and k (model_view_stream.py): every
# layer's whole maps of them take gigabytes and minutes to derive (the tensor view's grid stops there too).
MAX_TOKENS = matrices.GRID_MAX_TOKENS
# −∞ and blocked cells are not values of the colour scale: the grey of the other maps' blocked cells.
BLOCKED_RGBA = (200, 200, 204, 255)


@dataclass(frozen=True)
class LayerHeads:
    """One layer's row of the Model view."""

    layer: int
    images: np.ndarray  # (H, t, t, 4) uint8 RGBA: each head's map, shrunk and coloured
    thumbs: np.ndarray  # (H, t, t) float32: the shrunk maps before colouring (−∞ kept)
    levels: tuple[float, float]  # the colour scale shared by the layer's heads
    clipped: bool  # the top of the scale is a quantile: larger cells saturate
    scores: Mapping[str, np.ndarray]  # head_scores.TEXT_SCORES name → (H,)
    tokens: int  # n, the sentence's tokens (the maps are n × n before shrinking)


def shown_stage(stage: str) -> str:
    """The (C, C) stage the Model view shows for the window's stage: itself, or the weights."""
    return stage if stage in names.PAIRWISE_STAGES else "weights"


def holds_every_layer(trace) -> bool:
    """True when the trace gives every layer's maps (held, or derived from each layer's q and k)."""
    return trace is not None and not trace.partial and set(trace.map_layers) == set(range(trace.config.layers))


def too_long(trace, row: int, from_trace: bool) -> bool:
    """True when the sentence is past MAX_TOKENS and some layer would need every head's whole map (the
    model's own pass, or a trace that stored its maps); a lazy trace's layers are streamed at any length."""
    n = trace.rows[row].length
    if n <= MAX_TOKENS:
        return False
    return not (from_trace and all(stream.streamed(trace, layer, n) for layer in trace.map_layers))


def colourise(
    thumb: np.ndarray, levels: tuple[float, float], lut: np.ndarray, blocked: np.ndarray | None = None
) -> np.ndarray:
    """(t, t) values → (t, t, 4) uint8 through ``lut`` (256 RGBA rows, lowest first) between ``levels``;
    −∞, NaN and ``blocked`` cells get BLOCKED_RGBA."""
    lo, hi = levels
    span = hi - lo if hi > lo else 1.0
    finite = np.isfinite(thumb)
    scaled = np.where(finite, (thumb - lo) / span, 0.0)
    index = np.clip(np.rint(scaled * (len(lut) - 1)), 0, len(lut) - 1).astype(np.intp)
    out = np.asarray(lut, dtype=np.uint8)[index]  # (t, t, 4)
    grey = ~finite if blocked is None else (~finite | blocked)
    out[grey] = BLOCKED_RGBA
    return np.ascontiguousarray(out)


def summarise(
    layer: int,
    weights: np.ndarray,
    shown: np.ndarray,
    blocked: np.ndarray | None,
    signed: bool,
    lut: np.ndarray,
    cells: int = THUMB_CELLS,
) -> LayerHeads:
    """A layer's thumbnails and scores from its (H, n, n) weights and shown-stage maps."""
    n = shown.shape[-1]
    thumbs = np.stack(
        [np.asarray(matrices.pooled(np.asarray(m, dtype=np.float32), cells), dtype=np.float32) for m in shown]
    )
    small_blocked = None if blocked is None else matrices.pooled_mask(blocked, cells)
    allowed = None if blocked is None else ~blocked
    lo, hi, clipped = matrices.map_levels(list(shown), signed, allowed)
    images = np.stack([colourise(t, (lo, hi), lut, small_blocked if not signed else None) for t in thumbs])
    return LayerHeads(layer, images, thumbs, (lo, hi), clipped, head_scores.text_scores(weights), n)


def glanced(trace, layer: int, stage: str, row: int, lut: np.ndarray, signed: bool, cells: int = THUMB_CELLS):
    """A long text's layer summarised from its q and k in bands (explorer.trace.layer_glance): the same
    thumbnails, levels and scores as ``summarise`` of its whole maps, with no head's map ever built."""
    from explorer.trace.layer_glance import glance_layer  # torch loads here, in the job's thread

    n = trace.rows[row].length
    sampled = trace.memo(("model view samples", row, n), lambda: stream.sampled_cells(trace, row, n, trace.config.H))
    small_blocked = trace.memo(
        ("model view blocked", row, n, cells), lambda: stream.pooled_blocked(trace, row, n, cells)
    )
    glance = glance_layer(trace, layer, stage, row, n, -(-n // cells), sampled)
    lo, hi, clipped = stream.glance_levels(glance, signed)
    blocked = small_blocked if not signed else None
    images = np.stack([colourise(t, (lo, hi), lut, blocked) for t in glance.thumbs])
    return LayerHeads(layer, images, glance.thumbs, (lo, hi), clipped, stream.glance_scores(glance), n)


OnHeads = Callable[[LayerHeads], None]


def trace_layers(
    trace, stage: str, row: int, lut: np.ndarray, on_heads: OnHeads, cancel: threading.Event | None = None
) -> int:
    """Every layer the trace holds, summarised from its own maps (derived per head in a lazy trace).
    Each layer's summary is kept by the trace (``Trace.memo``): shown again, it costs nothing."""
    n = trace.rows[row].length
    signed = names.spec(names.attn(0, stage)).signed
    for layer in trace.map_layers:
        if cancel is not None and cancel.is_set():
            raise Cancelled("the model view was cancelled")

        def compute(layer=layer) -> LayerHeads:
            if stream.streamed(trace, layer, n):
                return glanced(trace, layer, stage, row, lut, signed)
            heads = range(trace.config.H)
            weights = np.stack([trace.head_map(layer, "weights", row, h)[:n, :n] for h in heads])
            shown = (
                weights
                if stage == "weights"
                else np.stack([trace.head_map(layer, stage, row, h)[:n, :n] for h in heads])
            )
            return summarise(layer, weights, shown, matrices.blocked_cells(trace, row), signed, lut)

        on_heads(trace.memo(("model view", layer, stage, row, lut.tobytes()), compute))
    return n


def model_layers(
    bundle,
    text: str,
    options,
    stage: str,
    row: int,
    lut: np.ndarray,
    on_heads: OnHeads,
    cancel: threading.Event | None = None,
) -> int:
    """Every layer of the bundle's model on ``text``, summarised as the forward pass reaches it."""
    from explorer.trace.attention_pass import text_pass  # torch loads here, in the caller's thread

    signed = names.spec(names.attn(0, stage)).signed

    def on_layer(layer: int, weights: np.ndarray, shown: np.ndarray, blocked: np.ndarray) -> None:
        on_heads(summarise(layer, weights, shown, blocked, signed, lut))

    return text_pass(bundle, text, options.replace(layers_to_capture=None), row, stage, on_layer, cancel)


def induction_scores(bundle, options, cancel: threading.Event | None = None) -> np.ndarray:
    """(L, H) induction scores of the bundle's model on a random sequence written twice."""
    from explorer.trace.attention_pass import induction_pass

    return induction_pass(bundle, options, cancel=cancel)


def score_table(
    layers: Mapping[int, LayerHeads], name: str, L: int, H: int, induction: np.ndarray | None = None
) -> np.ndarray:
    """(L, H) of one score over the layers summarised so far (NaN where a layer is not in yet)."""
    out = np.full((L, H), np.nan)
    if name == "induction":
        if induction is not None:
            out[:] = induction
        return out
    for layer, heads in layers.items():
        out[layer] = heads.scores[name]
    return out
