"""The window's generation: the latest finished Generation, the step shown, and whether the centre shows it.

The Generate panel's job hands its result here (``set_generation``); the panel's slider, presentation mode's
arrow keys and the centre's Generation button change the step or the showing here; every view that draws the
generation (the panel, the centre's generation map, presentation mode) follows the signals. Views never call
each other: this is the one place a generation lives, next to the trace in AppState.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class GenerationState(QObject):
    changed = Signal(object)  # Generation (or None): a new generation
    stepChanged = Signal(int)  # the step shown, 0-based
    shownChanged = Signal(bool)  # whether the centre (and presentation mode) shows the generation
    liveChanged = Signal(tuple)  # the steps chosen so far while a generation runs (() when none runs)

    def __init__(self, state) -> None:
        super().__init__(state)
        self.generation = None
        self.step = 0
        self.shown = False
        self.live: tuple = ()
        self._stage = state.selection.stage
        # Choosing a stage (stage list, flow diagram, the arrow keys) brings the centre back to the stages;
        # editing the text or the model makes the generation belong to another prompt.
        state.selectionChanged.connect(self._selected)
        state.requestChanged.connect(lambda _r: self.show(False))

    @property
    def active(self) -> bool:
        """A generation with at least one step is there to show."""
        return self.generation is not None and len(self.generation.steps) > 0

    @property
    def last(self) -> int:
        return len(self.generation.steps) - 1 if self.active else 0

    def set_generation(self, generation, step: int | None = None, show: bool = True) -> None:
        """A new generation (None: none), shown at ``step`` (default its last); ``show``: in the centre too."""
        self.generation = generation
        self.live = ()
        self.step = self.last if step is None else max(0, min(step, self.last))
        self.changed.emit(generation)  # listeners read the step too
        self.show(show and self.active)

    def set_step(self, step: int) -> None:
        step = max(0, min(step, self.last))
        if step != self.step:
            self.step = step
            self.stepChanged.emit(step)

    def show(self, on: bool) -> None:
        on = bool(on) and self.active
        if on != self.shown:
            self.shown = on
            self.shownChanged.emit(on)

    def set_live(self, steps: tuple) -> None:
        self.live = tuple(steps)
        self.liveChanged.emit(self.live)

    def _selected(self, selection) -> None:
        if selection.stage != self._stage:
            self._stage = selection.stage
            self.show(False)
