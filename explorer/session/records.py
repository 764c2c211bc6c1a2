"""What the user is doing, as small immutable records: the whole window state that ``step``
(explorer/session/step.py) takes and gives back. Nothing here changes in place: a rule returns a new record
(``dataclasses.replace``), so two states can be compared, kept, and replayed.

The painted mask is held as a tuple of rows (not a numpy array) so that records stay hashable and comparable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explorer import vocab
from explorer.config import ModelConfig
from explorer.lessons import Lesson, LessonState
from explorer.session.capture_policy import CaptureChoice
from explorer.session.mask_growth import Matrix
from explorer.session.request import ModelSource, Selection, TraceRequest
from explorer.trace import Trace


@dataclass(frozen=True)
class RunFolderShown:
    """A run folder stood for its newest checkpoint: ``run`` (the folder's name) showed ``step`` (the
    checkpoint folder's name). The window says so in the status bar, the CLI in a note: line."""

    checkpoint: str  # the path opened instead
    run: str
    step: str


@dataclass(frozen=True)
class Opening:
    """Following a model being opened: which request's live trace is on screen, what the user opened (it
    becomes a recent model once it shows), and the run-folder note to say when it shows."""

    shown: TraceRequest | None = None
    opening: str | None = None
    note: RunFolderShown | None = None

    def is_model_change(self, source: ModelSource) -> bool:
        """Does ``source`` ask for another model than the one on screen?"""
        return self.shown is not None and source != self.shown.source

    def loading(self, source: ModelSource) -> bool:
        """While busy: is it a model (not just a trace) that is being loaded?"""
        return self.shown is None or self.is_model_change(source)


@dataclass(frozen=True)
class GenerationView:
    """The latest finished Generation, the step shown, whether the centre shows it, and the steps chosen so
    far while one runs."""

    generation: Any = None
    step: int = 0
    shown: bool = False
    live: tuple = ()

    @property
    def active(self) -> bool:
        """A generation with at least one step is there to show."""
        return self.generation is not None and len(self.generation.steps) > 0

    @property
    def last(self) -> int:
        return len(self.generation.steps) - 1 if self.active else 0


@dataclass(frozen=True)
class LessonPlay:
    """A lesson being played: which lesson, which step is shown, what the window was when it opened (the steps
    fold over it), and why the current step was not applied, if it was not."""

    lesson: Lesson | None = None
    index: int = -1
    start: LessonState = LessonState()
    note: str | None = None

    @property
    def count(self) -> int:
        return len(self.lesson.steps) if self.lesson else 0


@dataclass(frozen=True)
class Preferences:
    """What the user chose for every figure and text: the palette (View → Colours), the text size (View → Text
    size, 1.0 = 100 %) and the interface language. The window's services draw with them
    (explorer/ui/preferences/); this is the record of the choice."""

    palette: str = vocab.PALETTES[0]  # "standard", explorer/present/palettes.py's DEFAULT
    text_scale: float = vocab.DEFAULT_TEXT_SCALE
    language: str = vocab.LANGUAGES[0]  # English: the source texts


@dataclass(frozen=True)
class SessionState:
    """Everything the Session knows. ``request`` is what to compute (while a snapshot is shown: the snapshot's,
    with ``live`` the one to return to); ``ticket`` is the ticket of the latest trace asked for."""

    request: TraceRequest
    trace: Trace | None = None
    selection: Selection = Selection()
    config: ModelConfig | None = None  # the config of the model last traced
    editable_sizes: bool = True
    busy: bool = False
    notices: tuple[str, ...] = ()
    error: BaseException | None = None  # the last failed request's error, with its fields
    baseline: Trace | None = None  # the run without interventions the shown trace compares with
    snapshot: str | None = None  # the file of the snapshot shown (read-only), None for the live model
    live: TraceRequest | None = None  # while a snapshot is shown: the live model's request
    capture: CaptureChoice = CaptureChoice()
    opening: Opening = Opening()
    painted: Matrix | None = None  # the painted mask: what is (or will be) sent
    pending: tuple[tuple[str, Any], ...] | None = None  # a lesson step's selection, made once its trace shows
    generation: GenerationView = GenerationView()
    lesson: LessonPlay = LessonPlay()
    focus: bool = False  # Focus (F11): only the pipeline and the map
    training: bool = False  # a training run is going on (its progress is the Train panel's)
    preferences: Preferences = Preferences()
    ticket: int = 0

    # ------------------------------------------------------------------ reading
    @property
    def text(self) -> str:
        return self.request.text

    @property
    def source(self) -> ModelSource:
        return self.request.source

    @property
    def options(self):
        return self.request.options

    @property
    def interventions(self):
        return self.request.interventions

    @property
    def read_only(self) -> bool:
        """True while a snapshot is shown: nothing can be recomputed until a model is chosen again."""
        return self.trace is not None and self.trace.read_only

    @property
    def live_request(self) -> TraceRequest:
        """What the live model traces: the request, or while a snapshot is shown the one to return to."""
        return self.live or self.request

    @property
    def loading_model(self) -> bool:
        """Busy loading a model (not just tracing): the window shows progress and Cancel."""
        return self.busy and self.opening.loading(self.source)
