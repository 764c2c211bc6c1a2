"""One trace request computed, as the trace kind of job (explorer/ui/background/worker.py) runs it on its thread:
the model found or built in the model cache, the layers to capture that it has, the CPU threads the run is
worth, then the plain trace (a long one hands its first captured layer over early) or the baseline and the
intervened run. Plain Python: the runner only decides which request runs and reports the results.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from explorer.config import ModelConfig
from explorer.session.capture_policy import capturable
from explorer.session.request import TraceRequest
from explorer.trace import Trace
from explorer.util.threads import threads_for
from explorer.work.model_cache import ModelCache

# Above this many multiply-adds a trace takes seconds here: show the first captured layer as soon as it is
# done, then the rest (a 4096-token GPT-2 trace takes minutes on two cores; its first maps, seconds).
PROGRESSIVE_MACS = 2e10


@dataclass(frozen=True)
class TraceHooks:
    """What the run says while it goes (each from the computing thread; any may be None)."""

    progress: Callable[[int, int, str], None] | None = None  # loading a large model: done, total, what
    model_ready: Callable[[ModelConfig], None] | None = None  # a model was just built or loaded
    partial: Callable[[Trace, bool], None] | None = None  # a long trace's first layer, early (trace, sizes editable)
    baseline: Callable[[Trace], None] | None = None  # the run without interventions, before the intervened one


def compute_trace(
    models: ModelCache, request: TraceRequest, cancel: threading.Event, hooks: TraceHooks = TraceHooks()
) -> tuple[Trace, bool]:
    """(the Trace of ``request``, whether its sizes are editable). Torch loads here, off the GUI thread."""
    from explorer.trace.run import run_trace

    if models.has(request.source):
        bundle = models.get(request.source)
    else:
        bundle = models.get(request.source, progress=hooks.progress, cancel=cancel, dtype=request.options.dtype)
        if hooks.model_ready is not None:
            hooks.model_ready(bundle.config)
    options = capturable(request.options, bundle.config.layers)
    with threads_for(macs(bundle, request.text)):
        if not request.interventions.empty:
            return _intervened(bundle, request, options, cancel, hooks), bundle.editable_sizes
        first = first_layer_to_show(bundle, request.text, options)
        partial = None if hooks.partial is None else (lambda t: hooks.partial(t, bundle.editable_sizes))
        trace = run_trace(bundle, request.text, options, cancel=cancel, partial_after=first, on_partial=partial)
    return trace, bundle.editable_sizes


def _intervened(bundle: Any, request: TraceRequest, options, cancel: threading.Event, hooks: TraceHooks) -> Trace:
    """The baseline and the intervened run (explorer.interventions); the baseline is reported first."""
    from explorer.interventions.intervened_run import run_intervened
    from explorer.trace.run import run_trace

    baseline = run_trace(bundle, request.text, options, cancel=cancel)
    trace = run_intervened(bundle, request.text, request.interventions, options, cancel=cancel, baseline=baseline)
    if hooks.baseline is not None:
        hooks.baseline(baseline)
    return trace


def macs(bundle: Any, text: str) -> float:
    """About how many multiply-adds a trace of ``text`` takes (tokens × the parameters a token uses), from a
    cheap guess at the token count that is never below the real one."""
    tokens = len(text.split()) if bundle.tokenizer.kind == "word" else len(text)
    return tokens * bundle.config.active_parameter_count()  # a mixture of experts: only the chosen experts run


def first_layer_to_show(bundle: Any, text: str, options) -> int | None:
    """The layer whose maps are worth handing over early, or None for a trace that will be quick."""
    if macs(bundle, text) < PROGRESSIVE_MACS:
        return None
    captured = options.layers_to_capture
    return min(captured) if captured else 0
