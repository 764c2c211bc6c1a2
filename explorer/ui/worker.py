"""The trace queue: runs trace requests off the GUI thread (explorer/session/trace_work.py computes one). The
newest request wins: a request that arrives while another is computing cancels it (at its next capture
point) and is computed next; requests in between are dropped. Its models are the job runner's
(explorer/ui/jobs.py), and it reports failures by the one error policy (explorer/ui/job_failure.py).
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QThread, Signal

from explorer.errors import ExplorerError
from explorer.session import TraceRequest
from explorer.session.model_cache import ModelCache
from explorer.session.open import open_source
from explorer.session.trace_work import TraceHooks, compute_trace
from explorer.ui.job_failure import failure

# The one function that opens any model source (the CLI calls it too); a module name of its own so that the
# worker's cache calls it through this name and tests can stand in for it.
build_bundle = open_source


def build_model(source, progress=None, cancel=None):
    """What every job's model cache opens a source with (through ``build_bundle``)."""
    return build_bundle(source, progress=progress, cancel=cancel)


class TraceWorker(QThread):
    traceReady = Signal(int, object, bool)  # generation, Trace, sizes editable
    traceFailed = Signal(int, str, object)  # generation, one-line message, the ExplorerError (its fields) or None
    busyChanged = Signal(bool)
    progress = Signal(int, int, str)  # done, total, what (loading a large model)
    modelReady = Signal(object)  # the ModelConfig of a model just built or loaded (the model stays here)
    baselineReady = Signal(int, object)  # generation, the run without interventions (just before traceReady)

    def __init__(self, parent=None, models: ModelCache | None = None) -> None:
        """``models``: the cache shared with the window's other jobs (explorer/ui/jobs.py's JobRunner)."""
        super().__init__(parent)
        self._cond = threading.Condition()
        self._pending: tuple[int, TraceRequest] | None = None
        self._cancel_current: threading.Event | None = None
        self._generation = 0
        self._stopping = False
        self.models = models or ModelCache(build_model)
        self._prefetch: tuple[str, int, int, int] | None = None  # (stage, layer, row, head) on screen

    # ------------------------------------------------------------------ GUI thread
    def submit(self, request: TraceRequest) -> int:
        with self._cond:
            self._generation += 1
            self._pending = (self._generation, request)
            # The running trace is stale: stop it. A model that is still loading for the same source is not
            # (a sentence typed during a long load would otherwise start the load over); it is used next.
            if self._cancel_current is not None and not self.models.is_loading(request.source):
                self._cancel_current.set()
            self._cond.notify()
            return self._generation

    def set_prefetch(self, stage: str, layer: int, row: int, head: int) -> None:
        """What the window shows: the maps a new long trace needs for it are derived here, off the GUI thread."""
        self._prefetch = (stage, layer, row, head)  # one reference assignment: safe to read from the worker

    def _ready(self, generation: int, trace, editable: bool) -> None:
        hint = self._prefetch
        if hint is not None and max((r.length for r in trace.rows), default=0) >= PREFETCH_TOKENS:
            from explorer.present.matrices import prefetch_maps

            prefetch_maps(trace, *hint)
        self.traceReady.emit(generation, trace, editable)

    def cancel_current(self) -> None:
        """Stop the running request (a long model load) at its next check, and drop any waiting one."""
        with self._cond:
            self._pending = None
            if self._cancel_current is not None:
                self._cancel_current.set()

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._pending = None
            if self._cancel_current is not None:
                self._cancel_current.set()
            self._cond.notify()
        self.wait(10_000)

    @property
    def generation(self) -> int:
        return self._generation

    # ------------------------------------------------------------------ worker thread
    def _hooks(self, generation: int, cancel: threading.Event) -> TraceHooks:
        def model_ready(config) -> None:
            with self._cond:
                if self._pending is not None:
                    cancel.set()  # a newer request came during the load: trace that one, not this one
            self.modelReady.emit(config)

        return TraceHooks(
            progress=lambda d, t, w: self.progress.emit(d, t, w),
            model_ready=model_ready,
            partial=lambda trace, editable: self._ready(generation, trace, editable),
            baseline=lambda baseline: self.baselineReady.emit(generation, baseline),
        )

    def run(self) -> None:  # noqa: D401 - QThread entry point
        while True:
            with self._cond:
                while self._pending is None and not self._stopping:
                    self._cond.wait()
                if self._stopping:
                    return
                generation, request = self._pending  # type: ignore[misc]
                self._pending = None
                cancel = threading.Event()
                self._cancel_current = cancel
            self.busyChanged.emit(True)
            try:
                trace, editable = compute_trace(self.models, request, cancel, self._hooks(generation, cancel))
            except BaseException as exc:  # noqa: BLE001 - the window's one error policy (explorer/ui/job_failure.py):
                # one line, and the worker keeps serving; a worker that died silently left the window waiting
                message = failure(exc)
                if message is not None:  # None: cancelled, a newer request is on its way
                    self.traceFailed.emit(generation, message, exc if isinstance(exc, ExplorerError) else None)
            else:
                self._ready(generation, trace, editable)
            finally:
                with self._cond:
                    self._cancel_current = None
                    idle = self._pending is None
                if idle:
                    self.busyChanged.emit(False)


# From this many tokens in a sentence the maps on screen are derived in the worker before a trace is handed
# over (below, they take a few milliseconds wherever they are computed).
PREFETCH_TOKENS = 256
