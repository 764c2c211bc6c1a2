"""The Model view's work off the GUI thread: every layer's maps derived, shrunk and coloured in the job's
thread (explorer.present.model_view), each finished layer sent as it comes (``LayerSent``), so the grid fills
in layer by layer while the window stays responsive; then, when asked, the induction scores of the model (a
random sequence written twice, ``InductionSent``). What a superseded request still sends is dropped by the
runner's one rule (its ticket is not the slot's current one).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from explorer.config import RunOptions
from explorer.work.report import Report, Work


@dataclass(frozen=True)
class ModelViewRequest:
    trace: Any  # the shown Trace: read when it holds every layer, or when there is no model to run
    bundle: Any  # the model that traced it (None for a snapshot)
    text: str  # the trace's sentences, one a line
    options: RunOptions  # the trace's options
    stage: str  # a (C, C) stage: scores, scaled, masked or weights
    row: int  # the sentence
    lut: np.ndarray  # (256, 4) uint8: the colour map of the stage
    induction: bool  # also score the model's heads on a repeated random sequence


@dataclass(frozen=True)
class LayerSent:
    heads: Any  # present.model_view.LayerHeads: one layer's maps, ready to show


@dataclass(frozen=True)
class InductionSent:
    scores: np.ndarray  # (L, H) induction scores


# How much lower than the window's thread the job's thread runs (a nice increment: Linux schedules threads).
NICER = 5


def _yield_to_the_window() -> None:
    """Lower this thread's scheduling priority, so that on a busy machine the GUI thread gets the cores first
    (each job runs in a thread of its own, which ends with it). Best effort: not every system allows it."""
    import os

    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + NICER)
    except (AttributeError, OSError):
        pass


def model_view_work(request: ModelViewRequest) -> Work:
    """Every layer sent as a LayerSent, then an InductionSent; returns how many layers were derived."""

    def work(report: Report, cancel: threading.Event) -> int:
        from explorer.present import model_view as mv  # torch loads (when it must) here, in the job's thread

        _yield_to_the_window()
        req, done = request, [0]
        total = req.trace.config.layers if req.trace is not None else req.bundle.config.layers

        def on_heads(heads) -> None:
            report.send(LayerSent(heads))
            done[0] += 1
            report.progress(done[0], total)

        if req.bundle is None or mv.holds_every_layer(req.trace):
            n = mv.trace_layers(req.trace, req.stage, req.row, req.lut, on_heads, cancel)
        else:
            n = mv.model_layers(req.bundle, req.text, req.options, req.stage, req.row, req.lut, on_heads, cancel)
        if req.induction and req.bundle is not None:
            report.send(InductionSent(np.asarray(mv.induction_scores(req.bundle, req.options, cancel))))
        return n

    return work
