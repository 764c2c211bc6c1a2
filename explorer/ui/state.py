"""The one place the window's state lives: what to trace (request), the latest trace, and the selection.

Data flows one way: controls call the setters here → ``requestChanged`` → the worker computes → the
window hands the trace back with ``set_trace`` → ``traceChanged`` → every view redraws. A view that wants
to select something calls ``select(...)``; all views follow ``selectionChanged``. Views never talk to each
other.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Signal

from explorer.config import ModelConfig, RunOptions
from explorer.interventions.spec import EdgeCut, HeadAblation, Interventions, PatchSpec
from explorer.present.before_after import stored_baseline
from explorer.session import ModelSource, Selection, TraceRequest, first_request, preset_request
from explorer.trace import Trace
from explorer.ui.generation_state import GenerationState

__all__ = ["AppState", "ModelSource", "Selection", "TraceRequest"]  # the session's types, held here


@dataclass
class _Current:
    request: TraceRequest
    trace: Trace | None = None
    config: ModelConfig | None = None
    editable_sizes: bool = True
    busy: bool = False
    notices: tuple[str, ...] = field(default_factory=tuple)
    snapshot: str | None = None  # the file of the snapshot shown (read-only), None for the live model
    live: TraceRequest | None = None  # while a snapshot is shown: the live model's request, to return to
    error: BaseException | None = None  # the last failed request's error, with its fields (None: a message only)
    baseline: Trace | None = None  # the same request without interventions, while the shown trace has some


class AppState(QObject):
    requestChanged = Signal(object)  # TraceRequest: the worker should (re)compute
    traceChanged = Signal(object)  # Trace: every view redraws
    selectionChanged = Signal(object)  # Selection
    busyChanged = Signal(bool)
    noticesChanged = Signal(tuple)  # plain-words remarks from the last trace (truncation, unknown words…)
    errorRaised = Signal(str)  # one-line message of a failed request; the last good trace stays shown
    modelInfoChanged = Signal(object, bool)  # (ModelConfig, sizes editable)
    modelPublished = Signal(object, object)  # (ModelSource, ModelBundle): a model built outside the worker (training)
    modelWithdrawn = Signal(object)  # ModelSource whose published model the worker may drop (it reloads from disk)
    requestReverted = Signal(object)  # TraceRequest: back to the shown model after a failed or cancelled load
    layerWanted = Signal(int)  # a layer of the model that the trace did not capture was selected
    snapshotChanged = Signal(object)  # str: the snapshot file now shown read-only; None: back to the live model
    interventionsChanged = Signal(object)  # Interventions of the request (the panel lists them)

    def __init__(self, text: str | None = None, source: ModelSource | None = None, options: RunOptions | None = None) -> None:
        super().__init__()
        self._cur = _Current(first_request(text, source, options))
        self._selection = Selection()
        self.generation = GenerationState(self)  # the Generate panel's result and the step shown

    # ------------------------------------------------------------------ reading
    @property
    def request(self) -> TraceRequest:
        return self._cur.request

    @property
    def text(self) -> str:
        return self._cur.request.text

    @property
    def source(self) -> ModelSource:
        return self._cur.request.source

    @property
    def options(self) -> RunOptions:
        return self._cur.request.options

    @property
    def trace(self) -> Trace | None:
        return self._cur.trace

    @property
    def interventions(self) -> Interventions:
        return self._cur.request.interventions

    @property
    def baseline(self) -> Trace | None:
        """The run without interventions that the shown trace compares with; None when nothing is changed."""
        return self._cur.baseline

    @property
    def selection(self) -> Selection:
        return self._selection

    @property
    def config(self) -> ModelConfig | None:
        """The config of the model last traced (sizes filled in from the tokenizer or the file)."""
        return self._cur.config

    @property
    def editable_sizes(self) -> bool:
        return self._cur.editable_sizes

    @property
    def busy(self) -> bool:
        return self._cur.busy

    @property
    def read_only(self) -> bool:
        """True while a snapshot is shown: nothing can be recomputed until a model is chosen again."""
        return self._cur.trace is not None and self._cur.trace.read_only

    @property
    def snapshot(self) -> str | None:
        """The snapshot file shown (read-only), or None while the live model is shown."""
        return self._cur.snapshot

    @property
    def live_request(self) -> TraceRequest:
        """What the live model traces: the request, or while a snapshot is shown the one to return to."""
        return self._cur.live or self._cur.request

    def return_to_live(self) -> None:
        """Leave the snapshot: the live model (as it was before the snapshot was opened) is traced again."""
        if self._leave_snapshot():
            self.requestChanged.emit(self._cur.request)

    def _leave_snapshot(self) -> bool:
        if self._cur.snapshot is None:
            return False
        self._cur.request = self._cur.live or self._cur.request
        self._cur.snapshot = self._cur.live = None
        self.snapshotChanged.emit(None)
        return True

    # ------------------------------------------------------------------ controls → request
    def _set_request(self, request: TraceRequest, leaves_snapshot: bool = False) -> None:
        """Controls that would re-trace are disabled while a snapshot is shown, and an edit that still
        arrives (a script, a shortcut) is ignored: typing one character silently left the snapshot. Choosing
        a model (a preset, File → Open model, a trained checkpoint) leaves it on purpose."""
        if self._cur.snapshot is not None:
            if not leaves_snapshot:
                return
            self._leave_snapshot()
        if request == self._cur.request and not self.read_only:
            return
        self._cur.request = request
        self.requestChanged.emit(request)

    def set_text(self, text: str) -> None:
        self._set_request(dataclasses.replace(self.request, text=text))

    def set_source(self, source: ModelSource) -> None:
        self._set_request(dataclasses.replace(self.request, source=source))

    def set_sizes(self, **sizes: Any) -> None:
        self.set_source(dataclasses.replace(self.source.with_sizes(**sizes), random_weights=True))

    def set_preset(self, name: str, keep_text: bool | None = None) -> None:
        self._set_request(preset_request(self.live_request, name, keep_text), leaves_snapshot=True)

    def set_seed(self, seed: int | None) -> None:
        self.set_source(dataclasses.replace(self.source, seed=seed, random_weights=seed is not None or self.source.random_weights))

    def set_random_weights(self, random_weights: bool) -> None:
        self.set_source(dataclasses.replace(self.source, random_weights=random_weights))

    def open_model(self, path_or_name: str) -> None:
        self._set_request(dataclasses.replace(self.live_request, source=ModelSource("path", path_or_name)), leaves_snapshot=True)

    def set_options(self, **changes: Any) -> None:
        self._set_request(dataclasses.replace(self.request, options=self.options.replace(**changes)))

    # ------------------------------------------------------------------ interventions (issue 15)
    def set_interventions(self, interventions: Interventions) -> None:
        if interventions == self.interventions or self._cur.snapshot is not None:
            return
        self._set_request(dataclasses.replace(self.request, interventions=interventions))
        self.interventionsChanged.emit(interventions)

    def add_intervention(self, item: HeadAblation | EdgeCut | PatchSpec, patch_from: str | None = None) -> None:
        """Ablate a head (one mode per head: a new mode replaces the old), cut an edge, or patch an activation
        from ``patch_from`` (one source text for all patches: a new text is the source of every patch)."""
        cur = self.interventions
        if isinstance(item, PatchSpec):
            kept = tuple(p for p in cur.patches if p != item)
            self.set_interventions(dataclasses.replace(cur, patches=kept + (item,), patch_from=patch_from))
        elif isinstance(item, HeadAblation):
            kept = tuple(a for a in cur.ablations if (a.layer, a.head) != (item.layer, item.head))
            self.set_interventions(dataclasses.replace(cur, ablations=kept + (item,)))
        elif item not in cur.cuts:
            self.set_interventions(dataclasses.replace(cur, cuts=cur.cuts + (item,)))

    def remove_intervention(self, item: HeadAblation | EdgeCut | PatchSpec) -> None:
        cur = self.interventions
        patches = tuple(p for p in cur.patches if p != item)
        self.set_interventions(dataclasses.replace(
            cur, ablations=tuple(a for a in cur.ablations if a != item), cuts=tuple(c for c in cur.cuts if c != item),
            patches=patches, patch_from=cur.patch_from if patches else None))

    def clear_interventions(self) -> None:
        self.set_interventions(Interventions())

    def set_baseline(self, baseline: Trace | None) -> None:
        """From the worker, just before the intervened trace it belongs to (``set_trace``)."""
        self._cur.baseline = baseline

    def publish_model(self, source: ModelSource, bundle: Any, show: bool = True, text: str | None = None) -> None:
        """Offer a model built here (a training checkpoint) under ``source``; with ``show``, trace it (and
        ``text``, when given) in one request."""
        self.modelPublished.emit(source, bundle)  # connected directly: the worker has it before the request
        if show:
            self._leave_snapshot()
            request = dataclasses.replace(self.request, source=source, text=self.text if text is None else text)
            if request == self._cur.request:
                self.retrace()  # same name, new weights
            else:
                self._set_request(request)

    def withdraw_model(self, source: ModelSource) -> None:
        self.modelWithdrawn.emit(source)

    def revert_request(self, request: TraceRequest) -> None:
        """The worker could not serve the latest request (a model failed to load, or its load was
        cancelled): go back to ``request``, whose trace is shown, without computing anything."""
        self._cur.request = request
        self.requestReverted.emit(request)

    def retrace(self) -> None:
        """Ask for the current request again (after a model changed under the same name, e.g. training)."""
        if self._cur.snapshot is None:
            self.requestChanged.emit(self.request)

    # ------------------------------------------------------------------ worker → state
    def set_busy(self, busy: bool) -> None:
        if busy != self._cur.busy:
            self._cur.busy = busy
            self.busyChanged.emit(busy)

    def set_trace(self, trace: Trace, editable_sizes: bool = True) -> None:
        """A new trace to show (from the worker, or a snapshot opened read-only)."""
        entering = trace.read_only and trace.origin != self._cur.snapshot
        if not trace.read_only and self._cur.snapshot is not None:
            return  # a live trace that finished after the snapshot was opened: the snapshot stays
        if entering:
            self._enter_snapshot(trace)
        config_changed = entering or self._cur.config != trace.config or self._cur.editable_sizes != editable_sizes
        if trace.read_only:
            self._cur.baseline = stored_baseline(trace)  # a snapshot compares with the baseline.* it stores
        elif not trace.interventions:
            self._cur.baseline = None  # a plain trace: nothing to compare with
        self._cur.trace = trace
        self._cur.config = trace.config
        self._cur.editable_sizes = editable_sizes and not trace.read_only
        clamped = self._clamped(self._selection, trace)
        selection_changed, self._selection = clamped != self._selection, clamped
        if config_changed:
            self.modelInfoChanged.emit(trace.config, self._cur.editable_sizes)
        self.traceChanged.emit(trace)
        # Every view redraws on traceChanged with the current selection; a second signal for a selection that
        # did not change would make each of them draw twice per edit.
        if selection_changed:
            self.selectionChanged.emit(self._selection)
        if trace.notices != self._cur.notices:
            self._cur.notices = trace.notices
            self.noticesChanged.emit(trace.notices)
        if entering:
            self.snapshotChanged.emit(trace.origin)

    def _enter_snapshot(self, trace: Trace) -> None:
        """The request becomes the snapshot's (its model's name, its text and options), so that every control
        shows what the snapshot holds; the live request is kept to return to. Nothing is sent to the worker."""
        if self._cur.live is None:
            self._cur.live = self._cur.request
        self._cur.snapshot = trace.origin
        name = trace.model_name or trace.source or trace.origin
        self._cur.request = TraceRequest(ModelSource("snapshot", str(name)), "\n".join(r.text for r in trace.rows), trace.options)
        self.requestReverted.emit(self._cur.request)  # menus and panels follow the shown model

    def report_error(self, message: str, error: BaseException | None = None) -> None:
        """A request failed. ``error`` (when the core raised one) keeps its fields for the policies that act
        on it (explorer.session.mask_growth): nobody parses ``message``."""
        self._cur.error = error
        self.errorRaised.emit(message)

    @property
    def error(self) -> BaseException | None:
        """The error of the last failed request, as raised (None when only a message is known)."""
        return self._cur.error

    # ------------------------------------------------------------------ selection
    @staticmethod
    def _clamped(sel: Selection, trace: Trace) -> Selection:
        layers = trace.layers or (0,)
        layer = sel.layer if sel.layer in layers else layers[0]
        head = min(sel.head, trace.config.H - 1)
        row = min(sel.row, trace.B - 1)
        length = trace.rows[row].length
        token = None if sel.token is None else min(sel.token, length - 1)
        key = None if sel.key is None else min(sel.key, length - 1)
        return dataclasses.replace(sel, layer=layer, head=head, row=row, token=token, key=key)

    def selectable_layers(self) -> tuple[int, ...]:
        """The layers a user can pick: every layer of a computed model (one the trace did not capture is
        traced when picked, see ``layerWanted``), only the stored ones of a snapshot."""
        trace = self._cur.trace
        if trace is None:
            return ()
        if trace.read_only:
            return trace.layers
        return tuple(range(trace.config.layers))

    def select(self, **changes: Any) -> None:
        """Change what is selected: stage, layer, head, row, token (query), key. Clamped to the trace."""
        trace = self._cur.trace
        layer = changes.get("layer")
        if trace is not None and layer is not None and layer not in trace.layers and layer in self.selectable_layers():
            self.layerWanted.emit(layer)  # not captured: whoever manages capture re-traces with it
        new = dataclasses.replace(self._selection, **changes)
        if self._cur.trace is not None:
            new = self._clamped(new, self._cur.trace)
        if new != self._selection:
            self._selection = new
            self.selectionChanged.emit(new)
