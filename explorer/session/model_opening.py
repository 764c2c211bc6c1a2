"""Following a model being opened (File → Open model, the named and recent models): which request's trace
is on screen, what the user opened (it becomes a recent model once it shows), and the rule that a model which
fails to load, or whose load is cancelled, is gone back from, so that the next sentence typed is traced by
the model still shown, not by the file that could not be opened.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from explorer.session.request import ModelSource, TraceRequest


@dataclass(frozen=True)
class RunFolderShown:
    """A run folder stood for its newest checkpoint: ``run`` (the folder's name) showed ``step`` (the
    checkpoint folder's name). The window says so in the status bar, the CLI in a note: line."""

    checkpoint: str  # the path opened instead
    run: str
    step: str


class ModelOpening:
    def __init__(self) -> None:
        self.shown: TraceRequest | None = None  # the request whose (live) trace is on screen
        self.opening: str | None = None  # what the user opened, until it shows
        self.note: RunFolderShown | None = None

    def open(self, asked: str, opened: str) -> None:
        """The user asked for ``asked``; ``opened`` is what is traced for it (a run folder's checkpoint)."""
        from explorer.train.runs import checkpoint_step_of

        self.opening = opened
        self.note = None
        if Path(opened).parent == Path(asked) and checkpoint_step_of(opened) is not None:
            self.note = RunFolderShown(opened, Path(asked).name, Path(opened).name)

    def is_model_change(self, source: ModelSource) -> bool:
        """Does the request ask for another model than the one on screen?"""
        return self.shown is not None and source != self.shown.source

    def loading(self, source: ModelSource) -> bool:
        """While busy: is it a model (not just a trace) that is being loaded?"""
        return self.shown is None or self.is_model_change(source)

    def on_trace(self, request: TraceRequest) -> tuple[str | None, RunFolderShown | None]:
        """A live trace of ``request`` is shown: (the model opened that now shows, or None; the run-folder
        note to say now, or None)."""
        note = None
        if self.note is not None and request.source.name == self.note.checkpoint:
            note, self.note = self.note, None
        self.shown = request
        opened = None
        if self.opening is not None and request.source.name == self.opening:
            opened, self.opening = self.opening, None
        return opened, note

    def back_to_shown(self, request: TraceRequest) -> ModelSource | None:
        """The source to go back to (the shown model's), or None when ``request`` asks for the shown model."""
        if not self.is_model_change(request.source):
            return None
        self.opening = None
        return self.shown.source  # type: ignore[union-attr]
