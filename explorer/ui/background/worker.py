"""The trace kind of job: trace requests run off the GUI thread on two slots of the one job runner
(explorer/ui/background/jobs.py). A model that is not built yet is loaded by a job of its own (``loads``), with
progress; the trace (explorer/work/tracing.py computes one) runs on ``traces`` once its model is there.

The newest request wins: a request that arrives while another is computing makes it stale and cancels it
(at its next capture point), and is computed next; requests in between are dropped. A model that is still
loading for the newest request's source goes on loading (a sentence typed during a long load would otherwise
start the load over), and the newest request is traced when it is ready. Stale results are dropped by the
runner's one rule (a job's ticket); failures are reported by the one error policy
(explorer/ui/background/job_failure.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

from explorer.session import TraceRequest
from explorer.session.open import open_source
from explorer.ui.background.jobs import JobSlot
from explorer.work.loading import load_work
from explorer.work.model_cache import ModelCache
from explorer.work.report import Work
from explorer.work.tracing import TraceHooks, compute_trace

# The one function that opens any model source (the CLI calls it too); a module name of its own so that the
# worker's cache calls it through this name and tests can stand in for it.
build_bundle = open_source


def build_model(source, progress=None, cancel=None):
    """What every job's model cache opens a source with (through ``build_bundle``)."""
    return build_bundle(source, progress=progress, cancel=cancel)


@dataclass(frozen=True)
class _Traced:
    trace: Any
    editable: bool  # the model's sizes can be edited (a preset)


@dataclass(frozen=True)
class _Baseline:
    trace: Any  # the run without interventions, just before the intervened trace


@dataclass(frozen=True)
class _ModelReady:
    config: Any  # the ModelConfig of a model built while tracing (one the cache dropped meanwhile)


class TraceWorker(QObject):
    traceReady = Signal(int, object, bool)  # ticket, Trace, sizes editable
    traceFailed = Signal(int, str, object)  # ticket, one-line message, the ExplorerError (its fields) or None
    busyChanged = Signal(bool)
    progress = Signal(int, int, str)  # done, total, what (loading a large model)
    modelReady = Signal(object)  # the ModelConfig of a model just built or loaded (the model stays here)
    baselineReady = Signal(int, object)  # ticket, the run without interventions (just before traceReady)
    _busyMaybe = Signal()  # queued to this thread: busy is said once the slots have settled

    def __init__(self, parent=None, models: ModelCache | None = None) -> None:
        """``models``: the cache shared with the window's other jobs (explorer/ui/background/job_runner.py)."""
        super().__init__(parent)
        self.models = models or ModelCache(build_model)
        self.loads = JobSlot(self)  # building a model, with progress
        self.traces = JobSlot(self)  # tracing a request whose model is built
        self._loading = None  # the ModelSource ``loads`` is building
        self._waiting: TraceRequest | None = None  # the newest request, while its model loads
        self._generation = 0
        self._busy = False
        self._prefetch = _Prefetch()
        self.loads.succeeded.connect(self._loaded)
        self.loads.cancelled.connect(self._load_ended)
        self.loads.failed.connect(self._load_failed)
        self.loads.progressed.connect(self.progress)
        self.traces.succeeded.connect(self._sent)
        self.traces.sent.connect(self._sent)
        self.traces.failed.connect(self._failed)
        for slot in (self.loads, self.traces):
            slot.busyChanged.connect(self._busyMaybe)
        self._busyMaybe.connect(self._say_busy, Qt.ConnectionType.QueuedConnection)

    # ------------------------------------------------------------------ asking (GUI thread)
    def submit(self, request: TraceRequest, ticket: int | None = None) -> int:
        """Trace ``request`` as soon as its model is there; returns its ticket, which every result of it
        carries: the Session's ticket for the request when given (one numbering from the Session to the views),
        else the next of the worker's own."""
        self._generation = self._generation + 1 if ticket is None else ticket
        if request.source == self._loading:  # its model is on its way: traced once it is there
            self.traces.drop()
            self._waiting = request
        elif self.models.has(request.source):
            self._stop_loading()
            self.traces.submit(_trace_work(self.models, request, self._prefetch))
        else:
            self.traces.drop()
            self._waiting, self._loading = request, request.source
            self.loads.submit(load_work(self.models, request.source))
        return self._generation

    def set_prefetch(self, stage: str, layer: int, row: int, head: int) -> None:
        """What the window shows: the maps a new long trace needs for it are derived off the GUI thread."""
        self._prefetch.hint = (stage, layer, row, head)  # one reference assignment: safe to read from a job

    def cancel_current(self) -> None:
        """Stop the running request (a long model load) at its next check, and drop any waiting one: nothing
        of them arrives (a new request for the same model, made at once, loads it again)."""
        self._waiting = self._loading = None
        self.loads.drop()
        self.traces.drop()

    def stop(self, wait_ms: int = 10_000) -> None:
        """The window is closing: stop both slots and wait for their jobs; nothing more starts."""
        self._waiting = None
        self.loads.shutdown(wait_ms)
        self.traces.shutdown(wait_ms)

    def isRunning(self) -> bool:
        """A load or a trace still runs on its thread."""
        return any(slot.job is not None and slot.job.isRunning() for slot in (self.loads, self.traces))

    @property
    def generation(self) -> int:
        return self._generation

    # ------------------------------------------------------------------ the jobs
    def _stop_loading(self) -> None:
        if self._loading is not None:
            self.loads.drop()
            self._loading = self._waiting = None

    # ------------------------------------------------------------------ results (current tickets only)
    def _loaded(self, config) -> None:
        request, self._waiting, self._loading = self._waiting, None, None
        if request is not None:
            self.traces.submit(_trace_work(self.models, request, self._prefetch))
        # After the trace is asked for, as before: a deep model switches to capturing one layer here, and that
        # new request makes the trace just asked for stale (the runner's one rule).
        self.modelReady.emit(config)

    def _load_ended(self) -> None:
        self._waiting = self._loading = None

    def _sent(self, value) -> None:
        if isinstance(value, _Traced):
            self.traceReady.emit(self._generation, value.trace, value.editable)
        elif isinstance(value, _Baseline):
            self.baselineReady.emit(self._generation, value.trace)
        elif isinstance(value, _ModelReady):
            self.modelReady.emit(value.config)

    def _load_failed(self, message: str, error) -> None:
        self._load_ended()
        self._failed(message, error)

    def _failed(self, message: str, error) -> None:
        self.traceFailed.emit(self._generation, message, error)

    def _say_busy(self) -> None:
        busy = self.loads.busy or self.traces.busy
        if busy != self._busy:
            self._busy = busy
            self.busyChanged.emit(busy)


class _Prefetch:
    """What the window shows, read by the trace jobs (a plain object: a job's work must hold no QObject, or
    the last reference to one could be dropped, and the object destroyed, in the job's thread)."""

    hint: tuple[str, int, int, int] | None = None  # (stage, layer, row, head) on screen


def _trace_work(models: ModelCache, request: TraceRequest, prefetch: _Prefetch) -> Work:
    def work(report, cancel) -> _Traced:
        hooks = TraceHooks(
            progress=report.progress,
            model_ready=lambda config: report.send(_ModelReady(config)),
            partial=lambda trace, editable: report.send(_prefetched(trace, editable, prefetch)),
            baseline=lambda baseline: report.send(_Baseline(baseline)),
        )
        return _prefetched(*compute_trace(models, request, cancel, hooks), prefetch)

    return work


def _prefetched(trace, editable: bool, prefetch: _Prefetch) -> _Traced:
    """A long trace with the maps on screen derived here, in the job's thread."""
    hint = prefetch.hint
    if hint is not None and max((r.length for r in trace.rows), default=0) >= PREFETCH_TOKENS:
        from explorer.present.prefetch import prefetch_maps

        prefetch_maps(trace, *hint)
    return _Traced(trace, editable)


# From this many tokens in a sentence the maps on screen are derived in the worker before a trace is handed
# over (below, they take a few milliseconds wherever they are computed).
PREFETCH_TOKENS = 256
