"""The window's generation: the latest finished Generation, the step shown, whether the centre shows it, and
the steps chosen so far while one runs. Plain Python held by the Session; the window's GenerationState
(explorer/ui/generation_state.py) re-emits what changes.

The Generate panel hands its result here; its slider, presentation mode's arrow keys and the centre's
Generation button change the step or the showing here. Choosing another stage, or editing the text or the
model (a new request), hides it: the generation belongs to another prompt then.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class GenerationPosition:
    def __init__(self, emit: Callable[..., None]) -> None:
        self._emit = emit  # the Session's event list: ("generation", g), ("generation_step", t), …
        self.generation: Any = None
        self.step = 0
        self.shown = False
        self.live: tuple = ()

    @property
    def active(self) -> bool:
        """A generation with at least one step is there to show."""
        return self.generation is not None and len(self.generation.steps) > 0

    @property
    def last(self) -> int:
        return len(self.generation.steps) - 1 if self.active else 0

    def set_generation(self, generation: Any, step: int | None = None, show: bool = True) -> None:
        """A new generation (None: none), shown at ``step`` (default its last); ``show``: in the centre too."""
        self.generation = generation
        self.live = ()
        self.step = self.last if step is None else max(0, min(step, self.last))
        self._emit("generation", generation)  # listeners read the step too
        self.show(show and self.active)

    def set_step(self, step: int) -> None:
        step = max(0, min(step, self.last))
        if step != self.step:
            self.step = step
            self._emit("generation_step", step)

    def show(self, on: bool) -> None:
        on = bool(on) and self.active
        if on != self.shown:
            self.shown = on
            self._emit("generation_shown", on)

    def set_live(self, steps: tuple) -> None:
        self.live = tuple(steps)
        self._emit("generation_live", self.live)
