"""The one function that moves the Session: ``step(state, action) -> (state, effects)``.

``state`` is a SessionState (explorer/session/records.py), ``action`` one of explorer/session/actions.py,
``effects`` the tuple of explorer/session/effects.py records the world should carry out or hear, in order.
It reads no file and keeps nothing between calls: the same state and action give the same answer, so a
recorded list of actions replays exactly. Stale results are dropped here, by one rule: a result whose
ticket is not the ticket of the latest RunTrace is ignored.
"""

from __future__ import annotations

from collections.abc import Callable

from explorer.config import RunOptions
from explorer.session import actions as a
from explorer.session import mask_growth
from explorer.session import rules_controls as controls
from explorer.session import rules_lessons as lessons
from explorer.session import rules_preferences as preferences
from explorer.session import rules_results as results
from explorer.session.records import Preferences, SessionState
from explorer.session.request import ModelSource, first_request
from explorer.session.turn import Turn

Action = object
Effects = tuple


def initial_state(
    text: str | None = None,
    source: ModelSource | None = None,
    options: RunOptions | None = None,
    preferences: Preferences | None = None,
) -> SessionState:
    """What the window starts with: the default preset and its example sentence, unless told otherwise, and
    the palette, text size and language already applied at start-up (the defaults unless told)."""
    request = first_request(text, source, options)
    painted = mask_growth.adopted(None, request.options.mask)  # a restored painting
    return SessionState(request, painted=painted, preferences=preferences or Preferences())


def step(state: SessionState, action: Action) -> tuple[SessionState, Effects]:
    if isinstance(action, a.BaselineFinished | a.TraceFinished | a.TraceFailed) and is_stale(state, action.ticket):
        return state, ()
    turn = Turn(state)
    RULES[type(action)](turn, action)
    return turn.finish()


def is_stale(state: SessionState, ticket: int | None) -> bool:
    """The one stale-result rule: a result asked for by an older RunTrace than the latest is not shown. A
    result without a ticket (a snapshot opened, an error said by the window) is always taken."""
    return ticket is not None and ticket != state.ticket


# Each action's rule. A rule changes the Turn (the state so far and the effects said so far).
RULES: dict[type, Callable[[Turn, object], None]] = {
    a.SetText: controls.set_text,
    a.SetSource: controls.set_source,
    a.SetSizes: controls.set_sizes,
    a.SetPreset: controls.set_preset,
    a.SetSeed: controls.set_seed,
    a.SetRandomWeights: controls.set_random_weights,
    a.SetOptions: controls.set_options,
    a.Retrace: controls.retrace,
    a.RevertRequest: controls.revert_request,
    a.SetInterventions: controls.set_interventions,
    a.AddIntervention: controls.add_intervention,
    a.RemoveIntervention: controls.remove_intervention,
    a.ReturnToLive: controls.return_to_live,
    a.OpenModel: controls.open_model,
    a.ModelPathResolved: controls.model_path_resolved,
    a.CancelLoad: results.cancel_load,
    a.PublishModel: controls.publish_model,
    a.Select: controls.select,
    a.SetCaptureMode: controls.set_capture_mode,
    a.Paint: controls.paint,
    a.CoverPainting: controls.cover_painting,
    a.SetBusy: results.set_busy,
    a.SetTraining: results.set_training,
    a.SetFocus: controls.set_focus,
    a.BaselineFinished: results.baseline_finished,
    a.TraceFinished: results.trace_finished,
    a.TraceFailed: results.trace_failed,
    a.ModelLoaded: results.model_loaded,
    a.ApplyLessonStep: lessons.apply_lesson_step,
    a.OpenLesson: lessons.open_lesson,
    a.CloseLesson: lessons.close_lesson,
    a.ReplaceLesson: lessons.replace_lesson,
    a.GoToLessonStep: lessons.go_to_step,
    a.NextLessonStep: lessons.next_step,
    a.PreviousLessonStep: lessons.previous_step,
    a.SetGeneration: lessons.set_generation,
    a.SetGenerationStep: lessons.set_generation_step,
    a.ShowGeneration: lessons.set_generation_shown,
    a.SetGenerationLive: lessons.set_generation_live,
    a.SetPalette: preferences.set_palette,
    a.SetTextSize: preferences.set_text_size,
    a.SetLanguage: preferences.set_language,
}
