"""Runs the model off the GUI thread. The newest request wins: a request that arrives while another is
computing cancels it (at its next capture point) and is computed next; requests in between are dropped.
"""

from __future__ import annotations

import threading
import traceback

from PySide6.QtCore import QThread, Signal

from explorer.errors import Cancelled, ExplorerError
from explorer.trace import run_trace
from explorer.ui.state import ModelSource, TraceRequest
from explorer.weights.bundle import ModelBundle


def build_bundle(source: ModelSource, progress=None, cancel=None) -> ModelBundle:
    """The model a request names. Pure core calls; kept here so the cache below can wrap it."""
    if source.kind == "preset":
        from explorer.weights.presets import load_preset

        return load_preset(source.name, random_weights=source.random_weights, seed=source.seed, **source.size_overrides())
    from explorer.weights.loaders import load_model

    return load_model(source.name, progress=progress, cancel=cancel)


class TraceWorker(QThread):
    traceReady = Signal(int, object, bool)  # generation, Trace, sizes editable
    traceFailed = Signal(int, str)  # generation, one-line message
    busyChanged = Signal(bool)
    progress = Signal(int, int, str)  # done, total, what (loading a large model)
    bundleReady = Signal(object)  # ModelBundle, when a new model was built or loaded

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._cond = threading.Condition()
        self._pending: tuple[int, TraceRequest] | None = None
        self._cancel_current: threading.Event | None = None
        self._generation = 0
        self._stopping = False
        self._bundles: dict[ModelSource, ModelBundle] = {}

    # ------------------------------------------------------------------ GUI thread
    def submit(self, request: TraceRequest) -> int:
        with self._cond:
            self._generation += 1
            self._pending = (self._generation, request)
            if self._cancel_current is not None:
                self._cancel_current.set()  # the running trace is stale: stop it
            self._cond.notify()
            return self._generation

    def put_bundle(self, source: ModelSource, bundle: ModelBundle) -> None:
        """Offer a model built elsewhere (training) under a source, so requests naming it use it."""
        with self._cond:
            self._bundles[source] = bundle

    def forget_bundle(self, source: ModelSource) -> None:
        with self._cond:
            self._bundles.pop(source, None)

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
        bundle = build_bundle(source, progress=lambda d, t, w: self.progress.emit(d, t, w), cancel=cancel)
        with self._cond:
            # Keep a few models: switching back and forth between presets stays instant.
            if len(self._bundles) >= 4:
                self._bundles.pop(next(iter(self._bundles)))
            self._bundles[source] = bundle
        self.bundleReady.emit(bundle)
        return bundle

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
                bundle = self._bundle(request.source, cancel)
                trace = run_trace(bundle, request.text, request.options, cancel=cancel)
            except Cancelled:
                pass
            except ExplorerError as exc:
                self.traceFailed.emit(generation, str(exc))
            except MemoryError:
                self.traceFailed.emit(generation, self.tr("out of memory: make the model or the text smaller"))
            except Exception as exc:  # a bug: say so in one line, keep the details on stderr
                traceback.print_exc()
                self.traceFailed.emit(generation, self.tr("internal error ({kind}: {message}); please report it").format(kind=type(exc).__name__, message=exc))
            else:
                self.traceReady.emit(generation, trace, bundle.editable_sizes)
            finally:
                with self._cond:
                    self._cancel_current = None
                    idle = self._pending is None
                if idle:
                    self.busyChanged.emit(False)
