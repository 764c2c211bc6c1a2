"""What a step of the Session asks of the world, in order: the one channel out of ``step``
(explorer/session/step.py). Two kinds of record: work for the window's jobs (``RunTrace``, ``CancelTrace``,
``ResolveModelPath``) and for its preference services (``ApplyPalette``, ``ApplyTextSize``, ``ApplyLanguage``),
and news for the views (one record per thing that changed, with what it changed to). The Qt bridge
(explorer/ui/bridge/state.py) carries out the first (as a signal the job runner or the services follow) and
emits a signal for each of the second.
"""

from __future__ import annotations

from typing import Any

from explorer.config import ModelConfig
from explorer.interventions.spec import Interventions
from explorer.lessons import Lesson
from explorer.session.mask_growth import Matrix
from explorer.session.record import Record
from explorer.session.records import RunFolderShown
from explorer.session.request import Selection, TraceRequest
from explorer.trace import Trace


# ---------------------------------------------------------------------- work
class RunTrace(Record):
    """Compute ``request``; its results come back with ``ticket`` (an older ticket's result is dropped)."""

    ticket: int
    request: TraceRequest


class CancelTrace(Record):
    """Stop the job computing the RunTrace of ``ticket`` (a long model load the user cancelled)."""

    ticket: int


class ResolveModelPath(Record):
    """Find what ``asked`` opens (reads the file system) and hand back ModelPathResolved."""

    asked: str


class ApplyPalette(Record):
    """Draw every figure with ``palette`` from now on (and remember it, with ``remember``)."""

    palette: str
    remember: bool


class ApplyTextSize(Record):
    """Scale every text of the window and its figures to ``scale`` × its size at 100 %."""

    scale: float
    remember: bool


class ApplyLanguage(Record):
    """Show the interface in ``language``."""

    language: str
    remember: bool


# ---------------------------------------------------------------------- news for the views
class RequestReverted(Record):
    request: TraceRequest  # back to the shown model, after a failed or cancelled load (or into a snapshot)


class TraceShown(Record):
    trace: Trace


class SelectionChanged(Record):
    selection: Selection


class BusyChanged(Record):
    busy: bool


class NoticesChanged(Record):
    notices: tuple[str, ...]


class ErrorShown(Record):
    message: str


class ModelInfoChanged(Record):
    config: ModelConfig
    editable_sizes: bool


class LayerWanted(Record):
    layer: int  # a layer the trace did not capture was picked: it is being traced


class SnapshotChanged(Record):
    origin: str | None  # the snapshot file now shown read-only; None: back to the live model


class InterventionsChanged(Record):
    interventions: Interventions


class CaptureModeChanged(Record):
    mode: str


class MaskPainted(Record):
    matrix: Matrix  # a painting adopted from a request (a session, a lesson)


class ModelOpened(Record):
    path: str  # a model the user opened now shows (it becomes a recent model)


class RunFolderNoted(Record):
    note: RunFolderShown


class PanelWanted(Record):
    panel: str  # a lesson step brings this panel to the front


class LessonChanged(Record):
    lesson: Lesson | None


class LessonStepChanged(Record):
    index: int


class TrainingChanged(Record):
    running: bool


class GenerationChanged(Record):
    generation: Any


class GenerationStepChanged(Record):
    step: int


class GenerationShownChanged(Record):
    shown: bool


class GenerationLiveChanged(Record):
    steps: tuple
