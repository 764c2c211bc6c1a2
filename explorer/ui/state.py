"""The window's state: a thin QObject over the Session (explorer/session/session.py), which holds what the
user is doing and every rule that moves it. Each call goes to the Session; what changed comes back as the
Session's events, re-emitted here as signals, in order.

Data flows one way: controls call the setters here → ``requestToRun`` → the job runner computes → the
window hands the trace back with ``set_trace`` → ``traceChanged`` → every view redraws. A view that wants
to select something calls ``select(...)``; all views follow ``selectionChanged``. Views never talk to each
other.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from explorer.config import RunOptions
from explorer.session import ModelSource, Selection, Session, TraceRequest
from explorer.ui.generation_state import GenerationState

__all__ = ["AppState", "ModelSource", "Selection", "TraceRequest"]  # the session's types, held here

# The Session's event kinds → the signal each becomes (GenerationState's for the generation's). A new request
# goes to the job runner first: the trace computes on its thread while the views follow the request here.
SIGNALS = {
    "request": "requestToRun requestChanged",
    "trace": "traceChanged",
    "selection": "selectionChanged",
    "busy": "busyChanged",
    "notices": "noticesChanged",
    "error": "errorRaised",
    "model_info": "modelInfoChanged",
    "reverted": "requestReverted",
    "layer_wanted": "layerWanted",
    "snapshot": "snapshotChanged",
    "interventions": "interventionsChanged",
    "capture_mode": "captureModeChanged",
    "painted": "maskPainted",
    "model_opened": "modelOpened",
    "run_folder_shown": "runFolderShown",
    "panel": "panelWanted",
    "lesson": "lessonChanged",
    "lesson_step": "lessonStepChanged",
    "generation": "generation.changed",
    "generation_step": "generation.stepChanged",
    "generation_shown": "generation.shownChanged",
    "generation_live": "generation.liveChanged",
}


def _reads(name: str, doc: str = "") -> property:
    return property(lambda self: getattr(self.session, name), doc=doc or f"The Session's ``{name}``.")


def _acts(name: str):
    """A method that calls the Session's ``name`` and emits what changed."""

    def act(self, *args: Any, **kwargs: Any) -> Any:
        result = getattr(self.session, name)(*args, **kwargs)
        self.emit_changes()
        return result

    act.__name__ = act.__qualname__ = name
    act.__doc__ = getattr(Session, name).__doc__
    return act


class AppState(QObject):
    requestToRun = Signal(object)  # TraceRequest: the job runner should (re)compute (before requestChanged)
    requestChanged = Signal(object)  # TraceRequest: the views show what was asked
    traceChanged = Signal(object)  # Trace: every view redraws
    selectionChanged = Signal(object)  # Selection
    busyChanged = Signal(bool)
    noticesChanged = Signal(tuple)  # plain-words remarks from the last trace (truncation, unknown words…)
    errorRaised = Signal(str)  # one-line message of a failed request; the last good trace stays shown
    modelInfoChanged = Signal(object, bool)  # (ModelConfig, sizes editable)
    modelPublished = Signal(object)  # ModelSource: a model built outside the trace queue (a training checkpoint)
    modelWithdrawn = Signal(object)  # ModelSource whose published model the runner may drop (it reloads from disk)
    requestReverted = Signal(object)  # TraceRequest: back to the shown model after a failed or cancelled load
    layerWanted = Signal(int)  # a layer of the model that the trace did not capture was selected
    snapshotChanged = Signal(object)  # str: the snapshot file now shown read-only; None: back to the live model
    interventionsChanged = Signal(object)  # Interventions of the request (the panel lists them)
    captureModeChanged = Signal(str)  # Model → Layers to capture
    maskPainted = Signal(object)  # the painted mask's matrix, adopted from a request (a session, a lesson)
    modelOpened = Signal(str)  # a model the user opened now shows (a recent model)
    runFolderShown = Signal(object)  # explorer.session.model_opening.RunFolderShown
    panelWanted = Signal(str)  # a lesson step brings this panel to the front
    lessonChanged = Signal(object)  # Lesson, or None (closed)
    lessonStepChanged = Signal(int)  # the lesson step shown (0-based)

    def __init__(
        self, text: str | None = None, source: ModelSource | None = None, options: RunOptions | None = None
    ) -> None:
        super().__init__()
        self.session = Session(text, source, options)
        self.session.take_events()  # nobody listens yet
        self.generation = GenerationState(self)  # the Generate panel's result and the step shown

    def emit_changes(self) -> None:
        """Re-emit the Session's events as signals (a slot that calls back in emits its own first)."""
        for kind, args in self.session.take_events():
            for signal in SIGNALS[kind].split():
                target: Any = self
                for part in signal.split("."):
                    target = getattr(target, part)
                target.emit(*args)

    # ------------------------------------------------------------------ reading (the Session's)
    request, text, source, options = _reads("request"), _reads("text"), _reads("source"), _reads("options")
    trace, interventions, selection = _reads("trace"), _reads("interventions"), _reads("selection")
    baseline = _reads(
        "baseline", "The run without interventions that the shown trace compares with; None when nothing is changed."
    )
    config = _reads("config", "The config of the model last traced (sizes filled in from the tokenizer or the file).")
    editable_sizes, busy, read_only, snapshot = (
        _reads("editable_sizes"),
        _reads("busy"),
        _reads("read_only"),
        _reads("snapshot"),
    )
    live_request, error, notices = _reads("live_request"), _reads("error"), _reads("notices")
    capture_mode, loading_model, lesson = _reads("capture_mode"), _reads("loading_model"), _reads("lesson")

    # ------------------------------------------------------------------ controls → request (the Session's)
    set_text, set_source, set_sizes, set_preset = (
        _acts("set_text"),
        _acts("set_source"),
        _acts("set_sizes"),
        _acts("set_preset"),
    )
    set_seed, set_random_weights, set_options = _acts("set_seed"), _acts("set_random_weights"), _acts("set_options")
    open_model, cancel_load, return_to_live, retrace = (
        _acts("open_model"),
        _acts("cancel_load"),
        _acts("return_to_live"),
        _acts("retrace"),
    )
    revert_request, set_interventions, clear_interventions = (
        _acts("revert_request"),
        _acts("set_interventions"),
        _acts("clear_interventions"),
    )
    add_intervention, remove_intervention = _acts("add_intervention"), _acts("remove_intervention")
    select, selectable_layers, set_capture_mode = _acts("select"), _acts("selectable_layers"), _acts("set_capture_mode")
    paint, painted_for_trace = _acts("paint"), _acts("painted_for_trace")
    read_lesson_step, apply_lesson_step = _acts("read_lesson_step"), _acts("apply_lesson_step")

    # ------------------------------------------------------------------ results → state (the job runner's)
    set_busy, set_baseline = _acts("set_busy"), _acts("on_baseline")
    set_trace, report_error, on_model = _acts("on_trace"), _acts("on_error"), _acts("on_model")

    def publish_model(self, source: ModelSource, show: bool = True, text: str | None = None) -> None:
        """A model built outside the trace queue (a training checkpoint, already in the job runner's model
        cache) under ``source``; with ``show``, trace it (and ``text``, when given) in one request."""
        self.modelPublished.emit(source)
        self.session.publish(source, show, text)
        self.emit_changes()

    def withdraw_model(self, source: ModelSource) -> None:
        self.modelWithdrawn.emit(source)
