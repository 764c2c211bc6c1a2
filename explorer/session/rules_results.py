"""The rules for what the job runner hands back: a trace (computed, or a snapshot opened read-only), an error,
a model loaded, busy or not. A live trace leads on: a model opened now shows, a layer or a lesson step's
selection waiting for this trace is selected, the painted mask grows before the text outgrows it, the layers
to capture follow the selection. (``step`` has already dropped a result whose ticket is not the latest.)"""

from __future__ import annotations

import dataclasses

from explorer import vocab
from explorer.config import MaskSpec
from explorer.present.before_after import stored_baseline
from explorer.session import actions as a
from explorer.session import mask_growth
from explorer.session.effects import (
    BusyChanged,
    CancelTrace,
    ErrorShown,
    ModelInfoChanged,
    ModelOpened,
    NoticesChanged,
    RunFolderNoted,
    SnapshotChanged,
    TraceShown,
    TrainingChanged,
)
from explorer.session.rules_controls import capture_layers, grow_painting, select_changes, set_selection
from explorer.session.selecting import clamped
from explorer.session.turn import Turn, back_to_shown, change_options, enter_snapshot
from explorer.trace import Trace


def set_busy(turn: Turn, action: a.SetBusy) -> None:
    if action.busy != turn.state.busy:
        turn.set(busy=action.busy)
        turn.say(BusyChanged(action.busy))


def set_training(turn: Turn, action: a.SetTraining) -> None:
    if action.running != turn.state.training:
        turn.set(training=action.running)
        turn.say(TrainingChanged(action.running))


def baseline_finished(turn: Turn, action: a.BaselineFinished) -> None:
    turn.set(baseline=action.baseline)


def trace_finished(turn: Turn, action: a.TraceFinished) -> None:
    """A new trace to show (computed, or a snapshot opened read-only)."""
    trace, state = action.trace, turn.state
    entering = trace.read_only and trace.origin != state.snapshot
    if not trace.read_only and state.snapshot is not None:
        return  # a live trace that finished after the snapshot was opened: the snapshot stays
    if entering:
        enter_snapshot(turn, trace)
    editable = action.editable_sizes and not trace.read_only
    config_changed = entering or state.config != trace.config or state.editable_sizes != action.editable_sizes
    baseline = state.baseline
    if trace.read_only:
        baseline = stored_baseline(trace)  # a snapshot compares with the baseline.* it stores
    elif not trace.interventions:
        baseline = None  # a plain trace: nothing to compare with
    turn.set(trace=trace, config=trace.config, editable_sizes=editable, baseline=baseline)
    if config_changed:
        turn.say(ModelInfoChanged(trace.config, editable))
    turn.say(TraceShown(trace))
    # Every view redraws on TraceShown with the current selection: a second effect for a selection that did
    # not change would make each of them draw twice per edit.
    set_selection(turn, clamped(state.selection, trace))
    if trace.notices != state.notices:
        turn.set(notices=trace.notices)
        turn.say(NoticesChanged(trace.notices))
    if entering:
        turn.say(SnapshotChanged(trace.origin))
    if not trace.read_only:
        _after_live_trace(turn, trace)


def _after_live_trace(turn: Turn, trace: Trace) -> None:
    _follow_opening(turn, trace)
    wanted = turn.state.capture.wanted
    if wanted is not None and wanted in trace.layers:
        turn.set(capture=dataclasses.replace(turn.state.capture, wanted=None))
        select_changes(turn, layer=wanted)
    pending = turn.state.pending
    if pending is not None:
        turn.set(pending=None)
        select_changes(turn, **dict(pending))
    if trace.options.mask.kind == "explicit":
        needed = mask_growth.tokens_after_trace(len(trace.options.mask.matrix), trace.C)
        if needed is not None:  # about to run out: make room before the next token
            grow_painting(turn, needed)
    capture = turn.state.capture
    if capture.wanted is None:  # else the trace that holds the picked layer is on its way
        layer = turn.state.selection.layer
        capture_layers(turn, capture.wanted_capture(trace.config.layers, trace.B * trace.C, layer))


def _follow_opening(turn: Turn, trace: Trace) -> None:
    """The live trace of the request is on screen: a model the user opened now shows (it becomes a recent
    model, and starts with its own mask), and a run folder's note is said once."""
    opening, request = turn.state.opening, turn.state.request
    note = opening.note if opening.note is not None and request.source.name == opening.note.checkpoint else None
    opened = opening.opening if opening.opening is not None and request.source.name == opening.opening else None
    turn.set(
        opening=dataclasses.replace(
            opening,
            shown=request,
            note=None if note is not None else opening.note,
            opening=None if opened is not None else opening.opening,
        )
    )
    if note is not None:
        turn.say(RunFolderNoted(note))
    if opened is not None:
        turn.say(ModelOpened(opened))
        _own_mask(turn, trace)


def _own_mask(turn: Turn, trace: Trace) -> None:
    """A newly opened model starts with its own mask: none for an encoder (BERT), causal for a decoder; a mask
    the user chose otherwise (a window, a prefix, a painted one) stays."""
    own = "none" if trace.config.bidirectional else "causal"
    kind = turn.state.options.mask.kind
    if kind in vocab.OWN_MASKS and kind != own:
        change_options(turn, mask=MaskSpec(own))


def trace_failed(turn: Turn, action: a.TraceFailed) -> None:
    """A request failed. The error (when the core raised one) keeps its fields for the rules that act on it
    (a painted mask the text outgrew grows): nobody parses the message."""
    turn.set(error=action.error)
    turn.say(ErrorShown(action.message))
    turn.set(capture=dataclasses.replace(turn.state.capture, wanted=None), pending=None)
    needed = mask_growth.tokens_after_error(action.error)
    if needed is not None and turn.state.options.mask.kind == "explicit":
        grow_painting(turn, needed)  # a paste made the text longer than the painting: extend it
    # Only a model that could not be opened is gone back from; sizes that cannot work stay as typed.
    if turn.state.source.kind == "path":
        back_to_shown(turn)


def model_loaded(turn: Turn, action: a.ModelLoaded) -> None:
    """A deep model, known once loaded, switches to capturing the selected layer now, which cancels its first
    (full) trace instead of waiting for every layer."""
    state = turn.state
    capture = state.capture.on_model(action.layers, state.options.layers_to_capture, state.selection.layer)
    if capture is not False:
        capture_layers(turn, capture)


def cancel_load(turn: Turn, action: a.CancelLoad) -> None:
    """The user stopped the load in progress: stop its job, and keep showing the model shown before."""
    turn.say(CancelTrace(turn.state.ticket))
    back_to_shown(turn)
