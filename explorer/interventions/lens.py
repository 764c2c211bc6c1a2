"""What the window's Logit lens and Attribution tabs draw, computed here (torch and numpy, no Qt) so that the
window only indexes finished numbers: the logit lens for every position at once, and one position's direct
attribution with its sum and the model's logit side by side.

Both read the shown trace (intervened or not) and the model that produced it; explorer.interventions
.attribution holds the per-position formulas the ``attribute`` command uses, and these reuse them.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from explorer.errors import Cancelled, ConfigError, InputError
from explorer.interventions.attribution import direct_attribution, refuse_undecomposable
from explorer.model.capture import CaptureSink, capturing
from explorer.model.linear import affine
from explorer.trace.readable import as_run_tensor
from explorer.trace.trace import Trace
from explorer.util.printable import quoted
from explorer.weights.bundle import ModelBundle


@dataclass(frozen=True)
class LensGrid:
    """The logit lens of one sentence: row k is the stream after layer ``layers[k]``, column i position i."""

    layers: tuple[int, ...]
    tokens: tuple[str, ...]  # the sentence's token labels (the columns)
    top: tuple[tuple[str, ...], ...]  # (layers, C) the most likely next token read there
    top_prob: np.ndarray  # (layers, C) its probability
    predicted: tuple[str, ...]  # (C,) the token the model finally predicts after each position
    predicted_prob: np.ndarray  # (layers, C) that token's probability read after each layer


@dataclass(frozen=True)
class LogitExplanation:
    """The direct attribution of ``target``'s logit at ``position``: the parts, the constant, their total
    (computed here, not by the window) and the model's own logit."""

    position: int
    target: int
    target_label: str
    components: tuple[str, ...]  # embed, layers.L.attn.head.H, layers.L.ffn
    values: np.ndarray  # (components,) float64
    constant: float
    parts: float  # sum(values)
    total: float  # sum(values) + constant
    logit: float  # the trace's logit for target at position


def _need_every_layer(trace: Trace, what: str) -> None:
    missing = [l for l in range(trace.config.layers) if l not in trace.layers]
    if missing:
        raise ConfigError(
            f"the {what} reads every layer's stream, and this trace did not keep layers "
            f"{', '.join(map(str, missing))}: capture all layers (Model → Layers to capture) and try again"
        )


def lens_grid(
    bundle: ModelBundle,
    trace: Trace,
    b: int = 0,
    progress: Callable[[int, int], None] | None = None,
    cancel: threading.Event | None = None,
) -> LensGrid:
    """The stream after every layer, at every position of sentence ``b``, through the model's own final norm
    and unembedding: its top token and probability, and the probability of the finally predicted token."""
    refuse_undecomposable(trace.config, "logit lens")
    _need_every_layer(trace, "logit lens")
    n = trace.rows[b].length
    model = bundle.model_for(trace.options.dtype, trace.options.device)
    vocab = trace.vocab or bundle.tokenizer.display_vocab()
    final = np.asarray(trace["logits"][b, :n]).argmax(axis=-1)  # (C,) the model's own prediction
    L = trace.config.layers
    top_ids = np.zeros((L, n), np.int64)
    top_prob = np.zeros((L, n), np.float64)
    predicted_prob = np.zeros((L, n), np.float64)
    # An empty sink: nothing recorded, but the model's lock is held, so the worker's trace on another thread
    # neither captures these calls nor has its own sink replaced under it.
    with torch.inference_mode(), capturing(model, CaptureSink(lambda _name: False)):
        for l in range(L):
            if cancel is not None and cancel.is_set():
                raise Cancelled("the logit lens was cancelled")
            x = as_run_tensor(trace[f"layers.{l}.out"][b : b + 1, :n], trace.options.dtype).to(
                trace.options.device
            )  # (1, C, E), in the run's dtype
            if model.ln_final is not None:
                x = model.ln_final(x)  # (1, C, E)
            logits = affine(x, model.W_u(), model.unembed.b_u)  # (1, C, E) · (E, V) → (1, C, V)
            p = torch.softmax(logits / trace.options.temperature, dim=-1)[0].double().cpu().numpy()  # (C, V)
            top_ids[l] = p.argmax(axis=-1)
            top_prob[l] = p[np.arange(n), top_ids[l]]
            predicted_prob[l] = p[np.arange(n), final]
            if progress is not None:
                progress(l + 1, L)
    return LensGrid(
        layers=tuple(range(L)),
        tokens=tuple(trace.token_label(b, i) for i in range(n)),
        top=tuple(tuple(vocab[t] for t in row) for row in top_ids),
        top_prob=top_prob,
        predicted=tuple(vocab[t] for t in final),
        predicted_prob=predicted_prob,
    )


def window_target(bundle: ModelBundle, text: str) -> int:
    """The id of a token typed in the window: ``#ID``, a vocabulary entry as the output view lists it (a word
    typed without its leading space also finds the entry with one, as mid-sentence words are stored), or
    text that is exactly one token."""
    V = bundle.config.V
    m = re.fullmatch(r"\s*#(\d+)\s*", text)
    if m:
        if int(m.group(1)) >= V:
            raise ConfigError(f"token #{m.group(1)} does not exist: ids run 0 … {V - 1}")
        return int(m.group(1))
    shown = bundle.tokenizer.display_vocab()
    for candidate in (text, " " + text):
        if candidate in shown:
            return shown.index(candidate)
    enc = bundle.tokenizer.encode(text)
    if len(enc) == 1 and not any(enc.unknown):
        return enc.ids[0]
    pieces = " ".join(enc.tokens) if len(enc) else "nothing"
    raise InputError(
        f"{quoted(text)} is not one token of this model's vocabulary (it reads as: {pieces}): type a token as "
        "the output view lists it, or #ID"
    )


def explain_logit(
    bundle: ModelBundle, trace: Trace, position: int, target: str | None = None, b: int = 0
) -> LogitExplanation:
    """Direct attribution at ``position`` of sentence ``b`` for ``target`` (a token as the vocabulary shows
    it, or text that is one token); None: the token the model predicts there."""
    _need_every_layer(trace, "attribution")
    n = trace.rows[b].length
    if not 0 <= position < n:
        raise ConfigError(f"position {position} does not exist: the text has positions 0 … {n - 1}")
    if target is None or not target.strip():
        target_id = int(np.asarray(trace.logits_rows(b, position, position + 1)[0]).argmax())
    else:
        target_id = window_target(bundle, target)
    parts, constant, logit = direct_attribution(trace, target_id, position, b)
    values = np.array([p["value"] for p in parts], dtype=np.float64)
    vocab = trace.vocab or bundle.tokenizer.display_vocab()
    return LogitExplanation(
        position,
        target_id,
        vocab[target_id],
        tuple(p["component"] for p in parts),
        values,
        constant,
        float(values.sum()),
        float(values.sum() + constant),
        logit,
    )
