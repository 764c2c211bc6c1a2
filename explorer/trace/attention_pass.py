"""Every layer's attention maps of one forward pass, handed over layer by layer as the model computes them,
for the Model view (every layer × every head at once) and the head scores.

A trace of a deep model keeps one layer at a time (explorer.session.capture); this pass keeps nothing: a
sink takes each layer's S and A as the layer computes them, hands one sentence's (H, n, n) maps to
``on_layer`` and lets them go, so a 30-layer model on a long text never holds 30 layers of maps. The pass
runs the text exactly as ``run_trace`` does (same tokens, batch, padding, mask and options), so its maps are
the trace's maps. ``cancel`` stops it at the next capture point.

``induction_pass`` runs a random token sequence written twice and scores every head on it
(explorer.analysis.head_scores.induction).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
import torch

from explorer import names
from explorer.analysis import head_scores
from explorer.config import MAX_TRACE_TOKENS, RunOptions
from explorer.errors import Cancelled, InputError
from explorer.model.attention_chunked import mask_scores, scale_scores
from explorer.model.capture import CaptureSink, capturing
from explorer.model.mask import build_mask, empty_rows
from explorer.trace.run import limit_text, split_batch, tokenize_rows
from explorer.util.devices import resolve_device
from explorer.util.threads import threads_for
from explorer.weights.bundle import ModelBundle

# on_layer(layer, weights (H, n, n), shown (H, n, n), blocked (n, n)): float32 maps of one sentence (n its
# tokens) and the cells its mask blocks (True: query i may not see key j).
OnLayer = Callable[[int, np.ndarray, np.ndarray, np.ndarray], None]

# The induction sequence: this many random tokens, then the same again (64 positions), in this many rows.
INDUCTION_HALF = 32
INDUCTION_ROWS = 2


class _LayerSink(CaptureSink):
    """Keeps a layer's S until its A arrives, then hands both over and drops them."""

    def __init__(self, stage: str, emit: Callable[[int, torch.Tensor, torch.Tensor], None], cancel) -> None:
        kept = {"weights"} | ({"scores"} if stage != "weights" else set())
        suffixes = tuple(f".attn.{s}" for s in kept)  # layers.{l}.attn.weights (and .scores)
        super().__init__(lambda name: name.endswith(suffixes))
        self._emit, self._cancel = emit, cancel

    def put(self, name: str, tensor: torch.Tensor) -> None:
        if self._cancel is not None and self._cancel.is_set():
            raise Cancelled("the model view was cancelled")
        super().put(name, tensor)
        if name.endswith("attn.weights"):
            layer = names.layer_of(name)
            A = self.tensors.pop(name)  # (B, H, C, C)
            S = self.tensors.pop(names.attn(layer, "scores"), None)  # (B, H, C, C) unless the stage is A
            self._emit(layer, A, S)


def _run(bundle: ModelBundle, ids: torch.Tensor, allowed: torch.Tensor, options: RunOptions, sink: _LayerSink) -> None:
    device, _notice = resolve_device(options.device)
    model = bundle.model_for(options.dtype, device)
    ids, allowed = ids.to(device), allowed.to(device)  # (B, C), (B, C, C)
    empty = empty_rows(allowed)  # (B, 1, C, 1)
    macs = ids.numel() * bundle.config.active_parameter_count()  # a mixture runs only K experts a token
    with threads_for(macs), _one_core_left(), torch.inference_mode(), capturing(model, sink):
        model(ids, allowed, scale=options.scale, empty=empty)


@contextmanager
def _one_core_left() -> Iterator[None]:
    """The window stays responsive while this pass runs beside it: torch gets every core but one (on two
    cores, measured with the Model view of SmolLM2: one thread also filled the grid sooner, 0.3–0.4 s
    against 0.7 s, the two threads and the window's own contending for two cores)."""
    before = torch.get_num_threads()
    wanted = max(1, min(before, (os.cpu_count() or 1) - 1))
    if wanted != before:
        torch.set_num_threads(wanted)
    try:
        yield
    finally:
        if wanted != before:
            torch.set_num_threads(before)


def _shown(
    stage: str, A: torch.Tensor, S: torch.Tensor | None, allowed: torch.Tensor, D: float, scale: bool
) -> torch.Tensor:
    """The stage's maps (B, H, C, C) from the layer's S and A, by the model's own element-wise steps."""
    if stage == "weights":
        return A
    if stage == "scores":
        return S
    scaled = scale_scores(S, D, scale)
    return scaled if stage == "scaled" else mask_scores(scaled, allowed)


def text_pass(
    bundle: ModelBundle,
    text: str,
    options: RunOptions | None,
    row: int,
    stage: str,
    on_layer: OnLayer,
    cancel: threading.Event | None = None,
) -> int:
    """Run ``text`` (every line a sentence, as run_trace reads it) and hand over sentence ``row``'s maps of
    every layer as it is computed: its A and the ``stage`` map (scores, scaled, masked or weights).
    Returns n, the sentence's token count."""
    if stage not in names.PAIRWISE_STAGES:
        raise ValueError(f"stage must be one of {', '.join(names.PAIRWISE_STAGES)}, got {stage!r}")
    options = options or RunOptions()
    sentences = split_batch(text)
    if not sentences:
        raise InputError("there is no text to trace: type a sentence (each line is one sentence of the batch)")
    sentences, notices = limit_text(sentences)
    rows = tokenize_rows(bundle, sentences, notices, MAX_TRACE_TOKENS)  # every head's whole map: no long text
    row = min(max(row, 0), len(rows) - 1)
    B, C, n = len(rows), max(r.length for r in rows), rows[row].length
    ids = torch.full((B, C), bundle.tokenizer.pad_id, dtype=torch.long)  # (B, C), right-padded
    for b, r in enumerate(rows):
        ids[b, : r.length] = torch.tensor(r.ids, dtype=torch.long)
    allowed = build_mask(options.mask, [r.length for r in rows], C)  # (B, C, C)
    blocked = ~allowed[row, :n, :n].numpy()  # (n, n)

    def emit(layer: int, A: torch.Tensor, S: torch.Tensor | None) -> None:
        shown = _shown(stage, A, S, allowed.to(A.device), bundle.config.score_dim, options.scale)  # (B, H, C, C)
        on_layer(layer, A[row, :, :n, :n].float().cpu().numpy(), shown[row, :, :n, :n].float().cpu().numpy(), blocked)

    _run(bundle, ids, allowed, options, _LayerSink(stage, emit, cancel))
    return n


def random_repeat(bundle: ModelBundle, half: int, rows: int, seed: int) -> torch.Tensor:
    """(rows, 2·half) token ids: ``half`` random tokens of the vocabulary (no special token), then the same
    again. Drawn without replacement while the vocabulary allows it, so that each token is unique in r."""
    tok = bundle.tokenizer
    special = set(getattr(tok.hf, "get_added_tokens_decoder", dict)().keys()) | {tok.pad_id, tok.unk_id}
    pool = np.array([i for i in range(bundle.config.vocab_size) if i not in special], dtype=np.int64)
    if pool.size == 0:
        pool = np.arange(bundle.config.vocab_size, dtype=np.int64)
    rng = np.random.default_rng(seed)
    out = np.stack([rng.choice(pool, size=half, replace=pool.size < half) for _ in range(rows)])  # (rows, half)
    return torch.from_numpy(np.concatenate([out, out], axis=1))  # (rows, 2·half)


def induction_pass(
    bundle: ModelBundle,
    options: RunOptions | None = None,
    half: int = INDUCTION_HALF,
    rows: int = INDUCTION_ROWS,
    seed: int = 0,
    cancel: threading.Event | None = None,
) -> np.ndarray:
    """(L, H): every head's induction score (head_scores.induction), averaged over ``rows`` random
    sequences r r. The mask is the options' kind (a hand-painted mask, sized for another text, is causal)."""
    options = options or RunOptions()
    half = max(2, min(half, bundle.config.max_positions // 2))
    ids = random_repeat(bundle, half, rows, seed)  # (rows, 2·half)
    spec = options.mask if options.mask.kind != "explicit" else RunOptions().mask
    allowed = build_mask(spec, [2 * half] * rows, 2 * half)  # (rows, 2·half, 2·half)
    out = np.full((bundle.config.layers, bundle.config.H), np.nan)

    def emit(layer: int, A: torch.Tensor, _S) -> None:
        weights = A.double().cpu().numpy()  # (rows, H, 2·half, 2·half)
        out[layer] = np.mean([head_scores.induction(w, half) for w in weights], axis=0)

    _run(bundle, ids, allowed, options, _LayerSink("weights", emit, cancel))
    return out
