"""What can happen to the Session: one small frozen record per kind of action, handed to
``step(state, action)`` (explorer/session/step.py). Controls make the first group; the job runner's results
make the second (a result carries the ticket of the RunTrace effect that asked for it, and ``step`` drops a
result whose ticket is not the latest); lessons, the generation and the user's preferences make the last three.

Keyword changes (sizes, options, a selection) are kept as sorted (name, value) pairs, so that an action is
hashable and a recorded list of actions replays the same way.
"""

from __future__ import annotations

from typing import Any

from explorer.interventions.spec import EdgeCut, HeadAblation, Interventions, PatchSpec
from explorer.lessons import Lesson, LessonState
from explorer.session.mask_growth import Matrix
from explorer.session.record import Record
from explorer.session.records import RunFolderShown
from explorer.session.request import ModelSource, TraceRequest
from explorer.trace import Trace

Changes = tuple[tuple[str, Any], ...]


def changes(**kwargs: Any) -> Changes:
    """Keyword changes as an action holds them."""
    return tuple(sorted(kwargs.items()))


# ---------------------------------------------------------------------- controls → request
class SetText(Record):
    text: str


class SetSource(Record):
    source: ModelSource


class SetSizes(Record):
    sizes: Changes  # ModelConfig overrides; a size edit also switches to random weights


class SetPreset(Record):
    name: str
    keep_text: bool | None = None


class SetSeed(Record):
    seed: int | None


class SetRandomWeights(Record):
    random_weights: bool


class SetOptions(Record):
    options: Changes  # RunOptions fields


class Retrace(Record):
    """Ask for the current request again (a model changed under the same name, e.g. training)."""


class RevertRequest(Record):
    """Go back to ``request`` (whose trace is shown) without computing anything."""

    request: TraceRequest


class SetInterventions(Record):
    interventions: Interventions


class AddIntervention(Record):
    item: HeadAblation | EdgeCut | PatchSpec
    patch_from: str | None = None


class RemoveIntervention(Record):
    item: HeadAblation | EdgeCut | PatchSpec


class ReturnToLive(Record):
    """Leave the snapshot shown read-only; the live model is traced again."""


class OpenModel(Record):
    """File → Open model, a named or recent model: what the path stands for is resolved outside (an effect)."""

    path_or_name: str


class ModelPathResolved(Record):
    """What ``asked`` opens (a run folder: its newest checkpoint, with ``note`` to say so)."""

    asked: str
    opened: str
    note: RunFolderShown | None = None


class CancelLoad(Record):
    """The user stopped the load in progress: its job is cancelled, the model shown before stays."""


class PublishModel(Record):
    """A model built outside the trace queue (a training checkpoint) is offered under ``source``."""

    source: ModelSource
    show: bool = True
    text: str | None = None


class Select(Record):
    changes: Changes  # stage, layer, head, row, token, key


class SetCaptureMode(Record):
    mode: str
    layers: tuple[int, ...] | None = None


class Paint(Record):
    """Trace with the painted ``matrix``, or start over from ``start``, or (neither) the painting grown."""

    matrix: Matrix | None = None
    start: str | None = None


class CoverPainting(Record):
    """The painter shows the painting grown to the trace's tokens: the painting is kept that size (a later
    growth starts from it), nothing is sent."""


# ---------------------------------------------------------------------- results (the job runner's)
class SetBusy(Record):
    busy: bool


class SetFocus(Record):
    on: bool


class SetTraining(Record):
    running: bool


class BaselineFinished(Record):
    """The run without interventions, just before the intervened trace it belongs to."""

    baseline: Trace | None
    ticket: int | None = None  # None: not from a job (always taken)


class TraceFinished(Record):
    """A trace to show: computed (with the ticket it was asked with), or a snapshot opened read-only."""

    trace: Trace
    editable_sizes: bool = True
    ticket: int | None = None


class TraceFailed(Record):
    """A request failed; ``error`` keeps its fields for the rules that act on it (nobody parses ``message``)."""

    message: str
    error: BaseException | None = None
    ticket: int | None = None


class ModelLoaded(Record):
    """A model of ``layers`` layers is loaded, before its first (full) trace ends."""

    layers: int


# ---------------------------------------------------------------------- lessons
class ApplyLessonStep(Record):
    step: LessonState


class OpenLesson(Record):
    lesson: Lesson
    step: int = 0
    start: LessonState | None = None  # None: the window as it is


class CloseLesson(Record):
    pass


class ReplaceLesson(Record):
    """The lesson was edited: show step ``index`` (default: the current one) without re-applying it."""

    lesson: Lesson
    index: int | None = None


class GoToLessonStep(Record):
    index: int


class NextLessonStep(Record):
    pass


class PreviousLessonStep(Record):
    pass


# ---------------------------------------------------------------------- the generation
class SetGeneration(Record):
    generation: Any
    step: int | None = None  # None: its last
    show: bool = True


class SetGenerationStep(Record):
    step: int


class ShowGeneration(Record):
    on: bool


class SetGenerationLive(Record):
    steps: tuple


# ---------------------------------------------------------------------- preferences (Colours, Text size, Language)
class SetPalette(Record):
    palette: str  # one of vocab.PALETTES
    remember: bool = True  # kept in the settings for the next start (a screenshot's window keeps nothing)


class SetTextSize(Record):
    scale: float  # 1.0 = 100 %; held to vocab.TEXT_SCALES' range
    remember: bool = True


class SetLanguage(Record):
    language: str  # one of vocab.LANGUAGES
    remember: bool = True
