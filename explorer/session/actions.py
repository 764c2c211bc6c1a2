"""What can happen to the Session: one small frozen record per kind of action, handed to
``step(state, action)`` (explorer/session/step.py). Controls make the first group; the job runner's results
make the second (a result carries the ticket of the RunTrace effect that asked for it, and ``step`` drops a
result whose ticket is not the latest); lessons, the generation and the user's preferences make the last three.

Keyword changes (sizes, options, a selection) are kept as sorted (name, value) pairs, so that an action is
hashable and a recorded list of actions replays the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explorer.interventions.spec import EdgeCut, HeadAblation, Interventions, PatchSpec
from explorer.lessons import Lesson, LessonState
from explorer.session.mask_growth import Matrix
from explorer.session.records import RunFolderShown
from explorer.session.request import ModelSource, TraceRequest
from explorer.trace import Trace

Changes = tuple[tuple[str, Any], ...]


def changes(**kwargs: Any) -> Changes:
    """Keyword changes as an action holds them."""
    return tuple(sorted(kwargs.items()))


# ---------------------------------------------------------------------- controls → request
@dataclass(frozen=True)
class SetText:
    text: str


@dataclass(frozen=True)
class SetSource:
    source: ModelSource


@dataclass(frozen=True)
class SetSizes:
    sizes: Changes  # ModelConfig overrides; a size edit also switches to random weights


@dataclass(frozen=True)
class SetPreset:
    name: str
    keep_text: bool | None = None


@dataclass(frozen=True)
class SetSeed:
    seed: int | None


@dataclass(frozen=True)
class SetRandomWeights:
    random_weights: bool


@dataclass(frozen=True)
class SetOptions:
    options: Changes  # RunOptions fields


@dataclass(frozen=True)
class Retrace:
    """Ask for the current request again (a model changed under the same name, e.g. training)."""


@dataclass(frozen=True)
class RevertRequest:
    """Go back to ``request`` (whose trace is shown) without computing anything."""

    request: TraceRequest


@dataclass(frozen=True)
class SetInterventions:
    interventions: Interventions


@dataclass(frozen=True)
class AddIntervention:
    item: HeadAblation | EdgeCut | PatchSpec
    patch_from: str | None = None


@dataclass(frozen=True)
class RemoveIntervention:
    item: HeadAblation | EdgeCut | PatchSpec


@dataclass(frozen=True)
class ReturnToLive:
    """Leave the snapshot shown read-only; the live model is traced again."""


@dataclass(frozen=True)
class OpenModel:
    """File → Open model, a named or recent model: what the path stands for is resolved outside (an effect)."""

    path_or_name: str


@dataclass(frozen=True)
class ModelPathResolved:
    """What ``asked`` opens (a run folder: its newest checkpoint, with ``note`` to say so)."""

    asked: str
    opened: str
    note: RunFolderShown | None = None


@dataclass(frozen=True)
class CancelLoad:
    """The user stopped the load in progress: its job is cancelled, the model shown before stays."""


@dataclass(frozen=True)
class PublishModel:
    """A model built outside the trace queue (a training checkpoint) is offered under ``source``."""

    source: ModelSource
    show: bool = True
    text: str | None = None


@dataclass(frozen=True)
class Select:
    changes: Changes  # stage, layer, head, row, token, key


@dataclass(frozen=True)
class SetCaptureMode:
    mode: str
    layers: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Paint:
    """Trace with the painted ``matrix``, or start over from ``start``, or (neither) the painting grown."""

    matrix: Matrix | None = None
    start: str | None = None


@dataclass(frozen=True)
class CoverPainting:
    """The painter shows the painting grown to the trace's tokens: the painting is kept that size (a later
    growth starts from it), nothing is sent."""


# ---------------------------------------------------------------------- results (the job runner's)
@dataclass(frozen=True)
class SetBusy:
    busy: bool


@dataclass(frozen=True)
class SetFocus:
    on: bool


@dataclass(frozen=True)
class SetTraining:
    running: bool


@dataclass(frozen=True)
class BaselineFinished:
    """The run without interventions, just before the intervened trace it belongs to."""

    baseline: Trace | None
    ticket: int | None = None  # None: not from a job (always taken)


@dataclass(frozen=True)
class TraceFinished:
    """A trace to show: computed (with the ticket it was asked with), or a snapshot opened read-only."""

    trace: Trace
    editable_sizes: bool = True
    ticket: int | None = None


@dataclass(frozen=True)
class TraceFailed:
    """A request failed; ``error`` keeps its fields for the rules that act on it (nobody parses ``message``)."""

    message: str
    error: BaseException | None = None
    ticket: int | None = None


@dataclass(frozen=True)
class ModelLoaded:
    """A model of ``layers`` layers is loaded, before its first (full) trace ends."""

    layers: int


# ---------------------------------------------------------------------- lessons
@dataclass(frozen=True)
class ApplyLessonStep:
    step: LessonState


@dataclass(frozen=True)
class OpenLesson:
    lesson: Lesson
    step: int = 0
    start: LessonState | None = None  # None: the window as it is


@dataclass(frozen=True)
class CloseLesson:
    pass


@dataclass(frozen=True)
class ReplaceLesson:
    """The lesson was edited: show step ``index`` (default: the current one) without re-applying it."""

    lesson: Lesson
    index: int | None = None


@dataclass(frozen=True)
class GoToLessonStep:
    index: int


@dataclass(frozen=True)
class NextLessonStep:
    pass


@dataclass(frozen=True)
class PreviousLessonStep:
    pass


# ---------------------------------------------------------------------- the generation
@dataclass(frozen=True)
class SetGeneration:
    generation: Any
    step: int | None = None  # None: its last
    show: bool = True


@dataclass(frozen=True)
class SetGenerationStep:
    step: int


@dataclass(frozen=True)
class ShowGeneration:
    on: bool


@dataclass(frozen=True)
class SetGenerationLive:
    steps: tuple


# ---------------------------------------------------------------------- preferences (Colours, Text size, Language)
@dataclass(frozen=True)
class SetPalette:
    palette: str  # one of vocab.PALETTES
    remember: bool = True  # kept in the settings for the next start (a screenshot's window keeps nothing)


@dataclass(frozen=True)
class SetTextSize:
    scale: float  # 1.0 = 100 %; held to vocab.TEXT_SCALES' range
    remember: bool = True


@dataclass(frozen=True)
class SetLanguage:
    language: str  # one of vocab.LANGUAGES
    remember: bool = True
