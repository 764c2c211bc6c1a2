"""The window's generation, as signals: the part of the Qt bridge (explorer/ui/bridge/state.py) for the Session's
GenerationView (explorer/session/records.py): the latest finished Generation, the step shown, whether the
centre shows it, and the steps chosen while one runs. The rules that move them are
explorer/session/rules_lessons.py.

The Generate panel hands its result here (``set_generation``); the panel's slider, presentation mode's arrow
keys and the centre's Generation button change the step or the showing here; every view that draws the
generation (the panel, the centre's generation map, presentation mode) follows the signals. Views never call
each other: this is the one place a generation lives, next to the trace in AppState.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from explorer.session import actions as a
from explorer.session import effects as e


class GenerationState(QObject):
    changed = Signal(object)  # Generation (or None): a new generation
    stepChanged = Signal(int)  # the step shown, 0-based
    shownChanged = Signal(bool)  # whether the centre (and presentation mode) shows the generation
    liveChanged = Signal(tuple)  # the steps chosen so far while a generation runs (() when none runs)

    def __init__(self, state) -> None:
        super().__init__(state)
        self._state = state

    @property
    def generation(self):
        return self._state.session.generation.generation

    @property
    def step(self) -> int:
        return self._state.session.generation.step

    @property
    def shown(self) -> bool:
        return self._state.session.generation.shown

    @property
    def live(self) -> tuple:
        return self._state.session.generation.live

    @property
    def active(self) -> bool:
        """A generation with at least one step is there to show."""
        return self._state.session.generation.active

    @property
    def last(self) -> int:
        return self._state.session.generation.last

    def set_generation(self, generation, step: int | None = None, show: bool = True) -> None:
        """A new generation (None: none), shown at ``step`` (default its last); ``show``: in the centre too."""
        self._state.dispatch(a.SetGeneration(generation, step, show))

    def set_step(self, step: int) -> None:
        self._state.dispatch(a.SetGenerationStep(step))

    def show(self, on: bool) -> None:
        self._state.dispatch(a.ShowGeneration(on))

    def set_live(self, steps: tuple) -> None:
        self._state.dispatch(a.SetGenerationLive(tuple(steps)))

    def carry_out(self, effect: object) -> None:
        """The generation's effects, as this object's signals (the bridge hands them here)."""
        match effect:
            case e.GenerationChanged():
                self.changed.emit(effect.generation)
            case e.GenerationStepChanged():
                self.stepChanged.emit(effect.step)
            case e.GenerationShownChanged():
                self.shownChanged.emit(effect.shown)
            case e.GenerationLiveChanged():
                self.liveChanged.emit(effect.steps)
