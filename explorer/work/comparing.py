"""Two runs compared as work off the GUI thread (issue 40): run A's and run B's traces, each found or built
in the model cache as a trace request is, then ``explorer.compare.compare`` of the pair."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from explorer.compare import Comparison, Pair, Run, compare
from explorer.session.request import TraceRequest
from explorer.work.model_cache import ModelCache
from explorer.work.report import Report, Work
from explorer.work.tracing import compute_trace


def compare_work(models: ModelCache, request_a: TraceRequest, request_b: TraceRequest) -> Work:
    """Both runs traced (A, then B), then compared; progress says which run is computing."""

    def work(report: Report, cancel: threading.Event) -> Comparison:
        runs = []
        for done, request in enumerate((request_a, request_b)):
            report.progress(done, 2, "A" if done == 0 else "B")
            trace, _editable = compute_trace(models, request, cancel)
            runs.append(Run(trace, made(request)))
        report.progress(2, 2, "")
        return compare(Pair(*runs))

    return work


def made(request: TraceRequest) -> Mapping[str, Any]:
    """How a run was made, in the comparison's words (as the ``compare`` command writes them)."""
    interventions = request.interventions
    return {
        "model": request.source.label(),
        "random_weights": request.source.random_weights,
        "interventions": None if interventions.empty else interventions.to_dict(),
    }
