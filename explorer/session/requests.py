"""What to compute, and the rules that change it: the request (model source, text, run options,
interventions), a snapshot shown read-only in its place, and the events that say what changed. The Session
(explorer/session/session.py) adds what results lead to; this part knows nothing of traces' contents.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from explorer.config import RunOptions
from explorer.interventions.spec import EdgeCut, HeadAblation, Interventions, PatchSpec
from explorer.session import intervention_edits
from explorer.session.request import ModelSource, TraceRequest, first_request, preset_request
from explorer.trace import Trace

Event = tuple[str, tuple]


class Requests:
    def __init__(
        self, text: str | None = None, source: ModelSource | None = None, options: RunOptions | None = None
    ) -> None:
        self._events: list[Event] = []
        self._batch = 0  # inside a batch, request changes become one "request" event at its end
        self._batched: TraceRequest | None = None
        self.request: TraceRequest = first_request(text, source, options)
        self.trace: Trace | None = None
        self.snapshot: str | None = None  # the file of the snapshot shown (read-only), None for the live model
        self.live: TraceRequest | None = None  # while a snapshot is shown: the live model's request

    # ------------------------------------------------------------------ events
    def _emit(self, kind: str, *args: Any) -> None:
        self._events.append((kind, args))

    def take_events(self) -> list[Event]:
        """What changed since the last call, in order: (kind, arguments)."""
        events, self._events = self._events, []
        return events

    @contextmanager
    def _batched_requests(self) -> Iterator[None]:
        self._batch += 1
        try:
            yield
        finally:
            self._batch -= 1
            if self._batch == 0 and self._batched is not None:
                self._batched = None
                self._emit("request", self.request)

    # ------------------------------------------------------------------ reading
    @property
    def text(self) -> str:
        return self.request.text

    @property
    def source(self) -> ModelSource:
        return self.request.source

    @property
    def options(self) -> RunOptions:
        return self.request.options

    @property
    def interventions(self) -> Interventions:
        return self.request.interventions

    @property
    def read_only(self) -> bool:
        """True while a snapshot is shown: nothing can be recomputed until a model is chosen again."""
        return self.trace is not None and self.trace.read_only

    @property
    def live_request(self) -> TraceRequest:
        """What the live model traces: the request, or while a snapshot is shown the one to return to."""
        return self.live or self.request

    # ------------------------------------------------------------------ requests
    def _submit(self, request: TraceRequest) -> TraceRequest:
        """``request`` is to be computed: the generation shown belongs to the old one."""
        self.request = request
        self._submitted(request)
        if self._batch:
            self._batched = request
        else:
            self._emit("request", request)
        return request

    def _submitted(self, request: TraceRequest) -> None:
        """What a new request leads to besides (the Session: the painting adopted, the generation hidden)."""

    def _set_request(self, request: TraceRequest, leaves_snapshot: bool = False) -> TraceRequest | None:
        """Controls that would re-trace are disabled while a snapshot is shown, and an edit that still
        arrives (a script, a shortcut) is ignored. Choosing a model (a preset, File → Open model, a trained
        checkpoint) leaves the snapshot on purpose."""
        if self.snapshot is not None:
            if not leaves_snapshot:
                return None
            self._leave_snapshot()
        if request == self.request and not self.read_only:
            return None
        return self._submit(request)

    def set_text(self, text: str) -> TraceRequest | None:
        return self._set_request(dataclasses.replace(self.request, text=text))

    def set_source(self, source: ModelSource) -> TraceRequest | None:
        return self._set_request(dataclasses.replace(self.request, source=source))

    def set_sizes(self, **sizes: Any) -> TraceRequest | None:
        return self.set_source(dataclasses.replace(self.source.with_sizes(**sizes), random_weights=True))

    def set_preset(self, name: str, keep_text: bool | None = None) -> TraceRequest | None:
        return self._set_request(preset_request(self.live_request, name, keep_text), leaves_snapshot=True)

    def set_seed(self, seed: int | None) -> TraceRequest | None:
        random_weights = seed is not None or self.source.random_weights
        return self.set_source(dataclasses.replace(self.source, seed=seed, random_weights=random_weights))

    def set_random_weights(self, random_weights: bool) -> TraceRequest | None:
        return self.set_source(dataclasses.replace(self.source, random_weights=random_weights))

    def set_options(self, **changes: Any) -> TraceRequest | None:
        return self._set_request(dataclasses.replace(self.request, options=self.options.replace(**changes)))

    def retrace(self) -> TraceRequest | None:
        """Ask for the current request again (after a model changed under the same name, e.g. training)."""
        if self.snapshot is not None:
            return None
        return self._submit(self.request)

    def revert_request(self, request: TraceRequest) -> None:
        """The latest request could not be served (a model failed to load, or its load was cancelled): go
        back to ``request``, whose trace is shown, without computing anything."""
        self.request = request
        self._emit("reverted", request)

    # ------------------------------------------------------------------ interventions
    def set_interventions(self, interventions: Interventions) -> TraceRequest | None:
        if interventions == self.interventions or self.snapshot is not None:
            return None
        request = self._set_request(dataclasses.replace(self.request, interventions=interventions))
        self._emit("interventions", interventions)
        return request

    def add_intervention(
        self, item: HeadAblation | EdgeCut | PatchSpec, patch_from: str | None = None
    ) -> TraceRequest | None:
        return self.set_interventions(intervention_edits.added(self.interventions, item, patch_from))

    def remove_intervention(self, item: HeadAblation | EdgeCut | PatchSpec) -> TraceRequest | None:
        return self.set_interventions(intervention_edits.removed(self.interventions, item))

    def clear_interventions(self) -> TraceRequest | None:
        return self.set_interventions(Interventions())

    # ------------------------------------------------------------------ snapshots
    def return_to_live(self) -> TraceRequest | None:
        """Leave the snapshot: the live model (as it was before the snapshot was opened) is traced again."""
        if self._leave_snapshot():
            return self._submit(self.request)
        return None

    def _leave_snapshot(self) -> bool:
        if self.snapshot is None:
            return False
        self.request = self.live or self.request
        self.snapshot = self.live = None
        self._emit("snapshot", None)
        return True

    def _enter_snapshot(self, trace: Trace) -> None:
        """The request becomes the snapshot's (its model's name, its text and options), so that every control
        shows what the snapshot holds; the live request is kept to return to. Nothing is computed."""
        if self.live is None:
            self.live = self.request
        self.snapshot = trace.origin
        name = trace.model_name or trace.source or trace.origin
        text = "\n".join(r.text for r in trace.rows)
        self.revert_request(TraceRequest(ModelSource("snapshot", str(name)), text, trace.options))
