"""The Session: the state of what the user is doing, and every rule that moves it, in plain Python.

It holds the requested and the shown request, the trace, the selection and a selection waiting for its trace,
the capture choice, the painted mask, the interventions (in the request), the snapshot shown read-only, the
generation and the lesson position, and the last error. Its methods (``set_…``, ``select``, ``on_trace``,
``on_error``, ``on_model``) return the next request to compute, or None; what changed is also recorded, in
order, as events (``take_events``), which the window's AppState (explorer/ui/state.py) re-emits as signals.
A result never turns into a request by parsing text: errors carry fields. What to compute, and the snapshot
mode, are explorer/session/requests.py.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from explorer import vocab
from explorer.config import MaskSpec, ModelConfig, RunOptions
from explorer.lessons import LessonState
from explorer.present.before_after import stored_baseline
from explorer.session import lesson_steps, mask_growth
from explorer.session.capture_policy import CaptureChoice
from explorer.session.generation_position import GenerationPosition
from explorer.session.lesson_position import LessonPosition
from explorer.session.model_opening import ModelOpening
from explorer.session.request import ModelSource, Selection, TraceRequest
from explorer.session.requests import Requests
from explorer.session.selecting import clamped, selectable_layers
from explorer.trace import Trace


class Session(Requests):
    def __init__(
        self, text: str | None = None, source: ModelSource | None = None, options: RunOptions | None = None
    ) -> None:
        self.generation = GenerationPosition(self._emit)
        self.painting = mask_growth.Painting()  # the painted mask: what is (or will be) sent
        super().__init__(text, source, options)
        self.selection = Selection()
        self.config: ModelConfig | None = None  # the config of the model last traced
        self.editable_sizes = True
        self.busy = False
        self.notices: tuple[str, ...] = ()
        self.error: BaseException | None = None  # the last failed request's error, with its fields
        self.baseline: Trace | None = None  # the run without interventions the shown trace compares with
        self.capture = CaptureChoice()
        self.opening = ModelOpening()
        self.lesson = LessonPosition(self._emit, self.read_lesson_step, self.apply_lesson_step)
        self._pending: dict | None = None  # a lesson step's selection, made once its trace is shown
        self._adopt_painting(self.request)

    @property
    def capture_mode(self) -> str:
        """Model → Layers to capture: auto, all, selected or custom (``capture.custom``)."""
        return self.capture.mode

    @property
    def loading_model(self) -> bool:
        """Busy loading a model (not just tracing): the window shows progress and Cancel."""
        return self.busy and self.opening.loading(self.source)

    def selectable_layers(self) -> tuple[int, ...]:
        return selectable_layers(self.trace)

    def _submitted(self, request: TraceRequest) -> None:
        self._adopt_painting(request)
        self.generation.show(False)  # the generation shown belongs to the old request

    # ------------------------------------------------------------------ models
    def open_model(self, path_or_name: str) -> TraceRequest | None:
        """Open a checkpoint / Hugging Face folder, a GGUF file, a run folder (its newest checkpoint), or a
        named model such as ``smollm2``: the way explorer.session.open resolves any source."""
        from explorer.session.open import model_path

        opened = model_path(path_or_name)
        self.opening.open(path_or_name, opened)
        source = ModelSource("path", opened)
        return self._set_request(dataclasses.replace(self.live_request, source=source), leaves_snapshot=True)

    def cancel_load(self) -> None:
        """The load in progress was stopped: keep showing the model shown before."""
        self._back_to_shown()

    def _back_to_shown(self) -> None:
        """Back to the shown model, keeping what else changed meanwhile (the text, the options)."""
        source = self.opening.back_to_shown(self.request)
        if source is not None:
            self.revert_request(dataclasses.replace(self.request, source=source))

    def publish(self, source: ModelSource, show: bool = True, text: str | None = None) -> TraceRequest | None:
        """A model built outside the worker (a training checkpoint) is offered under ``source``; with
        ``show``, trace it (and ``text``, when given) in one request."""
        if not show:
            return None
        self._leave_snapshot()
        request = dataclasses.replace(self.request, source=source, text=self.text if text is None else text)
        if request == self.request:
            return self.retrace()  # same name, new weights
        return self._set_request(request)

    # ------------------------------------------------------------------ results
    def set_busy(self, busy: bool) -> None:
        if busy != self.busy:
            self.busy = busy
            self._emit("busy", busy)

    def on_baseline(self, baseline: Trace | None) -> None:
        """The run without interventions, just before the intervened trace it belongs to (``on_trace``)."""
        self.baseline = baseline

    def on_trace(self, trace: Trace, editable_sizes: bool = True) -> TraceRequest | None:
        """A new trace to show (computed, or a snapshot opened read-only); returns what to compute next."""
        entering = trace.read_only and trace.origin != self.snapshot
        if not trace.read_only and self.snapshot is not None:
            return None  # a live trace that finished after the snapshot was opened: the snapshot stays
        if entering:
            self._enter_snapshot(trace)
        config_changed = entering or self.config != trace.config or self.editable_sizes != editable_sizes
        if trace.read_only:
            self.baseline = stored_baseline(trace)  # a snapshot compares with the baseline.* it stores
        elif not trace.interventions:
            self.baseline = None  # a plain trace: nothing to compare with
        self.trace, self.config = trace, trace.config
        self.editable_sizes = editable_sizes and not trace.read_only
        new = clamped(self.selection, trace)
        if config_changed:
            self._emit("model_info", trace.config, self.editable_sizes)
        self._emit("trace", trace)
        # Every view redraws on "trace" with the current selection: a second event for a selection that did
        # not change would make each of them draw twice per edit.
        self._set_selection(new)
        if trace.notices != self.notices:
            self.notices = trace.notices
            self._emit("notices", trace.notices)
        if entering:
            self._emit("snapshot", trace.origin)
        if trace.read_only:
            return None
        mark = len(self._events)
        with self._batched_requests():
            self._after_live_trace(trace)
        return self._requested_since(mark)

    def _requested_since(self, mark: int) -> TraceRequest | None:
        """The request asked for by the events after ``mark`` (the last one), or None."""
        return next((args[0] for kind, args in reversed(self._events[mark:]) if kind == "request"), None)

    def _after_live_trace(self, trace: Trace) -> None:
        """What a live trace leads to: a model opened now shows; a layer or a lesson step's selection waiting
        for this trace is selected; the painted mask grows before the text outgrows it; the layers to capture
        follow the selection."""
        opened, note = self.opening.on_trace(self.request)
        if note is not None:
            self._emit("run_folder_shown", note)
        if opened is not None:
            self._emit("model_opened", opened)
            self._own_mask(trace)
        wanted = self.capture.wanted
        if wanted is not None and wanted in trace.layers:
            self.capture.wanted = None
            self.select(layer=wanted)
        if self._pending is not None:
            selection, self._pending = self._pending, None
            self.select(**selection)
        if trace.options.mask.kind == "explicit":
            needed = mask_growth.tokens_after_trace(len(trace.options.mask.matrix), trace.C)
            if needed is not None:  # about to run out: make room before the next token
                self._grow_painting(needed)
        if self.capture.wanted is None:  # else the trace that holds the picked layer is on its way
            self._capture(self.capture.wanted_capture(trace.config.layers, trace.B * trace.C, self.selection.layer))

    def _own_mask(self, trace: Trace) -> None:
        """A newly opened model starts with its own mask: none for an encoder (BERT), causal for a decoder;
        a mask the user chose otherwise (a window, a prefix, a painted one) stays."""
        own = "none" if trace.config.bidirectional else "causal"
        if self.options.mask.kind in vocab.OWN_MASKS and self.options.mask.kind != own:
            self.set_options(mask=MaskSpec(own))

    def on_error(self, message: str, error: BaseException | None = None) -> TraceRequest | None:
        """A request failed. ``error`` (when the core raised one) keeps its fields for the rules that act on
        it (a painted mask the text outgrew grows): nobody parses ``message``."""
        self.error = error
        self._emit("error", message)
        self.capture.wanted = None
        self._pending = None
        mark = len(self._events)
        with self._batched_requests():
            needed = mask_growth.tokens_after_error(error)
            if needed is not None and self.options.mask.kind == "explicit":
                self._grow_painting(needed)  # a paste made the text longer than the painting: extend it
            # Only a model that could not be opened is gone back from; sizes that cannot work stay as typed.
            if self.source.kind == "path":
                self._back_to_shown()
        return self._requested_since(mark)

    def on_model(self, layers: int) -> TraceRequest | None:
        """A model of ``layers`` layers is loaded, before its first (full) trace ends: a deep one switches to
        capturing the selected layer now, which cancels that trace instead of waiting for every layer."""
        capture = self.capture.on_model(layers, self.options.layers_to_capture, self.selection.layer)
        return None if capture is False else self._capture(capture)

    # ------------------------------------------------------------------ selection and capture
    def _set_selection(self, new: Selection) -> None:
        if new == self.selection:
            return
        stage_changed = new.stage != self.selection.stage
        self.selection = new
        if stage_changed:
            self.generation.show(False)  # choosing a stage brings the centre back to the stages
        self._emit("selection", new)

    def select(self, **changes: Any) -> TraceRequest | None:
        """Change what is selected: stage, layer, head, row, token (query), key. Clamped to the trace; a layer
        the trace did not capture is traced, and selected once it is there."""
        trace, layer, request = self.trace, changes.get("layer"), None
        if trace is not None and layer is not None and layer not in trace.layers and layer in self.selectable_layers():
            self._emit("layer_wanted", layer)
            request = self._capture(self.capture.want(layer))
        new = dataclasses.replace(self.selection, **changes)
        self._set_selection(new if trace is None else clamped(new, trace))
        return request

    def set_capture_mode(self, mode: str, layers: tuple[int, ...] | None = None) -> TraceRequest | None:
        self.capture.set_mode(mode, layers)
        self._emit("capture_mode", mode)
        trace = self.trace
        if trace is None or trace.read_only:
            return None
        return self._capture(self.capture.wanted_capture(trace.config.layers, trace.B * trace.C, self.selection.layer))

    def _capture(self, capture: tuple[int, ...] | None) -> TraceRequest | None:
        if self.options.layers_to_capture == capture:
            return None
        return self.set_options(layers_to_capture=capture)

    # ------------------------------------------------------------------ the painted mask
    @property
    def painted(self) -> np.ndarray | None:
        return self.painting.matrix

    def _adopt_painting(self, request: TraceRequest) -> None:
        if self.painting.adopt(request.options.mask):
            self._emit("painted", self.painting.matrix)

    def painted_for_trace(self) -> np.ndarray:
        """The painting, grown to cover the trace's tokens (what the painter draws)."""
        return self.painting.covering(self.trace.C if self.trace is not None else 1)

    def paint(self, matrix: np.ndarray | None = None, start: str | None = None) -> TraceRequest | None:
        """Trace with the painted ``matrix``, or start over from ``start`` ("causal", "all_allowed",
        "all_blocked"), or (neither) with the painting as it is, grown to the text."""
        if start is not None:
            self.painting.start(start, self.trace.C if self.trace is not None else 1)
        elif matrix is not None:
            self.painting.matrix = np.array(matrix, dtype=bool)
        return self.set_options(mask=MaskSpec.explicit(self.painted_for_trace()))

    def _grow_painting(self, tokens: int) -> None:
        """The text has (or will have) ``tokens`` tokens: extend the painting causally and send it again."""
        bigger = mask_growth.grown(self.painted, tokens)
        if bigger is not None:
            self.paint(bigger)

    # ------------------------------------------------------------------ lessons
    def read_lesson_step(self, panel: str | None = None) -> LessonState:
        """The session as a lesson step would set it (recording a step)."""
        return lesson_steps.read_step(self.request, self.selection, panel)

    def apply_lesson_step(self, ls: LessonState) -> TraceRequest | None:
        """Set the session to step ``ls``. Its selection waits for the step's trace when one is on its way;
        the step's panel is asked to the front (event "panel")."""
        before = self.request
        request = self._set_request(lesson_steps.step_request(self.request, ls))
        selection = lesson_steps.step_selection(ls)
        if self.request != before or self.trace is None:
            self._pending = selection  # a newer step replaces it; an error drops it
        else:
            self._pending = None
            self.select(**selection)
        if ls.panel is not None:
            self._emit("panel", ls.panel)
        return request
