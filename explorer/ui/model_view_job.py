"""The Model view's work off the GUI thread, as one plain ``Work`` function for a JobSlot (jobs.py).

Every layer's maps are derived, shrunk and coloured in the job's thread (explorer.present.model_view); each
finished layer crosses to the GUI thread as one queued signal of the relay, so the grid fills in layer by
layer while the window stays responsive. Then, when asked, the induction scores of the model (a random
sequence written twice). Every result carries its request's ticket: results of a superseded request, still
queued when the next one starts, are ignored by the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import QObject, Signal

from explorer.config import RunOptions


class ModelViewRelay(QObject):
    """Lives in the GUI thread: a signal emitted from the job's thread reaches its slots queued."""

    heads = Signal(int, object)  # ticket, present.model_view.LayerHeads
    induction = Signal(int, object)  # ticket, (L, H) induction scores


@dataclass(frozen=True)
class ModelViewRequest:
    ticket: int
    trace: Any  # the shown Trace: read when it holds every layer, or when there is no model to run
    bundle: Any  # the model that traced it (None for a snapshot)
    text: str  # the trace's sentences, one a line
    options: RunOptions  # the trace's options
    stage: str  # a (C, C) stage: scores, scaled, masked or weights
    row: int  # the sentence
    lut: np.ndarray  # (256, 4) uint8: the colour map of the stage
    induction: bool  # also score the model's heads on a repeated random sequence


# How much lower than the window's thread the job's thread runs (a nice increment: Linux schedules threads).
NICER = 5


def _yield_to_the_window() -> None:
    """Lower this thread's scheduling priority, so that on a busy machine the GUI thread gets the cores first
    (each job runs in a thread of its own, which ends with it). Best effort: not every system allows it."""
    import os
    import threading

    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + NICER)
    except (AttributeError, OSError):
        pass


def model_view_work(request: ModelViewRequest, relay: ModelViewRelay):
    """work(report, cancel) for JobSlot.submit: every layer to ``relay.heads``, then the induction scores."""

    def work(report, cancel) -> int:
        from explorer.present import model_view as mv  # torch loads (when it must) here, in the job's thread

        _yield_to_the_window()

        req, done = request, [0]
        total = req.trace.config.layers if req.trace is not None else req.bundle.config.layers

        def on_heads(heads) -> None:
            relay.heads.emit(req.ticket, heads)
            done[0] += 1
            report.progress(done[0], total)

        if req.bundle is None or mv.holds_every_layer(req.trace):
            n = mv.trace_layers(req.trace, req.stage, req.row, req.lut, on_heads, cancel)
        else:
            n = mv.model_layers(req.bundle, req.text, req.options, req.stage, req.row, req.lut, on_heads, cancel)
        if req.induction and req.bundle is not None:
            relay.induction.emit(req.ticket, mv.induction_scores(req.bundle, req.options, cancel))
        return n

    return work
