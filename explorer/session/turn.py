"""One step of the Session in progress (``Turn``), and the rules about the request every other rule builds on:
what to compute, a snapshot shown read-only in its place, and going back to the model shown.

A Turn lives only inside ``step`` (explorer/session/step.py): it starts from the given state, which it never
changes, collects the new state and the effects in order, and at its end asks for at most one trace (the
request as it stands then, with the next ticket), however many rules changed the request on the way.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from explorer.session import mask_growth
from explorer.session.effects import (
    GenerationShownChanged,
    MaskPainted,
    RequestReverted,
    RunTrace,
    SnapshotChanged,
)
from explorer.session.records import SessionState
from explorer.session.request import ModelSource, TraceRequest
from explorer.trace import Trace


class Turn:
    def __init__(self, state: SessionState) -> None:
        self.state = state
        self.effects: list = []
        self.submitted = False  # the request is to be computed (once, at the end)

    def set(self, **changes: Any) -> None:
        self.state = dataclasses.replace(self.state, **changes)

    def say(self, effect: object) -> None:
        self.effects.append(effect)

    def finish(self) -> tuple[SessionState, tuple]:
        if self.submitted:
            self.set(ticket=self.state.ticket + 1)
            self.say(RunTrace(self.state.ticket, self.state.request))
        return self.state, tuple(self.effects)


def submit(turn: Turn, request: TraceRequest) -> None:
    """``request`` is to be computed: a painting it brings is adopted, and the generation shown (which belongs
    to the old request) is hidden."""
    turn.set(request=request)
    painted = mask_growth.adopted(turn.state.painted, request.options.mask)
    if painted is not None:
        turn.set(painted=painted)
        turn.say(MaskPainted(painted))
    show_generation(turn, False)
    turn.submitted = True


def set_request(turn: Turn, request: TraceRequest, leaves_snapshot: bool = False) -> None:
    """Controls that would re-trace are disabled while a snapshot is shown, and an edit that still arrives (a
    script, a shortcut) is ignored. Choosing a model (a preset, File → Open model, a trained checkpoint)
    leaves the snapshot on purpose."""
    if turn.state.snapshot is not None:
        if not leaves_snapshot:
            return
        leave_snapshot(turn)
    if request == turn.state.request and not turn.state.read_only:
        return
    submit(turn, request)


def change_options(turn: Turn, **changes: Any) -> None:
    request = turn.state.request
    set_request(turn, dataclasses.replace(request, options=request.options.replace(**changes)))


def change_source(turn: Turn, source: ModelSource) -> None:
    set_request(turn, dataclasses.replace(turn.state.request, source=source))


def revert(turn: Turn, request: TraceRequest) -> None:
    """The latest request could not be served (a model failed to load, or its load was cancelled): go back to
    ``request``, whose trace is shown, without computing anything."""
    turn.set(request=request)
    turn.say(RequestReverted(request))


def back_to_shown(turn: Turn) -> None:
    """Back to the shown model, keeping what else changed meanwhile (the text, the options)."""
    opening, request = turn.state.opening, turn.state.request
    if not opening.is_model_change(request.source):
        return
    turn.set(opening=dataclasses.replace(opening, opening=None))
    revert(turn, dataclasses.replace(request, source=opening.shown.source))  # type: ignore[union-attr]


def leave_snapshot(turn: Turn) -> bool:
    state = turn.state
    if state.snapshot is None:
        return False
    turn.set(request=state.live or state.request, snapshot=None, live=None)
    turn.say(SnapshotChanged(None))
    return True


def enter_snapshot(turn: Turn, trace: Trace) -> None:
    """The request becomes the snapshot's (its model's name, its text and options), so that every control shows
    what the snapshot holds; the live request is kept to return to. Nothing is computed."""
    if turn.state.live is None:
        turn.set(live=turn.state.request)
    turn.set(snapshot=trace.origin)
    name = trace.model_name or trace.source or trace.origin
    text = "\n".join(r.text for r in trace.rows)
    revert(turn, TraceRequest(ModelSource("snapshot", str(name)), text, trace.options))


def show_generation(turn: Turn, on: bool) -> None:
    generation = turn.state.generation
    on = bool(on) and generation.active
    if on != generation.shown:
        turn.set(generation=dataclasses.replace(generation, shown=on))
        turn.say(GenerationShownChanged(on))
