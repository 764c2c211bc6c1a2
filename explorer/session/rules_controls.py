"""The rules for what the controls ask: the text, the model and its sizes, the run options, interventions,
a model opened from a file, a snapshot left, the selection, the layers to capture and the painted mask.
Each takes the step in progress (explorer/session/turn.py) and the action."""

from __future__ import annotations

import dataclasses

import numpy as np

from explorer.config import MaskSpec
from explorer.interventions.spec import Interventions
from explorer.session import actions as a
from explorer.session import intervention_edits, mask_growth
from explorer.session.effects import (
    CaptureModeChanged,
    InterventionsChanged,
    LayerWanted,
    ResolveModelPath,
    SelectionChanged,
)
from explorer.session.request import ModelSource, Selection, preset_request
from explorer.session.selecting import clamped, selectable_layers
from explorer.session.turn import (
    Turn,
    change_options,
    change_source,
    leave_snapshot,
    revert,
    set_request,
    show_generation,
    submit,
)


def set_text(turn: Turn, action: a.SetText) -> None:
    set_request(turn, dataclasses.replace(turn.state.request, text=action.text))


def set_sizes(turn: Turn, action: a.SetSizes) -> None:
    sized = turn.state.source.with_sizes(**dict(action.sizes))
    change_source(turn, dataclasses.replace(sized, random_weights=True))


def set_preset(turn: Turn, action: a.SetPreset) -> None:
    set_request(turn, preset_request(turn.state.live_request, action.name, action.keep_text), leaves_snapshot=True)


def set_seed(turn: Turn, action: a.SetSeed) -> None:
    source = turn.state.source
    random_weights = action.seed is not None or source.random_weights
    change_source(turn, dataclasses.replace(source, seed=action.seed, random_weights=random_weights))


def set_random_weights(turn: Turn, action: a.SetRandomWeights) -> None:
    change_source(turn, dataclasses.replace(turn.state.source, random_weights=action.random_weights))


def set_source(turn: Turn, action: a.SetSource) -> None:
    change_source(turn, action.source)


def set_options(turn: Turn, action: a.SetOptions) -> None:
    change_options(turn, **dict(action.options))


def revert_request(turn: Turn, action: a.RevertRequest) -> None:
    revert(turn, action.request)


def retrace(turn: Turn, action: a.Retrace | None = None) -> None:
    if turn.state.snapshot is None:
        submit(turn, turn.state.request)


def change_interventions(turn: Turn, interventions: Interventions) -> None:
    if interventions == turn.state.interventions or turn.state.snapshot is not None:
        return
    set_request(turn, dataclasses.replace(turn.state.request, interventions=interventions))
    turn.say(InterventionsChanged(interventions))


def set_interventions(turn: Turn, action: a.SetInterventions) -> None:
    change_interventions(turn, action.interventions)


def return_to_live(turn: Turn, action: a.ReturnToLive) -> None:
    """Leave the snapshot: the live model (as it was before the snapshot was opened) is traced again."""
    if leave_snapshot(turn):
        submit(turn, turn.state.request)


# ---------------------------------------------------------------------- models
def open_model(turn: Turn, action: a.OpenModel) -> None:
    """What the path stands for is found outside (it reads the file system); ModelPathResolved goes on."""
    turn.say(ResolveModelPath(action.path_or_name))


def model_path_resolved(turn: Turn, action: a.ModelPathResolved) -> None:
    turn.set(opening=dataclasses.replace(turn.state.opening, opening=action.opened, note=action.note))
    source = ModelSource("path", action.opened)
    set_request(turn, dataclasses.replace(turn.state.live_request, source=source), leaves_snapshot=True)


def publish_model(turn: Turn, action: a.PublishModel) -> None:
    """A model built outside the trace queue is offered under ``source``; with ``show``, trace it (and
    ``text``, when given) in one request."""
    if not action.show:
        return
    leave_snapshot(turn)
    state = turn.state
    text = state.text if action.text is None else action.text
    request = dataclasses.replace(state.request, source=action.source, text=text)
    if request == state.request:
        retrace(turn)  # same name, new weights
    else:
        set_request(turn, request)


# ---------------------------------------------------------------------- selection and capture
def set_selection(turn: Turn, new: Selection) -> None:
    old = turn.state.selection
    if new == old:
        return
    turn.set(selection=new)
    if new.stage != old.stage:
        show_generation(turn, False)  # choosing a stage brings the centre back to the stages
    turn.say(SelectionChanged(new))


def select_changes(turn: Turn, **changes) -> None:
    """Change what is selected: stage, layer, head, row, token (query), key. Clamped to the trace; a layer the
    trace did not capture is traced, and selected once it is there."""
    trace, layer = turn.state.trace, changes.get("layer")
    if trace is not None and layer is not None and layer not in trace.layers and layer in selectable_layers(trace):
        turn.say(LayerWanted(layer))
        capture, layers = turn.state.capture.want(layer)
        turn.set(capture=capture)
        capture_layers(turn, layers)
    new = dataclasses.replace(turn.state.selection, **changes)
    set_selection(turn, new if trace is None else clamped(new, trace))


def select(turn: Turn, action: a.Select) -> None:
    select_changes(turn, **dict(action.changes))


def set_capture_mode(turn: Turn, action: a.SetCaptureMode) -> None:
    turn.set(capture=turn.state.capture.with_mode(action.mode, action.layers))
    turn.say(CaptureModeChanged(action.mode))
    trace = turn.state.trace
    if trace is None or trace.read_only:
        return
    layer = turn.state.selection.layer
    capture_layers(turn, turn.state.capture.wanted_capture(trace.config.layers, trace.B * trace.C, layer))


def capture_layers(turn: Turn, capture: tuple[int, ...] | None) -> None:
    if turn.state.options.layers_to_capture != capture:
        change_options(turn, layers_to_capture=capture)


# ---------------------------------------------------------------------- the painted mask
def paint(turn: Turn, action: a.Paint) -> None:
    """Trace with the painted ``matrix``, or start over from ``start`` ("causal", "all_allowed",
    "all_blocked"), or (neither) with the painting as it is, grown to the text."""
    trace = turn.state.trace
    C = trace.C if trace is not None else 1
    if action.start is not None:
        painted = mask_growth.started(action.start, C)
    elif action.matrix is not None:
        painted = action.matrix
    else:
        painted = turn.state.painted
    covered = mask_growth.covering(painted, C)
    turn.set(painted=covered)
    change_options(turn, mask=MaskSpec.explicit(covered))


def cover_painting(turn: Turn, action: a.CoverPainting) -> None:
    trace = turn.state.trace
    turn.set(painted=mask_growth.covering(turn.state.painted, trace.C if trace is not None else 1))


def grow_painting(turn: Turn, tokens: int) -> None:
    """The text has (or will have) ``tokens`` tokens: extend the painting causally and send it again."""
    painted = turn.state.painted
    bigger = mask_growth.grown(None if painted is None else np.array(painted, dtype=bool), tokens)
    if bigger is not None:
        paint(turn, a.Paint(mask_growth.as_matrix(bigger)))


def set_focus(turn: Turn, action: a.SetFocus) -> None:
    """Focus is a moment, not a request: nothing is computed, and the window that hides the panels says so."""
    turn.set(focus=action.on)


def add_intervention(turn: Turn, action: a.AddIntervention) -> None:
    change_interventions(turn, intervention_edits.added(turn.state.interventions, action.item, action.patch_from))


def remove_intervention(turn: Turn, action: a.RemoveIntervention) -> None:
    change_interventions(turn, intervention_edits.removed(turn.state.interventions, action.item))
