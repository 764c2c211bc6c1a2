"""Runs the model off the GUI thread. The newest request wins: a request that arrives while another is
computing cancels it (at its next capture point) and is computed next; requests in between are dropped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import threading
import traceback

from PySide6.QtCore import QThread, Signal

from explorer.errors import Cancelled, ExplorerError
from explorer.session import ModelSource, TraceRequest
from explorer.session.capture_policy import capturable
from explorer.session.open import open_source
from explorer.util.threads import threads_for

if TYPE_CHECKING:
    from explorer.weights.bundle import ModelBundle


# The one function that opens any model source (the CLI calls it too); a module name of its own so that the
# cache below wraps it and tests can stand in for it.
build_bundle = open_source


class TraceWorker(QThread):
    traceReady = Signal(int, object, bool)  # generation, Trace, sizes editable
    traceFailed = Signal(int, str, object)  # generation, one-line message, the ExplorerError (its fields) or None
    busyChanged = Signal(bool)
    progress = Signal(int, int, str)  # done, total, what (loading a large model)
    bundleReady = Signal(object)  # ModelBundle, when a new model was built or loaded
    baselineReady = Signal(int, object)  # generation, the run without interventions (just before traceReady)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._cond = threading.Condition()
        self._pending: tuple[int, TraceRequest] | None = None
        self._cancel_current: threading.Event | None = None
        self._generation = 0
        self._stopping = False
        self._bundles: dict[ModelSource, ModelBundle] = {}
        self._loading: ModelSource | None = None  # the source whose model is being built right now
        self._prefetch: tuple[str, int, int, int] | None = None  # (stage, layer, row, head) on screen

    # ------------------------------------------------------------------ GUI thread
    def submit(self, request: TraceRequest) -> int:
        with self._cond:
            self._generation += 1
            self._pending = (self._generation, request)
            # The running trace is stale: stop it. A model that is still loading for the same source is not
            # (a sentence typed during a long load would otherwise start the load over); it is used next.
            if self._cancel_current is not None and self._loading != request.source:
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

    def put_bundle(self, source: ModelSource, bundle: ModelBundle) -> None:
        """Offer a model built elsewhere (training) under a source, so requests naming it use it."""
        with self._cond:
            self._bundles[source] = bundle

    def cached_bundle(self, source: ModelSource) -> ModelBundle | None:
        """The model already built for ``source``, if any (the Generate panel reuses it instead of loading again)."""
        with self._cond:
            return self._bundles.get(source)

    def forget_bundle(self, source: ModelSource) -> None:
        with self._cond:
            self._bundles.pop(source, None)

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
    def _bundle(self, source: ModelSource, cancel: threading.Event) -> ModelBundle:
        with self._cond:
            cached = self._bundles.get(source)
        if cached is not None:
            return cached
        with self._cond:
            self._loading = source
        try:
            bundle = build_bundle(source, progress=lambda d, t, w: self.progress.emit(d, t, w), cancel=cancel)
        finally:
            with self._cond:
                self._loading = None
        with self._cond:
            if self._pending is not None:
                cancel.set()  # a newer request came during the load: trace that one, not this one
            # Keep a few models: switching back and forth between presets stays instant.
            if len(self._bundles) >= 4:
                self._bundles.pop(next(iter(self._bundles)))
            self._bundles[source] = bundle
        self.bundleReady.emit(bundle)
        return bundle

    def _intervened(self, generation: int, bundle, request: TraceRequest, options, cancel):
        """The baseline and the intervened run (explorer.interventions); the baseline goes to the state first."""
        from explorer.interventions.run import run_intervened
        from explorer.trace.run import run_trace

        baseline = run_trace(bundle, request.text, options, cancel=cancel)
        trace = run_intervened(bundle, request.text, request.interventions, options, cancel=cancel, baseline=baseline)
        self.baselineReady.emit(generation, baseline)
        return trace

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
                from explorer.trace.run import run_trace  # torch loads here, off the GUI thread

                bundle = self._bundle(request.source, cancel)
                options = capturable(request.options, bundle.config.layers)
                with threads_for(_macs(bundle, request.text)):
                    if not request.interventions.empty:
                        trace = self._intervened(generation, bundle, request, options, cancel)
                    else:
                        first = _first_layer_to_show(bundle, request.text, options)
                        trace = run_trace(
                            bundle, request.text, options, cancel=cancel, partial_after=first,
                            on_partial=lambda partial: self._ready(generation, partial, bundle.editable_sizes),
                        )
            except Cancelled:
                pass
            except ExplorerError as exc:
                self.traceFailed.emit(generation, str(exc), exc)
            except MemoryError:
                self.traceFailed.emit(generation, self.tr("out of memory: make the model or the text smaller"), None)
            except BaseException as exc:  # noqa: BLE001 - a bug, or a library's Rust panic (PanicException is a
                # BaseException): say so in one line and keep serving; a worker that died silently left the
                # window waiting forever. Details go to stderr.
                traceback.print_exc()
                self.traceFailed.emit(generation, self.tr("internal error ({kind}: {message}); please report it").format(kind=type(exc).__name__, message=exc), None)
            else:
                self._ready(generation, trace, bundle.editable_sizes)
            finally:
                with self._cond:
                    self._cancel_current = None
                    idle = self._pending is None
                if idle:
                    self.busyChanged.emit(False)


# From this many tokens in a sentence the maps on screen are derived in the worker before a trace is handed
# over (below, they take a few milliseconds wherever they are computed).
PREFETCH_TOKENS = 256

# Above this many multiply-adds a trace takes seconds here: show the first captured layer as soon as it is
# done, then the rest (a 4096-token GPT-2 trace takes minutes on two cores; its first maps, seconds).
PROGRESSIVE_MACS = 2e10


def _macs(bundle, text: str) -> float:
    """About how many multiply-adds a trace of ``text`` takes (tokens × parameters), from a cheap guess at
    the token count that is never below the real one."""
    tokens = len(text.split()) if bundle.tokenizer.kind == "word" else len(text)
    return tokens * bundle.config.parameter_count()


def _first_layer_to_show(bundle, text: str, options) -> int | None:
    """The layer whose maps are worth handing over early, or None for a trace that will be quick."""
    if _macs(bundle, text) < PROGRESSIVE_MACS:
        return None
    captured = options.layers_to_capture
    return min(captured) if captured else 0
