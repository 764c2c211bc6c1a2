"""The window's generation, as signals: a thin QObject over the Session's GenerationPosition
(explorer/session/generation_position.py), which holds the latest finished Generation, the step shown,
whether the centre shows it, and the steps chosen while one runs, with the rules that move them.

The Generate panel hands its result here (``set_generation``); the panel's slider, presentation mode's arrow
keys and the centre's Generation button change the step or the showing here; every view that draws the
generation (the panel, the centre's generation map, presentation mode) follows the signals. Views never call
each other: this is the one place a generation lives, next to the trace in AppState.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal


class GenerationState(QObject):
    changed = Signal(object)  # Generation (or None): a new generation
    stepChanged = Signal(int)  # the step shown, 0-based
    shownChanged = Signal(bool)  # whether the centre (and presentation mode) shows the generation
    liveChanged = Signal(tuple)  # the steps chosen so far while a generation runs (() when none runs)

    def __init__(self, state) -> None:
        super().__init__(state)
        self._state = state
        self._position = state.session.generation

    generation = property(lambda self: self._position.generation)
    step = property(lambda self: self._position.step)
    shown = property(lambda self: self._position.shown)
    live = property(lambda self: self._position.live)
    active = property(lambda self: self._position.active, doc="A generation with at least one step is there to show.")
    last = property(lambda self: self._position.last)

    def _call(self, name: str, *args: Any, **kwargs: Any) -> None:
        getattr(self._position, name)(*args, **kwargs)
        self._state.emit_changes()

    def set_generation(self, generation, step: int | None = None, show: bool = True) -> None:
        """A new generation (None: none), shown at ``step`` (default its last); ``show``: in the centre too."""
        self._call("set_generation", generation, step, show)

    def set_step(self, step: int) -> None:
        self._call("set_step", step)

    def show(self, on: bool) -> None:
        self._call("show", on)

    def set_live(self, steps: tuple) -> None:
        self._call("set_live", steps)
