"""The window's state: the Qt bridge over the Session. It holds one SessionState (explorer/session/records.py);
each method below makes one action (explorer/session/actions.py), hands it to ``step``
(explorer/session/step.py), keeps the new state, and carries out the effects in order: a RunTrace goes to
the job runner (``requestToRun``; a CancelTrace: ``traceCancelled``), a path to resolve is resolved, a
preference to apply goes to the window's preference services (``paletteToApply``, ``textSizeToApply``,
``languageToApply``: explorer/ui/preferences/choices.py follows them), and every other effect becomes the
signal of the same name.

Data flows one way: a control calls a method here → ``step`` → ``requestToRun`` (request, ticket) → the job
runner computes → the window hands the trace back with ``set_trace(trace, editable, ticket)`` → ``step``
(which drops a result whose ticket is not the latest) → ``traceChanged`` → every view redraws. A view that
wants to select something calls ``select(...)``; all views follow ``selectionChanged``. Views never talk to
each other.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, Signal

from explorer.config import RunOptions
from explorer.interventions.spec import EdgeCut, HeadAblation, Interventions, PatchSpec
from explorer.lessons import LessonState
from explorer.session import (
    ModelSource,
    Preferences,
    Selection,
    SessionState,
    TraceRequest,
    initial_state,
    mask_growth,
    step,
)
from explorer.session import actions as a
from explorer.session import effects as e
from explorer.session.open import resolve_model_path
from explorer.session.rules_lessons import read_lesson_step
from explorer.session.rules_preferences import next_text_scale
from explorer.session.selecting import selectable_layers
from explorer.trace import Trace
from explorer.ui.bridge.generation_state import GenerationState

__all__ = ["AppState", "ModelSource", "Selection", "TraceRequest"]  # the session's types, held here


class AppState(QObject):
    requestToRun = Signal(object, int)  # (TraceRequest, ticket): the job runner should compute (before requestChanged)
    requestChanged = Signal(object)  # TraceRequest: the views show what was asked
    traceCancelled = Signal(int)  # ticket: the job runner should stop computing that trace (a load cancelled)
    traceChanged = Signal(object)  # Trace: every view redraws
    selectionChanged = Signal(object)  # Selection
    busyChanged = Signal(bool)
    noticesChanged = Signal(tuple)  # plain-words remarks from the last trace (truncation, unknown words…)
    errorRaised = Signal(str)  # one-line message of a failed request; the last good trace stays shown
    modelInfoChanged = Signal(object, bool)  # (ModelConfig, sizes editable)
    modelPublished = Signal(object)  # ModelSource: a model built outside the trace queue (a training checkpoint)
    modelWithdrawn = Signal(object)  # ModelSource whose published model the runner may drop (it reloads from disk)
    requestReverted = Signal(object)  # TraceRequest: back to the shown model after a failed or cancelled load
    snapshotChanged = Signal(object)  # str: the snapshot file now shown read-only; None: back to the live model
    interventionsChanged = Signal(object)  # Interventions of the request (the panel lists them)
    captureModeChanged = Signal(str)  # Model → Layers to capture
    maskPainted = Signal(object)  # the painted mask, adopted from a request (a session, a lesson)
    modelOpened = Signal(str)  # a model the user opened now shows (a recent model)
    runFolderShown = Signal(object)  # explorer.session.records.RunFolderShown
    panelWanted = Signal(str)  # a lesson step (or “How is this made?”) brings this panel to the front
    anatomyAsked = Signal(object)  # “How is this made?” for a cell (explorer/ui/views/anatomy/ask.py AnatomyAsk)
    lessonChanged = Signal(object)  # Lesson, or None (closed)
    lessonStepChanged = Signal(int)  # the lesson step shown (0-based)
    trainingChanged = Signal(bool)  # a training run started or ended
    # The user's preferences, to apply (the services live in explorer/ui/preferences; the bridge needs none):
    paletteToApply = Signal(str, bool)  # (palette, remember)
    textSizeToApply = Signal(float, bool)  # (scale, remember)
    languageToApply = Signal(str, bool)  # (language, remember)

    def __init__(
        self,
        text: str | None = None,
        source: ModelSource | None = None,
        options: RunOptions | None = None,
        preferences: Preferences | None = None,
    ) -> None:
        """``preferences``: the palette, text size and language already applied at start-up (app.py applies
        them before any widget exists); the defaults unless told."""
        super().__init__()
        self.session: SessionState = initial_state(text, source, options, preferences)
        self.generation = GenerationState(self)  # the Generate panel's result and the step shown
        self.anatomy_ask = None  # the last cell asked “How is this made?” for: a stepper built later shows it

    # ------------------------------------------------------------------ the one way in, the one way out
    def dispatch(self, action: object) -> None:
        """Hand ``action`` to ``step``, keep the new state, carry out its effects in order (a slot that calls
        back in carries out its own first)."""
        self.session, effects = step(self.session, action)
        for effect in effects:
            self._carry_out(effect)

    def _carry_out(self, effect: object) -> None:  # one case per kind of effect, written out on purpose
        match effect:
            case e.RunTrace():
                self.requestToRun.emit(effect.request, effect.ticket)
                self.requestChanged.emit(effect.request)
            case e.CancelTrace():
                self.traceCancelled.emit(effect.ticket)
            case e.ResolveModelPath():
                self.dispatch(a.ModelPathResolved(effect.asked, *resolve_model_path(effect.asked)))
            case e.ApplyPalette():
                self.paletteToApply.emit(effect.palette, effect.remember)
            case e.ApplyTextSize():
                self.textSizeToApply.emit(effect.scale, effect.remember)
            case e.ApplyLanguage():
                self.languageToApply.emit(effect.language, effect.remember)
            case e.RequestReverted():
                self.requestReverted.emit(effect.request)
            case e.TraceShown():
                self.traceChanged.emit(effect.trace)
            case e.SelectionChanged():
                self.selectionChanged.emit(effect.selection)
            case e.BusyChanged():
                self.busyChanged.emit(effect.busy)
            case e.NoticesChanged():
                self.noticesChanged.emit(effect.notices)
            case e.ErrorShown():
                self.errorRaised.emit(effect.message)
            case e.ModelInfoChanged():
                self.modelInfoChanged.emit(effect.config, effect.editable_sizes)
            case e.SnapshotChanged():
                self.snapshotChanged.emit(effect.origin)
            case e.InterventionsChanged():
                self.interventionsChanged.emit(effect.interventions)
            case e.CaptureModeChanged():
                self.captureModeChanged.emit(effect.mode)
            case e.MaskPainted():
                self.maskPainted.emit(np.array(effect.matrix, dtype=bool))
            case e.ModelOpened():
                self.modelOpened.emit(effect.path)
            case e.RunFolderNoted():
                self.runFolderShown.emit(effect.note)
            case e.PanelWanted():
                self.panelWanted.emit(effect.panel)
            case e.LessonChanged():
                self.lessonChanged.emit(effect.lesson)
            case e.LessonStepChanged():
                self.lessonStepChanged.emit(effect.index)
            case e.TrainingChanged():
                self.trainingChanged.emit(effect.running)
            case _:
                self.generation.carry_out(effect)  # the generation's own signals; LayerWanted needs none

    # ------------------------------------------------------------------ reading (the SessionState's)
    @property
    def request(self) -> TraceRequest:
        return self.session.request

    @property
    def text(self) -> str:
        return self.session.text

    @property
    def source(self) -> ModelSource:
        return self.session.source

    @property
    def options(self) -> RunOptions:
        return self.session.options

    @property
    def interventions(self) -> Interventions:
        return self.session.interventions

    @property
    def trace(self) -> Trace | None:
        return self.session.trace

    @property
    def selection(self) -> Selection:
        return self.session.selection

    @property
    def baseline(self) -> Trace | None:
        """The run without interventions that the shown trace compares with; None when nothing is changed."""
        return self.session.baseline

    @property
    def config(self):
        """The config of the model last traced (sizes filled in from the tokenizer or the file)."""
        return self.session.config

    @property
    def editable_sizes(self) -> bool:
        return self.session.editable_sizes

    @property
    def busy(self) -> bool:
        return self.session.busy

    @property
    def read_only(self) -> bool:
        return self.session.read_only

    @property
    def snapshot(self) -> str | None:
        return self.session.snapshot

    @property
    def live_request(self) -> TraceRequest:
        return self.session.live_request

    @property
    def error(self) -> BaseException | None:
        return self.session.error

    @property
    def notices(self) -> tuple[str, ...]:
        return self.session.notices

    @property
    def capture_mode(self) -> str:
        """Model → Layers to capture: auto, all, selected or custom."""
        return self.session.capture.mode

    @property
    def loading_model(self) -> bool:
        return self.session.loading_model

    @property
    def focus(self) -> bool:
        """Focus (F11): only the pipeline and the map are shown."""
        return self.session.focus

    @property
    def training(self) -> bool:
        """A training run is going on (the Train panel's)."""
        return self.session.training

    @property
    def ticket(self) -> int:
        """The ticket of the latest trace asked for (a result with another ticket is dropped)."""
        return self.session.ticket

    @property
    def palette(self) -> str:
        """View → Colours: the palette every figure draws with."""
        return self.session.preferences.palette

    @property
    def text_scale(self) -> float:
        """View → Text size: every text's size, 1.0 = 100 %."""
        return self.session.preferences.text_scale

    @property
    def language(self) -> str:
        return self.session.preferences.language

    @property
    def painted(self) -> np.ndarray | None:
        painted = self.session.painted
        return None if painted is None else np.array(painted, dtype=bool)

    def painted_for_trace(self) -> np.ndarray:
        """The painting, grown to cover the trace's tokens (what the painter draws, and keeps: CoverPainting)."""
        self.dispatch(a.CoverPainting())
        return np.array(self.session.painted, dtype=bool)

    def selectable_layers(self) -> tuple[int, ...]:
        return selectable_layers(self.session.trace)

    def read_lesson_step(self, panel: str | None = None) -> LessonState:
        return read_lesson_step(self.session, panel)

    # ------------------------------------------------------------------ controls → request
    def set_text(self, text: str) -> None:
        self.dispatch(a.SetText(text))

    def set_source(self, source: ModelSource) -> None:
        self.dispatch(a.SetSource(source))

    def set_sizes(self, **sizes) -> None:
        self.dispatch(a.SetSizes(a.changes(**sizes)))

    def set_preset(self, name: str, keep_text: bool | None = None) -> None:
        self.dispatch(a.SetPreset(name, keep_text))

    def set_seed(self, seed: int | None) -> None:
        self.dispatch(a.SetSeed(seed))

    def set_random_weights(self, random_weights: bool) -> None:
        self.dispatch(a.SetRandomWeights(random_weights))

    def set_options(self, **changes) -> None:
        self.dispatch(a.SetOptions(a.changes(**changes)))

    def open_model(self, path_or_name: str) -> None:
        """Open a checkpoint / Hugging Face folder, a GGUF file, a run folder (its newest checkpoint), or a
        named model such as ``smollm2``."""
        self.dispatch(a.OpenModel(path_or_name))

    def cancel_load(self) -> None:
        self.dispatch(a.CancelLoad())

    def return_to_live(self) -> None:
        self.dispatch(a.ReturnToLive())

    def retrace(self) -> None:
        self.dispatch(a.Retrace())

    def revert_request(self, request: TraceRequest) -> None:
        self.dispatch(a.RevertRequest(request))

    def set_interventions(self, interventions: Interventions) -> None:
        self.dispatch(a.SetInterventions(interventions))

    def add_intervention(self, item: HeadAblation | EdgeCut | PatchSpec, patch_from: str | None = None) -> None:
        self.dispatch(a.AddIntervention(item, patch_from))

    def remove_intervention(self, item: HeadAblation | EdgeCut | PatchSpec) -> None:
        self.dispatch(a.RemoveIntervention(item))

    def clear_interventions(self) -> None:
        self.dispatch(a.SetInterventions(Interventions()))

    def select(self, **changes) -> None:
        """Change what is selected: stage, layer, head, row, token (query), key."""
        self.dispatch(a.Select(a.changes(**changes)))

    def set_capture_mode(self, mode: str, layers: tuple[int, ...] | None = None) -> None:
        self.dispatch(a.SetCaptureMode(mode, layers))

    def paint(self, matrix: np.ndarray | None = None, start: str | None = None) -> None:
        self.dispatch(a.Paint(mask_growth.as_matrix(matrix), start))

    def apply_lesson_step(self, ls: LessonState) -> None:
        self.dispatch(a.ApplyLessonStep(ls))

    def set_focus(self, on: bool) -> None:
        """Focus on or off; the window's FocusMode hides and shows the panels (it says ``toggled``)."""
        self.dispatch(a.SetFocus(on))

    # ------------------------------------------------------------------ preferences (Colours, Text size, Language)
    def set_palette(self, palette: str, remember: bool = True) -> None:
        self.dispatch(a.SetPalette(palette, remember))

    def set_text_size(self, scale: float, remember: bool = True) -> None:
        self.dispatch(a.SetTextSize(scale, remember))

    def step_text_size(self, direction: int, remember: bool = True) -> None:
        """One text size larger (+1), smaller (−1), or back to 100 % (0)."""
        self.set_text_size(next_text_scale(self.text_scale, direction), remember)

    def ask_anatomy(self, ask: object) -> None:
        """“How is this made?” for a cell: the stepper shows its steps, its panel comes to the front. Not a
        Session action: it changes nothing the views draw from, it only opens a view of the same trace."""
        self.anatomy_ask = ask
        self.anatomyAsked.emit(ask)
        self.panelWanted.emit("anatomy")

    def set_language(self, language: str, remember: bool = True) -> None:
        self.dispatch(a.SetLanguage(language, remember))

    # ------------------------------------------------------------------ results → state (the job runner's)
    def set_training(self, running: bool) -> None:
        self.dispatch(a.SetTraining(running))

    def set_busy(self, busy: bool) -> None:
        self.dispatch(a.SetBusy(busy))

    def set_baseline(self, baseline: Trace | None, ticket: int | None = None) -> None:
        self.dispatch(a.BaselineFinished(baseline, ticket))

    def set_trace(self, trace: Trace, editable_sizes: bool = True, ticket: int | None = None) -> None:
        """A trace to show; ``ticket``: the one its RunTrace carried (None: not from a job, always shown)."""
        self.dispatch(a.TraceFinished(trace, editable_sizes, ticket))

    def report_error(self, message: str, error: BaseException | None = None, ticket: int | None = None) -> None:
        self.dispatch(a.TraceFailed(message, error, ticket))

    def on_model(self, layers: int) -> None:
        self.dispatch(a.ModelLoaded(layers))

    def publish_model(self, source: ModelSource, show: bool = True, text: str | None = None) -> None:
        """A model built outside the trace queue (a training checkpoint, already in the job runner's model
        cache) under ``source``; with ``show``, trace it (and ``text``, when given) in one request."""
        self.modelPublished.emit(source)
        self.dispatch(a.PublishModel(source, show, text))

    def withdraw_model(self, source: ModelSource) -> None:
        self.modelWithdrawn.emit(source)
