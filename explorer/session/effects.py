"""What a step of the Session asks of the world, in order: the one channel out of ``step``
(explorer/session/step.py). Two kinds of record: work for the window's jobs (``RunTrace``, ``CancelTrace``,
``ResolveModelPath``) and for its preference services (``ApplyPalette``, ``ApplyTextSize``, ``ApplyLanguage``),
and news for the views (one record per thing that changed, with what it changed to). The Qt bridge
(explorer/ui/bridge/state.py) carries out the first (as a signal the job runner or the services follow) and
emits a signal for each of the second.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explorer.config import ModelConfig
from explorer.interventions.spec import Interventions
from explorer.lessons import Lesson
from explorer.session.mask_growth import Matrix
from explorer.session.records import RunFolderShown
from explorer.session.request import Selection, TraceRequest
from explorer.trace import Trace


# ---------------------------------------------------------------------- work
@dataclass(frozen=True)
class RunTrace:
    """Compute ``request``; its results come back with ``ticket`` (an older ticket's result is dropped)."""

    ticket: int
    request: TraceRequest


@dataclass(frozen=True)
class CancelTrace:
    """Stop the job computing the RunTrace of ``ticket`` (a long model load the user cancelled)."""

    ticket: int


@dataclass(frozen=True)
class ResolveModelPath:
    """Find what ``asked`` opens (reads the file system) and hand back ModelPathResolved."""

    asked: str


@dataclass(frozen=True)
class ApplyPalette:
    """Draw every figure with ``palette`` from now on (and remember it, with ``remember``)."""

    palette: str
    remember: bool


@dataclass(frozen=True)
class ApplyTextSize:
    """Scale every text of the window and its figures to ``scale`` × its size at 100 %."""

    scale: float
    remember: bool


@dataclass(frozen=True)
class ApplyLanguage:
    """Show the interface in ``language``."""

    language: str
    remember: bool


# ---------------------------------------------------------------------- news for the views
@dataclass(frozen=True)
class RequestReverted:
    request: TraceRequest  # back to the shown model, after a failed or cancelled load (or into a snapshot)


@dataclass(frozen=True)
class TraceShown:
    trace: Trace


@dataclass(frozen=True)
class SelectionChanged:
    selection: Selection


@dataclass(frozen=True)
class BusyChanged:
    busy: bool


@dataclass(frozen=True)
class NoticesChanged:
    notices: tuple[str, ...]


@dataclass(frozen=True)
class ErrorShown:
    message: str


@dataclass(frozen=True)
class ModelInfoChanged:
    config: ModelConfig
    editable_sizes: bool


@dataclass(frozen=True)
class LayerWanted:
    layer: int  # a layer the trace did not capture was picked: it is being traced


@dataclass(frozen=True)
class SnapshotChanged:
    origin: str | None  # the snapshot file now shown read-only; None: back to the live model


@dataclass(frozen=True)
class InterventionsChanged:
    interventions: Interventions


@dataclass(frozen=True)
class CaptureModeChanged:
    mode: str


@dataclass(frozen=True)
class MaskPainted:
    matrix: Matrix  # a painting adopted from a request (a session, a lesson)


@dataclass(frozen=True)
class ModelOpened:
    path: str  # a model the user opened now shows (it becomes a recent model)


@dataclass(frozen=True)
class RunFolderNoted:
    note: RunFolderShown


@dataclass(frozen=True)
class PanelWanted:
    panel: str  # a lesson step brings this panel to the front


@dataclass(frozen=True)
class LessonChanged:
    lesson: Lesson | None


@dataclass(frozen=True)
class LessonStepChanged:
    index: int


@dataclass(frozen=True)
class TrainingChanged:
    running: bool


@dataclass(frozen=True)
class GenerationChanged:
    generation: Any


@dataclass(frozen=True)
class GenerationStepChanged:
    step: int


@dataclass(frozen=True)
class GenerationShownChanged:
    shown: bool


@dataclass(frozen=True)
class GenerationLiveChanged:
    steps: tuple
